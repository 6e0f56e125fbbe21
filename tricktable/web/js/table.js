// The card table: the person's hand, the three computer players, the trick,
// the buttons for every decision, and the short replay of what the computer
// players did after the person's action.

import { api, ApiError, memory } from "./api.js";
import { backSVG, cardName, cardSVG, suitSVG } from "./cards.js";
import { clear, el, reducedMotion, sleep, svgBox, toast } from "./dom.js";
import { language, t } from "./i18n.js";
import { renderer } from "./games/index.js";
import { showLastTrick, showMatchSummary, showScoreSheet } from "./sheets.js";

const SEAT_CLASS = ["south", "west", "north", "east"];

export class Table {
  constructor(root, state, onNewGame) {
    this.root = root;
    this.state = state; // {id, version, game, daily, view, steps}
    this.game = state.game;
    this.r = renderer(this.game);
    this.busy = false;
    this.selected = new Set();
    this.hint = null; // {version, hints}: the last hint asked for, shown while the version holds
    this.onNewGame = onNewGame;
    this.build();
  }

  /** Replay the steps a state arrived with (the computer players who moved
   * before the person), then show the state itself. */
  async start() {
    if (this.state.steps && this.state.steps.length) {
      this.setBusy(true);
      this.render();
      this.renderTrick([]);
      await this.replaySteps(this.state);
    }
    this.setBusy(false);
    this.render();
    this.focusHand();
  }

  setBusy(busy) {
    this.busy = busy;
    this.root.dataset.busy = busy ? "1" : "0";
  }

  // -- layout ----------------------------------------------------------------
  build() {
    clear(this.root);
    this.scorebar = el("div", { class: "scorebar" });
    this.seats = [0, 1, 2, 3].map((seat) =>
      el("div", { class: `seat ${SEAT_CLASS[seat]}`, dataset: { seat } },
        el("div", { class: "name" }), el("div", { class: "backs" }), el("div", { class: "bubble", "aria-live": "polite" })));
    this.trick = el("div", { class: "trick", "aria-label": t("table.trick"), role: "group" },
      ...[0, 1, 2, 3].map((seat) => el("div", { class: `slot ${SEAT_CLASS[seat]}`, dataset: { seat } })));
    this.centre = el("div", { class: "centre-extra" });
    this.facts = el("dl", { class: "facts" });
    this.prompt = el("p", { class: "prompt", "aria-live": "polite" });
    this.actions = el("div", { class: "actions" });
    this.hintBox = el("div", { class: "hint-box", "aria-live": "polite" });
    this.hand = el("div", { class: "hand", role: "group", "aria-label": t("table.your_hand"), onkeydown: (e) => this.arrowKeys(e) });
    const felt = el("div", { class: "felt" }, this.seats[2], this.seats[1], this.seats[3],
      el("div", { class: "middle" }, this.trick, this.centre), this.facts);
    this.root.append(el("section", { class: `table game-${this.game}` },
      this.scorebar, felt, this.prompt, this.actions, this.hintBox, this.hand));
    this.render();
  }

  render() {
    const view = this.state.view;
    this.renderScorebar(view);
    this.renderSeats(view);
    this.renderTrick(view.trick || []);
    this.renderCentre(view);
    this.renderFacts(view);
    this.prompt.textContent = this.r.prompt(view);
    this.renderCountdown(view);
    this.renderActions(view);
    this.renderHand(view);
    this.renderHint(view);
  }

  /** A timed decision (Court Piece calling): the seconds the server gives, counted
   * down; at zero the server is asked, and it applies the timeout itself. */
  renderCountdown(view) {
    clearInterval(this.timer);
    const left = this.state.deadline_in;
    if (left === null || left === undefined || view.to_move !== 0 || this.busy) return;
    const ends = performance.now() + left * 1000;
    const clock = el("span", { class: "countdown", role: "timer" });
    this.prompt.append(" ", clock);
    const tick = () => {
      if (!document.body.contains(clock)) return clearInterval(this.timer);
      const seconds = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      clock.textContent = t("table.seconds_left", { n: seconds });
      clock.classList.toggle("urgent", seconds <= 5);
      if (seconds === 0 && document.body.contains(clock)) {
        clearInterval(this.timer);
        this.refresh();
      }
    };
    tick();
    this.timer = setInterval(tick, 250);
  }

