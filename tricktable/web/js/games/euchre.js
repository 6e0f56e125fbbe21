// Euchre: order up / pass, name a suit, go alone, the dealer's discard; the
// up-card in the middle while trump is being made.

import { base } from "./base.js";
import { t } from "../i18n.js";
import { parseCard } from "../cards.js";

// In hand: trumps (bowers first) at the right, the other suits alternating colours.
const PLAIN = ["9", "10", "J", "Q", "K", "A"];
const SAME_COLOUR = { C: "S", S: "C", D: "H", H: "D" };

function power(card, trump) {
  const [rank, suit] = parseCard(card) || ["9", "C"];
  if (trump && rank === "J" && suit === trump) return 1000;
  if (trump && rank === "J" && suit === SAME_COLOUR[trump]) return 900;
  if (suit === trump) return 800 + PLAIN.indexOf(rank);
  const order = ["C", "D", "S", "H"].filter((s) => s !== trump);
  return order.indexOf(suit) * 10 + PLAIN.indexOf(rank);
}

export const euchre = {
  ...base,

  actionLabel(game, action) {
    const call = /^call ([CDHS])$/.exec(action);
    if (call) return t("euchre.action.call", { suit: t(`suit.${call[1]}`) });
    return base.actionLabel(game, action);
  },

  actionSuit(action) {
    const call = /^call ([CDHS])$/.exec(action);
    return call ? call[1] : null;
  },

  bubble(game, text) {
    if (text.startsWith("play ")) return "";
    if (text.startsWith("discard")) return t("euchre.bubble.discard");
    return this.actionLabel(game, text);
  },

  sortHand(cards, view) {
    return [...cards].sort((a, b) => power(a, view.trump) - power(b, view.trump));
  },

  prompt(view) {
    if (view.terminal || view.to_move !== 0) return base.prompt.call(this, view);
    const phase = view.phase;
    if (phase === "round 1") return t("euchre.prompt.round1", { suit: t(`suit.${view.up_card.slice(-1)}`) });
    if (phase === "round 2") return t("euchre.prompt.round2");
    if (phase === "alone?") return t("euchre.prompt.alone");
    if (phase === "discard") return t("euchre.prompt.discard");
    return t("euchre.prompt.play");
  },

  facts(view) {
    const facts = [[t("table.dealer"), this.seatName(view.dealer)]];
    if (view.trump) facts.push([t("table.trump"), { suit: view.trump, text: t(`suit.${view.trump}`) }]);
    if (view.maker !== null && view.maker !== undefined) {
      const who = this.seatName(view.maker);
      facts.push([t("euchre.maker"), view.alone ? t("euchre.maker_alone", { name: who }) : who]);
    }
    const [us, them] = [view.tricks_won[0], view.tricks_won[1]];
    facts.push([t("table.tricks"), t("table.us_them", { us, them })]);
    return facts;
  },

  centre(view) {
    if (view.phase !== "round 1" && view.phase !== "round 2") return null;
    return { card: view.up_card, down: view.phase === "round 2", label: t("euchre.up_card") };
  },

  linePoints(line) {
    // The makers' trick count explains the score; it is not worth points itself.
    return line.key === "tricks" ? "" : base.linePoints(line);
  },

  lineText(game, line) {
    if (line.key === "tricks") return t("euchre.line.tricks", { n: line.points });
    return base.lineText(game, line);
  },
};
