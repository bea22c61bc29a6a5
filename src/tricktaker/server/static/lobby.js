// The lobby: choose a game, its rules and who sits where; list open tables.
import { t, has, applyStatic, mountLangSelect, onLangChange, loadCatalogueText, gameSummary, presetTitle, optionLabel,
  optionDoc, optionValue } from "./i18n.js";
import { normaliseCatalogue, botLabel, saveTableLinks, loadTableLinks, loadPlayer, savePlayer, forgetPlayer,
  playerHeaders, ICON_BOT, ICON_PERSON, $, el } from "./common.js";
import { renderPlayNow } from "./playnow.js";


let catalogue = null; // {games: [...], bots: [...], defaultBot}
let seatChoices = []; // remembered per seat index while the size changes: {kind, bot}

const currentGame = () => catalogue.games.find((g) => g.name === $("game").value);

async function loadCatalogue() {
  const res = await fetch("/api/games");
  if (!res.ok) throw new Error(res.statusText);
  const data = await res.json();
  catalogue = normaliseCatalogue(data);
  catalogue.turnTime = Number(data.turn_time) || 0;
  catalogue.maxTurnTime = Number(data.max_turn_time) || 600;
  renderTurnTime();
  renderGameSelect();
}

function renderGameSelect() {
  const select = $("game");
  const keep = select.value || localStorage.getItem("tricktaker:lastGame");
  select.replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  if (keep && catalogue.games.some((g) => g.name === keep)) select.value = keep;
  renderGameForm();
}

/** Seconds a person has for a move: off for friends, on for a public table (the server's default first). */
const TURN_TIMES = [0, 20, 30, 60, 120, 300];
function renderTurnTime() {
  const select = $("turn-time");
  const keep = select.value !== "" ? Number(select.value) : catalogue.turnTime;
  const times = [...new Set([...TURN_TIMES, catalogue.turnTime])]
    .filter((s) => s <= catalogue.maxTurnTime).sort((a, b) => a - b);
  select.replaceChildren(...times.map((s) => new Option(
    s === 0 ? t("turnTimeOff") : s < 60 ? t("secondsN", { n: s }) : t("minutesN", { n: s / 60 }), String(s))));
  select.value = String(keep);
}

/** The option values a preset gives: defaults overridden by the preset's own. */
function presetValues(game, presetName) {
  const values = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
  const preset = game.presets.find((p) => p.name === presetName);
  return Object.assign(values, preset && preset.options ? preset.options : {});
}

/** A chosen preset whose option values the server did not list: its options are fixed. */
function presetOpaque(game) {
  const preset = game.presets.find((p) => p.name === $("preset").value);
  return Boolean(preset && !preset.options);
}

function renderGameForm() {
  const game = currentGame();
  if (!game) return;
  $("game-help").textContent = gameSummary(game.name, game.summary || "");
  $("size").replaceChildren(...game.players.map((n) => new Option(t("playersN", { n }), String(n))));
  const presetSel = $("preset");
  presetSel.replaceChildren(new Option(t("presetNone"), ""),
    ...game.presets.map((p) => new Option(presetTitle(p.name), p.name)));
  applyPreset();
}

function applyPreset() {
  const game = currentGame();
  const values = presetValues(game, $("preset").value || null);
  // The sizes this preset is played at (Tute cabrero: 3 to 6; pairs, habanero, three: 2 to 4).
  const sizes = game.presetPlayers[$("preset").value] || game.players;
  const keep = $("size").value;
  $("size").replaceChildren(...sizes.map((n) => new Option(t("playersN", { n }), String(n))));
  if (sizes.includes(Number(keep))) $("size").value = keep;
  if (values.players != null && game.players.includes(Number(values.players))) {
    $("size").value = String(values.players);
  }
  renderOptions(game, values);
  const opaque = presetOpaque(game);
  for (const input of $("options").querySelectorAll("[data-option]")) input.disabled = opaque;
  $("options-note").textContent = opaque ? t("presetFixes") : "";
  renderSeats();
}

