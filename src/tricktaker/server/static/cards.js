// Playing cards drawn as SVG in code: no image files, crisp at any size.
// Card texts are the engine's canonical ones: French "AS", "TH", "7C";
// Spanish "1O", "12C", "10E", "3B" (rank number, then suit letter).

const NS = "http://www.w3.org/2000/svg";

// Suit symbols in a 100x100 box, centred on (50, 50).
const SYMBOLS = {
  S: `<path d="M50 4C50 4 10 38 10 60c0 15 12 23 24 23 7 0 12-3 14-7-1 10-6 17-14 21h32c-8-4-13-11-14-21 2 4 7 7 14 7 12 0 24-8 24-23C90 38 50 4 50 4z"/>`,
  H: `<path d="M50 92C22 68 5 52 5 31 5 16 17 6 31 6c9 0 16 5 19 12 3-7 10-12 19-12 14 0 26 10 26 25 0 21-17 37-45 61z"/>`,
  D: `<path d="M50 3 87 50 50 97 13 50z"/>`,
  C: `<circle cx="50" cy="27" r="20"/><circle cx="27" cy="58" r="20"/><circle cx="73" cy="58" r="20"/>` +
     `<path d="M45 50q2 30-12 47h34c-14-17-12-47-12-47z"/>`,
  // Spanish suits: a coin, a goblet, a straight sword, a knotty baton.
  O: `<circle cx="50" cy="50" r="42" fill="#e8b923" stroke="#8a6400" stroke-width="6"/>` +
     `<circle cx="50" cy="50" r="24" fill="none" stroke="#8a6400" stroke-width="5"/>` +
     `<circle cx="50" cy="50" r="7" fill="#8a6400"/>`,
  Cs: `<path d="M16 8h68c0 30-12 46-28 50v18c0 6 14 8 18 14H26c4-6 18-8 18-14V58C28 54 16 38 16 8z"/>` +
      `<path d="M22 16h56" stroke="#fff" stroke-width="4" opacity=".55"/>`,
  E: `<path d="M50 1 63 15v53H37V15z"/><rect x="16" y="66" width="68" height="11" rx="4"/>` +
     `<rect x="43" y="76" width="14" height="14"/><circle cx="50" cy="92" r="8"/>`,
  B: `<path d="M34 97 24 24C22 9 37 2 50 2s28 7 26 22L66 97z"/>` +
     `<g fill="#174d1a"><ellipse cx="42" cy="32" rx="7" ry="5"/><ellipse cx="60" cy="52" rx="7" ry="5"/>` +
     `<ellipse cx="44" cy="72" rx="6" ry="4"/></g>`,
};

const FRENCH_COLOURS = { S: "#111111", C: "#111111", H: "#c8102e", D: "#c8102e" };
// The traditional colours of the Spanish suits; text tones are darker for contrast.
const SPANISH_COLOURS = { O: "#a67c00", C: "#c8102e", E: "#1f4fbf", B: "#2e7d32" };
const SPANISH_FILLS = { O: "#e8b923", C: "#c8102e", E: "#1f4fbf", B: "#2e7d32" };

const FRENCH_RE = /^([2-9TJQKA])([SHDC])$/;
const SPANISH_RE = /^(1[0-2]|[1-7])([OCEB])$/;

/** Parse a card text: {rank, suit, deck} or null when it is not a card. */
export function parseCard(text, deck = null) {
  if (typeof text !== "string") return null;
  const t = text.toUpperCase();
  if (deck !== "spanish") {
    const m = FRENCH_RE.exec(t);
    if (m) return { rank: m[1], suit: m[2], deck: "french", text: t };
  }
  if (deck !== "french") {
    const m = SPANISH_RE.exec(t);
    if (m) return { rank: m[1], suit: m[2], deck: "spanish", text: t };
  }
  return null;
}

/** Whether a token of an action text names a card (so "20", "H" and "120" do not). */
export const isCard = (token, deck) => parseCard(token, deck) !== null;

/** The colour a suit letter is drawn in. */
export function suitColour(suit, deck) {
  return deck === "spanish" ? SPANISH_COLOURS[suit] : FRENCH_COLOURS[suit];
}

