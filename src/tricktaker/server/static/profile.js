// A player's profile (/p/{id}): nickname, ratings per game and table size, matches.
import { t, applyStatic, mountLangSelect, onLangChange, getLang } from "./i18n.js";
import { botLabel, $ } from "./common.js";

const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
const playerId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let data = null;
let titles = {};

const gameName = (name) => titles[name] || name;
const when = (seconds) => new Date(seconds * 1000).toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "short" });

function seatText(seat) {
  if (seat.kind === "bot") return esc(botLabel(String(seat.bot || "").split(":")[0]));
  if (seat.player) return `<a href="/p/${encodeURIComponent(seat.player)}">${esc(seat.nickname)}</a>`;
  return esc(t("guest"));
}

function resultText(match) {
  if (match.status !== "over") return t("resultPlaying");
  if (match.single_hand) return t("resultBoard"); // a duplicate board: its set's page ranks it
  if (match.result == null) return t("resultUnfinished");
  return t(match.result === 1 ? "resultWin" : match.result === 0 ? "resultLoss" : "resultDraw");
}

function render() {
  applyStatic();
  if (!data) return;
  document.title = `${data.nickname} · Tricktaker`;
  $("nickname").textContent = data.nickname;
  const ratings = data.ratings || [];
  $("ratings").innerHTML = ratings.length ? `<table class="grid-table"><thead><tr><th>${esc(t("game"))}</th>` +
    `<th class="num">${esc(t("rating"))}</th><th class="num">${esc(t("ratingRd"))}</th><th class="num">${esc(t("matches"))}</th></tr></thead><tbody>` +
    ratings.map((r) => `<tr data-testid="rating-row" data-game="${esc(r.game)}" data-players="${r.players}">` +
      `<td><a href="/leaderboard?game=${encodeURIComponent(r.game)}&players=${r.players}">${esc(t("gameAndSize", { game: gameName(r.game), n: r.players }))}</a></td>` +
      `<td class="num">${Math.round(r.rating)}</td><td class="num">${Math.round(r.rd)}</td><td class="num">${r.matches}</td></tr>`).join("") +
    "</tbody></table>" : `<p class="muted">${esc(t("noRatings"))}</p>`;
  const matches = data.matches || [];
  $("matches").innerHTML = matches.length ? `<table class="grid-table"><thead><tr><th>${esc(t("date"))}</th><th>${esc(t("game"))}</th>` +
    `<th>${esc(t("seats"))}</th><th>${esc(t("result"))}</th><th>${esc(t("rating"))}</th><th></th></tr></thead><tbody>` +
    matches.map((m) => `<tr data-testid="match-row" data-table="${esc(m.table)}">` +
      `<td>${esc(when(m.created))}</td><td>${esc(t("gameAndSize", { game: gameName(m.game), n: m.players }))}</td>` +
      `<td>${m.seats.map((s, i) => (i === m.seat ? `<b>${seatText(s)}</b>` : seatText(s))).join(", ")}</td>` +
      `<td data-testid="match-result">${esc(resultText(m))}</td>` +
      `<td>${m.rating_after != null ? esc(t("ratingChange", { from: Math.round(m.rating_before), to: Math.round(m.rating_after) })) : m.status === "over" ? esc(t("unrated")) : ""}</td>` +
      `<td><a href="/t/${encodeURIComponent(m.table)}">${esc(t("openTable"))}</a>` +
      (m.status === "over" ? ` · <a href="/api/tables/${encodeURIComponent(m.table)}/record">${esc(t("openRecord"))}</a>` : "") + "</td></tr>").join("") +
    "</tbody></table>" : `<p class="muted">${esc(t("noMatches"))}</p>`;
}

async function main() {
  mountLangSelect($("lang"));
  onLangChange(render);
  applyStatic();
  try {
    const games = await (await fetch("/api/games")).json();
    titles = Object.fromEntries((games.games || []).map((g) => [g.name, g.title]));
  } catch { /* names as they are */ }
  const res = await fetch(`/api/players/${encodeURIComponent(playerId)}`);
  if (!res.ok) {
    $("profile-error").textContent = t("noPlayer");
    return;
  }
  data = await res.json();
  render();
}

main();