  /** Ask the server for the game again (after a timeout) and show what happened. */
  async refresh() {
    if (this.busy) return;
    this.setBusy(true);
    try {
      const next = await api.load(this.state.id);
      await this.replaySteps(next);
      this.state = next;
    } catch (error) {
      toast(t("error.generic", { msg: error.message }));
    } finally {
      this.setBusy(false);
      this.render();
    }
  }

  renderScorebar(view) {
    const [us, them] = this.r.teamTotals(view);
    const match = view.match || {};
    const deal = match.deals_total
      ? t("table.deal_of", { n: match.deal_number, total: match.deals_total })
      : t("table.deal", { n: match.deal_number || 1 });
    const lastTrick = el("button", { type: "button", class: "tool", id: "last-trick", onclick: () => showLastTrick(view, this.game) },
      t("table.last_trick"));
    const totals = match.totals || [0, 0, 0, 0];
    const scores = this.r.teams === false
      ? [0, 1, 2, 3].map((s) => el("span", { class: `score seat-${s}` }, this.r.seatName(s), " ", el("strong", {}, totals[s])))
      : [el("span", { class: "score us" }, t("table.us"), " ", el("strong", {}, us)),
        el("span", { class: "score them" }, t("table.them"), " ", el("strong", {}, them))];
    clear(this.scorebar).append(
      ...scores,
      el("span", { class: "deal" }, deal, match.target ? ` · ${t("table.target", { n: match.target })}` : "",
        this.state.daily ? ` · ${t("daily.badge")}` : "", this.state.level ? ` · ${t(`level.${this.state.level}`)}` : ""),
      lastTrick);
  }

  renderSeats(view) {
    for (const seat of [0, 1, 2, 3]) {
      const box = this.seats[seat];
      box.classList.toggle("to-move", view.to_move === seat);
      box.classList.toggle("out", view.sitting_out === seat);
      const name = box.querySelector(".name");
      clear(name).append(this.r.seatName(seat));
      if (view.dealer === seat) name.append(el("span", { class: "chip", title: t("table.dealer") }, t("table.dealer_chip")));
      if (seat === 0) continue;
      const backs = clear(box.querySelector(".backs"));
      const count = (view.hand_sizes || [])[seat] || 0;
      for (let i = 0; i < count; i++) backs.append(svgBox("span", { class: "mini" }, backSVG()));
      backs.setAttribute("aria-label", t("table.cards_left", { n: count }));
    }
  }

  renderTrick(cards, fresh = null) {
    for (const slot of this.trick.children) clear(slot);
    for (const [seat, card] of cards) {
      const slot = this.trick.children[seat];
      const node = svgBox("div", { class: "card", role: "img", "aria-label": `${this.r.seatName(seat)}: ${cardName(card, t)}`, dataset: { card } }, cardSVG(card));
      if (seat === fresh && !reducedMotion()) node.classList.add(`enter-${SEAT_CLASS[seat]}`);
      slot.append(node);
    }
  }

  renderCentre(view) {
    clear(this.centre);
    const extra = this.r.centre(view);
    if (!extra) return;
    const face = extra.down ? backSVG() : cardSVG(extra.card);
    this.centre.append(el("div", { class: "label" }, extra.label),
      svgBox("div", { class: "card small", role: "img", "aria-label": cardName(extra.card, t) }, face));
  }