/** A suit symbol as a small inline SVG string (for labels, logs, buttons). */
export function suitIcon(suit, deck, size = "1em") {
  const body = symbolBody(suit, deck);
  const fill = deck === "spanish" ? SPANISH_FILLS[suit] : FRENCH_COLOURS[suit];
  return `<svg class="suit-icon" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `aria-hidden="true" fill="${fill}">${body}</svg>`;
}

function symbolBody(suit, deck) {
  if (deck === "spanish") return suit === "C" ? SYMBOLS.Cs : SYMBOLS[suit];
  return SYMBOLS[suit];
}

// Pip positions (x, y) on a 100x140 card face for number cards.
const PIPS = {
  1: [[50, 70]],
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[34, 30], [66, 30], [34, 110], [66, 110]],
  5: [[34, 30], [66, 30], [50, 70], [34, 110], [66, 110]],
  6: [[34, 30], [66, 30], [34, 70], [66, 70], [34, 110], [66, 110]],
  7: [[34, 30], [66, 30], [50, 50], [34, 70], [66, 70], [34, 110], [66, 110]],
  8: [[34, 30], [66, 30], [50, 50], [34, 70], [66, 70], [50, 90], [34, 110], [66, 110]],
  9: [[34, 28], [66, 28], [34, 56], [66, 56], [50, 70], [34, 84], [66, 84], [34, 112], [66, 112]],
  10: [[34, 28], [66, 28], [50, 42], [34, 56], [66, 56], [34, 84], [66, 84], [50, 98], [34, 112], [66, 112]],
};

function indexLabel(card) {
  if (card.deck === "french") return card.rank === "T" ? "10" : card.rank;
  return card.rank; // Spanish cards print their number, 10-12 included
}

function faceLetter(card, names) {
  // Court cards get a framed letter; the letters follow the UI language when given.
  if (card.deck === "french") return (names && names[card.rank]) || card.rank;
  return (names && names[card.rank]) || { 10: "S", 11: "C", 12: "R" }[card.rank];
}

/**
 * An SVG element showing a card face.  `courtLetters` optionally maps court
 * ranks to letters in the current language (K -> "K", Q -> "D" ...).
 */
export function cardSVG(text, deck = null, courtLetters = null) {
  const card = parseCard(text, deck);
  if (!card) return backSVG();
  const colour = suitColour(card.suit, card.deck);
  const fill = card.deck === "spanish" ? SPANISH_FILLS[card.suit] : colour;
  const sym = symbolBody(card.suit, card.deck);
  const label = indexLabel(card);
  const small = label.length > 1 ? 22 : 26;
  const parts = [
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fffdf7" stroke="#555" stroke-width="1.5"/>`,
  ];
  if (card.deck === "spanish") {
    // The Spanish deck's frame line ("pinta") hints the suit on the card edge.
    parts.push(`<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="${fill}" stroke-width="1.2" opacity=".6"/>`);
  }
  // Corner indices: top-left upright, bottom-right rotated.
  const corner = `<text x="13" y="27" font-size="${small}" font-weight="700" text-anchor="middle" ` +
    `font-family="system-ui, sans-serif" fill="${colour}">${label}</text>` +
    `<g transform="translate(5 32) scale(.16)" fill="${fill}">${sym}</g>`;
  parts.push(corner, `<g transform="rotate(180 50 70)">${corner}</g>`);
  const rankNum = card.deck === "french" ? ({ A: 1, T: 10 }[card.rank] ?? Number(card.rank)) : Number(card.rank);
  const court = card.deck === "french" ? "JQK".includes(card.rank) : rankNum >= 10;
  if (court) {
    // A warm light panel: a tint of the suit's colour made black suits' faces look grey, as if dimmed.
    parts.push(`<rect x="24" y="24" width="52" height="92" rx="4" fill="#f7edcf" stroke="${fill}" stroke-width="1.5"/>`,
      `<text x="50" y="66" font-size="34" font-weight="700" text-anchor="middle" font-family="Georgia, serif" fill="${colour}">${faceLetter(card, courtLetters)}</text>`,
      `<g transform="translate(35 76) scale(.3)" fill="${fill}">${sym}</g>`);
  } else if (rankNum === 1) {
    parts.push(`<g transform="translate(22 42) scale(.56)" fill="${fill}">${sym}</g>`);
  } else {
    for (const [x, y] of PIPS[rankNum] || []) {
      const flip = y > 75 ? ` rotate(180 50 50)` : "";
      parts.push(`<g transform="translate(${x - 10} ${y - 10}) scale(.2)${flip}" fill="${fill}">${sym}</g>`);
    }
  }
  return makeSVG(parts.join(""));
}

/** The back of a card: a red lattice in a white border. */
export function backSVG() {
  let lattice = "";
  for (let i = -140; i < 140; i += 12) {
    lattice += `M${i} 0l140 140M${i + 140} 0l-140 140`;
  }
  return makeSVG(
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#555" stroke-width="1.5"/>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="#8e1b2f"/>` +
    `<svg x="8" y="8" width="84" height="124"><path d="${lattice}" stroke="#c44a5c" stroke-width="2" fill="none"/></svg>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="none" stroke="#f2d6a2" stroke-width="2"/>`);
}

function makeSVG(inner) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 140");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = inner;
  return svg;
}
