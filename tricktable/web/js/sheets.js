// Dialogs over the table: the score sheet after each deal, the match summary
// (with the daily score, nickname and leaderboard), and the last trick.

import { api, memory } from "./api.js";
import { cardName, cardSVG, parseCard, suitSVG } from "./cards.js";
import { clear, downloadJSON, el, svgBox, toast } from "./dom.js";
import { has, t, tn } from "./i18n.js";
import { renderer } from "./games/index.js";
import { leaderboardTable } from "./home.js";
import { nicknameProblem } from "./identity.js";

const dialog = () => document.getElementById("dialog");

/** Open the shared dialog with ``content``; resolves when it closes. */
export function openDialog(content, className = "") {
  const box = dialog();
  if (box.open) box.close();
  clear(box).append(content);
  box.className = className;
  box.returnValue = ""; // closed without a choice (Escape): not the last dialog's
  return new Promise((resolve) => {
    box.addEventListener("close", () => resolve(box.returnValue), { once: true });
    box.showModal();
    box.querySelector("[autofocus], button")?.focus();
    box.scrollTop = 0; // its heading first (the focused button may lie below a long table)
  });
}

/** Close a score sheet the person has not closed: he played on in another tab. */
export function closeScoreSheet() {
  const box = dialog();
  if (box.open && box.className === "sheet-dialog" && box.querySelector(".score-sheet")) box.close("elsewhere");
}

const closeButton = (label, value = "ok", cls = "action primary") =>
  el("button", { type: "button", class: cls, autofocus: true, onclick: () => dialog().close(value) }, label);

// The person's seat in the match on screen (a table of friends seats him anywhere;
// alone he is seat 0): the sheets name the seats and teams from where he sits.
let personSeat = 0;
let watching = false; // a watcher's page: no seat is his, seats and teams go by number

/** The table on screen tells the sheets where the person sits (0 again when it is left), or that he watches. */
export function setPersonSeat(seat, watcher = false) {
  personSeat = seat || 0;
  watching = watcher;
}

/** A seat's name as the person sees it ("You", "Partner", ...; a watcher's "Seat 3"). */
function seatNameOf(game, seat) {
  if (watching) return t("friends.seat_number", { n: seat + 1 });
  return renderer(game).seatName((seat - personSeat + 4) % 4);
}

/** The columns of a sheet: two teams (the first is seats 0 and 2), or four seats for games without fixed teams. */
function columns(game) {
  if (renderer(game).teams === false) return [0, 1, 2, 3].map((s) => seatNameOf(game, s));
  if (watching) return [t("friends.team", { n: 1 }), t("friends.team", { n: 2 })];
  return personSeat % 2 ? [t("table.them"), t("table.us")] : [t("table.us"), t("table.them")];
}

function columnOf(game, line) {
  const teams = renderer(game).teams !== false;
  if (line.team !== undefined) return teams ? line.team : null;
  if (line.seat !== undefined) return teams ? line.seat % 2 : line.seat;
  return null;
}

function perColumn(game, points) {
  return renderer(game).teams === false ? points : [points[0], points[1]];
}

export function scoreSheetTable(game, result) {
  if (renderer(game).teams === false) return seatSheet(game, result);
  const heads = columns(game);
  const head = el("tr", {}, el("th", { scope: "col" }, t("sheet.line")), ...heads.map((h) => el("th", { scope: "col", class: "num" }, h)));
  const rows = result.lines.map((line) => {
    const column = columnOf(game, line);
    const info = renderer(game).isInfoLine(line);
    // An information line says whose it is in words, as it has no number in a column.
    const text = info && column !== null ? `${heads[column]}: ${renderer(game).lineText(game, line)}` : renderer(game).lineText(game, line);
    return el("tr", { class: info ? "line info" : "line" }, el("td", {}, text),
      ...heads.map((_, i) => el("td", { class: "num" }, i === column ? renderer(game).linePoints(line) : "")));
  });
  const sum = el("tr", { class: "sum" }, el("th", { scope: "row" }, t("sheet.deal_points")),
    ...perColumn(game, result.points).map((p) => el("td", { class: "num" }, String(p))));
  return el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, sum));
}