  renderFacts(view) {
    clear(this.facts);
    for (const [label, value] of this.r.facts(view)) {
      const dd = el("dd");
      if (value && typeof value === "object") dd.append(svgBox("span", {}, suitSVG(value.suit, 16)), " ", value.text);
      else dd.append(value);
      this.facts.append(el("div", {}, el("dt", {}, label), dd));
    }
  }

  /** Choosing several cards at once (Doppelkopf poverty: give or return three). */
  selection(view) {
    const mine = view.to_move === 0 && !view.terminal && !this.busy;
    return mine && this.r.selection ? this.r.selection(view) : null;
  }

  selectedCards(cards) {
    return [...this.selected].map((i) => cards[i]).sort();
  }

  renderActions(view) {
    clear(this.actions);
    const mine = view.to_move === 0 && !view.terminal;
    const pick = this.selection(view);
    if (pick) {
      const cards = this.r.sortHand(view.hand, view);
      const chosen = this.selectedCards(cards).join(" ");
      const match = pick.actions.find((a) => a.split(" ").slice(1).sort().join(" ") === chosen);
      this.actions.append(el("button", { type: "button", class: "action primary", id: "confirm-selection",
        disabled: !match, onclick: () => match && this.send(match) }, pick.label));
    }
    const buttons = mine ? view.legal.filter((a) => !this.r.cardOf(a) && !(pick && pick.actions.includes(a))) : [];
    for (const action of buttons) {
      const suit = this.r.actionSuit ? this.r.actionSuit(action) : null;
      const button = el("button", { type: "button", class: "action", dataset: { action }, onclick: () => this.send(action) });
      if (suit) button.append(svgBox("span", {}, suitSVG(suit, 18)), " ");
      button.append(this.r.actionLabel(this.game, action));
      this.actions.append(button);
    }
    if (mine && this.state.hints && !this.busy) {
      this.actions.append(el("button", { type: "button", class: "action subtle", id: "hint-button",
        onclick: () => this.askHint() }, t("hint.button")));
    }
    if (view.terminal) {
      this.actions.append(el("button", { type: "button", class: "action primary", onclick: () => showMatchSummary(this) }, t("sheet.summary")));
    }
  }

  /** Ask the server what the strongest computer player would do in the person's seat. */
  async askHint() {
    if (this.busy) return;
    const button = this.actions.querySelector("#hint-button");
    if (button) button.disabled = true;
    try {
      const answer = await api.hint(this.state.id, this.state.version);
      this.hint = { version: answer.version, hints: answer.hints };
    } catch (error) {
      toast(t("error.generic", { msg: error.message }));
    }
    if (!this.busy) this.render();
  }

