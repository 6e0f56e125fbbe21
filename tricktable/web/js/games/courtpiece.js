// Court Piece (Double Sar, Single Sar): choosing trump (rang) from the first five
// cards with the server's countdown, passing to the partner, new cards, changing
// trump once; in Double Sar the pile in the middle.

import { base } from "./base.js";
import { has, language, t } from "../i18n.js";
import { cardName, parseCard } from "../cards.js";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

export const courtpiece = {
  ...base,

  // Card-shaped actions: playing, and (Hidden Trump, Mendikot) hiding the trump card.
  cardOf(action) {
    const m = /^(play|hide) (\S+)$/.exec(String(action));
    return m && parseCard(m[2]) ? m[2] : null;
  },

  prompt_hide(view) {
    return view.legal.some((a) => a.startsWith("hide ")) ? t("courtpiece.prompt.hide") : null;
  },

  actionLabel(game, action) {
    const call = /^call ([CDHS])$/.exec(action);
    if (call) return t("courtpiece.action.call", { suit: t(`suit.${call[1]}`) });
    const change = /^change trump ([CDHS])$/.exec(action);
    if (change) return t("courtpiece.action.change", { suit: t(`suit.${change[1]}`) });
    const swap = /^change trump (\S+)$/.exec(action);
    if (swap && parseCard(swap[1])) return t("courtpiece.action.change_card", { card: cardName(swap[1], t) });
    return base.actionLabel("courtpiece", action);
  },

  /** A change of trump shows its suit only, under the caption "Change trump to:";
   * Hidden Trump's other cards to hide (once unfolded) their suit and rank, under
   * "Hide instead as trump:" (the suit's symbol is ``actionSuit``'s). */
  shortLabel(action) {
    const capital = (word) => word.charAt(0).toLocaleUpperCase(language()) + word.slice(1);
    const suit = /^change trump ([CDHS])$/.exec(action);
    if (suit) return { text: capital(t(`suit.${suit[1]}`)), caption: t("courtpiece.change_to") };
    const swap = /^change trump (\S{2,3})$/.exec(action);
    const card = swap && parseCard(swap[1]);
    return card ? { text: capital(t(`rank.${card[0]}`)), caption: t("courtpiece.hide_instead") } : null;
  },

  /** Hidden Trump's change of the hidden card: one button per card of the hand would
   * fill a phone, so they wait behind one "Hide another card as trump…". */
  fold(view, buttons) {
    const swaps = buttons.filter((a) => /^change trump \S{2,3}$/.test(a) && parseCard(a.slice(13)));
    return swaps.length > 2 ? { actions: swaps, primary: null, label: t("courtpiece.more_changes") } : null;
  },

  actionSuit(action) {
    const m = /^(?:call|change trump) (?:10|[2-9JQKA])?([CDHS])$/.exec(action);
    return m ? m[1] : null;
  },

  trumpPower(card, view) {
    const [rank, suit] = parseCard(card) || ["2", "C"];
    return view.trump && suit === view.trump ? RANKS.indexOf(rank) : null;
  },

  /** Out of turn the person may only ask for new cards (until his own first card). */
  outOfTurnPrompt(name) {
    return t("courtpiece.thinking_new_cards", { name });
  },

  prompt(view) {
    if (this.prompt_hide(view)) return this.prompt_hide(view);
    if (view.phase === "calling") return t("courtpiece.prompt.calling");
    if (view.phase === "partner calling") return t("courtpiece.prompt.partner_calling");
    if (view.legal.some((a) => a.startsWith("change trump"))) return t("courtpiece.prompt.change");
    return t("table.your_turn");
  },

  facts(view) {
    const facts = [[t("table.dealer"), this.seatName(view.dealer)]];
    // Be-Ranga (trump set by the first void, "trump_trick") has nobody who calls.
    const called = view.caller !== null && view.caller !== undefined && !("trump_trick" in view);
    if (called) facts.push([t("courtpiece.caller"), this.seatName(view.caller)]);
    if (view.trump) facts.push([t("table.trump"), { suit: view.trump, text: t(`suit.${view.trump}`) }]);
    facts.push([t("courtpiece.counted"), this.usThem(view.captured || [0, 0])]);
    if (view.tens) facts.push([t("courtpiece.tens"), this.usThem(view.tens)]);
    return facts;
  },

  centre(view) {
    if (view.flip_card) return { card: view.flip_card, down: false, label: t("courtpiece.flip") };
    if (view.hidden_card) return { card: view.hidden_card, down: false, label: t("courtpiece.hidden_mine") };
    if (view.trump_hidden) return { card: "", down: true, label: t("courtpiece.hidden") };
    return null;
  },

  teamTotals(view) {
    const points = (view.match && view.match.team_points) || [0, 0];
    return [points[0], points[1]];
  },

  bubble(game, text) {
    if (text.startsWith("play ")) return "";
    if (text === "timeout") return t("courtpiece.bubble.timeout");
    if (text.startsWith("hide ")) return t("courtpiece.bubble.hide");
    return this.actionLabel(game, text);
  },

  lineText(game, line) {
    // A game's own words first (Be-Ranga has no callers: the first leader's team).
    const own = `${game}.line.${line.key}`;
    if (has(own)) return t(own, { n: line.points });
    if (line.key === "tricks") return t("courtpiece.line.tricks", { n: line.points });
    if (line.key === "tens") return t("courtpiece.line.tens", { n: line.points });
    return base.lineText("courtpiece", line);
  },
};
