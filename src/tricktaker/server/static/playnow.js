// The lobby's "Play now" panel: wait in the server's queue for a game, table size and rule
// set (a WebSocket, /ws/queue: docs/server.md), then go to the seat it hands over.
import { t, has, presetTitle } from "./i18n.js";
import { saveTableLinks, loadPlayer, $ } from "./common.js";

const DEFAULT_WAITS = [0, 15, 30, 60, 120];

let catalogue = null; // the lobby's normalised /api/games
let info = { waits: DEFAULT_WAITS, turn_time: 45, queues: [] }; // /api/queues
let socket = null;
let choice = null; // what we wait for: the join message without its type
let waiting = null; // the last "queued" message, and when it came
let ticker = null;
let retry = 0;

/** This browser's own random id: the server keeps one place in the queues per browser. */
function browserId() {
  const key = "tricktaker:browser";
  let id = localStorage.getItem(key);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(key, id);
  }
  return id;
}

const currentGame = () => catalogue.games.find((g) => g.name === $("now-game").value);
const presetPlayers = (game, name) => {
  const preset = game.presets.find((p) => p.name === name);
  return preset && preset.options && preset.options.players != null ? Number(preset.options.players) : null;
};

function renderGame() {
  const game = currentGame();
  if (!game) return;
  const size = $("now-size").value;
  const preset = $("now-preset").value;
  $("now-size").replaceChildren(...game.players.map((n) => new Option(t("playersN", { n }), String(n))));
  if (game.players.includes(Number(size))) $("now-size").value = size;
  $("now-preset").replaceChildren(new Option(t("presetNone"), ""),
    ...game.presets.map((p) => new Option(presetTitle(p.name), p.name)));
  if (game.presets.some((p) => p.name === preset)) $("now-preset").value = preset;
  renderOthers();
}

/** A rule set made for a table size sets the size; a size it is not made for clears it. */
function presetChanged() {
  const players = presetPlayers(currentGame(), $("now-preset").value);
  if (players != null) $("now-size").value = String(players);
  renderOthers();
}

function sizeChanged() {
  const players = presetPlayers(currentGame(), $("now-preset").value);
  if (players != null && players !== Number($("now-size").value)) $("now-preset").value = "";
  renderOthers();
}

function renderWaits() {
  const select = $("now-wait");
  const keep = select.value || localStorage.getItem("tricktaker:wait") || "30";
  select.replaceChildren(...info.waits.map((s) => new Option(
    s === 0 ? t("waitNone") : s < 60 ? t("secondsN", { n: s }) : t("minutesN", { n: s / 60 }), String(s))));
  if (info.waits.map(String).includes(keep)) select.value = keep;
  $("now-turn-time").textContent = t("queueTurnTime", { s: info.turn_time });
}

/** How many already wait in the chosen queue: someone may be waiting for you. */
function renderOthers() {
  const game = currentGame();
  if (!game || socket) { $("now-others").textContent = ""; return; }
  const preset = $("now-preset").value || null;
  const found = info.queues.find((q) => q.game === game.name && q.players === Number($("now-size").value)
    && (q.preset ?? null) === preset);
  $("now-others").textContent = found ? t("queueOthersN", { n: found.waiting }) : "";
}

async function refresh() {
  try {
    const res = await fetch("/api/queues");
    if (res.ok) info = { ...info, ...(await res.json()) };
  } catch { /* the lobby's table list says when the server is gone */ }
  renderOthers();
}

function renderWaiting() {
  if (!waiting) return;
  const { message, at } = waiting;
  const left = Math.max(0, Math.ceil(message.bots_in - (Date.now() - at) / 1000));
  $("now-status").textContent = t("queueWaiting", { k: message.waiting, n: message.players, s: left });
}

function setBusy(busy) {
  for (const id of ["now-game", "now-size", "now-preset", "now-wait"]) $(id).disabled = busy;
  $("now-join").hidden = busy;
  $("now-leave").hidden = !busy;
}

function stop() {
  clearInterval(ticker);
  ticker = null;
  waiting = null;
  const old = socket;
  socket = null;
  if (old) old.close();
  setBusy(false);
}

function tell(message) {
  const key = has(`queueErr_${message.code}`) ? `queueErr_${message.code}` : `err_${message.code}`;
  const told = has(key) ? t(key, message) : message.message;
  $("now-error").textContent = message.code === "bad_request" ? `${told} (${message.message})` : told;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/queue`);
  socket = ws;
  // A signed-in person's secret goes with them (the server's player_of hook, issue 23 Players).
  const player = loadPlayer();
  ws.onopen = () => ws.send(JSON.stringify({ type: "join", ...choice, ...(player ? { secret: player.secret } : {}) }));
  ws.onmessage = (ev) => {
    const message = JSON.parse(ev.data);
    if (message.type === "queued") {
      retry = 0;
      waiting = { message, at: Date.now() };
      renderWaiting();
    } else if (message.type === "seated") {
      const seats = message.seats.map((s) => (s.seat === message.seat
        ? { ...s, token: message.token, link: message.link } : s));
      saveTableLinks(message.id, { seats, spectate: message.spectate, mine: message.seat });
      socket = null; // leaving the page closes it: we are no longer waiting
      $("now-status").textContent = t("queueSeated");
      location.href = message.link;
    } else if (message.type === "error") {
      if (message.code === "already_queued" && retry > 0) {
        ws.close(); // our old connection is not closed on the server yet: onclose tries again
        return;
      }
      tell(message);
      stop();
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return; // we left, or were seated
    // the server restarted or the network dropped: the queue is in its memory, join again
    $("now-status").textContent = t("queueReconnecting");
    waiting = null;
    retry = Math.min(retry + 1, 4);
    setTimeout(() => { if (socket === ws) connect(); }, 500 * 2 ** retry);
  };
}

function join(ev) {
  ev.preventDefault();
  if (socket) return;
  const game = currentGame();
  choice = {
    game: game.name,
    players: Number($("now-size").value),
    preset: $("now-preset").value || null,
    wait: Number($("now-wait").value),
    browser: browserId(),
  };
  localStorage.setItem("tricktaker:wait", $("now-wait").value);
  $("now-error").textContent = "";
  $("now-status").textContent = t("queueJoining");
  setBusy(true);
  renderOthers();
  ticker = setInterval(renderWaiting, 1000);
  connect();
}

function leave() {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "leave" }));
  stop();
  $("now-status").textContent = "";
  refresh();
}

/** Fill the panel once the lobby has the catalogue; again on a change of language. */
export function renderPlayNow(lobbyCatalogue) {
  const first = catalogue == null;
  catalogue = lobbyCatalogue;
  const select = $("now-game");
  const keep = select.value || localStorage.getItem("tricktaker:lastGame");
  select.replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  if (keep && catalogue.games.some((g) => g.name === keep)) select.value = keep;
  renderGame();
  renderWaits();
  renderWaiting();
  if (first) {
    select.addEventListener("change", renderGame);
    $("now-preset").addEventListener("change", presetChanged);
    $("now-size").addEventListener("change", sizeChanged);
    $("now-form").addEventListener("submit", join);
    $("now-leave").addEventListener("click", leave);
    refresh().then(renderWaits);
    setInterval(refresh, 4000);
  }
}
