// Provably fair deals on the page (docs/fairness.md): the commitment is asked
// for before a new game and remembered, the page's own seed is mixed in, and
// once the seed is revealed the "verify" button deals every deal again here,
// with Web Crypto, and compares.

import { api } from "./api.js";
import { clear, el } from "./dom.js";
import { has, t } from "./i18n.js";
import { openDialog } from "./sheets.js";

const remembered = (id) => `tt.fair.${id}`;
const seenKey = (id) => `tt.seen.${id}`;

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

// A commitment asked for ahead, while the person looks at a table, so that a
// new game costs one request as before; ``null`` if that request failed.
let ahead = null;

function askAhead() {
  ahead = api.commitment().catch(() => null);
}

/** A new game whose deal seed the server committed to before the page chose
 * its own half. */
export async function fairNewGame(game, options, level) {
  const offer = (ahead && (await ahead)) || (await api.commitment());
  askAhead();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const clientSeed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const state = await api.newGame(game, options, level, { nonce: offer.nonce, client_seed: clientSeed });
  localStorage.setItem(remembered(state.id), JSON.stringify({ commitment: offer.commitment, client_seed: clientSeed }));
  return state;
}

/** Remember what this game showed: its commitment (first sight) and the
 * person's hand at the start of each deal, to check against the reveal. */
function note(state) {
  const fair = state.fairness;
  if (!fair) return;
  if (!load(remembered(state.id))) {
    localStorage.setItem(remembered(state.id), JSON.stringify({ commitment: fair.commitment, client_seed: null }));
  }
  const view = state.view;
  if (view.terminal || !view.match) return;
  const index = (view.match.results || []).length;
  const seen = load(seenKey(state.id)) || {};
  if (!(index in seen) && view.hand && view.hand.length) {
    seen[index] = view.hand;
    localStorage.setItem(seenKey(state.id), JSON.stringify(seen));
  }
}

/** The small "fair deal" control in the score bar (in the daily it says
 * "Ranked" or "Practice"): it opens the panel that explains, in plain words, the
 * commitment, the check and, in the daily, whether this attempt counts. */
export function renderFairness(box, state) {
  note(state);
  if (!ahead) askAhead();
  clear(box);
  const fair = state.fairness;
  if (!fair && !state.daily && !state.copy_of) return;
  // A game played on from another one's position is practice: said so, like a daily's practice attempt.
  const ranked = state.daily ? state.daily.ranked !== false : state.copy_of ? false : null;
  const label = state.daily ? (ranked ? t("fair.ranked_short") : t("fair.practice")) : state.copy_of ? t("fair.practice") : t("fair.button");
  box.append(el("button", { type: "button", class: `tool fair-button${ranked === false ? " practice" : ""}`, id: "fair-deal",
    "aria-haspopup": "dialog", onclick: () => openFairness(state) }, state.copy_of ? null : el("span", { "aria-hidden": "true" }, "✓ "), label));
}

function openFairness(state) {
  openDialog(fairnessPanel(state), "fair-dialog");
}

/** The panel: ranked or practice and why (the daily), what the commitment
 * means, and once the seed is out the check, its result wrapping on a phone. */
export function fairnessPanel(state) {
  const panel = el("div", { class: "fairness-panel" }, el("h2", {}, state.copy_of ? t("fair.practice") : t("fair.title")));
  if (state.daily) {
    const ranked = state.daily.ranked !== false;
    panel.append(el("p", { class: ranked ? "ranked-label" : "practice-label", id: "daily-kind" },
      el("strong", {}, ranked ? t("fair.ranked") : t("fair.practice")), " — ",
      ranked ? t("fair.ranked_why") : practiceReason(state.daily)));
  }
  if (state.copy_of) {
    panel.append(el("p", { class: "practice-label", id: "copy-of" }, t("fair.copy_of", { n: state.copy_of.at })));
  }
  const fair = state.fairness;
  if (fair) {
    panel.append(el("p", {}, t("fair.plain")),
      el("p", { class: "commitment" }, t("fair.commitment"), " ",
        el("code", { id: "commitment", title: fair.commitment }, fair.commitment.slice(0, 12) + "…")));
    if (!fair.revealed) {
      panel.append(el("p", { class: "reveal-when" }, state.daily ? t("fair.reveal_daily") : t("fair.reveal_end")));
    } else {
      const result = el("p", { class: "verify-result", id: "verify-result", "aria-live": "polite" });
      panel.append(el("p", {}, t("fair.check_how")), el("button", { type: "button", class: "action", id: "verify", onclick: async () => {
        clear(result).append(t("fair.checking"));
        try {
          const outcome = await verifyGame(state.id);
          result.className = `verify-result ${outcome.ok ? "ok" : "bad"}`;
          clear(result).append(outcome.ok ? t("fair.verified", { n: outcome.deals }) : t("fair.not_verified", { why: outcome.problems.join("; ") }));
        } catch (error) {
          result.className = "verify-result bad";
          clear(result).append(t("fair.not_verified", { why: error.message }));
        }
      } }, t("fair.verify")), result);
    }
  }
  panel.append(el("div", { class: "buttons" }, el("button", { type: "button", class: "action primary",
    onclick: () => document.getElementById("dialog").close() }, t("sheet.close"))));
  return panel;
}

