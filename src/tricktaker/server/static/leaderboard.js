// The leaderboard (/leaderboard?game=..&players=..): Glicko-2 ratings per game and table size.
import { t, has, applyStatic, mountLangSelect, onLangChange } from "./i18n.js";
import { botLabel, loadPlayer, $ } from "./common.js";

const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
let games = [];
let data = null;

function renderSizes() {
  const game = games.find((g) => g.name === $("game").value) || games[0];
  const keep = $("size").value;
  $("size").replaceChildren(...game.players.map((n) => new Option(t("playersN", { n }), String(n))));
  if (game.players.map(String).includes(keep)) $("size").value = keep;
}

function render() {
  applyStatic();
  for (const option of $("size").options) option.textContent = t("playersN", { n: option.value });
  if (!data) return;
  const me = loadPlayer();
  const rows = data.ratings || [];
  $("board").innerHTML = rows.length ? `<table class="grid-table"><thead><tr><th class="num">${esc(t("rank"))}</th>` +
    `<th>${esc(t("player"))}</th><th class="num">${esc(t("rating"))}</th><th class="num">${esc(t("ratingRd"))}</th>` +
    `<th class="num">${esc(t("matches"))}</th></tr></thead><tbody>` +
    rows.map((r) => `<tr data-testid="board-row" data-player="${esc(r.player)}"${me && me.id === r.player ? ' class="me"' : ""}>` +
      `<td class="num">${r.rank}</td><td><a href="/p/${encodeURIComponent(r.player)}">${esc(r.nickname)}</a></td>` +
      `<td class="num" data-testid="board-rating">${Math.round(r.rating)}</td><td class="num">${Math.round(r.rd)}</td>` +
      `<td class="num">${r.matches}</td></tr>`).join("") + "</tbody></table>"
    : `<p class="muted">${esc(t("noLeaderboard"))}</p>`;
  const bots = Object.entries(data.bots || {}).map(([name, r]) => `${botLabel(name)} ${Math.round(r.rating)}`);
  $("bot-ratings").textContent = bots.length ? t("botRatings", { list: bots.join(", ") }) : "";
}

async function load() {
  const params = new URLSearchParams({ game: $("game").value, players: $("size").value });
  history.replaceState(null, "", `/leaderboard?${params}`);
  $("board-error").textContent = "";
  const res = await fetch(`/api/leaderboard?${params}`);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    data = null;
    $("board").replaceChildren();
    $("board-error").textContent = body.code && has(`err_${body.code}`) ? t(`err_${body.code}`) : body.error || res.statusText;
    return;
  }
  data = body;
  render();
}

async function main() {
  mountLangSelect($("lang"));
  onLangChange(render);
  applyStatic();
  const catalogue = await (await fetch("/api/games")).json();
  games = catalogue.games || [];
  $("game").replaceChildren(...games.map((g) => new Option(g.title, g.name)));
  const asked = new URLSearchParams(location.search);
  const game = asked.get("game") || localStorage.getItem("tricktaker:lastGame");
  if (game && games.some((g) => g.name === game)) $("game").value = game;
  renderSizes();
  if (asked.get("players")) $("size").value = asked.get("players");
  $("game").addEventListener("change", () => { renderSizes(); load(); });
  $("size").addEventListener("change", load);
  await load();
}

main();