/** Games whose teams change every deal: the lines with their value, then what
 * each seat gets. */
function seatSheet(game, result) {
  // The deal's value is what its point lines add up to: the lines table's sum row.
  const isValue = (line) => line.key === "value";
  const lines = result.lines.filter((line) => line.seat === undefined && !isValue(line)).map((line) =>
    el("tr", { class: renderer(game).isInfoLine(line) ? "line info" : "line" }, el("td", {}, renderer(game).lineText(game, line)),
      el("td", { class: "num" }, renderer(game).linePoints(line))));
  const value = result.lines.find(isValue);
  if (value) {
    lines.push(el("tr", { class: "sum" }, el("th", { scope: "row" }, renderer(game).lineText(game, value)),
      el("td", { class: "num" }, String(value.points))));
  }
  const seats = columns(game);
  return el("div", {},
    el("table", { class: "sheet" }, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("sheet.line")),
      el("th", { scope: "col", class: "num" }, t("sheet.points")))), el("tbody", {}, lines)),
    el("table", { class: "sheet" }, el("thead", {}, el("tr", {}, el("th", {}, ""), ...seats.map((h) => el("th", { scope: "col", class: "num" }, h)))),
      el("tbody", {}, el("tr", { class: "sum" }, el("th", { scope: "row" }, t("sheet.deal_points")),
        ...result.points.map((p) => el("td", { class: "num" }, String(p)))))));
}

export function showScoreSheet(view, result, game) {
  const totals = perColumn(game, view.match.totals);
  const content = el("div", { class: "score-sheet" },
    el("h2", {}, result.counts ? t("sheet.title", { n: result.number }) : t("sheet.title_extra")),
    result.counts ? null : el("p", {}, renderer(game).redealNote(game, result)),
    scoreSheetTable(game, result),
    el("p", { class: "totals" }, t("sheet.totals"), " ", totals.map((p, i) => `${columns(game)[i]} ${p}`).join(" · ")),
    el("div", { class: "buttons" }, closeButton(t("sheet.continue"))));
  return openDialog(content, "sheet-dialog");
}

export async function showMatchSummary(table, state = table.state) {
  return openDialog(await matchSummary(table, state), "sheet-dialog");
}

/** The match summary's content: who won, the person's place and points, the
 * daily score and how it is computed, "play again". */
export async function matchSummary(table, state) {
  const { view, game } = state;
  const match = view.match;
  const heads = columns(game);
  const rows = match.results.filter((r) => r.counts).map((r) =>
    el("tr", {}, el("td", {}, t("sheet.deal_n", { n: r.number })),
      ...perColumn(game, r.points).map((p) => el("td", { class: "num" }, String(p)))));
  const totals = perColumn(game, match.totals);
  const table_ = el("table", { class: "sheet" },
    el("thead", {}, el("tr", {}, el("td", {}), ...heads.map((h) => el("th", { scope: "col", class: "num" }, h)))),
    el("tbody", {}, rows, el("tr", { class: "sum" }, el("th", { scope: "row" }, t("sheet.total")),
      ...totals.map((p) => el("td", { class: "num" }, String(p))))));
  const content = el("div", { class: "match-summary" }, el("h2", {}, t("sheet.match_over")), ...outcome(state), table_);
  if (state.daily) {
    content.append(el("p", { class: "outcome", id: "daily-score" }, t("daily.your_score", { score: state.daily.score ?? match.daily_score })),
      el("p", { class: "daily-how" }, dailyExplanation(state)), await dailyBlock(state));
  }
  // Replay and the record first: the last button of the summary stays the one that closes it.
  // (A daily's wait for the end of its UTC day: they would show the day's cards.)
  if (!state.fairness || state.fairness.revealed) content.append(el("div", { class: "buttons" },
    el("button", { type: "button", class: "action", id: "summary-replay",
      onclick: () => { dialog().close("replay"); location.hash = `#/replay/${encodeURIComponent(state.id)}`; } }, t("history.replay")),
    el("button", { type: "button", class: "action", id: "summary-download", onclick: () => downloadRecord(state) }, t("replay.download"))));
  content.append(el("div", { class: "buttons" }, state.daily ? null : playAgainPart(table),
    el("button", { type: "button", class: "action", onclick: () => { dialog().close("home"); location.hash = "#/"; } }, t("sheet.home")),
    closeButton(t("sheet.close"), "close", "action")));
  return content;
}

