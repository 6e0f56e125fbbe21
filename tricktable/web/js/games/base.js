// What every game's renderer provides, with defaults that work for any game
// following the protocol (actions as text, "play XX" for cards).  A game's own
// module overrides only what differs: its buttons, its table facts, its sheet.

import { parseCard } from "../cards.js";
import { has, t } from "../i18n.js";

// Plain suits in alternating colours.
const SUIT_ORDER = { C: 0, H: 1, S: 2, D: 3 };
const INFO_LINES = new Set(["tricks", "tens", "card_points"]);
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

export const base = {
  /** A seat's name at this game's table (South is always the person). */
  seatName(seat) {
    return t(`seat.${seat}`);
  },

  /** The prompt while a computer player thinks and the person may act out of turn. */
  outOfTurnPrompt(name) {
    return t("table.thinking_may_announce", { name });
  },

  /** Whether ``seat`` sits the deal out (shown greyed). */
  sitsOut(view, seat) {
    return view.sitting_out === seat;
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

  /** How strong ``card`` is as a trump (higher is stronger), or null when it is
   * no trump.  A game with trumps overrides this. */
  trumpPower() {
    return null;
  },

  /** How strong a plain (non-trump) card is within its suit. */
  plainPower(card) {
    return RANK_ORDER.indexOf((parseCard(card) || ["2"])[0]);
  },

  /** Hand order for the person's setting: "trumps" puts the trumps first, "suit"
   * groups the plain suits (alternating colours) and puts the trumps last; the
   * strongest card of each group on the left. */
  sortHand(cards, view, order = "trumps") {
    const key = (card) => {
      const trump = this.trumpPower(card, view);
      if (trump !== null) return [order === "trumps" ? 0 : 9, -trump];
      const suit = (parseCard(card) || ["", "C"])[1];
      return [1 + SUIT_ORDER[suit], -this.plainPower(card)];
    };
    return [...cards].sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1] - kb[1];
    });
  },

  /** A score line that explains (tricks taken, card points, tens) rather than
   * scores: shown as text, never in a points column. */
  isInfoLine(line) {
    return INFO_LINES.has(line.key);
  },

  /** A line under the status: what the person is asked to do (only called
   * when it is his turn; the table says who is thinking otherwise). */
  prompt() {
    return t("table.your_turn");
  },

  /** Facts shown beside the trick (label, value-node pairs). */
  facts() {
    return [];
  },

  /** A per-team pair ([team of seats 0 and 2, the other]) with the person's team first
   * (a table of friends seats him anywhere: ``seatedRenderer``). */
  ours(pair) {
    return pair;
  },

  /** A per-team pair in words, the person's team first ("us 3 – them 2"; a watcher's: by team number). */
  usThem(pair) {
    const [us, them] = this.ours(pair);
    return t("table.us_them", { us, them });
  },

  /** [our team, their team] points of the match so far. */
  teamTotals(view) {
    const totals = (view.match && view.match.totals) || [0, 0, 0, 0];
    return [totals[0], totals[1]];
  },

  /** What a score line adds to its column (a line that only informs adds nothing). */
  linePoints(line) {
    return this.isInfoLine(line) ? "" : String(line.points);
  },

  /** The text of one score-sheet line. */
  lineText(game, line) {
    const key = `${game}.line.${line.key}`;
    return has(key) ? t(key, { n: line.points }) : line.text;
  },

  /** What a deal that does not count says (new cards, a hand thrown in). */
  /** Whether a deal that does not count was still played and scored (it gets a score sheet). */
  sheetForRedeal(result) {
    return false;
  },

  /** The score sheet's note on a deal that does not count. */
  redealNote(game, result) {
    return t("sheet.redeal");
  },

  redealText(game, result) {
    const line = result.lines[0];
    return line ? this.lineText(game, line) : t("sheet.redeal");
  },

  /** The extra thing shown in the middle (an up-card, a pile), or null. */
  centre() {
    return null;
  },
};
