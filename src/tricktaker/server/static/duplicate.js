// Duplicate tournaments against bots: the sets (/duplicate) and one set (/duplicate/ID):
// entering, playing its boards (each a table page that leads back here) and the results.
import { t, has, applyStatic, mountLangSelect, onLangChange, loadCatalogueText, presetTitle } from "./i18n.js";
import { normaliseCatalogue, botLabel, loadPlayer, playerHeaders, $, el } from "./common.js";
import { parseCard, suitColour, suitIcon } from "./cards.js";


const setId = decodeURIComponent(location.pathname.split("/")[2] || "");
let catalogue = null;
let overview = null; // /api/duplicate
let results = null; // /api/duplicate/sets/ID

// The entrant's secret lives in this browser, per set: it opens their board tables.
const entryKey = (id) => `tricktaker:duplicate:${id}`;
const loadEntry = (id) => { try { return JSON.parse(localStorage.getItem(entryKey(id)) || "null"); } catch { return null; } };
const saveEntry = (id, entry) => { try { localStorage.setItem(entryKey(id), JSON.stringify(entry)); } catch { /* full */ } };

/** The server's refusal in the person's language (its English detail kept for a bad request). */
function told(data, fallback) {
  const text = data.code && has(`err_${data.code}`) ? t(`err_${data.code}`, data) : "";
  return text ? (data.code === "bad_request" && data.error ? `${text} (${data.error})` : text) : data.error || fallback;
}

async function call(path, body, headers = {}) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(told(data, res.statusText));
  return data;
}

function setLabel(s) {
  const kind = s.kind === "daily" ? t("dupDailyKind", { day: s.day }) : t("dupCustomKind");
  const preset = s.preset ? ` · ${presetTitle(s.preset)}` : "";
  return `${s.title}${preset} · ${t("playersN", { n: s.players })} · ${kind}`;
}

function setAbout(s) {
  return [t("dupBoardsN", { n: s.boards }), `${t("dupSeat")}: ${t("seatN", { n: s.seat })}`,
    `${t("dupBots")}: ${botLabel(s.bot)}`, t("dupEntrants", { n: s.entrants ?? 0 })].join(" · ");
}

// ---------------------------------------------------------------- the list of sets

function setRow(s) {
  return el("li", { className: "table-row", dataset: { testid: "set-row", set: s.id } },
    el("div", { className: "tr-main" }, el("strong", {}, setLabel(s)),
      el("div", { className: "muted small" }, setAbout(s))),
    el("a", { className: "button", href: s.link, dataset: { testid: "open-set" } }, t("dupOpen")));
}

function renderOverview() {
  if (!overview) return;
  $("daily-title").textContent = t("dupDaily", { day: overview.today });
  $("daily").replaceChildren(...overview.daily.map(setRow));
  $("recent").replaceChildren(...(overview.sets.length ? overview.sets.map(setRow)
    : [el("li", { className: "empty" }, t("dupNone"))]));
  const past = overview.past || [];
  $("past").replaceChildren(...(past.length ? past.map(setRow) : [el("li", { className: "empty" }, t("dupNone"))]));
  renderCreateForm();
}

function currentGame() { return catalogue?.games.find((g) => g.name === $("game").value); }

function renderCreateForm() {
  if (!catalogue || !overview) return;
  const keep = { game: $("game").value, size: $("size").value, preset: $("preset").value, seat: $("seat").value, bot: $("bot").value };
  $("game").replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  if (keep.game) $("game").value = keep.game;
  const game = currentGame();
  $("size").replaceChildren(...game.players.map((n) => new Option(t("playersN", { n }), String(n))));
  if (keep.size && game.players.includes(Number(keep.size))) $("size").value = keep.size;
  $("preset").replaceChildren(new Option(t("presetNone"), ""), ...game.presets.map((p) => new Option(presetTitle(p.name), p.name)));
  if (game.presets.some((p) => p.name === keep.preset)) $("preset").value = keep.preset;
  const players = Number($("size").value);
  $("seat").replaceChildren(...Array.from({ length: players }, (_, i) => new Option(t("seatN", { n: i }), String(i))));
  if (keep.seat && Number(keep.seat) < players) $("seat").value = keep.seat;
  $("bot").replaceChildren(...overview.bots.map((b) => new Option(botLabel(b), b)));
  if (keep.bot) $("bot").value = keep.bot;
  $("boards").max = String(overview.max_boards);
}