function renderOptions(game, values) {
  // "players" is chosen by the table size selector, so it is not repeated here.
  const rows = game.options.filter((o) => o.name !== "players").map((o) => {
    const id = `opt-${o.name}`;
    let input;
    const v = values[o.name];
    if (typeof o.default === "boolean") {
      input = el("input", { type: "checkbox", id, checked: Boolean(v) });
    } else if (Array.isArray(o.choices) && o.choices.length) {
      input = el("select", { id }, ...o.choices.map((c) => new Option(optionValue(c), String(c))));
      input.value = String(v);
    } else if (typeof o.default === "number") {
      input = el("input", { type: "number", id, value: String(v), step: "1" });
      if (o.minimum != null) input.min = String(o.minimum);
      if (o.maximum != null) input.max = String(o.maximum);
    } else {
      input = el("input", { type: "text", id, value: String(v ?? "") });
    }
    input.dataset.testid = `option-${o.name}`;
    input.dataset.option = o.name;
    const label = el("label", { htmlFor: id, className: "opt-name", title: o.name }, optionLabel(o.name));
    return el("div", { className: `opt ${input.type === "checkbox" ? "opt-bool" : ""}` },
      input.type === "checkbox" ? el("span", {}, input, " ", label) : el("span", {}, label, input),
      o.doc ? el("p", { className: "help" }, optionDoc(game.name, o.name, o.doc)) : null);
  });
  $("options").replaceChildren(...rows);
  $("options-box").hidden = rows.length === 0;
}

/** The chosen options, only where they differ from what the preset already gives. */
function chosenOptions(game) {
  const base = presetValues(game, $("preset").value || null);
  const out = {};
  for (const o of game.options) {
    let value;
    if (o.name === "players") {
      // Always sent: it must agree with the number of seats, whatever the preset says.
      out.players = Number($("size").value);
      continue;
    } else if (presetOpaque(game)) {
      continue;
    } else {
      const input = $(`opt-${o.name}`);
      if (!input) continue;
      if (typeof o.default === "boolean") value = input.checked;
      else if (typeof o.default === "number") value = Number(input.value);
      else value = input.value;
      // Choices keep the type the server declared (numbers stay numbers).
      if (Array.isArray(o.choices)) value = o.choices.find((c) => String(c) === String(value)) ?? value;
    }
    if (value !== base[o.name]) out[o.name] = value;
  }
  return out;
}

function renderSeats() {
  const n = Number($("size").value) || currentGame().players[0];
  const rows = [];
  for (let i = 0; i < n; i++) {
    const choice = seatChoices[i] || { kind: i === 0 ? "human" : "bot", bot: catalogue.defaultBot };
    seatChoices[i] = choice;
    const kind = el("select", { id: `seat-${i}-kind`, dataset: { testid: `seat-${i}-kind` } },
      new Option(t("person"), "human"), new Option(t("bot"), "bot"));
    kind.value = choice.kind;
    const bot = el("select", { id: `seat-${i}-bot`, dataset: { testid: `seat-${i}-bot` } },
      ...catalogue.bots.map((b) => new Option(
        botLabel(b.name), b.name)));
    bot.value = choice.bot;
    // A person's seat has no level to choose: no greyed-out selector, the invite hint instead.
    bot.hidden = choice.kind !== "bot";
    const hint = el("span", { className: "help" }, choice.kind === "human" ? t("personHint")
      : choice.bot === catalogue.defaultBot ? t("botDefaultHint") : "");
    bot.addEventListener("change", () => { hint.textContent = bot.value === catalogue.defaultBot ? t("botDefaultHint") : ""; });
    kind.addEventListener("change", () => { choice.kind = kind.value; renderSeats(); });
    bot.addEventListener("change", () => { choice.bot = bot.value; });
    const name = i === 0 ? `${t("seatN", { n: i })} · ${t("you")}` : t("seatN", { n: i });
    rows.push(el("div", { className: "seat-row" },
      el("label", { htmlFor: kind.id, className: "seat-name" }, name), kind, bot, hint));
  }
  $("seats").replaceChildren(...rows);
}

