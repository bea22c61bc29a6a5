// Club tournaments: create one, register entrants, start rounds, see results and standings,
// print a round's sheet.  The director's secret comes in the link's fragment (#director=...),
// which browsers never send to the server; it is kept in this browser and sent as X-Director.
import { t, applyStatic, mountLangSelect, onLangChange, loadCatalogueText, presetTitle } from "./i18n.js";
import { normaliseCatalogue, $, el } from "./common.js";


const match = location.pathname.match(/^\/club\/([^/]+)/);
const tournamentId = match ? decodeURIComponent(match[1]) : null;
const secretKey = (id) => `tricktaker:club:${id}`;
let secret = null;
let catalogue = null;
let current = null; // the last /api/club/{id} answer
let poll = null;

function readSecret() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get("director");
  if (given && tournamentId) {
    try { localStorage.setItem(secretKey(tournamentId), given); } catch { /* private mode */ }
    return given;
  }
  try { return tournamentId ? localStorage.getItem(secretKey(tournamentId)) : null; } catch { return null; }
}

/** A refused request's text in the page's language (by its code), the server's English else. */
function refusal(body) {
  if (!body || !body.code || t(`err_${body.code}`) === `err_${body.code}`) return (body && body.error) || t("loadFailed");
  // a bad request names its problem (a name taken, too many rounds): the server's words follow
  return body.code === "bad_request" ? `${t("err_bad_request")} (${body.error})` : t(`err_${body.code}`);
}

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (secret) headers["X-Director"] = secret;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.error || res.statusText), { body: data, status: res.status });
  return data;
}

// -- creating a tournament ------------------------------------------------------------------

const TURN_TIMES = [0, 30, 60, 120, 300];
const gameOf = (name) => catalogue.games.find((g) => g.name === name);

function renderCreate() {
  const gameSelect = $("t-game");
  const keep = gameSelect.value || "tuppi";
  gameSelect.replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  gameSelect.value = catalogue.games.some((g) => g.name === keep) ? keep : catalogue.games[0].name;
  renderPresets();
  const tt = $("t-turn-time");
  const chosen = tt.value;
  tt.replaceChildren(...TURN_TIMES.map((s) => new Option(
    s === 0 ? t("turnTimeOff") : s < 60 ? t("secondsN", { n: s }) : t("minutesN", { n: s / 60 }), String(s))));
  if (chosen) tt.value = chosen;
}

function renderPresets() {
  const game = gameOf($("t-game").value);
  const select = $("t-preset");
  const names = game.presets.map((p) => p.name);
  select.replaceChildren(new Option(t("presetNone"), ""), ...names.map((n) => new Option(presetTitle(n), n)));
  select.value = names.includes("tournament") ? "tournament" : "";
  renderEntrantKind();
}

/** A rule set's players at a table, and whether each plays alone (tute cabrero: four alone). */
function tableSize(game, presetName) {
  const preset = game.presets.find((p) => p.name === presetName);
  const options = (preset && preset.options) || {};
  return { players: Number(options.players || game.players[0]), alone: options.mode === "cabrero" };
}

function renderEntrantKind() {
  const game = gameOf($("t-game").value);
  const { players, alone } = tableSize(game, $("t-preset").value);
  // tute cabrero: the same rules for three to six a table, so the director chooses the size
  const size = $("t-size");
  const sizes = alone ? (game.presetPlayers[$("t-preset").value] || [players]) : [];
  if (size.options.length !== sizes.length || [...size.options].some((o, i) => Number(o.value) !== sizes[i])) {
    size.replaceChildren(...sizes.map((n) => new Option(String(n), String(n))));
    size.value = String(players);
  }
  $("t-size-field").hidden = !alone;
  const n = alone ? Number(size.value) : players;
  $("t-entrants-kind").textContent = alone && n > 3 ? t("clubCabreroHelp", { n })
    : n === 4 ? t("clubPairsHelp") : n === 2 ? t("clubPlayersHelp") : t("clubAloneHelp", { n });
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const rounds = $("t-rounds").value.trim();
  const request = {
    name: $("t-name").value, game: $("t-game").value, preset: $("t-preset").value || null,
    format: $("t-format").value, rounds: rounds ? Number(rounds) : null, turn_time: Number($("t-turn-time").value),
  };
  if (!$("t-size-field").hidden) request.options = { players: Number($("t-size").value) };
  try {
    const made = await api("POST", "/api/club", request);
    location.assign(made.link);
  } catch (err) {
    $("create-error").textContent = t("clubCreateFailed", { msg: refusal(err.body) });
  }
}

