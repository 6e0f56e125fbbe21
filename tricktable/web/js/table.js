// The card table: the person's hand, the three computer players, the trick,
// the buttons for every decision.  The person's own card lands at once; each
// computer player's action arrives over the live channel when it is decided and
// is shown at the person's pace, in version order, one after the other.

import { api, ApiError } from "./api.js";
import { backSVG, cardName, cardSVG, suitSVG } from "./cards.js";
import { clear, el, reducedMotion, scaled, sleep, svgBox, toast } from "./dom.js";
import { language, t, tn } from "./i18n.js";
import { renderer } from "./games/index.js";
import { renderFairness } from "./fairness.js";
import { holderName, SeatsDialog, tables } from "./hosting.js";
import { GameFeed } from "./live.js";
import { paced, settings } from "./settings.js";
import { closeScoreSheet, matchSummary, openDialog, setPersonSeat, showLastTrick, showMatchSummary, showScoreSheet, showTrickHistory } from "./sheets.js";
import { play as playSound } from "./sound.js";

const SEAT_CLASS = ["south", "west", "north", "east"];
// The pauses at normal pace (the settings' slow and fast scale them).  After the
// person's card in the middle of a trick, his turn comes back after the trick's other
// cards, the complete trick, its gathering and the next trick's cards before his:
// about 2 × 350 + 700 + 260 + 350 ms of pauses plus the computer players' thinking,
// within 2.2 s (it was 2.7–3.0 s with 450 / 1000 / 320 ms).
const CARD_GAP_MS = 350; // a computer player's card alone on the table, at normal pace
const WORD_GAP_MS = 700; // a bid or announcement in its bubble
const TRICK_SHOWN_MS = 700; // a complete trick with its winner marked
const GATHER_MS = 260; // the trick sliding to its winner (the CSS animation's length)
export const PACING = { CARD_GAP_MS, WORD_GAP_MS, TRICK_SHOWN_MS, GATHER_MS };
const MIN_STEP = 46; // px of every overlapped card in the hand that stays visible: a finger's width and the card's index
const MIN_CARD = 56; // px: the hand's cards at their smallest and biggest
const MAX_CARD = 88;
const SERVER_OPTIONS = ["person_seat", "first_game"]; // set by the room, never sent back
export const REACTIONS = ["well_played", "thanks", "sorry", "oops", "hurry_up"]; // the server's keys, in the menu's order
const REACTION_SHOWN_MS = 4000; // a reaction beside its sender's seat
const SEATS_POLL_MS = 3000; // the host's look at his table while a seat waits for a newcomer
const NO_SEAT = null; // a watcher's "own seat": no seat is his, nor the referee's (a view's to_move may be negative)

/** A fact beside the trick as a ``dd``: text, or a suit ({suit, text}) shown with its symbol. */
export function factValue(value) {
  const dd = el("dd");
  if (value && typeof value === "object") dd.append(svgBox("span", {}, suitSVG(value.suit, 16)), " ", value.text);
  else dd.append(value);
  return dd;
}

/** Where a failed request leaves the person: what to tell him. */
export function problemText(error) {
  if (error instanceof ApiError && error.status === 0) return t("error.offline");
  if (error instanceof ApiError && error.status >= 500) return t("error.server");
  return t("error.refused", { msg: error.message });
}

/** An action's value in a player's words, against the best action's. */
export function hintWords(diff, isBest, bestValue, signed) {
  if (isBest) return t("hint.best", { value: signed.format(bestValue).replace("-", "−") });
  const shown = signed.format(diff).replace("-", "−");
  if (diff > -0.05) return t("hint.same");
  if (diff > -0.3) return t("hint.nearly", { diff: shown });
  if (diff > -0.7) return t("hint.weaker", { diff: shown });
  return t("hint.mistake", { diff: shown });
}

/** An out-of-turn action that the computer players' moves made impossible. */
class TooLate extends Error {
  constructor(view) {
    super("too late");
    this.view = view;
  }
}

/** The game's renderer as a watcher reads it: every seat by its number, no "You". */
function watchingRenderer(r) {
  const watching = Object.create(r);
  watching.seatName = (seat) => t("friends.seat_number", { n: seat + 1 });
  // The view's ``teams`` read from seat 0 give "your team": a watcher has none.
  watching.facts = (view) => r.facts.call(watching, { ...view, teams: null });
  watching.usThem = ([first, second]) => `${t("friends.team", { n: 1 })} ${first} – ${t("friends.team", { n: 2 })} ${second}`;
  return watching;
}

/** A watched match's answer (``GET /api/watch/TOKEN``'s ``match``, or its stream's
 * events) as the table reads a seat's: the public view holds no hand, no
 * decision of its own and no action list (they differ from seat to seat). */
export function watchedMatch(match) {
  if (match && match.view) match.view = { hand: [], legal: [], actions: [], ...match.view };
  return match;
}

/** The game's renderer as a person at ``me`` reads it: seats named from where he
 * sits (his own is "You", the one across is his partner), team figures his
 * team's first.  Seat 0 (a game alone) is the renderer itself. */
export function seatedRenderer(r, me) {
  if (!me) return r;
  const seated = Object.create(r);
  seated.me = me;
  seated.seatName = (seat) => r.seatName.call(seated, (seat - me + 4) % 4);
  seated.ours = (pair) => (me % 2 ? [pair[1], pair[0], ...pair.slice(2)] : pair);
  seated.teamTotals = (view) => seated.ours(r.teamTotals.call(seated, view));
  return seated;
}

export class Table {
  /** ``friends``: at a table of friends, its seats as ``GET /api/tables/ID`` gives
   * them (who is a person, the host, the caller); null for a game alone.
   * ``seated``: that table (its ``id``, whether the caller is its ``host``);
   * ``onNextMatch()``: show the table's next match (it plays again); ``watch``:
   * a watch link's token, for a watcher's read-only table (seat 0 drawn at the
   * bottom, every hand face down, no decision). */
  constructor(root, state, onNewGame, friends = null, { seated = null, onNextMatch = () => {}, watch = null } = {}) {
    this.root = root;
    this.watch = watch;
    if (watch) watchedMatch(state);
    this.state = state; // the response on screen: {id, version, game, daily, level, view, steps, deadline_in}
    this.state.receivedAt = performance.now();
    this.previousDeal = null; // {finished, deal}: the previous deal's observation, for the frames that leave it out
    this.completeMatch(state);
    this.game = state.game;
    this.me = watch ? NO_SEAT : (state.view && state.view.seat) || 0; // the person's seat (the server's number)
    this.at = watch ? 0 : this.me; // the seat drawn at the bottom
    this.friends = friends;
    this.seated = seated;
    this.tableId = seated ? seated.id : null; // its people's reactions go there
    this.onNextMatch = onNextMatch;
    setPersonSeat(this.at, !!watch);
    this.autoSeats = new Set(state.auto_seats || []); // seats whose last decision the turn clock made (then each step says)
    this.r = watch ? watchingRenderer(renderer(this.game)) : seatedRenderer(renderer(this.game), this.me);
    this.known = state.version; // the newest version received (may be ahead of the screen)
    this.queue = []; // responses received and not yet shown, by version
    this.showing = false;
    this.pending = null; // {action, card}: sent, not yet answered
    this.thinking = null; // {seat, version} from the live channel
    this.selected = new Set();
    this.hint = null; // {version, hints}: the last hint asked for, shown while the version holds
    this.onNewGame = onNewGame;
    this.onResize = () => this.layoutHand();
    window.addEventListener("resize", this.onResize);
    this.build();
  }

