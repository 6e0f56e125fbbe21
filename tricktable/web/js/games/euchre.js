// Euchre: order up / pass, name a suit, go alone, defend alone (option), the
// dealer's discard; the up-card in the middle while trump is being made; the
// seats sitting out greyed, the lone maker and lone defender named.

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

  /** The lone maker's partner, and (option "defend alone") the lone defender's. */
  sitsOut(view, seat) {
    const lone = view.lone_defender;
    return view.sitting_out === seat || (lone !== null && lone !== undefined && (lone + 2) % 4 === seat);
  },

  seatTally(view, seat) {
    if (view.lone_defender === seat) return t("euchre.lone_defender");
    return this.sitsOut(view, seat) ? t("euchre.sitting_out") : "";
  },

  prompt(view) {
    const phase = view.phase;
    if (phase === "round 1") {
      const ask = t("euchre.prompt.round1", { suit: t(`suit.${view.up_card.slice(-1)}`) });
      const mustGoAlone = view.options && view.options.dealers_partner_alone && view.dealer === ((view.seat || 0) + 2) % 4;
      return mustGoAlone ? `${ask} ${t("euchre.prompt.must_alone")}` : ask;
    }
    if (phase === "round 2") return t("euchre.prompt.round2");
    if (phase === "alone?") return t("euchre.prompt.alone");
    if (phase === "defend alone?") return t("euchre.prompt.defend", { name: this.seatName(view.maker) });
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
    if (view.lone_defender !== null && view.lone_defender !== undefined) {
      facts.push([t("euchre.lone_defender"), this.seatName(view.lone_defender)]);
    }
    facts.push([t("table.tricks"), this.usThem([view.tricks_won[0], view.tricks_won[1]])]);
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