/** Why a daily attempt is practice, in the server's words when it gives them. */
export function practiceReason(daily) {
  const key = `fair.practice_reason.${daily.practice_reason}`;
  if (daily.practice_reason && has(key)) return t(key);
  return t("fair.practice_why");
}

// -- the check, step by step as docs/fairness.md says ---------------------------------
const encoder = new TextEncoder();

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

async function sha256hex(text) {
  return Array.from(await sha256(encoder.encode(text)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The random words of a seed: SHA-256(seed || 0x00 || counter), big-endian. */
class SeedStream {
  constructor(seed) {
    this.prefix = [...encoder.encode(seed), 0];
    this.counter = 0;
    this.words = [];
  }

  async word() {
    if (!this.words.length) {
      const counter = new Uint8Array(8);
      new DataView(counter.buffer).setBigUint64(0, BigInt(this.counter++));
      const block = await sha256(new Uint8Array([...this.prefix, ...counter]));
      const view = new DataView(block.buffer);
      for (let i = 0; i < 32; i += 4) this.words.push(view.getUint32(i));
    }
    return this.words.shift();
  }

  async below(n) {
    const limit = n * Math.floor(2 ** 32 / n);
    for (;;) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }
}

async function shuffled(deck, seed) {
  const cards = [...deck];
  const stream = new SeedStream(seed);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = "CDHS";
const cardText = (id) => RANKS[(id % 64) % 13] + SUITS[Math.floor((id % 64) / 13)];
const suitsOf = (ranks) => [0, 1, 2, 3].flatMap((suit) => ranks.map((rank) => suit * 13 + rank));
const NINE_TO_ACE = [7, 8, 9, 10, 11, 12];

/** Each game's deck in its starting order and how it is dealt. */
const DEALING = {
  euchre: {
    deck: suitsOf(NINE_TO_ACE),
    deal(cards, dealer) {
      const hands = [[], [], [], []];
      let at = 0;
      for (const packets of [[3, 2, 3, 2], [2, 3, 2, 3]]) {
        packets.forEach((size, offset) => {
          hands[(dealer + 1 + offset) % 4].push(...cards.slice(at, at + size));
          at += size;
        });
      }
      return { hands, rest: cards.slice(at) };
    },
  },
  doppelkopf: {
    deck: [...suitsOf(NINE_TO_ACE), ...suitsOf(NINE_TO_ACE).map((id) => id + 64)],
    deal(cards, dealer) {
      const hands = [[], [], [], []];
      for (let start = 0; start < 48; start += 12) {
        for (let offset = 0; offset < 4; offset++) {
          hands[(dealer + 1 + offset) % 4].push(...cards.slice(start + offset * 3, start + offset * 3 + 3));
        }
      }
      return { hands, rest: [] };
    },
  },
  courtpiece: {
    deck: suitsOf(RANKS.map((_, rank) => rank)),
    deal(cards, dealer) {
      const hands = [[], [], [], []];
      const right = (seat) => (seat + 3) % 4;
      let seat = right(dealer);
      let at = 0;
      for (const size of [5, 4, 4]) {
        for (let i = 0; i < 4; i++) {
          hands[seat].push(...cards.slice(at, at + size));
          at += size;
          seat = right(seat);
        }
      }
      return { hands, rest: [] };
    },
  },
};

function dealingOf(game) {
  return DEALING[game] || DEALING.courtpiece; // the six Court Piece games deal alike
}

/** Check a revealed game; ``{ok, problems, deals}``. */
export async function verifyGame(id) {
  const record = await api.record(id);
  const fair = record.fairness;
  const mine = load(remembered(id)) || {};
  const problems = [];
  if ((await sha256hex(fair.server_seed)) !== fair.commitment) problems.push(t("fair.bad_commitment"));
  if (mine.commitment && mine.commitment !== fair.commitment) problems.push(t("fair.changed_commitment"));
  if (mine.client_seed && mine.client_seed !== fair.client_seed) problems.push(t("fair.changed_client_seed"));
  const seed = fair.client_seed === null ? fair.server_seed : await sha256hex(`${fair.server_seed}/client/${fair.client_seed}`);
  if (seed !== record.seed) problems.push(t("fair.bad_seed"));
  const dealing = dealingOf(record.game);
  const seen = load(seenKey(id)) || {};
  for (const deal of record.deals) {
    const cards = await shuffled(dealing.deck, await sha256hex(`${seed}/deal/${deal.index}`));
    const { hands, rest } = dealing.deal(cards, deal.dealer);
    const same = hands.every((hand, seat) => hand.map(cardText).join(" ") === deal.hands[seat])
      && rest.map(cardText).join(" ") === deal.rest;
    if (!same) problems.push(t("fair.bad_deal", { n: deal.index + 1 }));
    const mineThen = seen[deal.index];
    const held = new Set([...hands[0], ...rest].map(cardText));
    if (mineThen && !mineThen.every((card) => held.has(card))) problems.push(t("fair.bad_hand", { n: deal.index + 1 }));
  }
  return { ok: problems.length === 0, problems, deals: record.deals.length };
}