/** "Play again": alone, a new game of the same kind; at a table of friends, its
 * host starts the table's next match (every seat's page follows it) and the
 * others wait for him. */
function playAgainPart(table) {
  if (table.seated && !table.seated.host) {
    return el("p", { class: "waiting-host", id: "waiting-host", role: "status" }, t("sheet.waiting_for_host"));
  }
  const again = table.seated ? () => table.playAgainAtTable() : () => table.newGame();
  return el("button", { type: "button", class: "action primary", id: "play-again",
    onclick: () => { dialog().close("new"); again(); } }, t("sheet.play_again"));
}

/** The finished game's record as a file (what ``tricktable replay`` reads; the daily's once its day has ended). */
async function downloadRecord(state) {
  try {
    downloadJSON(`tricktable-${state.game}.json`, await api.record(state.id));
  } catch (error) {
    toast(error.message);
  }
}

/** Who won, and the person's place and points. */
function outcome(state) {
  const match = state.view.match;
  const game = state.game;
  if (renderer(game).teams === false) {
    // Doppelkopf: a place of four by the match points (equal points share a place).
    const totals = match.totals;
    const place = 1 + totals.filter((p) => p > totals[personSeat]).length;
    const best = Math.max(...totals);
    const winners = [0, 1, 2, 3].filter((s) => totals[s] === best).map((s) => seatNameOf(game, s)).join(", ");
    return [el("p", { class: `outcome${place === 1 ? " win" : ""}`, id: "outcome" }, t("sheet.winners", { names: winners })),
      el("p", { class: "place" }, t("sheet.place_of_four", { place, points: totals[personSeat] }))];
  }
  const teams = renderer(game).teamTotals(state.view);
  const [us, them] = personSeat % 2 ? [teams[1], teams[0]] : teams;
  // A match of a fixed number of deals (the daily) has no winner by target: the points decide.
  // (0: the person's team won; the server's ``winner_team`` counts the team of seats 0 and 2 as 0.)
  const ours = (team) => (team === null || team === undefined ? team : team === personSeat % 2 ? 0 : 1);
  const winner = ours(match.winner_team) ?? (us > them ? 0 : them > us ? 1 : null);
  const won = winner === 0 ? t("sheet.you_won") : winner === 1 ? t("sheet.they_won") : t("sheet.draw");
  return [el("p", { class: `outcome${winner === 0 ? " win" : ""}`, id: "outcome" }, won),
    el("p", { class: "place" }, t("sheet.team_points", { us, them }))];
}

/** How the daily score came about, in numbers. */
function dailyExplanation(state) {
  const match = state.view.match;
  const score = state.daily.score ?? match.daily_score;
  if (renderer(state.game).teams === false) return t("daily.how_seat", { score });
  const [us, them] = [0, 1].map((team) => match.results.filter((r) => r.counts).reduce((sum, r) => sum + r.points[team], 0));
  return t("daily.how_team", { us, them, score });
}

