// Dialogs over the table: the score sheet after each deal, the match summary
// (with the daily score, nickname and leaderboard), and the last trick.

import { api, memory } from "./api.js";
import { cardName, cardSVG } from "./cards.js";
import { clear, el, svgBox, toast } from "./dom.js";
import { t } from "./i18n.js";
import { renderer } from "./games/index.js";
import { leaderboardTable } from "./home.js";

const dialog = () => document.getElementById("dialog");

/** Open the shared dialog with ``content``; resolves when it closes. */
export function openDialog(content, className = "") {
  const box = dialog();
  if (box.open) box.close();
  clear(box).append(content);
  box.className = className;
  return new Promise((resolve) => {
    box.addEventListener("close", () => resolve(box.returnValue), { once: true });
    box.showModal();
    box.querySelector("[autofocus], button")?.focus();
  });
}

const closeButton = (label, value = "ok", cls = "action primary") =>
  el("button", { type: "button", class: cls, autofocus: true, onclick: () => dialog().close(value) }, label);

/** The columns of a sheet: two teams, or four seats for games without fixed teams. */
function columns(game) {
  return renderer(game).teams === false ? [0, 1, 2, 3].map((s) => renderer(game).seatName(s)) : [t("table.us"), t("table.them")];
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
    return el("tr", { class: "line" }, el("td", {}, renderer(game).lineText(game, line)),
      ...heads.map((_, i) => el("td", { class: "num" }, i === column ? renderer(game).linePoints(line) : "")));
  });
  const sum = el("tr", { class: "sum" }, el("th", { scope: "row" }, t("sheet.deal_points")),
    ...perColumn(game, result.points).map((p) => el("td", { class: "num" }, String(p))));
  return el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, sum));
}

/** Games whose teams change every deal: the lines with their value, then what
 * each seat gets. */
function seatSheet(game, result) {
  const lines = result.lines.filter((line) => line.seat === undefined).map((line) =>
    el("tr", { class: "line" }, el("td", {}, renderer(game).lineText(game, line)), el("td", { class: "num" }, String(line.points))));
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
    el("h2", {}, t("sheet.title", { n: result.number })),
    result.counts ? null : el("p", {}, t("sheet.redeal")),
    scoreSheetTable(game, result),
    el("p", { class: "totals" }, t("sheet.totals"), " ", totals.map((p, i) => `${columns(game)[i]} ${p}`).join(" · ")),
    el("div", { class: "buttons" }, closeButton(t("sheet.continue"))));
  return openDialog(content, "sheet-dialog");
}

export async function showMatchSummary(table, state = table.state) {
  const { view, game } = state;
  const match = view.match;
  const heads = columns(game);
  const rows = match.results.filter((r) => r.counts).map((r) =>
    el("tr", {}, el("td", {}, t("sheet.deal_n", { n: r.number })),
      ...perColumn(game, r.points).map((p) => el("td", { class: "num" }, String(p)))));
  const totals = perColumn(game, match.totals);
  const table_ = el("table", { class: "sheet" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), ...heads.map((h) => el("th", { scope: "col", class: "num" }, h)))),
    el("tbody", {}, rows, el("tr", { class: "sum" }, el("th", { scope: "row" }, t("sheet.total")),
      ...totals.map((p) => el("td", { class: "num" }, String(p))))));
  const content = el("div", { class: "match-summary" }, el("h2", {}, t("sheet.match_over")), outcome(state), table_);
  if (state.daily) content.append(await dailyBlock(state));
  content.append(el("div", { class: "buttons" },
    state.daily ? null : el("button", { type: "button", class: "action primary", onclick: () => { dialog().close("new"); table.newGame(); } }, t("sheet.new_game")),
    el("button", { type: "button", class: "action", onclick: () => { dialog().close("home"); location.hash = "#/"; } }, t("sheet.home")),
    closeButton(t("sheet.close"), "close", "action")));
  return openDialog(content, "sheet-dialog");
}

function outcome(state) {
  const match = state.view.match;
  if (state.daily) return el("p", { class: "outcome" }, t("daily.your_score", { score: state.daily.score ?? match.daily_score }));
  if (match.winner_team === 0) return el("p", { class: "outcome win" }, t("sheet.you_won"));
  if (match.winner_team === 1) return el("p", { class: "outcome" }, t("sheet.they_won"));
  return null;
}

async function dailyBlock(state) {
  const box = el("div", { class: "daily-block" });
  const board = el("div", { class: "board" });
  const refresh = async () => clear(board).append(leaderboardTable(await api.leaderboard(state.game)));
  if (memory.nickname()) {
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
        toast(t("daily.bad_nickname", { msg: error.message }));
      }
    } }, el("label", { for: "nickname" }, t("daily.nickname")), input,
    el("button", { type: "submit", class: "action" }, t("daily.save")));
    box.append(form);
  }
  box.append(board);
  await refresh();
  return box;
}

export function showLastTrick(view, game) {
  let last = (view.tricks || []).at(-1);
  if (!last && view.match && view.match.previous_deal) last = (view.match.previous_deal.tricks || []).at(-1);
  const content = el("div", { class: "last-trick" }, el("h2", {}, t("table.last_trick")));
  if (!last) content.append(el("p", {}, t("table.no_last_trick")));
  else {
    const grid = el("div", { class: "trick" }, ...[0, 1, 2, 3].map((seat) => el("div", { class: `slot ${["south", "west", "north", "east"][seat]}` })));
    for (const [seat, card] of last.cards) {
      grid.children[seat].append(svgBox("div", { class: "card", role: "img", "aria-label": `${renderer(game).seatName(seat)}: ${cardName(card, t)}` }, cardSVG(card)));
    }
    content.append(grid, el("p", {}, t("table.trick_won_by", { name: renderer(game).seatName(last.winner) })));
  }
  content.append(el("div", { class: "buttons" }, closeButton(t("sheet.close"))));
  return openDialog(content, "trick-dialog");
}