async function createTable(ev) {
  ev.preventDefault();
  const game = currentGame();
  const n = Number($("size").value);
  const body = {
    game: game.name,
    preset: $("preset").value || null,
    options: chosenOptions(game),
    turn_time: Number($("turn-time").value) || 0,
    practice: $("practice").checked,
    seats: seatChoices.slice(0, n).map((c) => (c.kind === "human" ? { kind: "human" } : { kind: "bot", bot: c.bot })),
  };
  const button = $("create");
  button.disabled = true;
  button.textContent = t("creating");
  $("create-error").textContent = "";
  try {
    const res = await fetch("/api/tables", {
      method: "POST", headers: playerHeaders({ "Content-Type": "application/json" }), body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      // The server's refusal in the person's language; the English detail of a bad request
      // (an option out of range, a bot spec) is kept after it.
      const told = data.code && has(`err_${data.code}`) ? t(`err_${data.code}`, data) : "";
      throw new Error(told ? (data.code === "bad_request" ? `${told} (${data.error})` : told)
        : data.error || res.statusText);
    }
    localStorage.setItem("tricktaker:lastGame", game.name);
    const humans = (data.seats || []).filter((s) => s.link);
    // The creator takes the first person's seat; the other links are kept for sharing.
    const mine = humans[0] || null;
    saveTableLinks(data.id, { seats: data.seats || [], spectate: data.spectate, mine: mine ? mine.seat : null });
    location.href = mine ? mine.link : (data.spectate || `/t/${data.id}`);
  } catch (err) {
    $("create-error").textContent = t("createFailed", { msg: err.message });
    button.disabled = false;
    button.textContent = t("createTable");
  }
}

/** The server's refusal in the person's language (its English when no text has its code). */
const told = (data, fallback) => (data.code && has(`err_${data.code}`) ? t(`err_${data.code}`, data) : data.error || fallback);

/** "Play as": this browser's player, or the one-click form that makes one. */
function renderPlayer() {
  const player = loadPlayer();
  $("player-form").hidden = Boolean(player);
  $("player-me").hidden = !player;
  if (player) {
    $("signed-in").textContent = t("signedInAs", { name: player.nickname });
    $("my-profile").href = `/p/${encodeURIComponent(player.id)}`;
    // The player's key as a link for another device (in the fragment: never sent to a server).
    $("player-link").value = `${location.origin}/#player=${encodeURIComponent(player.secret)}`;
  }
}

/** A link from "Use on another device" (/#player=SECRET): this browser takes that player. */
async function adoptPlayer() {
  const secret = new URLSearchParams(location.hash.slice(1)).get("player");
  if (!secret) return;
  history.replaceState(null, "", location.pathname + location.search); // the key leaves the address bar
  const res = await fetch("/api/players/me", { headers: { "X-Player-Secret": secret } }).catch(() => null);
  const data = res ? await res.json().catch(() => ({})) : {};
  if (!res || !res.ok) {
    $("player-error").textContent = told(data, t("loadFailed"));
    return;
  }
  savePlayer({ ...data, secret });
  renderPlayer();
}

async function makePlayer(ev) {
  ev.preventDefault();
  $("player-error").textContent = "";
  const res = await fetch("/api/players", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ nickname: $("nickname").value }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    $("player-error").textContent = told(data, res.statusText);
    return;
  }
  savePlayer(data);
  renderPlayer();
  $("player-error").textContent = "";
}

/** A player this server does not know (a database started afresh) is forgotten, so the lobby works. */
async function checkPlayer() {
  if (!loadPlayer()) return;
  const res = await fetch("/api/players/me", { headers: playerHeaders() }).catch(() => null);
  if (res && res.status === 401) {
    forgetPlayer();
    $("player-error").textContent = t("err_unknown_player");
  }
  renderPlayer();
}

