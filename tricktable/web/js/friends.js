// Tables of friends on the page: the home page's "Play with friends" box (create a
// table, join one by its code), the lobby at #/table/ID (the code in large letters,
// the invite link, the four seats, the host's moves and Start), and the invite
// link #/join/TOKEN.  Once the host starts, the lobby turns into the card table,
// each person at his own seat.  Also "Play with anyone" (a quick-match table: its
// lobby counts down to its start) and the watch link #/watch/TOKEN (the table
// read-only, as every seat sees it).

import { api, ApiError, memory } from "./api.js";
import { clear, el, toast } from "./dom.js";
import { holderName, inviteKey, keptLink, linkBox, tables, watchKey } from "./hosting.js";
import { t } from "./i18n.js";
import { chosenLevel } from "./levels.js";
import { renderer } from "./games/index.js";
import { problemText } from "./table.js";

const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"; // the server's: no 0/O, 1/I/L look-alikes
const CODE_LENGTH = 6;
const CLOCKS = [0, 15, 30, 60];
const DEFAULT_CLOCK = 30;
const POLL_MS = 2000;
const QUICK_POLL_MS = 1000; // a quick-match table starts by itself: its people follow it closely

/** A typed code as the server reads it (spaces and dashes dropped, either case), or null if it cannot be one. */
export function cleanCode(text) {
  const code = String(text).replace(/[\s-]/g, "").toUpperCase();
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null;
}

/** The home page's box: create a table (game, level, turn clock) or join one by its code. */
export function friendsBox(catalog) {
  const games = el("select", { id: "friends-game" },
    ...catalog.games.map((g) => el("option", { value: g.name }, t(`game.${g.name}`))));
  const level = el("select", { id: "friends-level" },
    ...(catalog.levels || ["easy", "normal", "hard"]).map((name) =>
      el("option", { value: name, selected: name === chosenLevel() }, t(`level.${name}`))));
  const clock = el("select", { id: "friends-clock" },
    ...CLOCKS.map((s) => el("option", { value: String(s), selected: s === DEFAULT_CLOCK },
      s ? t("friends.clock_seconds", { n: s }) : t("friends.clock_off"))));
  const hints = el("input", { type: "checkbox", role: "switch", class: "switch", id: "friends-hints" });
  const create = el("button", { type: "button", class: "action primary", id: "friends-create", onclick: async () => {
    create.disabled = true;
    try {
      // The game's options as its Rules dialog last set them on this device.
      const made = await tables.create(games.value, memory.options(games.value), level.value, Number(clock.value),
        hints.checked);
      localStorage.setItem(inviteKey(made.id), made.invite);
      localStorage.setItem(watchKey(made.id), made.watch);
      location.hash = `#/table/${encodeURIComponent(made.id)}`;
    } catch (error) {
      toast(problemText(error));
      create.disabled = false;
    }
  } }, t("friends.create"));
  // Play with anyone: the game chosen above, with its remembered options; the lobby counts down to its start.
  const quick = el("button", { type: "button", class: "action", id: "quick-match", onclick: async () => {
    quick.disabled = true;
    try {
      const seated = await api.quickMatch(games.value, memory.options(games.value));
      location.hash = `#/table/${encodeURIComponent(seated.id)}`;
    } catch (error) {
      toast(problemText(error));
      quick.disabled = false;
    }
  } }, t("quick.play"));
  const codeInput = el("input", { id: "join-code", type: "text", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: "12", inputmode: "text", "aria-describedby": "join-problem" });
  const problem = el("p", { class: "join-problem", id: "join-problem", "aria-live": "polite" });
  const join = async (event) => {
    event.preventDefault();
    const code = cleanCode(codeInput.value);
    if (!code) {
      problem.textContent = t("friends.code_invalid");
      return;
    }
    try {
      const joined = await tables.join(code);
      location.hash = `#/table/${encodeURIComponent(joined.id)}`;
    } catch (error) {
      problem.textContent = error instanceof ApiError && error.status === 404 ? t("friends.code_unknown") : problemText(error);
    }
  };
  return el("section", { class: "friends-box", id: "friends-box", "aria-labelledby": "friends-title" },
    el("h2", { id: "friends-title" }, t("friends.title")),
    el("p", { class: "blurb" }, t("friends.blurb")),
    el("div", { class: "friends-create" },
      el("span", { class: "field" }, el("label", { for: "friends-game" }, t("friends.game")), games),
      el("span", { class: "field" }, el("label", { for: "friends-level" }, t("level.label")), level),
      el("span", { class: "field" }, el("label", { for: "friends-clock" }, t("friends.clock")), clock),
      el("label", { class: "option", for: "friends-hints" }, hints, " ", t("host.hints_allow")), create),
    el("div", { class: "quick-box" }, el("p", { class: "blurb", id: "quick-blurb" }, t("quick.blurb")), quick),
    el("form", { class: "join-form", onsubmit: join },
      el("label", { for: "join-code" }, t("friends.join_label")),
      el("div", { class: "join-row" }, codeInput,
        el("button", { type: "submit", class: "action", id: "join-button" }, t("friends.join"))),
      problem));
}

