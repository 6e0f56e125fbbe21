// Our own card faces, drawn as SVG: a big corner index (readable when cards
// overlap on a phone), suit shapes as paths (no font needed), and a simple
// framed letter for court cards.  Only whitelisted ranks and suits are ever put
// into markup, so a card text from anywhere cannot inject anything.

const SUIT_PATHS = {
  H: '<path d="M50 90C22 66 6 50 6 31 6 16 17 6 30 6c9 0 16 5 20 14 4-9 11-14 20-14 13 0 24 10 24 25 0 19-16 35-44 59z"/>',
  D: '<path d="M50 4 88 50 50 96 12 50z"/>',
  S: '<path d="M50 4c16 22 44 36 44 57 0 14-11 22-23 22-8 0-14-4-17-9 1 10 5 17 13 21H33c8-4 12-11 13-21-3 5-9 9-17 9C17 83 6 75 6 61 6 40 34 26 50 4z"/>',
  C: '<circle cx="50" cy="28" r="21"/><circle cx="26" cy="60" r="21"/><circle cx="74" cy="60" r="21"/>' +
     '<path d="M45 50h10c1 22 6 34 15 44H30c9-10 14-22 15-44z"/>',
};
const RED = "#c8102e";
const BLACK = "#16181d";
// The four-colour deck (a setting): clubs green and diamonds blue, so the two
// suits of one colour never look alike.
const FOUR_COLOURS = { C: "#13773a", D: "#1f4fbf", H: RED, S: BLACK };
let fourColours = false;

export function useFourColours(on) {
  fourColours = Boolean(on);
}
const RANKS = new Set(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]);

/** Split "10H" into ["10", "H"], or null for anything that is not a card. */
export function parseCard(text) {
  const m = /^(10|[2-9JQKA])([CDHS])$/.exec(String(text).toUpperCase().replace(/^T/, "10"));
  return m && RANKS.has(m[1]) ? [m[1], m[2]] : null;
}

export function suitColor(suit) {
  if (fourColours) return FOUR_COLOURS[suit] || BLACK;
  return suit === "H" || suit === "D" ? RED : BLACK;
}

/** A suit symbol as an inline SVG string (for labels and buttons). */
export function suitSVG(suit, size = 18) {
  if (!SUIT_PATHS[suit]) return "";
  return `<svg class="suit" width="${size}" height="${size}" viewBox="0 0 100 100" aria-hidden="true" ` +
    `fill="${suitColor(suit)}">${SUIT_PATHS[suit]}</svg>`;
}

function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const turn = flip ? ` rotate(180 ${size / 2} ${size / 2})` : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2})${turn} scale(${s})">${SUIT_PATHS[suit]}</g>`;
}

function centre(rank, suit) {
  if (rank === "J" || rank === "Q" || rank === "K") {
    // Court cards: a framed panel with the letter and two suit marks.
    return `<rect x="31" y="26" width="38" height="88" rx="6" fill="none" stroke="${suitColor(suit)}" stroke-width="2.5"/>` +
      `<text x="50" y="85" text-anchor="middle" font-size="40" font-weight="700" ` +
      `font-family="Georgia, 'DejaVu Serif', serif">${rank}</text>` +
      pip(suit, 50, 41, 16) + pip(suit, 50, 100, 14, true);
  }
  if (rank === "A") return pip(suit, 50, 72, 50);
  return pip(suit, 50, 72, 40);
}

/** The full face of a card as an SVG string (viewBox 100×140). */
export function cardSVG(text) {
  const parsed = parseCard(text);
  if (!parsed) return backSVG();
  const [rank, suit] = parsed;
  const color = suitColor(suit);
  const index = `<text x="${rank === "10" ? 5 : 9}" y="31" font-size="${rank === "10" ? 27 : 31}" font-weight="700" ` +
    `font-family="'DejaVu Sans', Arial, sans-serif" letter-spacing="-2">${rank}</text>` + pip(suit, 18, 46, 20);
  return `<svg viewBox="0 0 100 140" class="face" aria-hidden="true">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#8a8f98" stroke-width="2"/>` +
    `<g fill="${color}">${index}<g transform="rotate(180 50 70)">${index}</g>${centre(rank, suit)}</g></svg>`;
}

export function backSVG() {
  return `<svg viewBox="0 0 100 140" class="back" aria-hidden="true">` +
    `<defs><pattern id="tt-back" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="10" height="10" fill="#234f8c"/><rect width="5" height="10" fill="#2c5fa6"/></pattern></defs>` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#8a8f98" stroke-width="2"/>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#tt-back)"/></svg>`;
}

/** The spoken name of a card ("queen of clubs"), for screen readers. */
export function cardName(text, t) {
  const parsed = parseCard(text);
  if (!parsed) return t("card.hidden");
  return t("card.name", { rank: t(`rank.${parsed[0]}`), suit: t(`suit.${parsed[1]}`) });
}
