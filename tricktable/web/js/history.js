// "My games" (GET api/history): every game of this identity, newest first, a
// page at a time, filtered by game; a finished one opens in the replay viewer,
// an unfinished one at its table.  Below it, a record file (or pasted JSON)
// opens in the replay viewer.

import { api, ApiError, memory } from "./api.js";
import { clear, el } from "./dom.js";
import { language, t } from "./i18n.js";
import { renderer } from "./games/index.js";
import { problemText } from "./table.js";
import { strippedRecord } from "./replay.js";

/** What a finished game came to, in words: won or lost where the game names a winner, and the points. */
function resultText(entry) {
  const result = entry.result;
  if (!result) return "";
  const parts = [];
  if (entry.status === "over" && result.won !== null) parts.push(t(result.won ? "history.won" : "history.lost"));
  if (renderer(entry.game).teams === false) {
    parts.push(t("history.points", { points: result.points }));
  } else {
    // The person's own side first: at a table he may sit anywhere (totals are per team, or per seat).
    const seat = entry.seat || 0;
    const side = (s) => result.totals[s % result.totals.length];
    parts.push(t("table.us_them", { us: side(seat), them: side(seat + 1) }));
  }
  if (result.daily_score !== null && result.daily_score !== undefined && entry.status === "over") {
    parts.push(t("daily.your_score", { score: result.daily_score }));
  }
  return parts.join(" · ");
}

function entryCard(entry) {
  const when = entry.created ? new Date(entry.created.endsWith("Z") || entry.created.includes("+") ? entry.created : `${entry.created}Z`) : null;
  const date = when && !Number.isNaN(when.getTime())
    ? new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(when) : "";
  const open = entry.status !== "over";
  const go = open
    ? el("button", { type: "button", class: "action", onclick: () => {
      // A daily opens by its id: ``#/daily/GAME`` alone is today's, and an attempt may be from an earlier UTC day.
      // (Nor is it remembered as the game's ordinary open game, which ``#/play/GAME`` resumes.)
      if (entry.daily) {
        location.hash = `#/daily/${entry.game}/${encodeURIComponent(entry.id)}`;
        return;
      }
      memory.setGameId(entry.game, entry.id);
      location.hash = `#/play/${entry.game}`;
    } }, t("history.resume"))
    : el("a", { class: "action primary", href: `#/replay/${encodeURIComponent(entry.id)}` }, t("history.replay"));
  return el("li", { class: `history-entry ${open ? "open" : "over"}`, dataset: { id: entry.id, game: entry.game } },
    el("div", { class: "what" },
      el("h2", {}, t(`game.${entry.game}`)),
      el("p", { class: "when" }, [date, t(`level.${entry.level}`), entry.daily ? t("history.daily", { day: entry.daily }) : null]
        .filter(Boolean).join(" · ")),
      el("p", { class: "result" }, el("strong", {}, t(open ? "history.open" : "history.over")), " ", resultText(entry))),
    go);
}

export async function renderHistory(root, catalog, openRecord) {
  clear(root);
  const list = el("ul", { class: "history-list", id: "history-list" });
  const more = el("button", { type: "button", class: "action", id: "history-more", hidden: true }, t("history.more"));
  const filter = el("select", { id: "history-game" }, el("option", { value: "" }, t("history.all")),
    catalog.games.map((game) => el("option", { value: game.name }, t(`game.${game.name}`))));
  let next = null;
  const load = async (reset) => {
    const page = await api.history(filter.value, reset ? null : next);
    if (reset) clear(list);
    list.append(...page.games.map(entryCard));
    if (!list.children.length) list.append(el("li", { class: "empty" }, t("history.empty")));
    next = page.next;
    more.hidden = !next;
  };
  filter.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));
  root.append(el("section", { class: "page history" },
    el("h1", {}, t("history.title")),
    el("p", { class: "filter" }, el("label", { for: "history-game" }, t("history.filter")), " ", filter),
    list, more, uploadForm(openRecord)));
  await load(true);
}

/** A record file or pasted JSON, replayed by the server and opened in the viewer. */
function uploadForm(openRecord) {
  const file = el("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  const pasted = el("textarea", { id: "record-text", rows: "4", spellcheck: "false" });
  const problem = el("p", { class: "error", id: "record-problem", role: "alert" });
  const form = el("form", { class: "upload", onsubmit: async (event) => {
    event.preventDefault();
    problem.textContent = "";
    try {
      const text = file.files.length ? await file.files[0].text() : pasted.value;
      let record;
      try {
        record = JSON.parse(text);
      } catch {
        throw new ApiError(422, t("history.not_json"));
      }
      if (!record || typeof record !== "object" || Array.isArray(record)) throw new ApiError(422, t("history.not_json"));
      record = strippedRecord(record);
      openRecord(await api.uploadReplay(record), record);
    } catch (error) {
      problem.textContent = error instanceof ApiError && error.status === 422 ? t("history.bad_record", { msg: error.message }) : problemText(error);
    }
  } },
  el("h2", {}, t("history.upload_title")),
  el("p", {}, t("history.upload_note")),
  el("label", { for: "record-file" }, t("history.upload_file")), file,
  el("label", { for: "record-text" }, t("history.upload_paste")), pasted,
  el("div", { class: "buttons" }, el("button", { type: "submit", class: "action primary", id: "record-open" }, t("history.upload_open"))),
  problem);
  return form;
}
