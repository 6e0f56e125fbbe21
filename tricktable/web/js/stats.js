// "My statistics" (#/stats/GAME): the person's figures of one game, what that
// game's players count, and a chart of points per deal (and, once games are
// analysed, accuracy) over the last games, drawn as inline SVG.

import { api } from "./api.js";
import { clear, el } from "./dom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 320, height: 160, left: 34, right: 40, top: 12, bottom: 22 };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const percent = (rate) => (rate === null || rate === undefined ? "–"
  : new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(rate));
const number = (value) => (value === null || value === undefined ? "–" : value.toLocaleString(document.documentElement.lang));

/** The chart: one point per recent game (oldest left), its average points per
 * deal on the left scale; accuracy, where a game has one, on the right (0–100 %). */
export function chart(recent, accuracy) {
  const { width, height, left, right, top, bottom } = CHART;
  const values = recent.map((g) => g.points_per_deal ?? 0);
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  const x = (i) => left + (recent.length > 1 ? (i * (width - left - right)) / (recent.length - 1) : (width - left - right) / 2);
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-label": t("stats.chart_label", { games: recent.length }) });
  box.append(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: left - 4, y: y(high) + 4, class: "tick", "text-anchor": "end" }, number(Math.round(high * 10) / 10)),
    svg("text", { x: left - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }, "0"));
  if (low < 0) box.append(svg("text", { x: left - 4, y: y(low) + 4, class: "tick", "text-anchor": "end" }, number(Math.round(low * 10) / 10)));
  box.append(svg("polyline", { class: "series points", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  values.forEach((v, i) => box.append(svg("circle", { cx: x(i), cy: y(v), r: 3.5, class: recent[i].won ? "dot won" : "dot" },
    svg("title", {}, t("stats.chart_point", { n: i + 1, points: number(v) })))));
  const byGame = new Map(accuracy.map((a) => [a.game_id, a.accuracy]));
  const analysed = recent.map((g, i) => [i, byGame.get(g.game_id)]).filter(([, a]) => typeof a === "number");
  if (analysed.length) {
    const ya = (a) => top + ((1 - a) * (height - top - bottom));
    box.append(svg("text", { x: width - right + 4, y: ya(1) + 4, class: "tick" }, percent(1)),
      svg("text", { x: width - right + 4, y: ya(0) + 4, class: "tick" }, percent(0)),
      svg("polyline", { class: "series accuracy", points: analysed.map(([i, a]) => `${x(i)},${ya(a)}`).join(" ") }));
  }
  const legend = el("p", { class: "legend" }, el("span", { class: "key points" }), t("stats.legend_points"),
    analysed.length ? [el("span", { class: "key accuracy" }), t("stats.legend_accuracy")] : null);
  return el("figure", { class: "chart-box" }, box,
    el("figcaption", {}, t("stats.chart_caption", { games: recent.length })), legend);
}

function figures(stats) {
  const item = (key, value) => el("div", { class: "figure" }, el("dt", {}, t(key)), el("dd", {}, value));
  return el("dl", { class: "figures" },
    item("stats.games", number(stats.games)), item("stats.deals", number(stats.deals)),
    item("stats.win_rate", percent(stats.win_rate)),
    item("stats.points_per_deal", stats.points_per_deal === null ? "–" : number(stats.points_per_deal)));
}

function counters(stats) {
  if (!stats.counters.length) return null;
  return el("table", { class: "sheet counters" },
    el("caption", {}, t("stats.counters_caption")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("stats.what")),
      el("th", { scope: "col", class: "num" }, t("stats.count")), el("th", { scope: "col", class: "num" }, t("stats.rate")))),
    el("tbody", {}, stats.counters.map((c) => el("tr", { dataset: { counter: c.name } },
      el("th", { scope: "row" }, t(`stats.counter.${c.name}`)), el("td", { class: "num" }, number(c.count)),
      el("td", { class: "num" }, "rate" in c ? percent(c.rate) : "")))));
}

export async function renderStats(root, catalog, game) {
  clear(root);
  const stats = await api.stats(game);
  const picker = el("nav", { class: "stats-games", "aria-label": t("stats.choose_game") },
    catalog.games.map((g) => el("a", { class: "action subtle", href: `#/stats/${g.name}`,
      "aria-current": g.name === game ? "page" : null }, t(`game.${g.name}`))));
  const body = stats.games
    ? [figures(stats), stats.recent.length ? chart(stats.recent, stats.accuracy) : null, counters(stats)]
    : [el("p", { class: "empty", id: "stats-empty" }, t("stats.none", { game: t(`game.${game}`) }))];
  root.append(el("section", { class: "page stats", id: "stats" },
    el("h1", {}, t("stats.title")), picker, el("h2", {}, t(`game.${game}`)), ...body,
    stats.complete ? null : el("p", { class: "note" }, t("stats.more_coming")),
    el("p", { class: "note" }, t("stats.private")),
    el("p", {}, el("a", { class: "action primary", href: `#/play/${game}` }, t("home.new_game")))));
}
