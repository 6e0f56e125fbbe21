// The replay viewer: a finished game action by action with every hand face up
// (GET api/games/{id}/replay, api/shared/{token}/replay, or a record file the
// person opened), its analysis where there is one, "play on from here", share
// and download.  The server sends each frame as changes from the one before
// (tricktable/server/play/replay.py); ``applyOps`` replays them.

import { api, ApiError, memory } from "./api.js";
import { cardName, cardSVG } from "./cards.js";
import { clear, downloadJSON, el, scaled, svgBox, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { renderer } from "./games/index.js";
import { scoreSheetTable, setPersonSeat } from "./sheets.js";
import { factValue, problemText, seatedRenderer } from "./table.js";

const SEAT_CLASS = ["south", "west", "north", "east"];
const POLL_MS = 1000;

/** ``target`` with a frame's changes applied, ``target`` itself unchanged: new
 * objects along each changed path, so every frame's snapshot shares the rest. */
export function applyOps(target, ops = []) {
  const root = { ...target };
  for (const [op, path, value] of ops) {
    const keys = path.split("/");
    const last = keys.pop();
    let node = root;
    for (const key of keys) {
      node[key] = { ...(node[key] || {}) };
      node = node[key];
    }
    if (op === "-") delete node[last];
    else if (op === "+") node[last] = [...(node[last] || []), ...value];
    else node[last] = value;
  }
  return root;
}

/** A seat's whole view: the public part with the seat's own fields merged in. */
function merged(pub, own) {
  const out = { ...pub };
  for (const [key, value] of Object.entries(own)) {
    out[key] = value && typeof value === "object" && !Array.isArray(value) && pub[key] && typeof pub[key] === "object"
      ? merged(pub[key], value) : value;
  }
  return out;
}

function snapshots(frames) {
  let pub = {};
  let own = [{}, {}, {}, {}];
  return frames.map((frame) => {
    pub = applyOps(pub, frame.pub);
    own = own.map((mine, seat) => (frame.own && frame.own[seat] ? applyOps(mine, frame.own[seat]) : mine));
    return { pub, views: own.map((mine) => merged(pub, mine)) };
  });
}

/** The score sheet a frame shows: the deal's result where the frame ended one. */
function sheetOf(frame, pub) {
  if (!frame.end) return null;
  const result = pub.match ? (pub.match.results || []).at(-1) : pub.result;
  return result && result.lines ? result : null;
}

export class Replay {
  /** ``source``: {kind: "own", id} | {kind: "shared", token} | {kind: "file", record}. */
  constructor(root, body, source) {
    this.root = root;
    this.body = body;
    this.source = source;
    this.game = body.game;
    // The seat the replay is told from (the person's own; at a table's game, the one it gave him): drawn at
    // the bottom, and the others named from it ("Partner" across), as at the table.
    this.me = body.seat || 0;
    this.r = seatedRenderer(renderer(body.game), this.me);
    setPersonSeat(this.me); // the score sheets' "us" is his team
    this.frames = body.frames;
    this.snaps = snapshots(body.frames);
    this.position = 0;
    this.analysis = null;
    this.stopped = false;
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    this.build();
    this.show(0);
    this.loadAnalysis();
  }

  stop() {
    this.stopped = true;
    setPersonSeat(0);
    clearTimeout(this.pollTimer);
    document.removeEventListener("keydown", this.onKey);
  }

  seatName(seat) {
    if (seat < 0) return t("replay.referee");
    if (this.body.players[seat]) return this.body.players[seat];
    if (seat === this.me && this.source.kind !== "own") return t("replay.player");
    return this.r.seatName(seat);
  }

  /** Where ``seat`` is drawn: 0 at the bottom (the person's own), then clockwise as at the table. */
  around(seat) {
    return (seat - this.me + 4) % 4;
  }

  // -- building ------------------------------------------------------------------
  build() {
    const button = (id, label, symbol, onclick) => el("button", { type: "button", class: "action step", id, title: label,
      "aria-label": label, onclick }, el("span", { "aria-hidden": "true" }, symbol));
    this.dealSelect = el("select", { id: "replay-deal", onchange: () => this.show(this.body.deals[Number(this.dealSelect.value)]) },
      this.body.deals.map((_, deal) => el("option", { value: String(deal) }, t("replay.deal_n", { n: deal + 1 }))));
    this.where = el("p", { class: "replay-where", id: "replay-where", "aria-live": "polite" });
    this.seats = [0, 1, 2, 3].map((seat) => el("div", { class: `replay-seat ${SEAT_CLASS[this.around(seat)]}`, dataset: { seat } }));
    this.trick = el("div", { class: "trick", role: "group", "aria-label": t("table.trick") },
      ...[0, 1, 2, 3].map((seat) => el("div", { class: `slot ${SEAT_CLASS[this.around(seat)]}` })));
    this.facts = el("dl", { class: "facts" });
    this.sheet = el("div", { class: "replay-sheet", id: "replay-sheet" });
    this.panel = el("section", { class: "analysis", id: "analysis", hidden: true, "aria-label": t("replay.analysis") });
    const controls = el("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      button("replay-first", t("replay.first"), "|◀", () => this.show(0)),
      button("replay-prev-trick", t("replay.prev_trick"), "◀◀", () => this.show(this.trickStep(-1))),
      button("replay-prev", t("replay.prev"), "◀", () => this.show(this.position - 1)),
      button("replay-next", t("replay.next"), "▶", () => this.show(this.position + 1)),
      button("replay-next-trick", t("replay.next_trick"), "▶▶", () => this.show(this.trickStep(1))),
      button("replay-last", t("replay.last"), "▶|", () => this.show(this.frames.length - 1)));
    const players = [0, 1, 2, 3].map((n) => this.seatName((this.me + n) % 4)).join(" · "); // from the person's seat on
    clear(this.root).append(el("section", { class: "replay" },
      el("h1", {}, t("replay.title", { game: t(`game.${this.game}`) })),
      el("p", { class: "replay-players" }, players, this.body.daily ? ` · ${t("history.daily", { day: this.body.daily })}` : ""),
      el("div", { class: "replay-bar" }, el("label", { for: "replay-deal" }, t("replay.deal")), this.dealSelect, this.where),
      el("div", { class: "replay-felt" }, ...this.seats, el("div", { class: "replay-middle" }, this.trick, this.facts)),
      controls, el("p", { class: "replay-keys" }, t("replay.keys")), this.sheet, this.panel, this.buttons()));
  }

  buttons() {
    const own = this.source.kind === "own";
    return el("div", { class: "buttons replay-buttons" },
      el("button", { type: "button", class: "action primary", id: "replay-play-on", onclick: () => this.playOn() }, t("replay.play_on")),
      own ? el("button", { type: "button", class: "action", id: "replay-share", onclick: () => this.share() }, t("replay.share")) : null,
      this.source.kind !== "file" ? el("button", { type: "button", class: "action", id: "replay-download", onclick: () => this.download() },
        t("replay.download")) : null,
      el("a", { class: "action subtle", href: "#/games" }, t("history.title")));
  }

  // -- moving --------------------------------------------------------------------
  /** The frame a trick away: the next (or previous) frame that completed a
   * trick, ended a deal or started one. */
  trickStep(direction) {
    const edge = (i) => {
      const frame = this.frames[i];
      if (frame.action === undefined || frame.end) return true;
      const before = this.snaps[i - 1].pub.tricks || [];
      return (this.snaps[i].pub.tricks || []).length > before.length && frame.deal === this.frames[i - 1].deal;
    };
    for (let i = this.position + direction; i > 0 && i < this.frames.length; i += direction) if (edge(i)) return i;
    return direction > 0 ? this.frames.length - 1 : 0;
  }

  key(event) {
    if (this.stopped || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, dialog[open]")) return;
    const moves = { ArrowRight: () => this.position + 1, ArrowLeft: () => this.position - 1, ArrowDown: () => this.trickStep(1),
      ArrowUp: () => this.trickStep(-1), PageDown: () => this.trickStep(1), PageUp: () => this.trickStep(-1),
      Home: () => 0, End: () => this.frames.length - 1 };
    if (!moves[event.key]) return;
    event.preventDefault();
    this.show(moves[event.key]());
  }

  show(position) {
    this.position = Math.max(0, Math.min(this.frames.length - 1, position));
    const frame = this.frames[this.position];
    const { pub, views } = this.snaps[this.position];
    this.dealSelect.value = String(frame.deal);
    this.root.querySelector(".replay").dataset.position = String(this.position);
    this.showWhere(frame);
    views.forEach((view, seat) => this.showSeat(seat, view, pub));
    this.showTrick(pub);
    this.showFacts(views[this.me]);
    const sheet = sheetOf(frame, pub);
    clear(this.sheet).append(sheet ? el("div", { class: "score-sheet" },
      el("h2", {}, t("replay.sheet", { n: frame.deal + 1 })), scoreSheetTable(this.game, sheet),
      pub.match ? el("p", { class: "totals" }, t("replay.totals"), " ",
        pub.match.totals.map((p, s) => `${this.seatName(s)} ${p}`).join(" · ")) : null) : "");
    this.root.querySelector("#replay-prev").disabled = this.root.querySelector("#replay-first").disabled = this.position === 0;
    const atEnd = this.position === this.frames.length - 1;
    this.root.querySelector("#replay-next").disabled = this.root.querySelector("#replay-last").disabled = atEnd;
    this.showAnalysis();
  }

  showWhere(frame) {
    const count = t("replay.position", { n: frame.at, total: this.body.actions });
    if (frame.action === undefined) {
      clear(this.where).append(el("strong", {}, t("replay.start", { n: frame.deal + 1 })), " · ", count);
      return;
    }
    clear(this.where).append(el("strong", {}, `${this.seatName(frame.seat)}: ${this.actionWords(frame.text)}`), " · ", count);
  }

  actionWords(text) {
    const card = this.r.cardOf(text);
    return card ? cardName(card, t) : this.r.actionLabel(this.game, text);
  }

  showSeat(seat, view, pub) {
    const hand = this.r.sortHand(view.hand || [], view, "trumps");
    const tally = this.tally(seat, pub);
    const box = clear(this.seats[seat]);
    box.classList.toggle("to-move", pub.to_move === seat && !pub.terminal);
    box.append(el("p", { class: "name" }, this.seatName(seat), tally ? el("span", { class: "chip" }, tally) : null),
      el("div", { class: "open-hand", role: "list", "aria-label": t("replay.hand_of", { name: this.seatName(seat) }) },
        hand.map((card) => svgBox("span", { class: "card", role: "listitem", "aria-label": cardName(card, t) }, cardSVG(card)))));
  }

  /** Tricks (and card points) a seat or its team has won in the deal so far. */
  tally(seat, pub) {
    const perSeat = (values) => (Array.isArray(values) ? (values.length === 4 ? values[seat] : values[seat % 2]) : undefined);
    const tricks = perSeat(pub.tricks_won) ?? perSeat(pub.captured);
    if (tricks === undefined) return "";
    const points = Array.isArray(pub.points_won) && pub.points_won.length === 4 ? ` · ${pub.points_won[seat]}` : "";
    return `${tn("replay.tricks", tricks)}${points}`;
  }

  showTrick(pub) {
    for (const slot of this.trick.children) clear(slot);
    // The trick on the table; at a deal's end (or between tricks) the last one, so the winning card stays in sight.
    let cards = pub.trick || [];
    let winner = null;
    if (!cards.length && (pub.tricks || []).length) {
      const last = pub.tricks.at(-1);
      [cards, winner] = [last.cards, last.winner];
    }
    for (const [seat, card] of cards) {
      this.trick.children[seat].append(svgBox("div", { class: `card${seat === winner ? " winner" : ""}`, role: "img",
        "aria-label": `${this.seatName(seat)}: ${cardName(card, t)}` }, cardSVG(card)));
    }
  }

  showFacts(view) {
    clear(this.facts);
    let facts = [];
    try {
      facts = this.r.facts(view);
    } catch {
      facts = []; // a renderer that needs a field a finished deal's frame lacks shows none
    }
    for (const [label, value] of facts) this.facts.append(el("div", {}, el("dt", {}, label), factValue(value)));
  }

  // -- the analysis ----------------------------------------------------------------
  analysisPath() {
    if (this.source.kind === "own") return `api/games/${encodeURIComponent(this.source.id)}/analysis`;
    if (this.source.kind === "shared") return `api/shared/${encodeURIComponent(this.source.token)}/analysis`;
    return null;
  }

  async loadAnalysis() {
    const path = this.analysisPath();
    if (!path) return;
    try {
      this.analysis = await api.get(path);
    } catch (error) {
      // No analysis for this game here (or none yet on this server): the panel stays hidden.
      if (!(error instanceof ApiError) || error.status !== 404) toast(problemText(error));
      return;
    }
    if (this.stopped) return;
    this.showAnalysis();
    if (["queued", "running"].includes(this.analysis.status)) this.poll();
  }

  poll() {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.loadAnalysis(), scaled(POLL_MS));
  }

  async analyse() {
    try {
      this.analysis = { ...(this.analysis || {}), ...(await api.post(this.analysisPath())) };
    } catch (error) {
      toast(problemText(error));
      return;
    }
    this.showAnalysis();
    this.poll();
  }

  showAnalysis() {
    const data = this.analysis;
    if (!data) return;
    this.panel.hidden = false;
    clear(this.panel).append(el("h2", {}, t("replay.analysis")));
    if (data.status === "none") {
      if (this.source.kind === "own") {
        this.panel.append(el("button", { type: "button", class: "action primary", id: "analyse", onclick: () => this.analyse() }, t("replay.analyse")));
      } else this.panel.append(el("p", { class: "empty" }, t("replay.no_analysis")));
      return;
    }
    if (data.status === "failed") {
      this.panel.append(el("p", { class: "error", role: "alert" }, t("replay.analysis_failed")));
      return;
    }
    if (data.status !== "done") {
      this.panel.append(el("p", { id: "analysis-progress" }, t("replay.analysing", { done: data.done || 0, total: data.total || "…" })),
        el("progress", { max: String(data.total || 1), value: String(data.done || 0), "aria-label": t("replay.analysis") }));
      return;
    }
    this.showDone(data);
  }

  /** The frame where the decision at record ``index`` is to be taken (the last with that many actions: a new deal's start). */
  frameBefore(index) {
    let found = 0;
    this.frames.forEach((frame, i) => { if (frame.at === index) found = i; });
    return found;
  }

  showDone(data) {
    const frame = this.frames[this.position];
    const deal = frame.deal;
    const mine = (data.decisions || []).filter((d) => d.seat === this.me && d.deal === deal).sort((a, b) => a.index - b.index);
    const current = (data.decisions || []).find((d) => d.index === frame.at && d.deal === deal);
    const dealFacts = (data.deals || []).find((d) => d.deal === deal);
    if (data.accuracy !== null && data.accuracy !== undefined) {
      this.panel.append(el("p", { class: "accuracy", id: "accuracy" }, t("replay.accuracy", { n: Math.round(data.accuracy) })));
    }
    if (dealFacts) {
      const lost = Number(dealFacts.lost.toFixed(2)); // (the count as shown: "1 point", not "1 points" for 0.999)
      this.panel.append(el("p", { id: "deal-accuracy" }, tn("replay.deal_accuracy", lost, { accuracy: Math.round(dealFacts.accuracy) })));
    }
    if (mine.length) {
      const bar = this.lossBar(mine, current);
      this.panel.append(el("h3", {}, t("replay.lost_bar")), bar);
      // A line needs two decisions: a deal of one (new cards asked for, then dealt again) shows its bar alone.
      if (mine.length > 1) this.panel.append(el("h3", {}, t("replay.graph")), this.graph(mine, current));
      keepInSight(bar);
    }
    if (current) this.panel.append(this.ranked(current));
    this.panel.append(this.mistakes(dealFacts, data.decisions || []));
  }

  /** A bar per decision of the person in the deal, as tall as the points it lost; each jumps to its decision. */
  lossBar(decisions, current) {
    const most = Math.max(0.5, ...decisions.map((d) => d.lost));
    return el("div", { class: "loss-bar", id: "loss-bar" }, decisions.map((d) => {
      const bar = el("button", { type: "button", class: `loss${d === current ? " current" : ""}${d.lost > 0.05 ? " lost" : ""}`,
        title: `${this.actionWords(d.chosen)}: −${formatPoints(d.lost)}`,
        "aria-label": t("replay.decision_lost", { action: this.actionWords(d.chosen), lost: formatPoints(d.lost) }),
        onclick: () => this.show(this.frameBefore(d.index)) }, el("span", { class: "fill" }));
      bar.style.setProperty("--h", `${Math.max(4, Math.round((d.lost / most) * 100))}%`); // (CSSOM: the page allows no inline style attribute)
      return bar;
    }));
  }

  /** The expected score of the person's choice at each decision of the deal, as a line (inline SVG). */
  graph(decisions, current) {
    const values = decisions.map((d) => d.value);
    const [low, high] = [Math.min(0, ...values), Math.max(0, ...values)];
    const span = high - low || 1;
    const x = (i) => (decisions.length === 1 ? 150 : 6 + (i * 288) / (decisions.length - 1));
    const y = (v) => 94 - ((v - low) / span) * 88;
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const at = decisions.indexOf(current);
    // The current decision as a vertical line (the graph stretches to its box: a dot would be an oval).
    const marker = at >= 0 ? `<line x1="${x(at).toFixed(1)}" x2="${x(at).toFixed(1)}" y1="0" y2="100" class="now"/>` : "";
    const zero = `<line x1="0" x2="300" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" class="zero"/>`;
    const label = t("replay.graph_label", { first: formatPoints(values[0]), last: formatPoints(values.at(-1)) });
    // Numbers only go into the markup (formatted here), never text from elsewhere.
    return svgBox("figure", { class: "value-graph", id: "value-graph", role: "img", "aria-label": label },
      `<svg viewBox="0 0 300 100" preserveAspectRatio="none" aria-hidden="true">${zero}<polyline points="${points}"/>${marker}</svg>`);
  }

  ranked(decision) {
    const best = decision.ranked.length ? decision.ranked[0].value : decision.best_value;
    return el("div", { class: "ranked", id: "ranked" }, el("h3", {}, t("replay.ranked")),
      el("ol", {}, decision.ranked.map((entry) => el("li", { class: entry.action === decision.chosen ? "chosen" : "" },
        el("span", { class: "what" }, this.actionWords(entry.action)),
        el("span", { class: "num" }, formatPoints(entry.value)),
        entry.action === decision.chosen ? el("span", { class: "tag" }, t("replay.chosen")) : null,
        entry.value === best ? el("span", { class: "tag best" }, t("replay.best")) : null))));
  }

  mistakes(dealFacts, decisions) {
    const box = el("div", { class: "mistakes", id: "mistakes" }, el("h3", {}, t("replay.mistakes")));
    const list = ((dealFacts && dealFacts.mistakes) || []).map((index) => decisions.find((d) => d.index === index)).filter(Boolean);
    if (!list.length) return box.append(el("p", {}, t("replay.no_mistakes"))), box;
    box.append(el("ol", {}, list.map((d) => el("li", {}, el("a", { href: "#", onclick: (event) => {
      event.preventDefault();
      this.show(this.frameBefore(d.index));
      this.root.querySelector(".replay-felt").scrollIntoView({ block: "nearest" }); // the mistake's table in sight
    } }, t("replay.mistake", { chosen: this.actionWords(d.chosen), best: this.actionWords(d.best), lost: formatPoints(d.lost) }))))));
    return box;
  }

  // -- play on, share, download -----------------------------------------------------
  async record() {
    if (this.source.kind === "file") return this.source.record;
    if (this.source.kind === "shared") return api.get(`api/shared/${encodeURIComponent(this.source.token)}`);
    return api.record(this.source.id);
  }

  async playOn() {
    const at = this.frames[this.position].at;
    try {
      const state = this.source.kind === "own"
        ? await api.post(`api/games/${encodeURIComponent(this.source.id)}/play-on`, { at })
        : await api.post("api/records/play-on", { record: strippedRecord(await this.record()), at });
      memory.setGameId(state.game, state.id);
      location.hash = `#/play/${state.game}`;
    } catch (error) {
      toast(problemText(error));
    }
  }

  async share() {
    try {
      const { token } = await api.post(`api/games/${encodeURIComponent(this.source.id)}/share`);
      const link = `${location.origin}${location.pathname}#/shared/${token}`;
      try {
        await navigator.clipboard.writeText(link);
        toast(t("replay.copied"));
      } catch {
        toast(t("replay.link", { link }));
      }
      this.root.querySelector(".replay").dataset.shared = link;
    } catch (error) {
      toast(problemText(error));
    }
  }

  async download() {
    try {
      downloadJSON(`tricktable-${this.game}.json`, await this.record());
    } catch (error) {
      toast(problemText(error));
    }
  }
}

/** The current decision's bar in sight: on a phone the loss bar scrolls sideways, and it is built anew at every step. */
function keepInSight(bar) {
  const current = bar.querySelector(".current");
  if (!current) return;
  const [box, item] = [bar.getBoundingClientRect(), current.getBoundingClientRect()];
  if (item.right > box.right) bar.scrollLeft += item.right - box.right;
}

const points = new Intl.NumberFormat("en", { maximumFractionDigits: 2 });
function formatPoints(value) {
  return points.format(value).replace("-", "−");
}

/** A record as the replay needs it: the deals and seeds the revealed record lists are not needed (and would be bytes). */
export function strippedRecord(record) {
  const { deals, fairness, ...rest } = record;
  return rest;
}
