// What every game's renderer provides, with defaults that work for any game
// following the protocol (actions as text, "play XX" for cards).  A game's own
// module overrides only what differs: its buttons, its table facts, its sheet.

import { parseCard } from "../cards.js";
import { has, t } from "../i18n.js";

const SUIT_ORDER = { C: 0, D: 1, S: 2, H: 3 };
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

export const base = {
  /** A seat's name at this game's table (South is always the person). */
  seatName(seat) {
    return t(`seat.${seat}`);
  },

  /** The card a card-shaped action is about ("play JH" -> "JH"), else null. */
  cardOf(action) {
    const [verb, rest] = String(action).split(/ (.*)/);
    return rest && parseCard(rest) && ["play", "discard"].includes(verb) ? rest : null;
  },

  /** The label of a button for a non-card action. */
  actionLabel(game, action) {
    const key = `${game}.action.${action.replace(/ /g, "_").replace(/'/g, "")}`;
    return has(key) ? t(key) : action;
  },

  /** What a seat's action shows in its speech bubble. */
  bubble(game, text) {
    if (text.startsWith("play ")) return "";
    return this.actionLabel(game, text);
  },

  /** Hand order: by suit (alternating colours), then rank. */
  sortHand(cards) {
    const key = (c) => {
      const p = parseCard(c);
      return p ? SUIT_ORDER[p[1]] * 20 + RANK_ORDER.indexOf(p[0]) : 99;
    };
    return [...cards].sort((a, b) => key(a) - key(b));
  },

  /** A line under the status: what the person is asked to do. */
  prompt(view) {
    if (view.terminal) return t("table.match_over");
    if (view.to_move === 0) return t("table.your_turn");
    return t("table.waiting", { name: this.seatName(view.to_move) });
  },

  /** Facts shown beside the trick (label, value-node pairs). */
  facts() {
    return [];
  },

  /** [our team, their team] points of the match so far. */
  teamTotals(view) {
    const totals = (view.match && view.match.totals) || [0, 0, 0, 0];
    return [totals[0], totals[1]];
  },

  /** The text of one score-sheet line. */
  /** What a score line adds to its column (a line that only informs adds nothing). */
  linePoints(line) {
    return String(line.points);
  },

  lineText(game, line) {
    const key = `${game}.line.${line.key}`;
    return has(key) ? t(key, { n: line.points }) : line.text;
  },

  /** The extra thing shown in the middle (an up-card, a pile), or null. */
  centre() {
    return null;
  },
};
