// Euchre: order up / pass, name a suit, go alone, the dealer's discard; the
// up-card in the middle while trump is being made.

import { base } from "./base.js";
import { t } from "../i18n.js";
import { parseCard } from "../cards.js";

const PLAIN = ["9", "10", "J", "Q", "K", "A"];
const SAME_COLOUR = { C: "S", S: "C", D: "H", H: "D" };

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

  /** The bowers above the other trumps. */
  trumpPower(card, view) {
    const [rank, suit] = parseCard(card) || ["9", "C"];
    const trump = view.trump;
    if (!trump) return null;
    if (rank === "J" && suit === trump) return 100;
    if (rank === "J" && suit === SAME_COLOUR[trump]) return 90;
    return suit === trump ? PLAIN.indexOf(rank) : null;
  },

  plainPower(card) {
    return PLAIN.indexOf((parseCard(card) || ["9"])[0]);
  },

  prompt(view) {
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

  lineText(game, line) {
    if (line.key === "tricks") return t("euchre.line.tricks", { n: line.points });
    return base.lineText(game, line);
  },
};
