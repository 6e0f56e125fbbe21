// Doppelkopf: reservations (healthy, marriage, poverty, each solo), giving and
// returning three cards in a poverty, announcements (Re/Kontra, no 90 …) as
// buttons under the table whenever the person may announce, a per-seat score
// sheet (teams change from deal to deal) and, with the DDV tournament list, who
// still owes a compulsory solo and how many deals are left.

import { base } from "./base.js";
import { has, t, tn } from "../i18n.js";
import { parseCard } from "../cards.js";

// The normal game's trumps, high to low; plain suits rank A 10 K Q J 9 (low to high below).
const NORMAL_TRUMPS = ["10H", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D", "KD", "9D"];
const PLAIN = ["9", "J", "Q", "K", "10", "A"];

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

  /** The reservation: "Healthy" first and alone, every reservation the hand allows
   * behind one "Reservation…" button (a newcomer is not met by eight buttons). */
  fold(view, buttons) {
    if (view.phase !== "reservations" || !buttons.includes("healthy")) return null;
    const actions = buttons.filter((a) => a !== "healthy");
    return actions.length ? { actions, primary: "healthy", label: t("doppelkopf.more_reservations") } : null;
  },

  bubble(game, text) {
    if (text.startsWith("play ")) return "";
    if (text === "Vorbehalt") return t("doppelkopf.bubble.reservation");
    if (text.startsWith("give")) return t("doppelkopf.bubble.give");
    if (text.startsWith("return")) return t("doppelkopf.bubble.return");
    return this.actionLabel(game, text);
  },

  trumpPower(card, view) {
    const trumps = view.trumps || NORMAL_TRUMPS;
    const at = trumps.indexOf(card);
    return at >= 0 ? trumps.length - at : null;
  },

  plainPower(card) {
    return PLAIN.indexOf((parseCard(card) || ["9"])[0]);
  },

  prompt(view) {
    if (view.phase === "reservations") {
      const forced = view.tournament && view.tournament.forced === view.seat;
      return t(forced ? "doppelkopf.prompt.forced_solo" : "doppelkopf.prompt.reservation");
    }
    if (view.phase === "poverty: give") return t("doppelkopf.prompt.give");
    if (view.phase === "poverty: offer") return t("doppelkopf.prompt.offer");
    if (view.phase === "poverty: return") return t("doppelkopf.prompt.return");
    const announce = view.legal.some((a) => !a.startsWith("play "));
    return announce ? t("doppelkopf.prompt.play_or_announce") : t("table.your_turn");
  },

  /** Each seat's tricks and card points, under its name (no fixed teams to add up). */
  seatTally(view, seat) {
    const tricks = (view.tricks_won || [])[seat] || 0;
    const points = (view.points_won || [])[seat] || 0;
    return tn("doppelkopf.tally", tricks, { points });
  },

  facts(view) {
    const facts = [[t("table.dealer"), this.seatName(view.dealer)]];
    if (view.contract) facts.push([t("doppelkopf.contract"), contractName(view.contract)]);
    if (view.declarer !== null && view.declarer !== undefined) facts.push([t("doppelkopf.declarer"), this.seatName(view.declarer)]);
    const mine = (view.teams || [])[this.me || 0]; // the person's own seat (a table of friends seats him anywhere)
    if (mine) facts.push([t("doppelkopf.your_team"), t(`doppelkopf.team.${mine}`)]);
    // Bock rounds (a house rule): this deal's multiplier and the bock deals still to come.
    const match = view.match || {};
    if (match.bock > 1) facts.push([t("doppelkopf.this_deal"), t("doppelkopf.bock_times", { n: match.bock })]);
    if (match.bock_deals_queued) facts.push([t("doppelkopf.bock_queued"), tn("doppelkopf.bock_deals", match.bock_deals_queued)]);
    if (view.pigs !== null && view.pigs !== undefined) facts.push([t("doppelkopf.pigs"), this.seatName(view.pigs)]);
    if (view.superpigs !== null && view.superpigs !== undefined) facts.push([t("doppelkopf.superpigs"), this.seatName(view.superpigs)]);
    const said = Object.entries(view.announcements || {}).filter(([, level]) => level);
    if (said.length) {
      facts.push([t("doppelkopf.announced"), said.map(([team, level]) =>
        level === "re/kontra" || level === team ? t(`doppelkopf.team.${team}`) : `${t(`doppelkopf.team.${team}`)}: ${this.actionLabel("doppelkopf", level)}`).join(", ")]);
    }
    facts.push(...this.tournamentFacts(view.tournament));
    return facts;
  },

  /** The tournament list: regular deals left, who still owes his compulsory solo, who must play it now. */
  tournamentFacts(list) {
    if (!list) return [];
    const owing = list.owing.length ? list.owing.map((s) => this.seatName(s)).join(", ") : t("doppelkopf.solo_owed_none");
    const facts = [[t("doppelkopf.deals_left"), String(list.regular_left)], [t("doppelkopf.solo_owed"), owing]];
    if (list.forced !== null) facts.push([t("doppelkopf.forced_solo"), this.seatName(list.forced)]);
    return facts;
  },

  /** The bock line says how often the deal's points count; it has no points of its own. */
  isInfoLine(line) {
    return line.key === "bock" || base.isInfoLine(line);
  },

  /** A compulsory solo played by choice (tournament list) is an extra deal, played and scored. */
  sheetForRedeal(result) {
    return result.lines.some((line) => line.key === "value");
  },

  redealNote(game, result) {
    return this.sheetForRedeal(result) ? t("doppelkopf.extra_deal") : base.redealNote(game, result);
  },

  lineText(game, line) {
    if (line.key === "seat") return this.seatName(line.seat);
    const team = line.team === 0 || line.team === 1 ? t(`doppelkopf.team.${["re", "kontra"][line.team]}`) : "";
    const key = `doppelkopf.line.${line.key}`;
    const text = has(key) ? t(key, { n: line.points }) : line.text;
    return team && line.key !== "seat" ? `${team}: ${text}` : text;
  },
};