async function dailyBlock(state) {
  const box = el("div", { class: "daily-block" });
  const ranked = state.daily.ranked !== false;
  if (!ranked) {
    box.append(el("p", { class: "practice-note", id: "practice-note" }, t("daily.practice_note")),
      el("p", { id: "practice-when" }, t("daily.practice_when")));
  }
  box.append(el("p", { class: "next-daily", id: "next-daily" }, nextDailyText()));
  const board = el("div", { class: "board" });
  const refresh = async () => {
    const data = await api.leaderboard(state.game);
    clear(board).append(ranked && data.own ? el("p", { class: "outcome", id: "daily-place" },
      t("daily.place", { rank: data.own.rank, n: data.entries.length })) : "", leaderboardTable(data));
  };
  if (!ranked) {
    // A practice score is never on the leaderboard: no nickname to give.
  } else if (memory.nickname()) {
    box.append(el("p", {}, t("daily.playing_as", { name: memory.nickname() })));
  } else {
    const input = el("input", { id: "nickname", name: "nickname", maxlength: "20", required: true, autocomplete: "nickname" });
    const form = el("form", { class: "nickname", onsubmit: async (e) => {
      e.preventDefault();
      // The server checks the same rule; asking first saves a failed request.
      const name = input.value.trim().replace(/\s+/g, " ");
      if (!/^[\p{L}\p{M}\p{N} _.-]{1,20}$/u.test(name)) {
        toast(t("daily.bad_nickname", { msg: t("daily.nickname_rule") }));
        return;
      }
      try {
        const saved = await api.setNickname(name);
        memory.setNickname(saved.nickname);
        form.replaceWith(el("p", {}, t("daily.playing_as", { name: saved.nickname })));
        await refresh();
      } catch (error) {
        toast(nicknameProblem(error));
      }
    } }, el("label", { for: "nickname" }, t("daily.nickname")), input,
    el("button", { type: "submit", class: "action" }, t("daily.save")));
    box.append(form);
  }
  box.append(board);
  await refresh();
  return box;
}

/** "The next daily starts in 5 h 12 min (midnight UTC)." */
export function nextDailyText(now = new Date()) {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const minutes = Math.max(1, Math.ceil((midnight - now.getTime()) / 60000));
  return t("daily.next", { h: Math.floor(minutes / 60), m: minutes % 60 });
}

/** Before the person's first move in a daily: what it is — the deals, the level,
 * ranked or practice and why, when practice turns ranked.  Once per attempt. */
export async function dailyIntro(state) {
  const view = state.view;
  if (!state.daily || view.terminal || (view.actions || []).some(([seat]) => seat === 0)) return;
  const key = `tt.daily.intro.${state.daily.day}.${state.game}`;
  if (localStorage.getItem(key)) return;
  localStorage.setItem(key, "1");
  const ranked = state.daily.ranked !== false;
  const deals = (view.match && view.match.deals_total) || null;
  const level = t(`level.${state.level || "normal"}`);
  const content = el("div", { class: "daily-intro" },
    el("h2", {}, t("daily.intro.title", { game: t(`game.${state.game}`) })),
    el("p", { id: "daily-deals" }, deals ? t("daily.intro.deals", { n: deals, level }) : t("daily.intro.level", { level })),
    el("p", { class: ranked ? "ranked-label" : "practice-note", id: "daily-intro-kind" },
      ranked ? t("daily.intro.ranked") : t("daily.intro.practice")),
    ranked ? null : el("p", { id: "daily-intro-why" }, practiceWhy(state.daily)),
    ranked ? null : el("p", {}, t("daily.practice_when")),
    el("p", {}, t("daily.intro.after")),
    el("div", { class: "buttons" }, closeButton(t("daily.intro.start"))));
  await openDialog(content, "daily-intro-box");
}

function practiceWhy(daily) {
  const key = `fair.practice_reason.${daily.practice_reason}`;
  return daily.practice_reason && has(key) ? t(key) : t("daily.practice_why");
}

/** The tricks of the deal on the table (or, between deals, of the one just over). */
function dealTricks(view) {
  return currentTricks(view).length ? currentTricks(view) : previousTricks(view);
}

const currentTricks = (view) => view.tricks || [];
const previousTricks = (view) => (view.match && view.match.previous_deal && view.match.previous_deal.tricks) || [];

