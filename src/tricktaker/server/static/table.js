// The table page: one WebSocket to /ws/{id}, every `state` message re-renders
// the whole table from its observation (it holds all the seat may know).
import { t, has, applyStatic, mountLangSelect, onLangChange, reason } from "./i18n.js";
import { cardSVG, backSVG, parseCard, isCard, suitIcon, suitColour } from "./cards.js";
import { actionLabel, prompt, eventText, infoRows, seatBadges, handSummary } from "./games.js";
import { botLabel, loadTableLinks, saveTableLinks, loadPlayer, ICON_BOT, ICON_PERSON, $ } from "./common.js";

const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
const LINGER_MS = 1600; // how long a finished trick stays on the table
const MAX_LOG = 200;

const S = {
  id: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  token: new URLSearchParams(location.hash.slice(1)).get("token"),
  seat: null, // our seat number, null for a spectator
  table: null, // from `welcome`
  deck: null,
  obs: null,
  legal: [],
  seq: -1,
  over: false,
  presence: null,
  selection: new Set(),
  log: [], // [{html, kind}]
  hands: [], // finished hands seen: {number, prev}
  lastPrevKey: null,
  linger: null, // {cards, winner} of a trick just finished
  lingerTimer: 0,
  pending: false, // an act was sent and no answer came yet
  pendingWhy: false,
  ws: null,
  retryMs: 500,
  everConnected: false,
  gone: false, // the server has no such table: nothing to reconnect to
  thinking: null, // {seat, starting}: the bot whose turn it is
  timer: null, // {seat, until}: when the person to move runs out of time (the server plays for them)
  resultShownFor: null,
  reviews: {}, // hand number -> its `review` (what each card cost), once the server has it
  hint: null, // {seq, action}: the hint asked for on a practice table
};

// ------------------------------------------------------------ connection

function wsURL() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/${encodeURIComponent(S.id)}`;
}

function connect() {
  setConn(S.everConnected ? t("reconnecting") : t("connecting"));
  let ws;
  try {
    ws = new WebSocket(wsURL());
  } catch {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  ws.onopen = () => {
    S.retryMs = 500;
    S.everConnected = true;
    // A signed-in person's seat records their player (the secret stays out of spectating joins).
    const player = loadPlayer();
    ws.send(JSON.stringify(S.token ? { type: "join", token: S.token, ...(player ? { secret: player.secret } : {}) }
      : { type: "join" }));
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.pending = false;
    if (!S.gone) scheduleReconnect();
  };
}

function scheduleReconnect() {
  // Back off to at most 8 s; rejoining with the same token puts us back in our seat.
  setConn(t("reconnecting"));
  setTimeout(connect, S.retryMs);
  S.retryMs = Math.min(S.retryMs * 2, 8000);
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

setInterval(() => send({ type: "ping" }), 25000); // keeps idle proxies from closing the socket

/** The table does not exist: stop reconnecting and point to the lobby. */
function showGone() {
  S.gone = true;
  if (S.ws) S.ws.close();
  const box = $("gone");
  box.querySelector("p").textContent = t("noTable");
  box.hidden = false;
  setConn("");
}

/** The seconds left of the current person's turn, beside the status, once a second. */
function tickClock() {
  const clock = document.querySelector("#status .turn-clock");
  if (!clock) return;
  const timer = S.timer && !S.over && S.obs && S.timer.seat === S.obs.current_player ? S.timer : null;
  clock.hidden = !timer;
  if (!timer) return;
  const left = Math.max(0, Math.ceil((timer.until - Date.now()) / 1000));
  clock.textContent = ` · ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.classList.toggle("short", left <= 10);
}

/** An away seat's label: the seconds until a bot plays for it, then that a bot does. */
function awayText(seat) {
  const until = S.away ? S.away[seat] : null;
  if (until == null) return t("away");
  const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return left > 0 ? t("awayBotIn", { n: left }) : t("awayBot");
}
setInterval(() => {
  for (const label of document.querySelectorAll(".seat .away[data-seat]")) {
    label.textContent = awayText(Number(label.dataset.seat));
  }
}, 1000);
setInterval(tickClock, 1000);

function setConn(text) {
  const el = $("conn");
  el.textContent = text || "";
  el.hidden = !text;
}

// ------------------------------------------------------------ messages

