// The rules of each game (our own words, one Markdown file per language in
// ../rules/) and the Rules dialog with the options, remembered on the device.

import { memory } from "./api.js";
import { append, clear, el } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { levelControl, rememberLevel } from "./levels.js";
import { openDialog } from "./sheets.js";

let pages = {};

/** Each game's rules file from ``GET /api/games`` (``rules_page``). */
export function setRulesPages(games) {
  pages = Object.fromEntries(games.map((game) => [game.name, game.rules_page || game.name]));
}

async function rulesText(game) {
  for (const lang of [language(), "en"]) {
    const response = await fetch(`rules/${lang}/${encodeURIComponent(pages[game] || game)}.md`);
    if (response.ok) return response.text();
  }
  return "";
}

/** A small Markdown subset (headings, lists, tables, **bold**) as DOM nodes. */
export function markdown(text) {
  const out = el("div", { class: "rules-text" });
  let list = null;
  let table = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("- ")) list = null;
    if (!line.startsWith("|")) table = null;
    if (!line) continue;
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) out.append(el(`h${heading[1].length + 1}`, {}, inline(heading[2])));
    else if (line.startsWith("- ")) {
      if (!list) out.append((list = el("ul")));
      list.append(el("li", {}, inline(line.slice(2))));
    } else if (line.startsWith("|")) {
      if (/^\|[-| :]+\|$/.test(line)) continue;
      const cells = line.slice(1, -1).split("|").map((c) => c.trim());
      if (!table) {
        out.append((table = el("table", { class: "sheet" })));
        table.append(el("tr", {}, ...cells.map((c) => el("th", {}, inline(c)))));
      } else table.append(el("tr", {}, ...cells.map((c) => el("td", {}, inline(c)))));
    } else out.append(el("p", {}, inline(line)));
  }
  return out;
}

function inline(text) {
  return text.split(/\*\*(.+?)\*\*/).map((part, i) => (i % 2 ? el("strong", {}, part) : part));
}

export async function renderRulesPage(root, game) {
  clear(root);
  const text = await rulesText(game);
  root.append(el("section", { class: "page rules" }, el("h1", {}, t("rules.title", { game: t(`game.${game}`) })),
    markdown(text), el("p", {}, el("a", { class: "action primary", href: `#/play/${game}` }, t("home.new_game")))));
}

/** The rules file's opening paragraph: what the game is, in a few lines. */
function introOf(text) {
  const lines = text.split("\n");
  const end = lines.findIndex((line, i) => i > 0 && line.startsWith("## "));
  return lines.slice(0, end < 0 ? lines.length : end).filter((line) => !line.startsWith("# ")).join("\n");
}

/** A short "how to play" the first time this device opens a game's table. */
export async function howToPlay(game, spec = null) {
  const key = `tt.howto.${game}`;
  if (localStorage.getItem(key)) return;
  localStorage.setItem(key, "1");
  const content = el("div", { class: "howto" }, el("h2", {}, t("howto.title", { game: t(`game.${game}`) })),
    markdown(introOf(await rulesText(game))),
    el("ul", {}, el("li", {}, t("howto.cards")), el("li", {}, t("howto.decisions")), el("li", {}, t("howto.tricks")),
      el("li", {}, t("howto.rules")), spec && spec.first_game_option ? el("li", { id: "howto-clock" }, t("howto.clock")) : null),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "action primary", autofocus: true, id: "howto-ok",
        onclick: () => document.getElementById("dialog").close() }, t("howto.start")),
      el("a", { class: "action subtle", href: `#/rules/${game}` }, t("rules.read", { game: t(`game.${game}`) }))));
  await openDialog(content, "howto-box");
}

function optionControl(option, value) {
  const id = `opt-${option.name}`;
  const label = t(`option.${option.name}`) === `option.${option.name}` ? option.description || option.name : t(`option.${option.name}`);
  if (option.choices.length === 2 && option.choices.includes(true) && option.choices.includes(false)) {
    return el("label", { class: "option", for: id },
      el("input", { type: "checkbox", id, name: option.name, checked: value === true }), " ", label);
  }
  const select = el("select", { id, name: option.name },
    ...option.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === value }, choiceLabel(c))));
  return el("label", { class: "option", for: id }, label, " ", select);
}