/** The home page's way to the box below the games (a phone shows the games first). */
export function friendsShortcut() {
  return el("button", { type: "button", class: "action", id: "friends-shortcut", onclick: () => {
    document.getElementById("friends-box")?.scrollIntoView({ block: "start" });
    document.getElementById("friends-game")?.focus({ preventScroll: true });
  } }, t("friends.shortcut"));
}

/** #/join/TOKEN: take a seat at the table the invite names, then its lobby. */
export async function joinByInvite(token) {
  const joined = await tables.join(token);
  location.replace(`${location.pathname}${location.search.replace(/([?&])join=[^&]*&?/, "$1").replace(/[?&]$/, "")}#/table/${encodeURIComponent(joined.id)}`);
}

/** The lobby of table ``id``, polled every 2 s until the host starts; then
 * ``onStarted(game state, table)`` shows the card table. */
export class Lobby {
  constructor(root, id, onStarted) {
    this.root = root;
    this.id = id;
    this.onStarted = onStarted;
    this.busy = false;
  }

  async start() {
    window.scrollTo(0, 0); // from the home page's box, far down on a phone
    await this.refresh();
    this.poller = setInterval(() => this.refresh(), this.table && this.table.quick ? QUICK_POLL_MS : POLL_MS);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.poller);
    clearInterval(this.ticker);
  }

  async refresh() {
    if (this.stopped || this.busy) return;
    try {
      this.show(await tables.get(this.id));
    } catch (error) {
      if (this.stopped) return;
      if (!this.table) throw error; // the first look: the route says what went wrong
      if (error instanceof ApiError && error.status === 404) {
        // The host gave this seat to a computer player (or the table expired): nothing more to wait for.
        this.stop();
        this.root.querySelector("#lobby-wait")?.remove();
        this.say(t("friends.gone"));
        return;
      }
      this.say(problemText(error));
    }
  }

  async show(table) {
    if (this.stopped) return;
    this.table = table;
    if (table.game_id) {
      this.stop();
      this.onStarted(await api.load(table.game_id), table);
      return;
    }
    if (table.starts_in !== null && table.starts_in !== undefined) this.countDown(table.starts_in);
    const key = JSON.stringify({ ...table, starts_in: null }); // the countdown ticks on its own
    if (key === this.drawn) return;
    this.drawn = key;
    this.render(table);
  }

  /** A quick-match table's seconds to its start, counted down between the polls. */
  countDown(seconds) {
    this.startsAt = performance.now() + seconds * 1000;
    const tick = () => {
      const box = this.root.querySelector("#quick-countdown");
      const left = Math.max(0, Math.ceil((this.startsAt - performance.now()) / 1000));
      if (box) box.textContent = left ? t("quick.starts_in", { n: left }) : t("quick.starting");
    };
    clearInterval(this.ticker);
    this.ticker = setInterval(tick, 250);
    queueMicrotask(tick); // (after a render that makes the box)
  }

  say(message) {
    const box = this.root.querySelector("#lobby-problem");
    if (box) box.textContent = message;
  }

  /** A host's change: sent, then the lobby as the server answers. */
  async change(request) {
    this.busy = true;
    try {
      const table = await request();
      this.busy = false;
      this.drawn = null;
      await this.show(table);
    } catch (error) {
      this.busy = false;
      this.say(problemText(error));
      this.drawn = null;
      this.refresh();
    }
  }

  render(table) {
    const focused = document.activeElement && this.root.contains(document.activeElement) ? document.activeElement.id : null;
    const link = table.quick ? null : keptLink(inviteKey(table.id), "join");
    const watchLink = table.quick ? null : keptLink(watchKey(table.id), "watch");
    // A quick-match table seats and starts by itself: no code to pass on, no host's moves.
    const hosting = table.host && !table.quick;
    const teams = renderer(table.game).teams !== false;
    const you = table.seats.find((s) => s.you);
    clear(this.root).append(el("section", { class: "page lobby", "aria-labelledby": "lobby-title" },
      el("h1", { id: "lobby-title" }, t(table.quick ? "quick.title" : "friends.lobby_title", { game: t(`game.${table.game}`) })),
      el("p", { class: "lobby-facts" }, t(`level.${table.level}`), " · ",
        table.clock ? t("friends.clock_seconds", { n: table.clock }) : t("friends.clock_off"),
        hosting ? "" : ` · ${t(table.hints ? "host.hints_on" : "host.hints_off")}`),
      table.quick ? el("p", { class: "quick-countdown", id: "quick-countdown", role: "timer" }, t("quick.starting"))
        : el("div", { class: "code-box" }, el("p", { class: "code-label", id: "code-label" }, t("friends.code_label")),
          el("p", { class: "code", id: "table-code", "aria-labelledby": "code-label", lang: "en" }, table.code)),
      link ? linkBox("invite", t("friends.invite_label"), link) : null,
      watchLink ? linkBox("watch", t("watch.link_label"), watchLink) : null,
      el("h2", {}, t("friends.seats")),
      el("div", { class: `lobby-seats${teams ? " teams" : ""}` },
        ...(teams ? [[0, 2], [1, 3]] : [[0, 1, 2, 3]]).map((group, index) => el("div", { class: "team" },
          teams ? el("h3", {}, t("friends.team", { n: index + 1 }),
            group.some((s) => table.seats[s].you) ? ` · ${t("table.us")}` : "") : null,
          ...group.map((seat) => this.seatBox(table, seat, you, hosting))))),
      hosting ? this.hintsChoice(table) : null, // (chosen with the seats, before the start)
      table.quick ? el("p", { class: "lobby-wait", id: "lobby-wait" }, t("quick.waiting"))
        : hosting ? el("p", { class: "lobby-start" }, el("button", { type: "button", class: "action primary", id: "start-table",
          onclick: () => this.change(async () => {
            await tables.start(table.id);
            return tables.get(table.id);
          }) }, t("friends.start")))
        : el("p", { class: "lobby-wait", id: "lobby-wait" }, t("friends.waiting_for_host")),
      el("p", { class: "lobby-problem", id: "lobby-problem", role: "alert" }),
      el("p", {}, el("a", { class: "action subtle", href: "#/" }, t("friends.leave")))));
    if (focused) document.getElementById(focused)?.focus();
  }

  /** The host's choice whether the hint is offered while more than one person sits (alone it always is). */
  hintsChoice(table) {
    const box = el("input", { type: "checkbox", role: "switch", class: "switch", id: "hints-allowed", checked: table.hints,
      "aria-describedby": "hints-note",
      onchange: () => this.change(() => tables.hints(table.id, box.checked)) });
    return el("div", { class: "hints-choice" },
      el("label", { class: "option", for: "hints-allowed" }, box, " ", t("host.hints_allow")),
      el("p", { class: "hints-note", id: "hints-note" }, t("host.hints_note")));
  }

  /** One seat: who sits there (you, the host, a friend, a computer player) and, for the host, its moves. */
  seatBox(table, seat, you, hosting) {
    const holder = table.seats[seat];
    const who = holderName(holder);
    // As the card table names it: the seat across is "Partner" only where teams are fixed.
    const where = you ? renderer(table.game).seatName((seat - you.seat + 4) % 4) : "";
    const box = el("div", { class: `lobby-seat${holder.person ? " person" : ""}${holder.you ? " you" : ""}`,
      dataset: { seat } },
    el("p", { class: "seat-number" }, t("friends.seat_number", { n: seat + 1 }), where && !holder.you ? ` · ${where}` : ""),
    el("p", { class: "seat-who" }, who));
    if (!hosting || !holder.person) return box;
    const moves = el("select", { id: `move-${seat}`, "aria-label": t("friends.move_label", { who, n: seat + 1 }),
      onchange: () => moves.value !== "" && this.change(() => tables.move(table.id, seat, Number(moves.value))) },
    el("option", { value: "" }, t("friends.move")),
    ...[0, 1, 2, 3].filter((s) => s !== seat).map((s) => el("option", { value: String(s) }, t("friends.seat_number", { n: s + 1 }))));
    box.append(moves);
    if (!holder.host) {
      box.append(el("button", { type: "button", class: "action subtle", id: `computer-${seat}`,
        onclick: () => this.change(() => tables.computer(table.id, seat)) }, t("friends.to_computer")));
    }
    return box;
  }
}