// -- a tournament -----------------------------------------------------------------------------

async function load() {
  try {
    current = await api("GET", `/api/club/${encodeURIComponent(tournamentId)}`);
    $("t-error").textContent = "";
  } catch (err) {
    if (err.status === 403 && secret) { // a stale or wrong key: show the public page
      secret = null;
      try { localStorage.removeItem(secretKey(tournamentId)); } catch { /* */ }
      $("t-error").textContent = t("err_bad_secret");
      return load();
    }
    $("t-error").textContent = refusal(err.body);
    $("tournament").hidden = false;
    return;
  }
  render();
  const playing = current.round_list.some((r) => !r.complete);
  clearTimeout(poll);
  if (playing) poll = setTimeout(load, 3000); // the tables finish by themselves: look again
}

function render() {
  const c = current;
  const game = catalogue && gameOf(c.game);
  $("tournament").hidden = false;
  $("t-title").textContent = c.name;
  document.title = `${c.name} · Tricktaker`;
  const format = c.format === "swiss" ? t("clubSwiss") : t("clubRoundRobin");
  $("t-summary").textContent = [
    game ? game.title : c.game, c.preset ? presetTitle(c.preset) : t("presetNone"), format,
    c.rounds ? t("clubRoundOf", { n: c.current_round, m: c.rounds }) : null,
  ].filter(Boolean).join(" · ");
  const director = c.director;
  $("director-box").hidden = !director;
  if (director) {
    $("director-link").textContent = `${location.origin}/club/${c.id}#director=${secret}`;
    const publicUrl = `${location.origin}/club/${c.id}`;
    $("public-link").href = publicUrl;
    $("public-link").textContent = publicUrl;
  }
  renderEntrants();
  renderStandings();
  renderRounds();
}

const entrantName = (n) => (current.entrants.find((e) => e.number === n) || { name: `#${n}` }).name;
const withdrawnText = (round) => t("clubWithdrawnIn", { n: round });

function renderEntrants() {
  const c = current;
  const open = c.director && c.current_round === 0;
  $("entrants").replaceChildren(...c.entrants.map((e) => {
    const members = c.pairs && e.members && e.members.some(Boolean) ? ` (${e.members.filter(Boolean).join(" & ")})` : "";
    let remove = null;
    if (open) {
      remove = el("button", { className: "ghost", type: "button", title: t("clubRemove"),
        onclick: () => act("DELETE", `entrants/${e.number}`) }, "✕");
    } else if (c.director && e.withdrawn == null) { // after round 1: withdraw, the results stay
      remove = el("button", { className: "ghost", type: "button", dataset: { testid: "withdraw" }, onclick: () => {
        if (confirm(t("clubWithdrawConfirm", { name: e.name }))) act("DELETE", `entrants/${e.number}`);
      } }, t("clubWithdraw"));
    }
    const gone = e.withdrawn != null ? el("span", { className: "small", dataset: { testid: "withdrawn" } }, ` ${withdrawnText(e.withdrawn)}`) : null;
    return el("li", { dataset: { testid: "entrant" }, className: gone ? "withdrawn" : "" }, e.name + members, gone, " ", remove);
  }));
  $("entrant-form").hidden = !open;
  $("e-member1").hidden = $("e-member2").hidden = !c.pairs;
  $("e-name").placeholder = c.pairs ? t("clubPairName") : t("clubPlayerName");
  $("e-member1").placeholder = t("clubPlayer1");
  $("e-member2").placeholder = t("clubPlayer2");
  const button = $("start-round");
  const last = c.round_list[c.round_list.length - 1];
  const more = !c.rounds || c.current_round < c.rounds;
  button.hidden = !c.director || !more || (last && !last.complete);
  button.textContent = t("clubStartRound", { n: c.current_round + 1 });
}