  /** The hint, if one was asked for in this position: the suggested action is
   * marked, and the best few are listed with their expected points per deal. */
  renderHint(view) {
    clear(this.hintBox);
    const hint = this.hint;
    if (!hint || hint.version !== this.state.version || view.to_move !== 0 || this.busy || !hint.hints.length) return;
    const best = hint.hints[0].action;
    const card = this.r.cardOf(best);
    const target = card ? this.hand.querySelector(`[data-card="${CSS.escape(card)}"]`)
      : this.actions.querySelector(`[data-action="${CSS.escape(best)}"]`);
    target?.classList.add("hinted");
    const number = new Intl.NumberFormat(language(), { signDisplay: "always", minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const rows = hint.hints.slice(0, 5).map((h) => {
      const hintCard = this.r.cardOf(h.action);
      return el("li", { dataset: { action: h.action } },
        el("span", { class: "what" }, hintCard ? cardName(hintCard, t) : this.r.actionLabel(this.game, h.action)),
        " ", el("span", { class: "value" }, number.format(h.value)));
    });
    this.hintBox.append(el("p", { class: "hint-title" }, t("hint.title")), el("ol", { class: "hint-list" }, rows));
  }

  renderHand(view) {
    clear(this.hand);
    const mine = view.to_move === 0 && !view.terminal && !this.busy;
    const byCard = new Map();
    for (const action of view.legal || []) {
      const card = this.r.cardOf(action);
      if (card) byCard.set(card, action);
    }
    const cards = this.r.sortHand(view.hand, view);
    // Big hands on narrow screens go in two rows, so every card shows a wide
    // enough strip to read and to tap.
    const perRow = cards.length > 8 && window.innerWidth <= 520 ? Math.ceil(cards.length / 2) : cards.length;
    this.hand.style.setProperty("--n", perRow);
    this.hand.classList.toggle("two-rows", perRow < cards.length);
    this.perRow = perRow;
    const pick = this.selection(view);
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
    this.breakRows();
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
        dataset: { card },
        onclick: () => {
          if (this.selected.has(index)) this.selected.delete(index);
          else if (this.selected.size < pick.count) this.selected.add(index);
          this.renderHand(view);
          this.renderActions(view);
        },
      }, cardSVG(card)));
    });
    this.breakRows();
  }

  /** Start the second row of a two-row hand. */
  breakRows() {
    if (!this.hand.classList.contains("two-rows")) return;
    const second = this.hand.querySelectorAll(".card")[this.perRow];
    if (!second) return;
    second.classList.add("row-start");
    this.hand.insertBefore(el("span", { class: "row-break", "aria-hidden": "true" }), second);
  }

  arrowKeys(event) {
    if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    const buttons = [...this.hand.querySelectorAll("button:not([disabled])")];
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[(at + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    if (next) next.focus();
    event.preventDefault();
  }

  // -- playing -----------------------------------------------------------------
  async send(action, card = null) {
    if (this.busy) return;
    this.setBusy(true);
    if (card) this.hand.querySelector(`[data-card="${CSS.escape(card)}"]`)?.classList.add("leaving");
    for (const b of this.root.querySelectorAll("button.action, .hand button")) b.disabled = true;
    try {
      const next = await api.act(this.state.id, this.state.version, action);
      this.selected = new Set();
      await this.replaySteps(next);
      this.state = next;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        toast(t("error.stale"));
        this.state = await api.load(this.state.id);
      } else {
        toast(t("error.generic", { msg: error.message }));
      }
    } finally {
      this.setBusy(false);
      this.render();
      this.focusHand();
    }
  }

  /** Show what happened, step by step, then the deal's score sheet if a deal ended. */
  async replaySteps(next) {
    const results = (next.view.match && next.view.match.results) || [];
    let sheetIndex = results.length - next.steps.filter((s) => s.deal_over).length;
    for (const step of next.steps) {
      if (step.text.startsWith("play ")) {
        if (step.seat === 0) this.hand.querySelector(".leaving")?.remove();
        this.renderTrick(step.completed ? step.completed.cards : step.trick, step.seat);
        await sleep(step.completed ? 1100 : 450);
        if (step.completed) {
          this.renderTrick([]);
          await sleep(150);
        }
      } else {
        this.say(step.seat, this.r.bubble(this.game, step.text));
        await sleep(step.seat === 0 ? 150 : 700);
      }
      if (step.deal_over) {
        for (const box of this.seats) box.querySelector(".bubble").textContent = "";
        await showScoreSheet(next.view, results[sheetIndex++], this.game);
      }
    }
    for (const box of this.seats) box.querySelector(".bubble").textContent = "";
    if (next.view.terminal) {
      this.state = next; // the table behind the summary shows the final totals
      this.render();
      await showMatchSummary(this, next);
    }
  }

  say(seat, text) {
    const bubble = this.seats[seat].querySelector(".bubble");
    bubble.textContent = text;
    bubble.classList.toggle("shown", Boolean(text));
  }

  focusHand() {
    const target = this.root.querySelector(".hand button.legal, button.action");
    if (target && this.root.contains(document.activeElement) === false) target.focus({ preventScroll: true });
  }

  async newGame(options) {
    const state = await api.newGame(this.game, options ?? memory.options(this.game));
    memory.setGameId(this.game, state.id);
    this.onNewGame(state);
  }
}