async function createSet(ev) {
  ev.preventDefault();
  const game = currentGame();
  const body = { game: game.name, preset: $("preset").value || null, boards: Number($("boards").value),
    seat: Number($("seat").value), bot: $("bot").value };
  if (game.players.length > 1) body.players = Number($("size").value);
  $("create-error").textContent = "";
  $("create").disabled = true;
  try {
    const made = await call("/api/duplicate/sets", body);
    location.href = made.link;
  } catch (err) {
    $("create-error").textContent = t("dupCreateFailed", { msg: err.message });
    $("create").disabled = false;
  }
}

// ---------------------------------------------------------------- one set

async function loadResults() {
  const entry = loadEntry(setId);
  const query = entry ? `?entry=${encodeURIComponent(entry.entry)}` : "";
  const res = await fetch(`/api/duplicate/sets/${encodeURIComponent(setId)}${query}`,
    { headers: entry ? { "X-Entry-Token": entry.token } : {} });
  const data = await res.json().catch(() => ({}));
  if ((res.status === 403 || data.code === "no_entry") && entry) { // not this set's entry (a database started afresh): forget it
    localStorage.removeItem(entryKey(setId));
    return loadResults();
  }
  if (!res.ok) throw new Error(told(data, res.statusText));
  results = data;
  renderSet();
}

function renderSet() {
  if (!results) return;
  const s = results.set;
  $("set-title").textContent = setLabel(s);
  $("set-about").textContent = setAbout(s);
  document.title = `${s.title} · ${t("dupTitle")} · Tricktaker`;
  $("share").value = new URL(s.link, location.origin).href;
  const you = results.you;
  const play = $("play");
  $("enter-form").hidden = Boolean(you);
  if (!you) {
    $("entry-status").textContent = t("dupEnterHint");
    const player = loadPlayer();
    if (player) { $("nickname").value = player.nickname; $("nickname").readOnly = true; }
    play.hidden = true;
  } else if (you.finished >= s.boards) {
    $("entry-status").textContent = `${t("dupYouAre", { name: you.nickname })} ${t("dupDone")}`;
    play.hidden = true;
  } else {
    $("entry-status").textContent = t("dupYouAre", { name: you.nickname });
    play.textContent = t("dupPlayBoard", { n: you.finished + 1, m: s.boards });
    play.hidden = false;
  }
  renderStandings();
}

const fmt = (x) => (x == null ? "–" : Number.isInteger(x) ? String(x) : x.toFixed(2));

function renderStandings() {
  const you = results.you?.entry;
  $("standings").replaceChildren(...results.standings.map((r, i) => el("tr",
    { className: r.entry === you ? "mine" : "", dataset: { testid: "standing", entry: r.entry } },
    el("td", {}, r.complete ? String(i + 1) : "–"), el("td", {}, r.nickname),
    el("td", {}, `${r.boards}/${results.set.boards}`), el("td", {}, fmt(r.percent)), el("td", {}, fmt(r.imps)))));
  $("how").textContent = t("dupHow", { unit: results.imp_unit });
  $("board-results").replaceChildren(...results.boards.map(renderBoard));
}

function cardsHTML(pile, deck) {
  return pile.split(" ").filter(Boolean).map((text) => {
    const card = parseCard(text, deck);
    if (!card) return text;
    return `<span class="cardref" style="color:${suitColour(card.suit, card.deck)}">${card.rank}${suitIcon(card.suit, card.deck)}</span>`;
  }).join(" ");
}

