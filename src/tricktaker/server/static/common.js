// Helpers shared by the lobby and the table page.
import { t, has } from "./i18n.js";

const asList = (x) => (Array.isArray(x) ? x : x && typeof x === "object"
  ? Object.entries(x).map(([name, v]) => (v && typeof v === "object" && !Array.isArray(v) ? { name, ...v } : { name, value: v }))
  : []);

/**
 * /api/games in one shape, whatever small differences the server's JSON has
 * (lists or name-keyed objects): {games: [{name, title, players: [n], presets:
 * [{name, options}], options: [{name, default, doc, choices, minimum, maximum}],
 * deck}], bots: [{name, doc}], defaultBot}.
 */
export function normaliseCatalogue(data) {
  const games = asList(data.games ?? data).map((g) => ({
    name: g.name,
    title: g.title || g.name,
    summary: g.summary || g.doc || "",
    players: (Array.isArray(g.players) ? g.players : [g.players ?? 4]).map(Number),
    deck: g.deck || "french",
    options: asList(g.options),
    presetPlayers: g.preset_players || {},
    presets: asList(g.presets).map((p) => (typeof p === "string"
      ? { name: p, options: null } // values unknown: the server sent only the name
      : { name: p.name, title: p.title, options: p.options || Object.fromEntries(Object.entries(p).filter(([k]) => !["name", "title", "doc"].includes(k))) })),
  }));
  const bots = asList(data.bots).map((b) => (typeof b === "string" ? { name: b } : b));
  // Level order: weakest first, pimc (the strongest) last.
  const rank = { random: 0, rules: 1, ismcts: 2, pimc: 3 };
  bots.sort((a, b) => (rank[a.name] ?? 9) - (rank[b.name] ?? 9));
  const defaultBot = data.default_bot || data.defaultBot || (bots.find((b) => b.name === "pimc") || bots[0] || {}).name;
  return { games, bots, defaultBot };
}

/** A bot's name as a level ("Level 4 · strongest (PIMC)"). */
export const botLabel = (name) => (has(`bot_${name}`) ? t(`bot_${name}`) : name || "bot");

// Invite links live in localStorage per table: the server shows each token only once.
const linkKey = (id) => `tricktaker:table:${id}`;

export function saveTableLinks(id, value) {
  try { localStorage.setItem(linkKey(id), JSON.stringify({ ...value, saved: Date.now() })); } catch { /* full */ }
}

export function loadTableLinks(id) {
  try { return JSON.parse(localStorage.getItem(linkKey(id)) || "null"); } catch { return null; }
}

// Small inline icons (emoji fonts are not everywhere).
export const ICON_PERSON = `<svg class="icon" viewBox="0 0 20 20" width="1em" height="1em" aria-hidden="true" fill="currentColor">` +
  `<circle cx="10" cy="6" r="4"/><path d="M2 19c0-5 4-8 8-8s8 3 8 8z"/></svg>`;
export const ICON_BOT = `<svg class="icon" viewBox="0 0 20 20" width="1em" height="1em" aria-hidden="true" fill="currentColor">` +
  `<rect x="3" y="5" width="14" height="12" rx="3"/><rect x="9" y="1" width="2" height="4"/>` +
  `<circle cx="7.5" cy="10.5" r="1.6" fill="#fff"/><circle cx="12.5" cy="10.5" r="1.6" fill="#fff"/></svg>`;

// The player of this browser (issue 23): {id, nickname, secret}, made in one click in the lobby.
// The secret is the identity: it goes to the server in the X-Player-Secret header and in a join.
const PLAYER_KEY = "tricktaker:player";

export function loadPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return p && typeof p.secret === "string" && typeof p.id === "string" ? p : null;
  } catch { return null; }
}

export function savePlayer(player) {
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: player.id, nickname: player.nickname, secret: player.secret }));
}

export function forgetPlayer() {
  localStorage.removeItem(PLAYER_KEY);
}

/** Headers for an API call: the player's secret when this browser has one. */
export function playerHeaders(headers = {}) {
  const player = loadPlayer();
  return player ? { ...headers, "X-Player-Secret": player.secret } : headers;
}

/** The element with that id. */
export const $ = (id) => document.getElementById(id);

/** A new element: properties, dataset entries and children in one call (null children are left out). */
export function el(tag, { dataset = {}, ...props } = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const [k, v] of Object.entries(dataset)) node.dataset[k] = v;
  node.append(...children.filter((c) => c != null));
  return node;
}