/** An option's value as words ("points", "any seat"); numbers stay numbers. */
function choiceLabel(value) {
  if (typeof value !== "string") return String(value);
  const key = `option.value.${value.replace(/ /g, "_")}`;
  return has(key) ? t(key) : value;
}

/** The preset whose values the saved options are, if any ("" for none). */
function activePreset(presets, spec, options) {
  const defaults = Object.fromEntries(spec.options.map((o) => [o.name, o.default]));
  const current = { ...defaults, ...options };
  const same = (preset) => spec.options.every((o) => ({ ...defaults, ...preset })[o.name] === current[o.name]);
  return Object.keys(presets).find((name) => same(presets[name])) || "";
}

function setControl(form, option, value) {
  const input = form.elements[option.name];
  if (input.type === "checkbox") input.checked = value === true;
  else input.value = JSON.stringify(value);
}

/** An option that needs another (Superschweinchen needs Schweinchen) is off and
 * greyed out while that one is off: the server refuses it alone. */
function applyRequirements(form, spec) {
  for (const option of spec.options.filter((o) => o.requires)) {
    const input = form.elements[option.name];
    const needed = form.elements[option.requires];
    input.disabled = !needed.checked;
    if (input.disabled) setControl(form, option, option.default);
  }
}

function readOptions(form, spec) {
  const options = {};
  for (const option of spec.options) {
    const input = form.elements[option.name];
    const value = input.type === "checkbox" ? input.checked : JSON.parse(input.value);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

/** The Rules dialog of a game: its rules and its options.  Resolves to the new
 * options when the person starts a new game with them, else null. */
export async function rulesDialog(spec) {
  const saved = memory.options(spec.name);
  const form = el("form", { class: "options", method: "dialog" });
  // Standard rules are a preset too, so the select can always name what is active.
  const presetValues = { standard: {}, ...(spec.presets || {}) };
  const hasPresets = Object.keys(spec.presets || {}).length > 0;
  const select = el("select", { id: "preset", onchange: () => {
    if (!(select.value in presetValues)) return;
    const values = { ...Object.fromEntries(spec.options.map((o) => [o.name, o.default])), ...presetValues[select.value] };
    for (const option of spec.options) setControl(form, option, values[option.name]);
  } }, el("option", { value: "" }, t("rules.preset.custom")),
  ...Object.keys(presetValues).map((p) => el("option", { value: p }, t(`rules.preset.${p}`))));
  const showPreset = () => {
    applyRequirements(form, spec);
    select.value = activePreset(presetValues, spec, readOptions(form, spec));
  };
  if (hasPresets) {
    // A preset (e.g. the DDV tournament rules) fills in the options below; a
    // change of any option shows which preset (if any) is now active.
    form.append(el("label", { class: "option", for: "preset" }, t("rules.preset"), " ", select));
  }
  form.addEventListener("change", (event) => (event.target === select ? applyRequirements(form, spec) : showPreset()));
  for (const option of spec.options) form.append(optionControl(option, option.name in saved ? saved[option.name] : option.default));
  showPreset();
  let result = null;
  const start = el("button", { type: "submit", class: "action primary", id: "apply-options" }, t("rules.apply"));
  const standard = el("button", { type: "button", class: "action", id: "standard-rules", onclick: () => {
    for (const option of spec.options) setControl(form, option, option.default);
    showPreset();
  } }, t("rules.standard"));
  form.append(levelControl("rules-level"));
  form.addEventListener("submit", () => {
    result = readOptions(form, spec);
    memory.setOptions(spec.name, result);
    rememberLevel(form.elements.level.value);
  });
  append(form, [el("div", { class: "buttons" }, start, standard,
    el("button", { type: "button", class: "action subtle", onclick: () => document.getElementById("dialog").close() }, t("rules.cancel")))]);
  const details = el("details", { class: "rules-details" }, el("summary", {}, t("rules.read", { game: t(`game.${spec.name}`) })),
    markdown(await rulesText(spec.name)));
  const content = el("div", { class: "rules-dialog" }, el("h2", {}, t("rules.options_title", { game: t(`game.${spec.name}`) })),
    spec.options.length ? form : el("p", {}, t("rules.no_options")), details);
  if (!spec.options.length) content.append(el("div", { class: "buttons" }, el("button", { type: "button", class: "action", onclick: () => document.getElementById("dialog").close() }, t("sheet.close"))));
  await openDialog(content, "rules-dialog-box");
  return result;
}