function handle(msg) {
  switch (msg.type) {
    case "welcome":
      setConn("");
      S.seat = msg.seat ?? null;
      S.table = msg.table || {};
      S.deck = S.table.deck || (S.table.game === "tute" ? "spanish" : "french");
      document.body.dataset.seat = S.seat == null ? "spectator" : String(S.seat);
      document.title = `${S.table.title || S.table.game || ""} · Tricktaker`;
      renderInvites();
      loadClubLink(S.table.id);
      break;
    case "history":
      onHistory(msg);
      break;
    case "state":
      onState(msg);
      break;
    case "presence":
      S.presence = msg.connected;
      // Who sits where (a signed-in person who took a seat since the welcome).
      if (Array.isArray(msg.players) && S.table && S.table.seats) {
        msg.players.forEach((p, i) => {
          if (S.table.seats[i]) Object.assign(S.table.seats[i], p ? { player: p.id, nickname: p.nickname } : {});
        });
      }
      // Seats gone after joining: when a bot takes over (a moment, counted down here).
      S.away = (msg.away || []).map((s) => (s == null ? null : Date.now() + s * 1000));
      if (S.obs) renderSeats();
      break;
    case "rematch":
      followRematch(msg.id);
      break;
    case "timeout":
      showMessage(msg.seat === S.seat ? t("timedOutYou")
        : t(msg.away ? "awayPlayed" : "timedOut", { name: seatName(msg.seat) }), "info");
      break;
    case "review":
      S.reviews[msg.hand] = msg;
      if (S.obs) renderHistory();
      break;
    case "hint":
      onHint(msg);
      break;
    case "why":
      S.pendingWhy = false;
      showMessage(reason(msg.message, msg.code, msg.params) || t("notNow"), "why");
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

// The next match is a new table with the same seats and tokens: carry the invite
// links over (only the table id changes) and go there in the same seat.
function followRematch(id) {
  const links = loadTableLinks(S.id);
  if (links) saveTableLinks(id, JSON.parse(JSON.stringify(links).split(S.id).join(id)));
  location.assign(`/t/${encodeURIComponent(id)}${S.token ? `#token=${S.token}` : ""}`);
}

function onError(msg) {
  S.pending = false;
  if (S.pendingWhy && msg.code === "malformed") {
    // A server without `why` support: say it plainly.
    S.pendingWhy = false;
    showMessage(t("notNow"), "why");
    return;
  }
  S.pendingWhy = false;
  if (msg.code === "no_table") {
    // A wrong or expired link: say so and offer the lobby, rather than "Connecting…" forever.
    showGone();
    return;
  }
  if (msg.code === "bad_token") {
    // Watch instead of failing: the table is still worth seeing.
    showMessage(t("err_bad_token"), "error");
    S.token = null;
    send({ type: "join" });
    return;
  }
  const text = msg.code === "illegal" ? reason(msg.message, msg.reason, msg.params) : t(`err_${msg.code}`) !== `err_${msg.code}` ? t(`err_${msg.code}`) : msg.message;
  showMessage(text || msg.message || msg.code, "error");
  if (S.obs) renderControls();
}

/**
 * The table's story from the server (sent on every join): the events panel and the
 * earlier hands come from the stored actions, so a reload, a second device or a late
 * spectator sees what the page would have shown had it been open all along.
 */
function onHistory(msg) {
  S.log = [];
  for (const line of msg.lines || []) {
    if (line.trick != null) {
      const winner = line.trick;
      addLog(() => t(S.seat != null && winner === S.seat ? "ev_trick_you" : "ev_trick", { who: seatName(winner) }), "log-trick");
    } else if (line.hand != null) {
      addLog(() => t("ev_newHand", { n: line.hand, dealer: seatName(line.dealer) }), "log-hand");
    } else {
      S.log.push({ ev: { seat: line.seat, action: line.action, cards: line.cards }, obs: { game: S.table && S.table.game, bids: line.bids }, kind: "event" });
    }
  }
  S.hands = (msg.hands || []).filter((h) => h.result).map((h) => ({ number: h.number, prev: h.result }));
  // The newest result is already told: the state that follows must not announce it again.
  S.lastPrevKey = S.hands.length ? JSON.stringify(S.hands[S.hands.length - 1].prev) : null;
  S.historyLoaded = true;
  if (S.obs) render();
}

function onState(msg) {
  const before = S.obs;
  const obs = msg.observation || {};
  if (!S.table) { // a state before welcome (harness or odd server): derive what we need
    S.table = { game: obs.game, players: obs.players, options: {} };
    S.deck = obs.game === "tute" ? "spanish" : "french";
  }
  S.seq = msg.seq;
  S.legal = msg.legal || [];
  S.thinking = msg.thinking || null;
  // The turn's time, counted down here from what the server said was left.
  S.timer = msg.timer ? { seat: msg.timer.seat, until: Date.now() + msg.timer.seconds * 1000 } : null;
  S.over = Boolean(msg.over) || obs.phase === "over";
  S.pending = false;
  S.obs = obs;
  document.body.dataset.seq = String(msg.seq);
  document.body.dataset.over = S.over ? "true" : "false";
  document.body.dataset.phase = obs.phase || "";
  // Keep only chosen cards that are still choosable.
  if (!S.legal.some((a) => a.split(" ").length > 2 && isCard(a.split(" ")[1], S.deck))) S.selection.clear();

  // After a (re)join the history already holds this state's event, trick and hand.
  const fresh = S.historyLoaded;
  S.historyLoaded = false;
  if (msg.event && !fresh) logEvent(msg.event, obs, before);
  if (!fresh) trackLinger(before, obs);
  trackHands(fresh ? null : before, obs);
  render();
}

/** When a trick completes, keep its cards visible a moment (bots play fast). */
function trackLinger(before, obs) {
  if (!before) return;
  let done = null;
  const nb = (before.tricks || []).length;
  const na = (obs.tricks || []).length;
  if (na > nb && before.hand_number === obs.hand_number) done = obs.tricks[na - 1];
  else if (obs.hand_number !== before.hand_number && obs.previous_hand && obs.previous_hand.final_trick) done = obs.previous_hand.final_trick;
  else if (obs.phase === "over" && before.phase !== "over" && obs.previous_hand) done = obs.previous_hand.final_trick;
  if (done) {
    S.linger = done;
    clearTimeout(S.lingerTimer);
    S.lingerTimer = setTimeout(() => { S.linger = null; renderTrick(); }, LINGER_MS);
    const key = S.seat != null && done.winner === S.seat ? "ev_trick_you" : "ev_trick";
    addLog(() => t(key, { who: seatName(done.winner) }), "log-trick");
  }
}

function trackHands(before, obs) {
  const prev = obs.previous_hand;
  if (!prev) return;
  const key = JSON.stringify(prev);
  if (key === S.lastPrevKey) return;
  S.lastPrevKey = key;
  const number = obs.phase === "over" && before && before.hand_number === obs.hand_number ? obs.hand_number + 1 : obs.hand_number;
  S.hands.push({ number, prev });
  if (before) {
    // A hand finished while we watched: announce it.
    S.resultShownFor = key;
    showResult(number, prev);
    const n = obs.hand_number + 1, dealer = obs.dealer;
    if (!S.over) addLog(() => t("ev_newHand", { n, dealer: seatName(dealer) }), "log-hand");
  }
}

// ------------------------------------------------------------ naming

const players = () => (S.obs && S.obs.players) || (S.table && S.table.players) || 4;
/** Partners sit opposite: four players, unless each plays alone (Tute cabrero: the table says so). */
const partners = () => {
  if (S.obs && S.obs.out) return false;
  if (S.table && S.table.partnerships != null) return S.table.partnerships;
  return players() === 4;
};
const sideOf = (seat) => (partners() ? seat % 2 : seat);
const base = () => S.seat ?? 0;
const offset = (seat) => ((seat - base()) % players() + players()) % players();

function position(seat) {
  const off = offset(seat);
  if (players() === 2) return ["bottom", "top"][off];
  if (players() === 3) return ["bottom", "left", "right"][off];
  // Tute cabrero for five and six: the far seats share the top edge, in seat order clockwise.
  if (players() === 5) return ["bottom", "left", "top-left", "top-right", "right"][off];
  if (players() === 6) return ["bottom", "left", "top-left", "top", "top-right", "right"][off];
  return ["bottom", "left", "top", "right"][off];
}

function seatName(seat) {
  if (seat == null) return "";
  if (S.seat == null) return t("seatN", { n: seat });
  const pos = position(seat);
  if (pos === "bottom") return t("you");
  if (players() === 2) return t("opponent");
  if (pos === "top") return t(partners() ? "partner" : "across");
  if (pos === "top-left") return t("farLeft");
  if (pos === "top-right") return t("farRight");
  return t(pos);
}

function sideName(side) {
  if (!partners()) return seatName(side);
  if (S.seat != null) return side === sideOf(S.seat) ? t("us") : t("them");
  return t("seatsPair", { a: side, b: side + 2 });
}

/** Who won, as a whole sentence of the page's language ("We win.", "Ganan ellos."). */
function winnerText(side) {
  if (partners()) {
    if (S.seat != null) return t(side === sideOf(S.seat) ? "weWin" : "theyWin");
    return t("pairWins", { a: side, b: side + 2 });
  }
  if (S.seat != null && side === S.seat) return t("youWin");
  return t("seatWins", { name: seatName(side) });
}

function perSide(values) {
  // The colon keeps a spectator's "Seats 0 & 2: 5" from reading as one run of numbers.
  return values.map((v, side) => `<span class="side-val">${esc(sideName(side))}: <b>${esc(v)}</b></span>`).join(" · ");
}

/** A card as inline text: rank and a coloured suit symbol. */
function cardRef(text) {
  const card = parseCard(text, S.deck);
  if (!card) return esc(text);
  const rank = card.deck === "french" && card.rank === "T" ? "10" : card.rank;
  return `<span class="cardref" style="color:${suitColour(card.suit, card.deck)}" title="${esc(cardName(text))}">` +
    `${rank}${suitIcon(card.suit, card.deck)}</span>`;
}

function suitKey(letter) {
  return S.deck === "spanish" && letter === "C" ? "Cs" : letter;
}

function suitRef(letter, short = false) {
  const name = t(`suit_${suitKey(letter)}`);
  return `<span class="suitref">${suitIcon(letter, S.deck)}${short ? "" : ` ${esc(name)}`}</span>`;
}

function cardName(text) {
  const card = parseCard(text, S.deck);
  if (!card) return text;
  return t("cardName", { rank: t(`rank_${card.rank}`) !== `rank_${card.rank}` ? t(`rank_${card.rank}`) : card.rank, suit: t(`suit_${suitKey(card.suit)}`) });
}

function ctx() {
  return {
    t, has, seatName, sideName, perSide, winnerText,
    card: cardRef,
    cards: (list) => list.map(cardRef).join(" "),
    suit: suitRef,
    game: (S.obs && S.obs.game) || (S.table && S.table.game),
    players: players(),
    options: (S.table && S.table.options) || {},
    mySeat: S.seat,
  };
}

// ------------------------------------------------------------ actions

/** Split legal actions: single-card ones (by card), multi-card ones, the rest. */
function classify(legal) {
  const single = new Map();
  const multi = [];
  const other = [];
  for (const a of legal) {
    const [verb, ...args] = a.split(" ");
    if (args.length && args.every((x) => isCard(x, S.deck))) {
      if (args.length === 1) single.set(args[0], a);
      else multi.push({ action: a, verb, cards: new Set(args) });
    } else {
      other.push(a);
    }
  }
  return { single, multi, other };
}

function act(action) {
  if (S.pending || S.over) return;
  if (send({ type: "act", action, seq: S.seq })) {
    S.pending = true;
    S.selection.clear();
    renderControls();
  }
}

function onCardClick(card) {
  if (S.seat == null || !S.obs) return;
  const { single, multi } = classify(S.legal);
  if (multi.length) {
    const choosable = new Set(multi.flatMap((m) => [...m.cards]));
    if (!choosable.has(card)) { showMessage(t("notSelectable"), "why"); return; }
    if (S.selection.has(card)) S.selection.delete(card); else S.selection.add(card);
    renderControls();
    return;
  }
  if (single.has(card)) { act(single.get(card)); return; }
  // A disabled card: ask the engine why, in its own words.
  const verb = (S.legal.find((a) => isCard(a.split(" ")[1] || "", S.deck)) || "play").split(" ")[0];
  S.pendingWhy = true;
  if (!send({ type: "why", action: `${verb} ${card}` })) showMessage(t("notNow"), "why");
}

/** The legal multi-card action whose card set equals the selection, if any. */
function matchingSelection(multi) {
  return multi.find((m) => m.cards.size === S.selection.size && [...S.selection].every((c) => m.cards.has(c)));
}

let messageTimer = 0;
function showMessage(text, kind = "info") {
  const el = $("message");
  el.textContent = text;
  el.dataset.kind = kind;
  el.classList.add("show");
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { el.classList.remove("show"); el.textContent = ""; }, 5000);
}

// ------------------------------------------------------------ log

// A line is kept as a function that writes it, so a change of language rewrites the log.
function addLog(make, kind = "") {
  S.log.push({ make, kind });
  if (S.log.length > MAX_LOG) S.log.shift();
}

function logEvent(ev, obs, before) {
  // Labels are rebuilt on language change, so keep the raw event too.
  const entry = { ev, obs: { game: obs.game, bids: obs.bids }, kind: "event" };
  S.log.push(entry);
  if (S.log.length > MAX_LOG) S.log.shift();
}

function renderLog() {
  const c = ctx();
  const list = $("log");
  list.replaceChildren(...S.log.slice(-60).map((e) => {
    const li = document.createElement("li");
    li.className = e.kind || "";
    li.innerHTML = e.ev ? (eventText(e.ev, e.obs, c) || "") : e.make();
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------ rendering

function render() {
  if (!S.obs) return;
  clearResultFromPlay();
  renderTop();
  renderSeats();
  renderTrick();
  renderTrump();
  renderControls();
  renderInfo();
  renderLog();
  renderHistory();
  renderOver();
}

function renderTop() {
  const o = S.obs;
  const c = ctx();
  $("game-title").textContent = (S.table && S.table.title) || o.game;
  $("hand-no").textContent = o.hand_limit
    ? t("handNofM", { n: o.hand_number + 1, m: o.hand_limit })
    : t("handN", { n: o.hand_number + 1 });
  const opts = c.options;
  // Tute cabrero counts lost hands, not rounds toward a target (the panel says "out at N").
  const target = o.out ? null : opts.target ?? opts.rounds_to_win;
  let html = perSide(o.scores || []);
  if (o.game === "tuppi") {
    html += o.nousussa == null ? "" : ` <span class="chip nous">${esc(t("nousussa", { side: sideName(o.nousussa) }))}</span>`;
  }
  if (target) html += ` <span class="muted">(${esc(t("target", { n: target }))})</span>`;
  $("score").innerHTML = `<span class="label">${esc(t("score"))}:</span> ${html}`;
}

function makeCard(text, { small = false } = {}) {
  const div = document.createElement("div");
  div.className = `card${small ? " small" : ""}`;
  div.dataset.card = text;
  div.append(cardSVG(text, S.deck, courtLetters()));
  div.setAttribute("role", "img");
  div.setAttribute("aria-label", cardName(text));
  return div;
}

function courtLetters() {
  return Object.fromEntries(["K", "Q", "J", "10", "11", "12"].map((r) => [r, t(`court_${r}`)]));
}

function makeBack(small = true) {
  const div = document.createElement("div");
  div.className = `card back${small ? " small" : ""}`;
  div.append(backSVG());
  return div;
}

/** Where seats sit on the felt: the four sides, and two top corners for tables of five or six. */
const SPOTS = ["top", "top-left", "top-right", "left", "right", "bottom"];

function renderSeats() {
  const o = S.obs;
  const c = ctx();
  for (const pos of SPOTS) $(`pos-${pos}`).replaceChildren();
  $("felt").dataset.seats = String(o.players);
  const tricksPerSeat = Array.isArray(o.tricks_won) && o.tricks_won.length === o.players;
  for (let seat = 0; seat < o.players; seat++) {
    const pos = position(seat);
    const spot = $(`pos-${pos}`);
    const box = document.createElement("div");
    box.className = "seat";
    box.dataset.seat = String(seat);
    if (o.current_player === seat && !S.over) box.classList.add("turn");
    if (S.seat != null && partners() && sideOf(seat) === sideOf(S.seat)) box.classList.add("ours");
    if (o.out && o.out[seat]) box.classList.add("out");
    const info = S.table && S.table.seats ? S.table.seats[seat] : null;
    const away = S.presence && info && info.kind === "human" && !S.presence[seat];
    const who = info ? (info.kind === "bot" ? `${ICON_BOT} ${esc(botLabel(info.bot))}`
      : info.player ? `${ICON_PERSON} <a class="nick" href="/p/${encodeURIComponent(info.player)}" target="_blank">${esc(info.nickname || "")}</a>`
        : ICON_PERSON) : "";
    const tricks = tricksPerSeat ? t("tricksN", { n: o.tricks_won[seat] }) : "";
    const head = document.createElement("div");
    head.className = "seat-head";
    head.innerHTML = `<span class="seat-name">${esc(seatName(seat))}</span>` +
      `<span class="seat-meta" title="${esc(t("seatN", { n: seat }))}">${who}${away ? ` <span class="away" data-testid="away-${seat}" data-seat="${seat}">${esc(awayText(seat))}</span>` : ""}</span>` +
      (tricks ? `<span class="seat-tricks">${esc(tricks)}</span>` : "") +
      seatBadges(o, seat, c).join("");
    box.append(head);
    if (pos !== "bottom" || S.seat == null) {
      // Face-down cards: a small fan and the count.
      const n = (o.hand_sizes || [])[seat] || 0;
      const fan = document.createElement("div");
      fan.className = "fan";
      fan.dataset.count = String(n);
      for (let i = 0; i < Math.min(n, 13); i++) fan.append(makeBack());
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = String(n);
      count.title = t("cardsN", { n });
      fan.append(count);
      box.append(fan);
    }
    const shown = (o.shown || [])[seat] || [];
    if (shown.length) {
      const row = document.createElement("div");
      row.className = "shown";
      row.title = t("shown");
      for (const card of shown) row.append(makeCard(card, { small: true }));
      box.append(row);
    }
    if (o.rows && o.rows[seat] && !(pos === "bottom" && S.seat != null)) box.append(rowsEl(o.rows[seat], false));
    spot.append(box);
  }
}

/** Avomarjapussi's face-up columns: [card or null, whether a face-down card lies beneath]. */
function rowsEl(columns, mine) {
  const row = document.createElement("div");
  row.className = "rows";
  for (const [card, covered] of columns) {
    const col = document.createElement("div");
    col.className = "column";
    if (covered) col.append(makeBack(true));
    if (card) {
      const el = mine ? handCard(card) : makeCard(card, { small: true });
      col.append(el);
      col.classList.add("has-top");
    }
    if (!card && !covered) col.classList.add("empty");
    row.append(col);
  }
  return row;
}

// Trumps, on the felt where a player looks for them: the trump card itself while it
// is shown (Tute's upcard under the stock), else the suit; and the stock left.
function renderTrump() {
  const o = S.obs;
  const box = $("trump-corner");
  box.hidden = !o.trump && o.stock_size == null;
  if (box.hidden) return;
  const label = document.createElement("span");
  label.className = "trump-label";
  label.textContent = t("trump");
  const parts = [label];
  if (o.trump_card) parts.push(makeCard(o.trump_card, { small: true }));
  else if (o.trump) {
    const suit = document.createElement("span");
    suit.className = "trump-suit";
    suit.innerHTML = suitIcon(o.trump, S.deck, "1.8em");
    parts.push(suit);
  } else {
    const none = document.createElement("span");
    none.textContent = t("noTrump");
    parts.push(none);
  }
  if (o.stock_size != null) {
    const stock = document.createElement("span");
    stock.className = "trump-stock";
    stock.textContent = t("stock", { n: o.stock_size });
    parts.push(stock);
  }
  box.replaceChildren(...parts);
  box.dataset.trump = o.trump || "";
}

function renderTrick() {
  const o = S.obs;
  const box = $("trick");
  box.replaceChildren();
  let cards = o.trick || [];
  let winner = null;
  if (!cards.length && S.linger) {
    cards = S.linger.cards;
    winner = S.linger.winner;
  }
  box.classList.toggle("finished", winner != null);
  box.dataset.count = String(cards.length);
  box.dataset.seats = String(o.players);
  cards.forEach(([seat, card], i) => {
    const el = makeCard(card);
    el.classList.add(`at-${position(seat)}`);
    el.dataset.seat = String(seat);
    el.dataset.testid = "trick-card";
    el.style.zIndex = String(i + 1);
    if (winner === seat) el.classList.add("winner");
    box.append(el);
  });
}

function handCard(card) {
  const el = makeCard(card);
  el.dataset.testid = "card";
  el.tabIndex = 0;
  el.addEventListener("click", () => onCardClick(card));
  el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onCardClick(card); } });
  return el;
}

function renderControls() {
  const o = S.obs;
  if (!o) return;
  const c = ctx();
  const { single, multi, other } = classify(S.legal);
  const myTurn = S.seat != null && S.legal.length > 0 && !S.over;
  const choosable = new Set(multi.flatMap((m) => [...m.cards]));
  $("hint-btn").hidden = !(myTurn && S.table && S.table.practice);

  // Status: whose turn, and what to do.
  const status = $("status");
  status.classList.toggle("mine", myTurn);
  if (S.over) status.textContent = t("matchOver");
  else if (myTurn) status.innerHTML = `<b>${esc(t("yourTurn"))}</b> · ${prompt(o, S.legal, multi.length ? multi[0].cards.size : 0, c)}`;
  else if (S.thinking && S.thinking.seat === o.current_player) {
    // A bot's turn: say it is thinking, and why it may take a while right after a server start.
    status.textContent = t("botThinking", { name: seatName(o.current_player) }) +
      (S.thinking.starting ? ` ${t("botsStarting")}` : "");
  } else if (o.current_player != null) status.textContent = t("waitingFor", { name: seatName(o.current_player) });
  else status.textContent = "";
  if (S.seat == null) status.textContent = `${t("spectator")} · ${status.textContent}`;
  const clock = document.createElement("span");
  clock.className = "turn-clock";
  clock.dataset.testid = "turn-clock";
  status.append(clock);
  tickClock();

  // Non-card actions as buttons; numeric bids and raises as a strip of chips.
  const actions = $("actions");
  actions.replaceChildren();
  const strips = new Map();
  for (const a of other) {
    const [verb, arg] = a.split(" ");
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "action";
    btn.dataset.testid = "action";
    btn.dataset.action = a;
    btn.innerHTML = actionLabel(a, o, c);
    btn.disabled = S.pending;
    btn.addEventListener("click", () => act(a));
    if ((verb === "bid" || verb === "raise") && /^\d+$/.test(arg)) {
      if (!strips.has(verb)) {
        const strip = document.createElement("div");
        strip.className = "chip-strip";
        strip.innerHTML = `<span class="strip-label">${esc(verb === "bid" ? t("act_bid") : t("act_raise"))}</span>`;
        const scroller = document.createElement("div");
        scroller.className = "chips";
        strip.append(scroller);
        strips.set(verb, scroller);
        actions.append(strip);
      }
      btn.classList.add("num");
      strips.get(verb).append(btn);
    } else {
      if (verb === "pass" || verb === "answer" && arg === "no") btn.classList.add("quiet");
      actions.append(btn);
    }
  }

  // Selection mode for give/discard of several cards.
  const sel = $("selection");
  sel.hidden = !(myTurn && multi.length);
  if (multi.length) {
    for (const card of [...S.selection]) if (!choosable.has(card)) S.selection.delete(card);
    const size = multi[0].cards.size;
    const match = matchingSelection(multi);
    $("selection-count").textContent = `${actionVerbLabel(multi[0].verb)} · ${t("selectedNofM", { k: S.selection.size, n: size })}`;
    const confirm = $("confirm");
    confirm.disabled = !match || S.pending;
    confirm.dataset.action = match ? match.action : "";
  }

  // The hand (and, in Avomarjapussi, our own face-up columns).
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("waiting", !myTurn);
  const mark = (el, card) => {
    const legal = myTurn && !S.pending && (multi.length ? choosable.has(card) : single.has(card));
    el.dataset.legal = legal ? "true" : "false";
    if (S.selection.has(card)) el.classList.add("selected");
    if (myTurn && S.hint && S.hint.seq === S.seq && S.hint.action.split(" ").slice(1).includes(card)) {
      el.classList.add("hinted");
    }
  };
  const ownRows = S.seat != null && o.rows && o.rows[S.seat];
  document.body.classList.toggle("own-rows", !!ownRows);
  if (ownRows) {
    const rows = rowsEl(o.rows[S.seat], true);
    rows.classList.add("my-rows");
    rows.querySelectorAll(".card[data-testid=card]").forEach((el) => mark(el, el.dataset.card));
    hand.append(rows);
  }
  const line = document.createElement("div");
  line.className = "hand-line";
  for (const card of o.hand || []) {
    const el = handCard(card);
    mark(el, card);
    line.append(el);
  }
  hand.append(line);
  layoutHand();
}

function actionVerbLabel(verb) {
  return verb === "discard" ? t("act_discard") : t("act_give");
}

/** Overlap the hand's cards so they always fit on one line. */
function layoutHand() {
  const line = document.querySelector("#hand .hand-line");
  if (!line) return;
  const cards = [...line.children];
  if (!cards.length) return;
  const width = line.clientWidth;
  const n = cards.length;
  line.style.removeProperty("--cw");
  let cw = cards[0].getBoundingClientRect().width || 80;
  // Shrink the cards rather than let more than ~45% of each hide under the next:
  // a tap (or a test's click) on a card's centre must reach that card.
  const fit = width / (1 + 0.56 * (n - 1));
  if (n > 1 && fit < cw) {
    cw = Math.max(40, fit);
    line.style.setProperty("--cw", `${cw}px`);
  }
  const step = n > 1 ? Math.min(cw + 6, (width - cw) / (n - 1)) : 0;
  cards.forEach((el, i) => { el.style.marginLeft = i === 0 ? "0" : `${step - cw}px`; });
}
window.addEventListener("resize", layoutHand);

/** A club tournament's table links back to its tournament: name, round and table number. */
async function loadClubLink(id) {
  if (!id || S.club !== undefined) return;
  S.club = null;
  try {
    const res = await fetch(`/api/club/tables/${encodeURIComponent(id)}`);
    if (res.ok) S.club = await res.json();
  } catch { /* offline: the link waits for the next welcome */ S.club = undefined; }
  renderClubLink();
}

function renderClubLink() {
  const link = $("club-of-table");
  link.hidden = !S.club;
  if (!S.club) return;
  link.href = `/club/${encodeURIComponent(S.club.id)}`;
  link.textContent = t("clubOfTable", { name: S.club.name, round: S.club.round, table: S.club.board });
}

function renderInfo() {
  renderClubLink();
  const c = ctx();
  const rows = infoRows(S.obs, c);
  const o = S.obs;
  const tw = o.tricks_won || [];
  if (tw.length && tw.length !== o.players) rows.unshift([t("tricks"), perSide(tw)]);
  rows.unshift([t("dealer"), esc(seatName(o.dealer))]);
  $("info").innerHTML = rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("");
}

function trickHTML(trick, number) {
  const cards = trick.cards.map(([s, card]) => `<span class="${s === trick.winner ? "win" : ""}" title="${esc(seatName(s))}">${cardRef(card)}</span>`).join(" ");
  return `<span class="tn">${esc(t("trickN", { n: number }))}</span> ${cards} <span class="muted">→ ${esc(seatName(trick.winner))}</span>`;
}

function renderHistory() {
  const c = ctx();
  const o = S.obs;
  const tricks = o.tricks || [];
  const now = tricks.length
    ? `<ol class="tricks">${tricks.map((tr, i) => `<li>${trickHTML(tr, i + 1)}</li>`).join("")}</ol>`
    : `<p class="muted">${esc(t("noHistory"))}</p>`;
  // a hand opened to read (its costs, say) stays open while the table re-renders
  const opened = new Set([...$("history").querySelectorAll("details[open]")].map((d) => d.dataset.hand));
  const earlier = S.hands.length
    ? S.hands.slice().reverse().map((h) => `<details data-hand="${h.number}"${opened.has(String(h.number)) ? " open" : ""}><summary>${esc(t("handN", { n: h.number }))}</summary>` +
      `<ul>${handSummary(h.prev, c).map((l) => `<li>${l}</li>`).join("")}</ul>` +
      (h.prev.final_trick ? `<p class="small">${esc(t("lastTrick"))}: ${trickHTML(h.prev.final_trick, "✓").replace(/<span class="tn">.*?<\/span>/, "")}</p>` : "") +
      reviewHTML(h.number) + `</details>`).join("")
    : `<p class="muted">${esc(t("noHistory"))}</p>`;
  $("history").innerHTML = `<h2>${esc(t("history"))}</h2><h3>${esc(t("thisHand"))}</h3>${now}<h3>${esc(t("earlierHands"))}</h3>${earlier}`;
}

// ------------------------------------------------------------ analysis and hints

/** What a play cost, in the review's units: "best", "−2 tricks", "−13 points". */
function costText(cost, units) {
  if (cost === 0) return t("costBest");
  if (units === "sooli") return t("costSooli");
  if (units === "tricks") return cost === 1 ? t("costTrick1") : t("costTricks", { n: cost });
  return cost === 1 ? t("costPoint1") : t("costPoints", { n: cost });
}

function playText(action) {
  return action.startsWith("play ") ? cardRef(action.slice(5)) : actionLabel(action, S.obs, ctx());
}

function contractText(outcome) {
  const c = outcome.contract || {};
  const parts = [];
  if (c.contract != null) parts.push(`<b>${esc(typeof c.contract === "string" ? t(c.contract) : c.contract)}</b>`);
  if (c.declarer != null) parts.push(`${esc(t("declarer"))}: ${esc(seatName(c.declarer))}`);
  if (c.soloist != null) parts.push(`${esc(t("soloist"))}: ${esc(seatName(c.soloist))}`);
  return `${parts.join(" · ")} (${perSide(outcome.points)})`;
}

/**
 * The review of hand ``number`` (server/review.py): each judged play with what it cost on
 * the true deal and the best card, each player's total, and the par next to the contract
 * played.  Plays whose cards were not all seen by the hand's end come as ``hidden``.
 */
function reviewHTML(number) {
  const r = S.reviews[number];
  if (!r) return `<p class="small muted" data-testid="review-pending">${esc(t("reviewPending"))}</p>`;
  if (r.failed) return `<p class="small muted">${esc(t("reviewFailed"))}</p>`;
  if (!r.decisions.length && S.obs && S.obs.out) {  // tute cabrero: the solver does not value it
    return `<p class="small muted" data-testid="review-nothing">${esc(t("reviewNothing"))}</p>`;
  }
  const tricks = new Map();
  for (const d of r.decisions) {
    if (!tricks.has(d.trick)) tricks.set(d.trick, []);
    tricks.get(d.trick).push(d);
  }
  const play = (d) => {
    let cost = "";
    if (d.status === "analysed") {
      cost = `<b class="cost ${d.cost ? "lost" : "best"}">${esc(costText(d.cost, r.units))}</b>`;
      // the best plays, a few of them: a long list of equals says little more
      const best = d.best.slice(0, 4).map(playText).join(", ") + (d.best.length > 4 ? ", …" : "");
      if (d.cost) cost += ` <span class="muted">(${esc(t("costBestWas"))} ${best})</span>`;
    } else {
      cost = `<span class="muted">${esc(t(d.status === "hidden" ? "costHidden" : "costTimeout"))}</span>`;
    }
    return `<span class="play-cost" data-testid="play-cost" data-action="${esc(d.action)}" data-seat="${d.seat}" ` +
      `data-status="${esc(d.status)}" data-cost="${d.cost ?? ""}">${esc(seatName(d.seat))} ${playText(d.action)} ${cost}</span>`;
  };
  const rows = [...tricks.entries()].sort((a, b) => a[0] - b[0]).map(([trick, plays]) =>
    `<li><span class="tn">${esc(t("trickN", { n: trick + 1 }))}</span> ${plays.map(play).join(" · ")}</li>`).join("");
  const totals = r.totals.map((cost, seat) => `${esc(seatName(seat))}: <b>${esc(cost ? costText(cost, r.units) : "0")}</b>`).join(" · ");
  let par = "";
  if (r.actual) {
    par = `<p class="small" data-testid="par">${esc(t("played"))}: ${contractText(r.actual)}<br>` +
      (r.par ? `${esc(t("par"))}: ${contractText(r.par)}` : esc(t("parHidden"))) + `</p>`;
  }
  const hidden = r.decisions.some((d) => d.status === "hidden") ? `<p class="small muted">${esc(t("reviewHiddenNote"))}</p>` : "";
  return `<div class="review" data-testid="review" data-hand="${r.hand}"><h4>${esc(t("reviewTitle"))}</h4>` +
    `<ol class="tricks">${rows}</ol><p class="small">${esc(t("costTotals"))}: ${totals}</p>${par}${hidden}</div>`;
}

/** An action as plain text (a message shows text, not markup): a card by its name. */
function plainAction(action) {
  if (action.startsWith("play ")) return cardName(action.slice(5));
  const div = document.createElement("div");
  div.innerHTML = actionLabel(action, S.obs, ctx());
  return div.textContent;
}

function askHint() {
  if (send({ type: "hint" })) showMessage(t("hintThinking"), "info");
}

function onHint(msg) {
  if (msg.seq !== S.seq) return; // the table moved on meanwhile
  S.hint = { seq: msg.seq, action: msg.action };
  showMessage(t("hintIs", { action: plainAction(msg.action) }), "info");
  renderControls();
}

/**
 * The hand's result gives way to play: once a card of the next hand is on the table it
 * goes (the earlier hands keep it in the history).  Until then it stays within the
 * centre of the felt (style.css), clear of the seats, the hand and "Your turn".
 */
function clearResultFromPlay() {
  const box = $("result");
  if (!box.hidden && (S.obs.trick || []).length > 0) box.hidden = true;
}

function showResult(number, prev) {
  const box = $("result");
  box.innerHTML = `<div class="result-head"><b>${esc(t("handResult", { n: number }))}</b>` +
    `<button type="button" class="ghost" id="result-close" aria-label="${esc(t("close"))}">✕</button></div>` +
    `<ul>${handSummary(prev, ctx()).map((l) => `<li>${l}</li>`).join("")}</ul>`;
  box.hidden = false;
  $("result-close").addEventListener("click", () => { box.hidden = true; });
  clearTimeout(showResult.timer);
  showResult.timer = setTimeout(() => { box.hidden = true; }, 9000);
}

function toggleLastTrick() {
  const pop = $("last-trick-pop");
  if (!pop.hidden) { pop.hidden = true; return; }
  const o = S.obs;
  if (!o) return;
  const tricks = o.tricks || [];
  const last = tricks.length ? tricks[tricks.length - 1] : o.previous_hand && o.previous_hand.final_trick;
  pop.replaceChildren();
  const head = document.createElement("div");
  head.className = "pop-head";
  head.textContent = last ? `${t("lastTrick")} · ${t("wonBy", { name: seatName(last.winner) })}` : t("noLastTrick");
  pop.append(head);
  if (last) {
    const row = document.createElement("div");
    row.className = "pop-cards";
    for (const [seat, card] of last.cards) {
      const fig = document.createElement("figure");
      const el = makeCard(card, { small: true });
      el.dataset.seat = String(seat);
      if (seat === last.winner) el.classList.add("winner");
      const cap = document.createElement("figcaption");
      cap.textContent = seatName(seat);
      fig.append(el, cap);
      row.append(fig);
    }
    pop.append(row);
  }
  pop.hidden = false;
}

function renderOver() {
  const o = S.obs;
  const dlg = $("over");
  if (!S.over) { dlg.hidden = true; return; }
  if (dlg.dataset.closed === "true") return;
  // a single-hand table (a duplicate board) ends with its hand: its points, not a match's winner
  const single = Boolean(S.table && S.table.single_hand);
  $("over-title").textContent = t(single ? "handOver" : "matchOver");
  let text = single ? "" : t("matchOver");
  if (o.places && !single) {
    // several may win together (Tute cabrero: the players left): the first place
    const best = o.places.map((p, seat) => (p === 1 ? seat : null)).filter((seat) => seat != null);
    text = S.seat != null ? t(o.places[S.seat] === 1 ? "youWin" : "youLose")
      : t("seatsWin", { names: best.map(seatName).join(", ") });
  } else if (o.winner != null && !single) {
    text = S.seat != null ? (sideOf(S.seat) === o.winner ? t("youWin") : t("youLose")) : winnerText(o.winner);
  }
  $("over-winner").textContent = text;
  const points = single && o.previous_hand ? o.previous_hand.points : null;
  $("over-detail").innerHTML = `<p>${esc(t(points ? "points" : "score"))}: ${perSide(points || o.scores || [])}</p>`;
  $("record-link").href = `/api/tables/${encodeURIComponent(S.id)}/record`;
  // a tournament's table (a duplicate board) leads back to its tournament, not to a next match
  const home = S.table && S.table.home;
  $("rematch").hidden = S.seat == null || Boolean(home);  // a player asks; spectators follow
  $("home-link").hidden = !home;
  if (home) $("home-link").href = home;
  dlg.hidden = false;
}

function renderInvites() {
  const box = $("invites");
  const links = loadTableLinks(S.id);
  const others = links ? (links.seats || []).filter((s) => s.link && s.seat !== S.seat) : [];
  if (!links || (!others.length && !links.spectate)) { box.hidden = true; return; }
  const row = (label, path) => {
    const url = new URL(path, location.origin).href;
    return `<li><span class="inv-label">${esc(label)}</span><input readonly value="${esc(url)}" aria-label="${esc(label)}">` +
      `<button type="button" class="copy" data-url="${esc(url)}">${esc(t("copy"))}</button></li>`;
  };
  box.innerHTML = `<h2>${esc(t("invites"))}</h2><p class="muted small">${esc(t("inviteHelp"))}</p><ul>` +
    others.map((s) => row(`${t("seatN", { n: s.seat })} · ${seatName(s.seat)}`, s.link)).join("") +
    (links.spectate ? row(t("spectateLink"), links.spectate) : "") + "</ul>";
  box.hidden = false;
  box.querySelectorAll("button.copy").forEach((btn) => btn.addEventListener("click", () => copy(btn)));
}

async function copy(btn) {
  const url = btn.dataset.url;
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // Clipboard API needs a secure context: fall back to selecting the text.
    const input = btn.previousElementSibling;
    input.select();
    document.execCommand && document.execCommand("copy");
  }
  btn.textContent = t("copied");
  setTimeout(() => { btn.textContent = t("copy"); }, 1500);
}

// ------------------------------------------------------------ start

function main() {
  applyStatic();
  mountLangSelect($("lang"));
  onLangChange(() => { applyStatic(); renderInvites(); render(); if (S.gone) showGone(); });
  $("last-trick-btn").addEventListener("click", toggleLastTrick);
  $("last-trick-pop").addEventListener("click", () => { $("last-trick-pop").hidden = true; });
  $("hint-btn").addEventListener("click", askHint);
  $("history-btn").addEventListener("click", () => {
    $("history").scrollIntoView({ behavior: "smooth", block: "start" });
  });
  $("confirm").addEventListener("click", () => {
    const action = $("confirm").dataset.action;
    if (action) act(action);
  });
  $("selection-clear").addEventListener("click", () => { S.selection.clear(); renderControls(); });
  $("over-close").addEventListener("click", () => { $("over").hidden = true; $("over").dataset.closed = "true"; });
  $("rematch").addEventListener("click", () => { $("rematch").disabled = true; send({ type: "rematch" }); });
  // A hook for tests and local harnesses: feed server messages directly.
  window.tricktaker = { handle, state: S };
  if (S.id && location.pathname.startsWith("/t/")) connect();
}

main();