async function act(method, path, body) {
  $("t-error").textContent = "";
  try {
    await api(method, `/api/club/${encodeURIComponent(tournamentId)}/${path}`, body);
  } catch (err) {
    $("t-error").textContent = refusal(err.body);
  }
  await load();
}

async function addEntrant(event) {
  event.preventDefault();
  // the fields are read and emptied at once, so the next entrant can be typed while this one is sent
  const fields = ["e-name", "e-member1", "e-member2"];
  const typed = fields.map((id) => $(id).value);
  for (const id of fields) $(id).value = "";
  $("e-name").focus();
  const entrant = { name: typed[0].trim() };
  if (current.pairs) entrant.members = [typed[1], typed[2]];
  await act("POST", "entrants", entrant);
  if ($("t-error").textContent && fields.every((id) => !$(id).value)) fields.forEach((id, i) => { $(id).value = typed[i]; });
}

const COLUMNS = {
  rank: "clubRank", name: "clubEntrant", played: "clubPlayed", won: "clubWon", drawn: "clubDrawn",
  lost: "clubLost", byes: "clubByes", match_points: "clubMatchPoints", collected: "clubCollected",
  difference: "clubDifference",
};

function renderStandings() {
  const order = current.standing_rule.order;
  const columns = ["rank", "name", "played", "won", "drawn", "lost", "byes", "match_points", "difference"];
  if (order.includes("collected")) columns.splice(columns.indexOf("match_points"), 0, "collected");
  $("standings-head").replaceChildren(...columns.map((k) => el("th", { className: k === "name" ? "" : "num" }, t(COLUMNS[k]))));
  $("standings").replaceChildren(...current.standings.map((line) => el("tr", { dataset: { testid: "standing", entrant: String(line.entrant) } },
    ...columns.map((k) => el("td", { className: k === "name" ? "" : "num", dataset: { col: k } }, String(line[k]),
      k === "name" && line.withdrawn != null ? el("span", { className: "small" }, ` ${withdrawnText(line.withdrawn)}`) : null)))));
  const rules = { tuppi: "clubRuleTuppi", match: "clubRuleMatch", places: "clubRulePlaces", cabrero: "clubRuleCabrero" };
  $("rule-doc").textContent = t(rules[current.standing_rule.name] || "clubRuleMatch");
}

function resultText(table) {
  const r = table.result;
  const sides = table.sides.length;
  if (!r) return table.scores ? t("clubPlaying", { a: table.scores.join("–") }) : t("clubNotStarted");
  if (r.kind === "forfeit") {
    if (r.absent.length === sides) return t(sides === 2 ? "clubBothAbsent" : "clubNoneCame");
    return t("clubForfeit", { name: r.absent.map((side) => entrantName(table.sides[side])).join(", ") });
  }
  if (sides > 2) { // by place: "1. Ann 520 · 2. Bo 310 · 3. Cy 95" (cabrero: lost hands)
    const order = table.sides.map((_, side) => side).sort((a, b) => r.places[a] - r.places[b] || a - b);
    const score = (side) => (current.standing_rule.name === "cabrero" ? t("clubLostHands", { n: r.scores[side] }) : String(r.scores[side]));
    return order.map((side) => `${r.places[side]}. ${entrantName(table.sides[side])} ${score(side)}`).join(" · ");
  }
  const score = r.collected ? t("clubCollectedScore", { a: r.collected[0], b: r.collected[1] }) : `${r.scores[0]}–${r.scores[1]}`;
  const who = r.winner == null ? t("clubDraw") : t("clubWins", { name: entrantName(table.sides[r.winner]) });
  return `${who} · ${score}`;
}