export function showLastTrick(view, game) {
  const last = dealTricks(view).at(-1);
  const names = { seatName: (seat) => seatNameOf(game, seat) };
  const content = el("div", { class: "last-trick" }, el("h2", {}, t("table.last_trick")));
  if (!last) content.append(el("p", {}, t("table.no_last_trick")));
  else {
    const grid = el("div", { class: "trick" }, ...[0, 1, 2, 3].map((seat) => el("div", { class: `slot ${["south", "west", "north", "east"][seat]}` })));
    for (const [seat, card] of last.cards) {
      const marks = [seat === last.leader ? t("table.led") : null, seat === last.winner ? t("table.wins") : null].filter(Boolean);
      const node = svgBox("div", { class: `card${seat === last.leader ? " lead" : ""}${seat === last.winner ? " winner" : ""}`, role: "img",
        "aria-label": `${names.seatName(seat)}: ${cardName(card, t)}${marks.length ? ` (${marks.join(", ")})` : ""}` }, cardSVG(card));
      grid.children[seat].append(node);
    }
    content.append(grid, el("p", {}, t("table.led_by", { name: names.seatName(last.leader) }), " · ",
      t("table.trick_won_by", { name: names.seatName(last.winner) })));
  }
  content.append(el("div", { class: "buttons" }, closeButton(t("sheet.close"))));
  return openDialog(content, "trick-dialog");
}

/** A card as short text with its suit symbol ("Q♣"), named in full for screen readers. */
function cardChip(card) {
  const parsed = parseCard(card);
  if (!parsed) return el("span", {}, "?");
  const chip = el("span", { class: "card-chip", role: "img", "aria-label": cardName(card, t) }, parsed[0]);
  chip.append(svgBox("span", { class: "chip-suit" }, suitSVG(parsed[1], 14)));
  return chip;
}

/** Every trick of the deal: who led, each seat's card (the led card marked),
 * who won, and the card points where the game counts them. */
export function showTrickHistory(view, game) {
  const tricks = dealTricks(view);
  const names = { seatName: (seat) => seatNameOf(game, seat) };
  const withPoints = tricks.some((trick) => trick.points !== undefined);
  const previous = !currentTricks(view).length && tricks.length > 0;
  const content = el("div", { class: "trick-history" },
    el("h2", {}, t(previous ? "table.history_previous" : "table.history_title")));
  if (!tricks.length) content.append(el("p", {}, t("table.no_last_trick")));
  else {
    const head = el("tr", {}, el("th", { scope: "col" }, "#"),
      ...[0, 1, 2, 3].map((seat) => el("th", { scope: "col" }, names.seatName(seat))),
      el("th", { scope: "col" }, t("table.winner")), withPoints ? el("th", { scope: "col", class: "num" }, t("sheet.points")) : null);
    const rows = tricks.map((trick, index) => {
      const bySeat = new Map(trick.cards);
      return el("tr", { class: "history-row" }, el("th", { scope: "row" }, String(index + 1)),
        ...[0, 1, 2, 3].map((seat) => el("td", { class: `${seat === trick.leader ? "led" : ""}${seat === trick.winner ? " won" : ""}`.trim() || null },
          bySeat.has(seat) ? cardChip(bySeat.get(seat)) : "–",
          seat === trick.leader ? el("span", { class: "sr" }, ` (${t("table.led")})`) : null)),
        el("td", { class: "winner-cell" }, names.seatName(trick.winner)),
        withPoints ? el("td", { class: "num" }, String(trick.points)) : null);
    });
    content.append(el("p", { class: "history-note" }, tn(previous ? "table.history_note_previous" : "table.history_note", tricks.length)),
      el("div", { class: "history-scroll" }, el("table", { class: "sheet history" }, el("thead", {}, head), el("tbody", {}, rows))));
  }
  content.append(el("div", { class: "buttons" }, closeButton(t("sheet.close"))));
  return openDialog(content, "trick-dialog");
}