function renderBoard(b) {
  const head = el("h3", {}, `${t("dupBoardN", { n: b.board + 1 })} · ${t("dealer")}: ${t("seatN", { n: b.dealer })}`);
  if (!b.rows) {
    return el("div", { className: "dup-board", dataset: { testid: "board", board: String(b.board) } }, head,
      el("p", { className: "muted" }, t("dupHidden", { n: b.entrants })));
  }
  const deck = catalogue?.games.find((g) => g.name === results.set.game)?.deck || null;
  const deal = el("div", { className: "dup-deal", dataset: { testid: "deal" } }, ...b.deal.map((pile, i) => el("div", {
    innerHTML: `<span class="muted">${i < results.set.players ? t("seatN", { n: i }) : "·"}</span> ${cardsHTML(pile, deck)}`,
  })));
  const rows = b.rows.map((r) => el("tr", { className: r.entry === results.you?.entry ? "mine" : "", dataset: { testid: "board-row" } },
    el("td", {}, r.nickname), el("td", {}, fmt(r.score)), el("td", {}, String(r.matchpoints)),
    el("td", {}, fmt(r.percent)), el("td", {}, fmt(r.imps)),
    el("td", {}, el("a", { href: `/api/tables/${encodeURIComponent(r.table)}/record`, target: "_blank" }, t("dupRecord")))));
  const table = el("table", { className: "dup-results" },
    el("thead", {}, el("tr", {}, ...["dupPlayer", "dupScore", "dupMatchpoints", "dupPercent", "dupImps", "dupRecord"]
      .map((k) => el("th", {}, t(k))))), el("tbody", {}, ...rows));
  return el("div", { className: "dup-board", dataset: { testid: "board", board: String(b.board) } },
    head, el("details", {}, el("summary", {}, t("dupDeal")), deal), el("div", { className: "dup-scroll" }, table));
}

async function enterSet(ev) {
  ev.preventDefault();
  $("set-error").textContent = "";
  try {
    // a player of this browser enters as themselves (their nickname, once per set)
    const entry = await call(`/api/duplicate/sets/${encodeURIComponent(setId)}/entries`,
      { nickname: $("nickname").value }, playerHeaders());
    saveEntry(setId, entry);
    await loadResults();
  } catch (err) {
    $("set-error").textContent = t("dupEnterFailed", { msg: err.message });
  }
}

async function playNext() {
  const entry = loadEntry(setId);
  $("set-error").textContent = "";
  try {
    const board = await call(`/api/duplicate/entries/${encodeURIComponent(entry.entry)}/next`, { token: entry.token });
    if (board.done) { await loadResults(); return; }
    location.href = `/t/${encodeURIComponent(board.table)}#token=${encodeURIComponent(entry.token)}`;
  } catch (err) {
    $("set-error").textContent = err.message;
  }
}

function retranslate() {
  applyStatic();
  renderOverview();
  renderSet();
}

async function main() {
  applyStatic();
  mountLangSelect($("lang"));
  onLangChange(retranslate);
  await loadCatalogueText().catch(() => {});
  try {
    catalogue = normaliseCatalogue(await call("/api/games"));
  } catch { /* the deals are shown as text without it */ }
  if (!setId) {
    $("sets-panel").hidden = false;
    $("create-panel").hidden = false;
    $("game").addEventListener("change", renderCreateForm);
    $("size").addEventListener("change", renderCreateForm);
    $("create-form").addEventListener("submit", createSet);
    try {
      overview = await call("/api/duplicate");
      renderOverview();
    } catch (err) {
      $("create-error").textContent = err.message || t("loadFailed");
    }
    return;
  }
  $("set-panel").hidden = false;
  $("enter-form").addEventListener("submit", enterSet);
  $("play").addEventListener("click", playNext);
  try {
    await loadResults();
    $("results-panel").hidden = false;
  } catch (err) {
    $("set-title").textContent = t("dupTitle");
    $("set-error").textContent = err.message;
    $("entry-box").hidden = true;
  }
}

main();