function renderRounds() {
  const c = current;
  const sections = c.round_list.slice().reverse().map((round) => {
    const print = el("button", { type: "button", className: "no-print", dataset: { testid: `print-round-${round.number}` },
      onclick: () => printRound(round.number) }, t("clubPrintSheet"));
    const boards = round.tables.map((table) => {
      const names = table.sides.map(entrantName);
      const head = table.table_id
        ? el("div", {}, el("strong", {}, t("clubTable", { n: table.board })), " ", names.join(" – "), " · ",
          el("span", { dataset: { testid: "result" } }, resultText(table)))
        : el("div", {}, el("strong", {}, t("clubBye")), " ", names[0]);
      const parts = [head];
      if (table.table_id) {
        parts.push(el("div", { className: "small" }, el("a", { href: table.spectate }, t("watch")), " ",
          el("span", { className: "link" }, `${location.origin}${table.spectate}`)));
        for (const seat of table.seats || []) {
          const entrant = entrantName(seat.entrant);
          const player = seat.player || entrant;  // a pair's member, or the entrant playing alone
          const who = `${t("seatN", { n: seat.seat + 1 })}: ${player}${player === entrant ? "" : ` (${entrant})`}`;
          parts.push(el("div", { className: "seat-line", dataset: { testid: "seat-line" } }, who,
            seat.link ? el("div", { className: "link", dataset: { testid: "seat-link" } }, `${location.origin}${seat.link}`) : null));
        }
        if (c.director && !table.result) {
          const forfeit = (absent, label) => el("button", { type: "button", onclick: () => {
            if (confirm(t("clubForfeitConfirm"))) act("POST", "forfeits", { round: round.number, board: table.board, absent });
          } }, label);
          parts.push(el("div", { className: "forfeits" }, el("span", { className: "small" }, t("clubNoShow")),
            ...table.sides.map((entrant, side) => forfeit([entrant], names[side])),
            forfeit(table.sides, t(table.sides.length === 2 ? "clubBoth" : "clubAll"))));
        }
      }
      return el("div", { className: "board", dataset: { testid: "board" } }, ...parts);
    });
    return el("section", { className: "round", id: `round-${round.number}`, dataset: { testid: `round-${round.number}` } },
      el("h3", {}, t("clubRoundN", { n: round.number }), el("span", { className: "small" }, `${current.name}`), print), ...boards);
  });
  $("rounds").replaceChildren(...sections);
}

/** Print one round's sheet: its tables, who sits where and the seat links (print CSS hides the rest). */
function printRound(number) {
  for (const section of document.querySelectorAll(".round")) section.classList.toggle("printing", section.id === `round-${number}`);
  $("rounds").classList.add("one-round");
  window.print();
}
// the browser's own Print prints every round; after a round's button, the next print is whole again
window.addEventListener("afterprint", () => $("rounds").classList.remove("one-round"));

// -- start ----------------------------------------------------------------------------------------

async function main() {
  applyStatic();
  mountLangSelect($("lang"));
  secret = readSecret();
  if (location.hash) history.replaceState(null, "", location.pathname + location.search); // the key leaves the address bar
  await loadCatalogueText().catch(() => {});
  try {
    catalogue = normaliseCatalogue(await api("GET", "/api/games"));
  } catch { catalogue = null; }
  onLangChange(() => {
    applyStatic();
    if (catalogue && !tournamentId) renderCreate();
    if (current) render();
  });
  if (!tournamentId) {
    $("create-panel").hidden = false;
    if (catalogue) renderCreate();
    $("t-game").addEventListener("change", renderPresets);
    $("t-preset").addEventListener("change", renderEntrantKind);
    $("t-size").addEventListener("change", renderEntrantKind);
    $("create-form").addEventListener("submit", create);
    return;
  }
  $("entrant-form").addEventListener("submit", addEntrant);
  $("start-round").addEventListener("click", () => act("POST", "rounds"));
  await load();
}

main();