/** #/watch/TOKEN before its match starts: the table's seats, polled until the
 * match starts; then ``onStarted(answer)`` (``GET /api/watch/TOKEN``'s answer)
 * shows the table read-only. */
export class WatchLobby {
  constructor(root, token, onStarted) {
    this.root = root;
    this.token = token;
    this.onStarted = onStarted;
  }

  async start() {
    await this.refresh(true);
    this.poller = setInterval(() => this.refresh(false), POLL_MS);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.poller);
  }

  async refresh(first) {
    if (this.stopped) return;
    let answer;
    try {
      answer = await api.watch(this.token);
    } catch (error) {
      if (first) throw error; // the route says what went wrong (an unknown or expired link: 404)
      return; // offline a moment: the next poll tries again
    }
    if (this.stopped) return;
    if (answer.match) {
      this.stop();
      this.onStarted(answer);
      return;
    }
    const key = JSON.stringify(answer.table);
    if (key !== this.drawn) this.render(answer.table);
    this.drawn = key;
  }

  render(table) {
    clear(this.root).append(el("section", { class: "page lobby", "aria-labelledby": "lobby-title" },
      el("h1", { id: "lobby-title" }, t("watch.title", { game: t(`game.${table.game}`) })),
      el("p", { class: "lobby-facts" }, t(`level.${table.level}`), " · ",
        table.clock ? t("friends.clock_seconds", { n: table.clock }) : t("friends.clock_off")),
      el("ul", { class: "watch-seats" }, ...table.seats.map((seat) => el("li", { class: "lobby-seat", dataset: { seat: seat.seat } },
        el("span", { class: "seat-number" }, t("friends.seat_number", { n: seat.seat + 1 })),
        el("span", { class: "seat-who" }, seat.person ? t("watch.person") : t("friends.seat_computer"))))),
      el("p", { class: "lobby-wait", id: "lobby-wait" }, t("watch.waiting")),
      el("p", {}, el("a", { class: "action subtle", href: "#/" }, t("friends.leave")))));
  }
}
