// Doppelkopf: reservations (healthy, marriage, poverty, each solo), giving and
// returning three cards in a poverty, announcements (Re/Kontra, no 90 …) as
// buttons under the table whenever the person may announce, and a per-seat
// score sheet (teams change from deal to deal).

import { base } from "./base.js";
import { has, t } from "../i18n.js";
import { parseCard } from "../cards.js";

// The normal game's trumps, high to low; plain suits rank A 10 K Q J 9.
const NORMAL_TRUMPS = ["10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D", "KD", "9D"];
const PLAIN = ["A", "10", "K", "Q", "J", "9"];
const SUITS = ["C", "S", "H", "D"];

function sortKey(card, trumps) {
  const at = trumps.indexOf(card);
  if (at >= 0) return at;
  const [rank, suit] = parseCard(card) || ["9", "D"];
  return 100 + SUITS.indexOf(suit) * 10 + PLAIN.indexOf(rank);
}

function contractName(contract) {
  if (!contract) return null;
  const key = `doppelkopf.contract.${contract.replace(/ /g, "_")}`;
  return has(key) ? t(key) : contract;
}

export const doppelkopf = {
  ...base,
  teams: false,

  seatName(seat) {
    return seat === 2 ? t("seat.north") : base.seatName(seat);
  },

  cardOf(action) {
    const [verb, rest] = String(action).split(/ (.*)/);
    return verb === "play" && rest && parseCard(rest) ? rest : null;
  },

  selection(view) {
    const actions = view.legal.filter((a) => a.startsWith("give ") || a.startsWith("return "));
    if (!actions.length) return null;
    const verb = actions[0].split(" ")[0];
    return { actions, count: 3, label: t(`doppelkopf.confirm.${verb}`) };
  },

  actionLabel(game, action) {
    const key = `doppelkopf.action.${action.replace(/ /g, "_")}`;
    return has(key) ? t(key) : action;
  },

  bubble(game, text) {
    if (text.startsWith("play ")) return "";
    if (text === "Vorbehalt") return t("doppelkopf.bubble.reservation");
    if (text.startsWith("give")) return t("doppelkopf.bubble.give");
    if (text.startsWith("return")) return t("doppelkopf.bubble.return");
    return this.actionLabel(game, text);
  },

  sortHand(cards, view) {
    const trumps = view.trumps || NORMAL_TRUMPS;
    return [...cards].sort((a, b) => sortKey(a, trumps) - sortKey(b, trumps));
  },

  prompt(view) {
    if (view.terminal || view.to_move !== 0) return base.prompt.call(this, view);
    if (view.phase === "reservations") return t("doppelkopf.prompt.reservation");
    if (view.phase === "poverty: give") return t("doppelkopf.prompt.give");
    if (view.phase === "poverty: offer") return t("doppelkopf.prompt.offer");
    if (view.phase === "poverty: return") return t("doppelkopf.prompt.return");
    const announce = view.legal.some((a) => !a.startsWith("play "));
    return announce ? t("doppelkopf.prompt.play_or_announce") : t("table.your_turn");
  },

  facts(view) {
    const facts = [[t("table.dealer"), this.seatName(view.dealer)]];
    if (view.contract) facts.push([t("doppelkopf.contract"), contractName(view.contract)]);
    if (view.declarer !== null && view.declarer !== undefined) facts.push([t("doppelkopf.declarer"), this.seatName(view.declarer)]);
    const mine = (view.teams || [])[0];
    if (mine) facts.push([t("doppelkopf.your_team"), t(`doppelkopf.team.${mine}`)]);
    const said = Object.entries(view.announcements || {}).filter(([, level]) => level);
    if (said.length) {
      facts.push([t("doppelkopf.announced"), said.map(([team, level]) =>
        level === "re/kontra" ? t(`doppelkopf.team.${team}`) : `${t(`doppelkopf.team.${team}`)}: ${this.actionLabel("doppelkopf", level)}`).join(", ")]);
    }
    facts.push([t("doppelkopf.your_points"), String((view.points_won || [0])[0])]);
    return facts;
  },

  lineText(game, line) {
    if (line.key === "seat") return this.seatName(line.seat);
    const team = line.team === 0 || line.team === 1 ? t(`doppelkopf.team.${["re", "kontra"][line.team]}`) : "";
    const key = `doppelkopf.line.${line.key}`;
    const text = has(key) ? t(key) : line.text;
    return team && line.key !== "seat" ? `${team}: ${text}` : text;
  },
};