  /** Show the steps the game arrived with (a server that moved the computer
   * players inside the request), then follow the live channel. */
  async start() {
    const first = this.state;
    if (this.stopped) return;
    // A server with a live channel says who is thinking in every response.
    if ("thinking" in first) this.follow();
    if (first.steps && first.steps.length) {
      this.showing = true;
      this.updateBusy();
      this.renderTrick([]);
      await this.showSteps(first);
      this.showing = false;
    }
    this.render();
    this.afterShown();
  }

  follow() {
    this.feed = new GameFeed(this.state.id, {
      known: () => this.known,
      onResponse: (response) => this.accept(response),
      onThinking: (info) => this.onThinking(info),
      onReaction: (reaction) => this.showReaction(reaction),
      onSeats: () => this.lookAtSeats(),
      waiting: () => this.waitingForBots() || this.ownClockRanOut(),
      events: this.watch ? `api/watch/${encodeURIComponent(this.watch)}/events` : null,
      load: () => this.load(),
      onNext: () => this.followNextMatch(),
      onRemoved: () => this.removed(),
    });
  }

  /** At a table of friends, once its match is over: the host starts the next
   * one (a second click's 409 means it has started: the page follows it all the same). */
  async playAgainAtTable() {
    try {
      await api.post(`api/tables/${encodeURIComponent(this.seated.id)}/again`);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) {
        toast(problemText(error));
        return;
      }
    }
    this.followNextMatch();
  }

  /** The host gave this person's seat to a computer player: the match no
   * longer answers to him, so the page says why and goes home. */
  removed() {
    if (this.stopped) return;
    toast(t("sheet.removed"));
    location.hash = "#/";
  }

  /** The table plays again: every seat's page moves into the new match. */
  followNextMatch() {
    if (this.stopped || this.followed) return;
    this.followed = true;
    this.onNextMatch();
  }

  /** The whole game as this page may see it: the person's seat's, or a watcher's public view. */
  async load() {
    if (!this.watch) return api.load(this.state.id);
    return watchedMatch((await api.watch(this.watch)).match);
  }

  /** Leave the table (another game or page takes the screen). */
  stop() {
    this.stopped = true;
    setPersonSeat(0);
    window.removeEventListener("resize", this.onResize);
    if (this.feed) this.feed.close();
    clearInterval(this.timer);
    clearTimeout(this.seatsTimer);
  }

  /** Where ``seat`` is drawn: the person's own at the bottom, the others clockwise from his left. */
  place(seat) {
    return SEAT_CLASS[(seat - this.at + 4) % 4];
  }

  /** The seat drawn at ``position`` (0 bottom, 1 left, 2 top, 3 right). */
  seatAt(position) {
    return (this.at + position) % 4;
  }

  // -- the order of things -----------------------------------------------------
  /** A response from the action request, the live channel or a reload: queued
   * when it is newer than anything known, shown in order. */
  accept(response) {
    if (this.stopped || !response || response.id !== this.state.id || response.version <= this.known) return;
    response.receivedAt = performance.now();
    if (this.watch) watchedMatch(response);
    this.completeMatch(response);
    // The person's own move that this tab did not send: he plays on in another
    // tab, so a score sheet waiting here for him is closed (both tabs follow).
    if (!this.pending && (response.steps || []).some((s) => s.seat === this.me)) closeScoreSheet();
    this.known = response.version;
    this.queue.push(response);
    this.queue.sort((a, b) => a.version - b.version);
    if (this.showing) this.renderActions(this.state.view); // out-of-turn buttons follow the newest position
    this.drain();
  }

  /** A step frame leaves out the previous deal's observation (``view.match.previous_deal``)
   * except where its step ended a deal, the only place it changes; whole states
   * (a load, the stream's ``state``) always carry it.  Responses arrive here in
   * version order, so the one kept is that of the response's deal: it is put
   * back in, for the last trick and the trick history between deals. */
  completeMatch(response) {
    const match = response.view && response.view.match;
    if (!match) return;
    const finished = (match.results || []).length; // deals finished before this one: which previous deal
    if ("previous_deal" in match) this.previousDeal = { finished, deal: match.previous_deal };
    else if (this.previousDeal && this.previousDeal.finished === finished) match.previous_deal = this.previousDeal.deal;
    else this.fetchPreviousDeal(finished);
  }

  /** The previous deal of a frame whose deal's end this page did not receive
   * (not seen in practice: every version reaches the page as a step or a whole
   * state): asked for with the whole game, and put into the responses of that deal. */
  async fetchPreviousDeal(finished) {
    if (this.fetchingPrevious === finished) return;
    this.fetchingPrevious = finished;
    try {
      const whole = await this.load();
      const match = whole.view.match;
      if (!match || (match.results || []).length !== finished) return; // the game moved on: its next frames bring it
      for (const response of [this.state, ...this.queue]) {
        const lacking = response.view.match;
        if (lacking && !("previous_deal" in lacking) && (lacking.results || []).length === finished) {
          lacking.previous_deal = match.previous_deal;
        }
      }
      if (!this.previousDeal || this.previousDeal.finished <= finished) this.previousDeal = { finished, deal: match.previous_deal };
    } catch {
      // offline: the next whole state brings it
    } finally {
      this.fetchingPrevious = null;
    }
  }

  /** The newest position received (the screen may still be showing older steps). */
  newestView() {
    return this.queue.length ? this.queue[this.queue.length - 1].view : this.state.view;
  }

  /** The person's actions allowed now while another seat is to move (Doppelkopf
   * announcements): offered even while the others' moves are still being shown. */
  outOfTurnButtons() {
    const newest = this.newestView();
    if (this.pending || newest.terminal || newest.to_move === this.me) return [];
    return this.ownButtons(newest);
  }

  onThinking(info) {
    if (info.version < this.known) return;
    this.thinking = info;
    if (this.settled()) {
      this.renderSeats(this.state.view);
      this.renderPrompt(this.state.view);
    }
  }

  async drain() {
    if (this.showing) return;
    this.showing = true;
    this.updateBusy();
    try {
      while (this.queue.length && !this.stopped) {
        const next = this.queue.shift();
        // While its steps are shown, say who moves after them (no silent screen).
        this.sayWhoIsNext(!next.view.terminal && next.view.to_move >= 0 && next.view.to_move !== this.me ? next.view.to_move : null);
        await this.showSteps(next);
        this.state = next;
        // A whole state (a load: the person's own clock ran out) has no steps to mark the seats by.
        if (this.friends && next.auto_seats) this.autoSeats = new Set(next.auto_seats);
        this.selected = new Set();
        this.render();
      }
    } finally {
      this.showing = false;
    }
    this.render();
    this.afterShown();
  }

  waitingForBots() {
    const view = this.state.view;
    return !view.terminal && view.to_move !== this.me;
  }

  /** Whether the person's own turn clock has run out: a computer player decides for him
   * (the server's scheduler, in its own time), and the page waits for that as for the others'
   * moves; without a live stream it keeps asking (one load at the clock's zero may come first). */
  ownClockRanOut() {
    const ends = this.clockEnds();
    const view = this.state.view;
    return ends !== null && !view.terminal && view.to_move === this.me && performance.now() >= ends;
  }

  /** When the shown decision's clock runs out (``performance.now()`` time), or null where none runs. */
  clockEnds() {
    const left = this.state.deadline_in;
    return left === null || left === undefined ? null : this.state.receivedAt + left * 1000;
  }

  /** Whether the person may act on what the screen shows. */
  settled() {
    return !this.showing && !this.pending && !this.queue.length;
  }

  updateBusy() {
    if (this.stopped) return; // a table left behind finishing its steps owns the screen no more
    const busy = !this.settled() || this.waitingForBots();
    this.root.dataset.busy = busy ? "1" : "0";
  }

  /** The screen shows the newest state: focus, the last forced card, the summary. */
  async afterShown() {
    if (this.stopped) return;
    const view = this.state.view;
    if (this.watch) return this.updateBusy(); // nothing to decide; the deals' sheets were shown with their steps
    if (view.terminal && !this.summaryShown) {
      // Busy until the summary is open, so nobody sees a table with nothing to do.
      this.summaryShown = true;
      this.root.dataset.busy = "1";
      const content = await matchSummary(this, this.state);
      if (!this.stopped) openDialog(content, "sheet-dialog");
      this.updateBusy();
      return;
    }
    this.updateBusy();
    // Only the referee can move (a card turned up after a timeout): ask for it.
    if (!view.terminal && view.to_move < 0 && !this.feed) setTimeout(() => this.settled() && this.refresh(), 800);
    if (!this.settled() || view.to_move !== this.me) return;
    this.focusHand();
    const cards = (view.legal || []).filter((a) => this.r.cardOf(a));
    if (cards.length) this.say(this.me, ""); // his card to play: his own word before it is over
    // Only the tab the person is looking at plays for him (a second tab just follows).
    if (settings().autoPlay && document.hasFocus() && view.hand.length === 1 && cards.length === 1 && view.legal.length === 1) {
      setTimeout(() => this.settled() && this.state.view === view && this.send(cards[0], this.r.cardOf(cards[0])),
        paced(CARD_GAP_MS));
    }
  }

  // -- layout ----------------------------------------------------------------
  build() {
    clear(this.root);
    this.scorebar = el("div", { class: "scorebar" });
    this.fairness = el("span", { class: "fairness" });
    this.seats = [0, 1, 2, 3].map((seat) =>
      el("div", { class: `seat ${this.place(seat)}`, dataset: { seat } },
        el("div", { class: "name" }), el("div", { class: "tally" }), el("div", { class: "backs" }), el("div", { class: "bubble" }),
        el("div", { class: "reaction", dataset: { seat } })));
    this.reactionMenu = this.buildReactionMenu();
    this.trick = el("div", { class: "trick", "aria-label": t("table.trick"), role: "group" },
      ...[0, 1, 2, 3].map((seat) => el("div", { class: `slot ${this.place(seat)}`, dataset: { seat } })));
    this.centre = el("div", { class: "centre-extra" });
    this.facts = el("dl", { class: "facts" });
    this.prompt = el("p", { class: "prompt", id: "prompt" });
    this.notice = el("div", { class: "notice", role: "alert" });
    this.actions = el("div", { class: "actions" });
    this.hintBox = el("div", { class: "hint-box", "aria-live": "polite" });
    this.hand = el("div", { class: "hand", role: "group", "aria-label": t("table.your_hand"), onkeydown: (e) => this.arrowKeys(e) });
    this.announcer = el("p", { class: "sr", "aria-live": "polite", id: "announcer" });
    // Decisions sit on the felt, under the trick, so a phone shows them with the whole hand.
    const felt = this.felt = el("div", { class: "felt" }, this.seats[this.seatAt(2)], this.seats[this.seatAt(1)], this.seats[this.seatAt(3)],
      el("div", { class: "middle" }, this.trick, this.centre), this.facts,
      el("div", { class: "decide" }, this.prompt, this.notice, this.actions), this.seats[this.at], this.hintBox);
    this.hand.hidden = !!this.watch; // a watcher sees every hand face down, on its seat
    this.root.append(el("section", { class: `table game-${this.game}${this.watch ? " watching" : ""}`, "aria-labelledby": "table-title" },
      el("h1", { class: "sr", id: "table-title" }, t(`game.${this.game}`)), this.scorebar, this.reactionMenu, this.hand, felt,
      this.announcer));
    this.render();
  }

  render() {
    if (this.stopped) return;
    const view = this.state.view;
    this.root.dataset.version = this.state.version; // which version the screen shows (tests read it)
    this.renderScorebar(view);
    renderFairness(this.fairness, this.state);
    this.renderSeats(view);
    this.renderTrick(this.trickOnScreen(view), { leader: view.leader });
    this.renderCentre(view);
    this.renderFacts(view);
    this.renderPrompt(view);
    this.renderActions(view);
    this.renderHand(view);
    this.renderHint(view);
    this.placeDecision(view);
    this.updateBusy();
  }

  /** Where the decision's buttons go: in the trick's place while the middle is empty
   * ("deciding"); before a trick's first card, when the person has nothing else to do
   * or a list of cards or suits to choose from, folded or not ("no-trick": a sideways
   * phone puts them across the felt, every screen hides the empty trick). */
  placeDecision(view) {
    const buttons = this.actions.querySelector("button[data-action]") !== null;
    const emptyMiddle = !this.trickOnScreen(view).length && !this.r.centre(view) && view.pile === undefined;
    const deciding = emptyMiddle && buttons;
    const noTrick = !this.trickOnScreen(view).length && buttons && view.to_move === 0 && this.settled()
      && (!this.hand.querySelector(".legal") || this.actions.querySelector(".short, #more-actions") !== null);
    if (this.felt.classList.contains("deciding") !== deciding || this.felt.classList.contains("no-trick") !== noTrick) {
      this.felt.classList.toggle("deciding", deciding);
      this.felt.classList.toggle("no-trick", noTrick);
      this.layoutHand(); // a hand to look at, not to play from, is smaller
    }
  }

  /** The current trick, with the person's card while its request is on its way. */
  trickOnScreen(view) {
    const cards = [...(view.trick || [])];
    if (this.pendingCard()) cards.push([this.me, this.pending.card]);
    return cards;
  }

  /** The card on its way to the server, while the screen shows the state it was played in. */
  pendingCard() {
    return this.pending && this.pending.card && this.pending.version === this.state.version ? this.pending.card : null;
  }

  renderPrompt(view) {
    clearInterval(this.timer);
    for (const stale of this.root.querySelectorAll(".seat-clock")) stale.remove();
    const mine = view.to_move === this.me && !view.terminal;
    this.prompt.classList.toggle("mine", mine && this.settled());
    if (view.terminal) this.prompt.textContent = t("table.match_over");
    else if (this.pending) this.prompt.textContent = "";
    else if (mine) {
      this.prompt.textContent = this.settled() ? this.r.prompt(view) : "";
      if (this.settled()) this.renderCountdown();
    } else if (view.to_move >= 0) {
      const name = this.r.seatName(this.thinkingSeat(view));
      const outOfTurn = this.settled() && this.ownButtons(view).length;
      this.prompt.textContent = outOfTurn ? this.r.outOfTurnPrompt(name) : t("table.thinking", { name });
      // At a table with a turn clock, everyone sees the seat to move counting down.
      if (this.friends && this.settled()) this.renderCountdown(view.to_move, false);
    } else this.prompt.textContent = "";
  }

  thinkingSeat(view) {
    if (this.thinking && this.thinking.version === this.state.version) return this.thinking.seat;
    return view.to_move;
  }

  /** A timed decision (Court Piece calling): the seconds the server gives, counted
   * down; at zero the server is asked, and it applies the timeout itself. */
  renderCountdown(seat = this.me, mine = true) {
    const ends = this.clockEnds();
    if (ends === null) return;
    const clock = el("span", { class: "countdown", role: "timer" });
    this.prompt.append(" ", clock);
    // The same clock on the seat to move, beside its name (hidden from screen readers: the prompt's is read).
    const seatClock = el("span", { class: "countdown seat-clock", "aria-hidden": "true" });
    this.seats[seat].querySelector(".name").after(seatClock);
    const tick = () => {
      if (!document.body.contains(clock)) {
        seatClock.remove();
        return clearInterval(this.timer);
      }
      const seconds = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      clock.textContent = t("table.seconds_left", { n: seconds });
      seatClock.textContent = t("table.seconds_left", { n: seconds });
      clock.classList.toggle("urgent", seconds <= 5);
      seatClock.classList.toggle("urgent", seconds <= 5);
      if (seconds === 0) {
        clearInterval(this.timer);
        // Another person's clock: its step comes over the live channel; asked for a
        // moment later too, should the channel be down (a load applies a timeout due).
        if (mine) this.refresh();
        else setTimeout(() => !this.stopped && this.refresh(), 1000);
      }
    };
    tick();
    this.timer = setInterval(tick, 250);
  }

  /** Ask the server for the game again (after a timeout) and show what happened. */
  async refresh() {
    try {
      this.accept(await this.load());
    } catch (error) {
      this.showProblem(problemText(error), () => this.refresh());
    }
  }

  renderScorebar(view) {
    const match = view.match || {};
    const deal = match.deals_total
      ? t("table.deal_of", { n: match.deal_number, total: match.deals_total })
      : t("table.deal", { n: match.deal_number || 1 });
    const target = match.target ? ` · ${match.counting === "kots" ? tn("table.target_kots", match.target) : t("table.target", { n: match.target })}` : "";
    clear(this.scorebar).append(
      el("span", { class: "standing" }, el("span", { class: "scores" }, ...this.scores(view)),
        el("span", { class: "deal" }, deal, target, this.state.daily ? ` · ${t("daily.badge")}` : "",
          this.state.level ? ` · ${t(`level.${this.state.level}`)}` : "", this.watch ? ` · ${t("watch.badge")}` : "")),
      el("span", { class: "tools-right" },
        el("button", { type: "button", class: "tool", id: "trick-history", onclick: () => showTrickHistory(this.state.view, this.game) },
          t("table.history")),
        el("button", { type: "button", class: "tool", id: "last-trick", onclick: () => showLastTrick(this.state.view, this.game) },
          t("table.last_trick")),
        this.reactable() ? this.reactButton() : null,
        this.hosting() ? this.hostButton() : null,
        this.fairness));
  }

  /** The match score: per team, or per seat where teams change every deal (a watcher's teams by number). */
  scores(view) {
    const totals = (view.match && view.match.totals) || [0, 0, 0, 0];
    const [us, them] = this.r.teamTotals(view);
    const [first, second] = this.watch ? [t("friends.team", { n: 1 }), t("friends.team", { n: 2 })] : [t("table.us"), t("table.them")];
    return this.r.teams === false
      ? [0, 1, 2, 3].map((s) => el("span", { class: `score seat-${s}` }, this.r.seatName(s), " ", el("strong", {}, totals[s])))
      : [el("span", { class: "score us" }, first, " ", el("strong", {}, us)),
        el("span", { class: "score them" }, second, " ", el("strong", {}, them))];
  }

  // -- the host's seats ----------------------------------------------------------
  /** Whether the person hosts this table of friends (a quick-match table has no host's tools). */
  hosting() {
    return !this.watch && !!this.seated && this.seated.host && !this.seated.quick;
  }

  /** The button that opens the host's dialog (one element, kept across renders so a tap never meets a new one). */
  hostButton() {
    if (!this.seatsButton) {
      this.seatsButton = el("button", { type: "button", class: "tool", id: "host-seats-button", "aria-haspopup": "dialog",
        onclick: () => this.manageSeats() });
    }
    this.seatsButton.textContent = t("host.button"); // (a language change)
    return this.seatsButton;
  }

  /** The host's dialog of the seats, from the table as it is now (a newcomer may have taken an open seat). */
  async manageSeats() {
    try {
      this.seatsChanged(await tables.get(this.tableId));
    } catch (error) {
      toast(problemText(error));
      return;
    }
    this.seatsDialog = new SeatsDialog(this.seated, (seat) => this.r.seatName(seat), (table) => this.seatsChanged(table));
    await this.seatsDialog.open();
    this.seatsDialog = null;
  }

  /** The table's seats changed: their labels, and, while a seat is open, a look every few seconds for its newcomer. */
  seatsChanged(table) {
    if (this.stopped) return;
    this.seated = table;
    this.friends = table.seats;
    for (const seat of [0, 1, 2, 3]) this.renderWho(this.seats[seat], seat);
    this.renderScorebar(this.state.view); // (the reactions' button: whether another person sits)
    clearTimeout(this.seatsTimer);
    if (table.seats.some((s) => s.open)) this.seatsTimer = setTimeout(() => this.lookAtSeats(), SEATS_POLL_MS);
  }

  /** A watcher's page: the seats' labels from the watch link's table. */
  watchedSeatsChanged(seats) {
    if (this.stopped) return;
    this.friends = seats;
    for (const seat of [0, 1, 2, 3]) this.renderWho(this.seats[seat], seat);
  }

  /** The table's seats read again (a seat changed hands, or one is open): a watcher's from the watch link. */
  async lookAtSeats() {
    try {
      if (this.watch) {
        this.watchedSeatsChanged((await api.watch(this.watch)).table.seats);
        return;
      }
      const table = await tables.get(this.tableId);
      if (this.seatsDialog) this.seatsDialog.update(table);
      else this.seatsChanged(table);
    } catch {
      if (!this.stopped) this.seatsTimer = setTimeout(() => this.lookAtSeats(), SEATS_POLL_MS); // offline a moment
    }
  }

  // -- quick reactions ---------------------------------------------------------
  /** Whether the person may send quick reactions: seated at a table with another person. */
  reactable() {
    return !this.watch && !!this.friends && this.friends.filter((s) => s.person).length > 1;
  }

  /** The button that opens the reactions (one element, kept across renders so it keeps its focus). */
  reactButton() {
    if (!this.reactToggle) {
      this.reactToggle = el("button", { type: "button", class: "tool", id: "react-button", "aria-haspopup": "true",
        "aria-expanded": "false", "aria-controls": "reaction-menu", onclick: () => this.toggleReactions() }, t("reaction.button"));
    }
    this.reactToggle.textContent = t("reaction.button"); // (a language change)
    return this.reactToggle;
  }

  buildReactionMenu() {
    const menu = el("div", { class: "reaction-menu", id: "reaction-menu", role: "group", "aria-label": t("reaction.menu"),
      hidden: true, onkeydown: (event) => event.key === "Escape" && this.toggleReactions(false) },
    ...REACTIONS.map((key) => el("button", { type: "button", class: "action", dataset: { reaction: key },
      onclick: () => this.sendReaction(key) }, t(`reaction.${key}`))));
    return menu;
  }

  toggleReactions(open = this.reactionMenu.hidden) {
    if (!open && this.reactionMenu.hidden) return;
    clear(this.reactionMenu).append(...this.buildReactionMenu().children); // in the language shown now
    this.reactionMenu.hidden = !open;
    this.reactToggle?.setAttribute("aria-expanded", String(open));
    if (open) this.reactionMenu.querySelector("button")?.focus();
    else this.reactToggle?.focus();
  }

  /** Send a reaction; the server tells every stream of the match (this page's too). */
  async sendReaction(key) {
    this.toggleReactions(false);
    try {
      this.showReaction(await api.react(this.tableId, key));
    } catch (error) {
      toast(error instanceof ApiError && error.status === 429 ? t("reaction.too_many") : problemText(error));
    }
  }

  /** A reaction beside its sender's seat for a few seconds (unless the person muted them; his own always). */
  showReaction({ seat, key }) {
    if (this.stopped || !REACTIONS.includes(key) || !(seat >= 0 && seat < 4)) return;
    if (seat !== this.me && settings().muteReactions) return;
    const box = this.seats[seat].querySelector(".reaction");
    const text = t(`reaction.${key}`);
    box.textContent = text;
    box.dataset.key = key;
    this.announce(`${this.r.seatName(seat)}: ${text}`);
    clearTimeout(box.timer);
    box.timer = setTimeout(() => {
      box.textContent = "";
      delete box.dataset.key;
    }, REACTION_SHOWN_MS);
  }

  /** While a finished deal's sheet is open the bar counts that deal, as the
   * sheet's match total does (the rest of the screen still shows the deal). */
  renderScores(view) {
    clear(this.scorebar.querySelector(".scores")).append(...this.scores(view));
  }

  renderSeats(view) {
    const settled = this.settled();
    const others = !view.terminal && view.to_move >= 0 && view.to_move !== this.me;
    const thinking = others ? this.thinkingSeat(view) : null;
    for (const seat of [0, 1, 2, 3]) {
      const box = this.seats[seat];
      // The person's seat lights up only when he can really act now.
      box.classList.toggle("to-move", seat === this.me ? view.to_move === this.me && !view.terminal && settled : false);
      box.classList.toggle("thinking", seat === thinking && settled);
      box.classList.toggle("out", this.r.sitsOut(view, seat));
      const name = box.querySelector(".name");
      clear(name).append(this.r.seatName(seat));
      if (view.dealer === seat) name.append(el("span", { class: "chip", title: t("table.dealer") }, t("table.dealer_chip")));
      if (seat === thinking && settled) name.append(el("span", { class: "dots", "aria-hidden": "true" }, "…"));
      this.renderWho(box, seat);
      const tally = this.r.seatTally ? this.r.seatTally(view, seat) : "";
      box.querySelector(".tally").textContent = tally || "";
      if (seat === this.me) continue;
      const backs = clear(box.querySelector(".backs"));
      const count = (view.hand_sizes || [])[seat] || 0;
      for (let i = 0; i < count; i++) backs.append(svgBox("span", { class: "mini" }, backSVG()));
      backs.setAttribute("role", "img");
      backs.setAttribute("aria-label", tn("table.cards_left", count));
    }
  }

  /** At a table of friends: who holds the seat (the host, a friend, a computer
   * player) under its name, and "(auto)" while the turn clock played its last decision. */
  renderWho(box, seat) {
    let who = box.querySelector(".who");
    if (!this.friends) return;
    if (!who) {
      who = el("div", { class: "who" });
      box.querySelector(".name").after(who);
    }
    const holder = this.friends[seat] || {};
    // (The person's own seat is named "You" already: only its "(auto)" is added.)
    const label = holder.you ? "" : this.watch && holder.person ? t("watch.person") : holderName(holder);
    box.classList.toggle("person", !!holder.person);
    clear(who).append(label);
    if (this.autoSeats.has(seat)) who.append(label ? " " : "", el("span", { class: "auto-mark" }, t("friends.auto")));
    who.hidden = !who.textContent;
  }

  /** The trick's cards; the first is marked as led, and ``winner`` (a complete
   * trick) is marked as winning.  ``fresh`` slides in from its player's side. */
  renderTrick(cards, { fresh = null, winner = null, animate = true } = {}) {
    this.trick.className = "trick";
    // A card on its way into the trick: the trick's place is back (a sideways phone hides it while empty).
    if (cards.length) this.felt.classList.remove("no-trick");
    for (const slot of this.trick.children) clear(slot);
    cards.forEach(([seat, card], index) => {
      const slot = this.trick.children[seat];
      const marks = [index === 0 ? t("table.led") : null, seat === winner ? t("table.wins") : null].filter(Boolean);
      const label = `${this.r.seatName(seat)}: ${cardName(card, t)}${marks.length ? ` (${marks.join(", ")})` : ""}`;
      const node = svgBox("div", { class: "card", role: "img", "aria-label": label, dataset: { card } }, cardSVG(card));
      if (index === 0) node.classList.add("lead");
      if (seat === winner) node.classList.add("winner");
      if (seat === fresh && animate && !reducedMotion()) node.classList.add(`enter-${this.place(seat)}`);
      slot.append(node);
      if (index === 0) slot.append(el("span", { class: "badge lead-badge", "aria-hidden": "true" }, t("table.led_badge")));
      if (seat === winner) slot.append(el("span", { class: "badge win-badge", "aria-hidden": "true" }, t("table.wins")));
    });
  }

  renderCentre(view) {
    clear(this.centre);
    const extra = this.r.centre(view);
    if (extra) {
      const face = extra.down ? backSVG() : cardSVG(extra.card);
      this.centre.append(el("div", { class: "label" }, extra.label),
        svgBox("div", { class: "card small", role: "img", "aria-label": cardName(extra.card, t) }, face));
    }
    if (view.pile !== undefined) this.centre.append(this.pileNode(view));
  }

  /** Double Sar's pile: how many tricks lie face down, and whose win opened a pair. */
  pileNode(view) {
    const owner = view.open_pair ? this.r.seatName(view.open_pair.seat) : null;
    const pile = el("div", { class: `pile${view.pile ? "" : " empty"}`, id: "pile" },
      svgBox("span", { class: "card small pile-card", "aria-hidden": "true" }, backSVG()),
      el("span", { class: "pile-text" }, tn("courtpiece.pile_size", view.pile),
        owner ? el("span", { class: "streak" }, t("courtpiece.streak_owner", { name: owner })) : null));
    return pile;
  }

  renderFacts(view) {
    clear(this.facts);
    for (const [label, value] of this.r.facts(view)) this.facts.append(el("div", {}, el("dt", {}, label), factValue(value)));
  }

  /** Choosing several cards at once (Doppelkopf poverty: give or return three). */
  selection(view) {
    const mine = view.to_move === this.me && !view.terminal && this.settled();
    return mine && this.r.selection ? this.r.selection(view) : null;
  }

  selectedCards(cards) {
    return [...this.selected].map((i) => cards[i]).sort();
  }

  /** The person's non-card actions: on his turn, and out of turn (Doppelkopf
   * announcements) whenever the view lists some. */
  ownButtons(view) {
    if (view.terminal) return [];
    return (view.legal || []).filter((a) => !this.r.cardOf(a));
  }

  sortedHand(view) {
    const hand = [...view.hand];
    if (this.pendingCard()) {
      const at = hand.indexOf(this.pending.card);
      if (at >= 0) hand.splice(at, 1);
    }
    return this.r.sortHand(hand, view, settings().sort);
  }

  /** Whether ``key`` (what a part of the screen shows) changed since it was
   * last drawn: unchanged buttons stay the same elements, so a tap while a
   * computer player's move arrives is not lost on a button being replaced. */
  changed(part, key) {
    const text = JSON.stringify([language(), settings().fourColour, key]);
    if (this.drawn?.[part] === text) return false;
    this.drawn = { ...this.drawn, [part]: text };
    return true;
  }

  renderActions(view) {
    const settled = this.settled();
    const mine = view.to_move === this.me && !view.terminal;
    const pick = this.selection(view);
    const offered = settled ? this.ownButtons(view) : this.outOfTurnButtons();
    let buttons = offered.filter((a) => !(pick && pick.actions.includes(a)));
    // A long list behind one button (Doppelkopf's reservations behind "Reservation…").
    const fold = this.r.fold ? this.r.fold(view, buttons) : null;
    const folded = fold && this.unfolded !== this.state.version ? fold : null;
    if (folded) buttons = buttons.filter((a) => !folded.actions.includes(a));
    const chosen = pick ? this.selectedCards(this.sortedHand(view)).join(" ") : null;
    const hint = mine && settled && this.state.hints; // (off at a table of friends unless its host allowed it)
    if (!this.changed("actions", [buttons, pick && pick.actions, chosen, hint, view.terminal, folded && folded.actions])) return;
    clear(this.actions);
    if (pick) {
      const match = pick.actions.find((a) => a.split(" ").slice(1).sort().join(" ") === chosen);
      this.actions.append(el("button", { type: "button", class: "action primary", id: "confirm-selection",
        disabled: !match, onclick: () => match && this.send(match) }, pick.label));
    }
    for (const action of buttons) {
      const suit = this.r.actionSuit ? this.r.actionSuit(action) : null;
      const primary = fold && fold.primary === action;
      const button = el("button", { type: "button", class: `action${primary ? " primary" : ""}`, dataset: { action }, onclick: () => this.send(action) });
      if (suit) button.append(svgBox("span", {}, suitSVG(suit, 18)), " ");
      // A long list of one kind (Hidden Trump's cards to hide instead) shows each by its
      // card alone, under one caption; the whole words stay the button's name.
      const short = this.r.shortLabel ? this.r.shortLabel(action) : null;
      if (short) {
        const captions = this.actions.querySelectorAll(".actions-caption");
        if (captions[captions.length - 1]?.textContent !== short.caption) this.actions.append(el("p", { class: "actions-caption" }, short.caption));
        button.classList.add("short");
        button.setAttribute("aria-label", this.r.actionLabel(this.game, action));
      }
      button.append(short ? short.text : this.r.actionLabel(this.game, action));
      this.actions.append(button);
    }
    if (folded) {
      this.actions.append(el("button", { type: "button", class: "action", id: "more-actions", "aria-expanded": "false",
        onclick: () => {
          this.unfolded = this.state.version;
          this.renderActions(this.state.view);
          this.placeDecision(this.state.view);
          this.actions.querySelector(`[data-action="${CSS.escape(folded.actions[0])}"]`)?.focus();
        } }, folded.label));
    }
    if (hint) {
      this.actions.append(el("button", { type: "button", class: "action subtle", id: "hint-button",
        onclick: () => this.askHint() }, t("hint.button")));
    }
    if (view.terminal && !this.watch) {
      this.actions.append(el("button", { type: "button", class: "action primary", id: "summary-button",
        onclick: () => showMatchSummary(this) }, t("sheet.summary")));
    }
  }

  /** Ask the server what the strongest computer player would do in the person's seat. */
  async askHint() {
    if (!this.settled()) return;
    const button = this.actions.querySelector("#hint-button");
    if (button) button.disabled = true;
    try {
      const answer = await api.hint(this.state.id, this.state.version);
      this.hint = { version: answer.version, hints: answer.hints };
    } catch (error) {
      toast(problemText(error));
      if (button) button.disabled = false;
    }
    if (this.settled()) this.render();
  }

  /** The hint, if one was asked for in this position: every action by its value,
   * best first, the best marked on its card; the others said in words against the
   * best ("−0.1 points: nearly as good", "−0.8 points: a mistake"). */
  renderHint(view) {
    clear(this.hintBox);
    for (const marked of this.root.querySelectorAll(".hinted")) {
      marked.classList.remove("hinted");
      marked.querySelector(".best-badge")?.remove();
    }
    const hint = this.hint;
    if (!hint || hint.version !== this.state.version || view.to_move !== this.me || !this.settled() || !hint.hints.length) return;
    const hints = [...hint.hints].sort((a, b) => b.value - a.value); // the server's order; kept if it ever was not
    const best = hints[0];
    const card = this.r.cardOf(best.action);
    const target = card ? this.hand.querySelector(`[data-card="${CSS.escape(card)}"]`)
      : this.actions.querySelector(`[data-action="${CSS.escape(best.action)}"]`);
    if (target) {
      target.classList.add("hinted");
      target.append(el("span", { class: "best-badge" }, "★ ", t("hint.best_badge")));
    }
    const signed = new Intl.NumberFormat(language(), { signDisplay: "always", minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const rows = hints.slice(0, 6).map((h, index) => {
      const hintCard = this.r.cardOf(h.action);
      return el("li", { class: index === 0 ? "best" : null, dataset: { action: h.action, value: h.value } },
        el("span", { class: "what" }, hintCard ? cardName(hintCard, t) : this.r.actionLabel(this.game, h.action)),
        ": ", el("span", { class: "value" }, hintWords(h.value - best.value, index === 0, best.value, signed)));
    });
    this.hintBox.append(el("button", { type: "button", class: "tool hint-close", "aria-label": t("hint.close"),
      onclick: () => { this.hint = null; this.renderHint(view); this.focusHand(); } }, "×"),
    el("p", { class: "hint-title" }, t("hint.title", { level: t("level.hard") })), el("ol", { class: "hint-list" }, rows));
  }

  renderHand(view) {
    if (this.watch) return;
    const mine = view.to_move === this.me && !view.terminal && this.settled();
    const byCard = new Map();
    for (const action of view.legal || []) {
      const card = this.r.cardOf(action);
      if (card) byCard.set(card, action);
    }
    const cards = this.sortedHand(view);
    const pick = this.selection(view);
    if (!this.changed("hand", [cards, mine && [...byCard], pick && [...this.selected]])) return;
    const focused = this.hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    clear(this.hand);
    // Up to 13 cards in one or two overlapped rows (``layoutHand``).
    if (pick) return this.renderSelectableHand(view, cards, pick);
    this.selected = new Set();
    for (const card of cards) {
      const action = mine ? byCard.get(card) : undefined;
      const button = svgBox("button", {
        type: "button",
        class: `card${action ? " legal" : ""}${mine && !action && byCard.size ? " illegal" : ""}`,
        "aria-label": cardName(card, t),
        disabled: !action,
        dataset: { card },
        onclick: () => action && this.send(action, card),
      }, cardSVG(card));
      this.hand.append(button);
    }
    this.layoutHand();
    if (focused) this.hand.querySelector(`[data-card="${CSS.escape(focused)}"].legal`)?.focus({ preventScroll: true });
  }

  /** Lay the hand out in the width there is: one row where every card shows at
   * least ``MIN_STEP`` px, else two rows (the first holds the first half of the
   * sorted hand), the lower row overlapping the upper one below its corner index.
   * The cards are as big as that allows, and never taller than the screen can spare. */
  layoutHand() {
    const cards = [...this.hand.querySelectorAll("button.card")];
    const n = cards.length;
    const width = this.hand.clientWidth - 8;
    if (!n || width <= 0) {
      this.hand.style.height = "";
      return;
    }
    // The height the hand may take: less while a decision's buttons need the felt.
    const sideways = window.innerWidth > window.innerHeight && window.innerHeight <= 520;
    const noTrick = this.felt.classList.contains("no-trick");
    const share = sideways ? (noTrick ? 0.2 : 0.25)
      : (this.felt.classList.contains("deciding") && !this.hand.querySelector(".legal")) || noTrick ? 0.22 : 0.32;
    const tallest = Math.max(48, (window.innerHeight || 640) * share);
    let size = Math.min(MAX_CARD, Math.max(MIN_CARD, width / 4.6));
    let rows = size + (n - 1) * MIN_STEP <= width ? 1 : 2;
    const perRow = Math.ceil(n / rows);
    if (rows === 2) size = Math.min(size, width - (perRow - 1) * MIN_STEP);
    // Two rows take 1.44 card heights; one row a card height and its lift.
    size = Math.max(MIN_CARD * 0.8, Math.min(size, tallest / (rows === 2 ? 1.44 * 1.4 : 1.4 + 0.1)));
    const height = size * 1.4;
    const overlap = rows === 2 ? height * 0.44 : 0; // the lower row starts below the upper row's index
    const lift = rows === 1 ? 10 : 0;
    this.hand.classList.toggle("two-rows", rows === 2);
    this.hand.style.setProperty("--hand-card", `${size}px`);
    this.hand.style.height = `${lift + height + overlap + 6}px`;
    cards.forEach((card, index) => {
      const row = index < perRow ? 0 : 1;
      const inRow = row === 0 ? Math.min(n, perRow) : n - perRow;
      const at = row === 0 ? index : index - perRow;
      const step = inRow > 1 ? Math.min(size + 6, (width - size) / (inRow - 1)) : 0;
      const left = (this.hand.clientWidth - (size + step * (inRow - 1))) / 2 + step * at;
      card.style.left = `${left}px`;
      card.style.top = `${lift + row * overlap}px`;
    });
  }

  renderSelectableHand(view, cards, pick) {
    if (!this.selected) this.selected = new Set();
    cards.forEach((card, index) => {
      const chosen = this.selected.has(index);
      this.hand.append(svgBox("button", {
        type: "button",
        class: `card legal selectable${chosen ? " chosen" : ""}`,
        "aria-pressed": chosen ? "true" : "false",
        "aria-label": cardName(card, t),
        dataset: { card, index },
        onclick: () => {
          if (this.selected.has(index)) this.selected.delete(index);
          else if (this.selected.size < pick.count) this.selected.add(index);
          this.renderHand(view);
          this.renderActions(view);
          this.hand.querySelector(`[data-index="${index}"]`)?.focus({ preventScroll: true });
        },
      }, cardSVG(card)));
    });
    this.layoutHand();
  }

  arrowKeys(event) {
    if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    const buttons = [...this.hand.querySelectorAll("button.legal")];
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[(at + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    if (next) next.focus();
    event.preventDefault();
  }

  // -- playing -----------------------------------------------------------------
  /** The person's action: his card lands at once; the request stores it; a
   * failed request puts the card back with a message and a retry. */
  async send(action, card = null) {
    const outOfTurn = !card && this.outOfTurnButtons().includes(action);
    if (!outOfTurn && !this.settled()) return;
    this.pending = { action, card, version: this.state.version };
    this.landed = card ? `play ${card}` : null; // its step will not slide it in again
    this.hint = null;
    this.hideProblem();
    if (card) playSound("card");
    this.render();
    if (card) this.renderTrick(this.trickOnScreen(this.state.view), { fresh: this.me });
    try {
      const next = outOfTurn ? await this.sendOutOfTurn(action) : await api.act(this.state.id, this.known, action);
      this.pending = null;
      if (next.version > this.known) this.accept(next);
      else if (this.settled()) {
        // The live channel showed this response's steps while the request was out.
        this.render();
        this.afterShown();
      }
    } catch (error) {
      this.pending = null;
      this.landed = null;
      if (error instanceof TooLate) {
        this.showProblem(this.tooLateText(action, error.view));
      } else if (error instanceof ApiError && error.status === 409) {
        toast(t("error.stale"));
        await this.refresh();
      } else {
        this.showProblem(card ? t("error.card_back", { msg: problemText(error) }) : problemText(error),
          () => this.send(action, card));
      }
      this.render();
      this.focusHand();
    }
  }

  /** An out-of-turn action said while the computer players play: when one of
   * them was stored first (409), send it again at the newer version as long as
   * the rules still allow it; ``TooLate`` when they no longer do. */
  async sendOutOfTurn(action) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await api.act(this.state.id, this.known, action);
      } catch (error) {
        const raced = error instanceof ApiError && (error.status === 409 || error.status === 422);
        if (!raced || attempt >= 5) throw error;
        const fresh = await api.load(this.state.id);
        if (!this.ownButtons(fresh.view).includes(action)) throw new TooLate(fresh.view);
        this.accept(fresh); // (its steps have usually come over the live channel already)
      }
    }
  }

  /** "Too late for Re: West moved first (Re), so it is no longer allowed." */
  tooLateText(action, view) {
    const label = this.r.actionLabel(this.game, action);
    const last = [...(view.actions || [])].reverse().find(([seat]) => seat !== this.me);
    if (!last) return t("error.too_late_plain", { action: label });
    return t("error.too_late", { action: label, name: this.r.seatName(last[0]), what: this.moveLabel(last[1]) });
  }

  moveLabel(text) {
    const card = this.r.cardOf(text);
    return card ? cardName(card, t) : this.r.actionLabel(this.game, text);
  }

  /** A message over the decisions; with ``retry``, a button that tries again. */
  showProblem(message, retry = null) {
    clear(this.notice).append(el("span", {}, message));
    if (retry) {
      this.notice.append(" ", el("button", { type: "button", class: "action", id: "retry",
        onclick: () => { this.hideProblem(); retry(); } }, t("error.retry")));
    }
    this.notice.classList.add("shown");
  }

  hideProblem() {
    clear(this.notice);
    this.notice.classList.remove("shown");
  }

  /** Show one response's steps at the person's pace; then the deal's score
   * sheet, after its last trick has been shown. */
  async showSteps(next) {
    const results = (next.view.match && next.view.match.results) || [];
    let sheetIndex = results.length - next.steps.filter((s) => s.deal_over).length;
    for (const step of next.steps) {
      await this.waitGap();
      if (this.stopped) return;
      this.markAuto(step);
      // (A watcher's step has no text where the seats read it differently: a face-down card.)
      if (step.text === undefined) this.gap = paced(WORD_GAP_MS);
      else if (step.text.startsWith("play ")) await this.showCard(step);
      else this.showWord(step);
      if (step.deal_over) {
        const result = results[sheetIndex++];
        // The deal's final counts (Double Sar: the last trick takes the pile) beside its sheet.
        if (sheetIndex === results.length && next.view.match.previous_deal) this.showFinalCounts(next.view.match.previous_deal);
        await this.waitGap();
        this.clearBubbles();
        if (result && (result.counts || this.r.sheetForRedeal(result))) {
          this.renderScores(next.view);
          await showScoreSheet(next.view, result, this.game);
        }
        else if (result) this.say(step.seat, this.r.redealText(this.game, result));
      }
    }
  }

  /** A seat's decision made by the turn clock (``auto``) marks it "(auto)" until its holder decides again. */
  markAuto(step) {
    if (!this.friends || step.seat < 0) return;
    const was = this.autoSeats.has(step.seat);
    if (step.auto) this.autoSeats.add(step.seat);
    else this.autoSeats.delete(step.seat);
    if (was !== !!step.auto) this.renderWho(this.seats[step.seat], step.seat);
  }

  /** The finished deal's facts and tallies, while its last trick and sheet are shown. */
  showFinalCounts(finished) {
    this.renderFacts(finished);
    for (const seat of [0, 1, 2, 3]) {
      this.seats[seat].querySelector(".tally").textContent = (this.r.seatTally && this.r.seatTally(finished, seat)) || "";
    }
  }

  /** While steps are shown: the prompt and the highlighted seat name the same
   * computer player (the one to move next), or ``text`` with no seat lit. */
  sayWhoIsNext(seat, text = "") {
    for (const box of this.seats) box.classList.remove("thinking", "to-move");
    if (seat !== null) this.seats[seat].classList.add("thinking");
    this.prompt.classList.remove("mine");
    this.prompt.textContent = seat !== null ? t("table.thinking", { name: this.r.seatName(seat) }) : text;
  }

  async showCard(step) {
    const own = step.seat === this.me && this.landed === step.text;
    this.landed = null;
    this.say(step.seat, ""); // a seat's word (a reservation, a call) was before its card: it uncovers the seat
    const cards = step.completed ? step.completed.cards : step.trick;
    // A new trick: what was said before it (the reservations, the person's own "healthy") is over.
    if (cards.length === 1) this.clearBubbles();
    const leader = cards.length ? cards[0][0] : null;
    this.renderTrick(cards, { fresh: step.seat, animate: !own, leader });
    if (!own) playSound("card");
    const card = step.text.slice(5);
    if (step.seat !== this.me) this.announce(t("table.played", { name: this.r.seatName(step.seat), card: cardName(card, t) }));
    this.gap = paced(CARD_GAP_MS);
    if (!step.completed) return;
    const winner = step.completed.winner;
    this.renderTrick(cards, { winner, animate: false });
    const won = t("table.trick_won_by", { name: this.r.seatName(winner) });
    this.announce(won);
    this.sayWhoIsNext(null, won);
    await sleep(paced(TRICK_SHOWN_MS));
    await this.gather(winner);
    this.gap = 0;
  }

  /** The complete trick slides to its winner (Double Sar: onto the pile). */
  async gather(winner) {
    if (!reducedMotion() && paced(1) > 0) {
      const pile = this.state.view.pile !== undefined ? this.centre.querySelector("#pile .pile-card") : null;
      const target = (pile || this.seats[winner]).getBoundingClientRect();
      // Each card slides from where it lies to the winner's seat (or the pile).
      for (const card of this.trick.querySelectorAll(".card")) {
        const from = card.getBoundingClientRect();
        card.style.setProperty("--dx", `${target.x + target.width / 2 - (from.x + from.width / 2)}px`);
        card.style.setProperty("--dy", `${target.y + target.height / 2 - (from.y + from.height / 2)}px`);
      }
      this.trick.style.setProperty("--gather", `${scaled(GATHER_MS)}ms`); // the CSS follows the page's clock
      this.trick.classList.add("gather", `to-${pile ? "pile" : this.place(winner)}`);
      await sleep(GATHER_MS);
    }
    playSound("trick");
    this.renderTrick([]);
  }

  showWord(step) {
    const words = this.r.bubble(this.game, step.text);
    this.say(step.seat, words);
    if (words && (step.seat !== this.me || step.text === "timeout")) this.announce(`${this.r.seatName(step.seat)}: ${words}`);
    this.gap = paced(step.seat === this.me ? 150 : WORD_GAP_MS);
  }

  /** What remains of the last step's time on screen, before the next is shown. */
  async waitGap() {
    if (this.gap) await sleep(this.gap);
    this.gap = 0;
  }

  announce(text) {
    this.announcer.textContent = text;
  }

  say(seat, text) {
    const bubble = this.seats[seat].querySelector(".bubble");
    bubble.textContent = text;
    if (text) {
      clearTimeout(bubble.timer);
      bubble.timer = setTimeout(() => (bubble.textContent = ""), Math.max(2500, paced(3000)));
    }
  }

  clearBubbles() {
    for (const box of this.seats) box.querySelector(".bubble").textContent = "";
  }

  focusHand() {
    const active = document.activeElement;
    if (document.querySelector("dialog[open]")) return;
    if (active && active !== document.body && !this.root.contains(active)) return;
    const target = this.hand.querySelector("button.legal") || this.actions.querySelector("button.action:not([disabled])");
    if (target) target.focus({ preventScroll: true });
  }

  /** The same game again: the same level and options. */
  async newGame() {
    const options = Object.fromEntries(Object.entries(this.state.view.options || {})
      .filter(([name]) => !SERVER_OPTIONS.includes(name)));
    this.onNewGame(this.game, options, this.state.level);
  }
}