function gameTitle(name) {
  return catalogue?.games.find((g) => g.name === name)?.title || name;
}

async function refreshTables() {
  const list = $("tables");
  let tables;
  try {
    const res = await fetch("/api/tables");
    if (!res.ok) throw new Error(res.statusText);
    const data = await res.json();
    tables = Array.isArray(data) ? data : data.tables || [];
  } catch {
    list.replaceChildren(el("li", { className: "empty" }, t("loadFailed")));
    return;
  }
  if (!tables.length) {
    list.replaceChildren(el("li", { className: "empty" }, t("noTables")));
    return;
  }
  list.replaceChildren(...tables.map((tb) => {
    const seats = tb.seats || [];
    const people = seats.filter((s) => s.kind === "human");
    const seatDots = el("span", { className: "seat-dots" }, ...seats.map((s, i) => el("span", {
      className: `dot ${s.kind} ${s.connected ? "on" : "off"}`,
      title: `${t("seatN", { n: i })}: ${s.kind === "bot" ? botLabel(s.bot) : s.nickname || t("person")}`,
      innerHTML: s.kind === "bot" ? ICON_BOT : ICON_PERSON,
    })));
    const hand = tb.hand_number != null ? t("handN", { n: tb.hand_number + 1 }) : "";
    const scores = Array.isArray(tb.scores) ? tb.scores.join(" – ") : "";
    const links = loadTableLinks(tb.id);
    const mine = links && links.mine != null ? links.seats.find((s) => s.seat === links.mine) : null;
    return el("li", { className: "table-row", dataset: { testid: "table-row", table: tb.id } },
      el("div", { className: "tr-main" },
        el("strong", {}, tb.title || gameTitle(tb.game)),
        el("span", { className: "muted" }, ` ${[hand, scores, tb.status ? t(`status_${tb.status}`) : ""].filter(Boolean).join(" · ")}`)),
      el("div", { className: "tr-side" }, seatDots,
        el("span", { className: "muted small" }, people.length === 1 ? t("person1") : people.length ? t("people", { n: people.length }) : ""),
        mine ? el("a", { className: "button", href: mine.link }, t("seatN", { n: mine.seat })) : null,
        el("a", { className: "button", href: `/t/${tb.id}`, dataset: { testid: "watch" } }, t("watch"))));
  }));
}

function retranslate() {
  applyStatic();
  renderPlayer();
  $("nickname").placeholder = t("nicknameHint");
  if (catalogue) {
    const size = $("size").value;
    const preset = $("preset").value;
    renderGameForm();
    $("size").value = size;
    $("preset").value = preset;
    renderSeats();
    renderTurnTime();
    renderPlayNow(catalogue);
  }
  refreshTables();
}

async function main() {
  applyStatic();
  mountLangSelect($("lang"));
  onLangChange(retranslate);
  $("game").addEventListener("change", () => { seatChoices = []; renderGameForm(); });
  $("preset").addEventListener("change", applyPreset);
  $("size").addEventListener("change", renderSeats);
  $("create-form").addEventListener("submit", createTable);
  $("player-form").addEventListener("submit", makePlayer);
  $("forget-player").addEventListener("click", () => {
    if (confirm(t("forgetConfirm"))) { forgetPlayer(); renderPlayer(); }
  });
  $("nickname").placeholder = t("nicknameHint");
  renderPlayer();
  adoptPlayer().then(checkPlayer);
  try {
    await loadCatalogueText().catch(() => {}); // without it, the server's English
    await loadCatalogue();
    renderPlayNow(catalogue);
  } catch (err) {
    console.error(err);
    $("create-error").textContent = t("loadFailed");
  }
  refreshTables();
  setInterval(refreshTables, 4000);
}

main();
