// The person's table settings, remembered on this device: the pace at which the
// computer players' moves are shown, the hand's sort order, a four-colour deck,
// auto-play of the last card, sound, and whether the other people's quick
// reactions are shown at a table of friends.  The Settings dialog is reachable from
// every page (a button in the header).

import { el } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "tt.settings";
export const PACES = { slow: 1.6, normal: 1, fast: 0.45, instant: 0 };
export const SORT_ORDERS = ["suit", "trumps"];
const DEFAULTS = { pace: "normal", sort: "trumps", fourColour: false, autoPlay: true, sound: false, muteReactions: false };
const FLAGS = ["fourColour", "autoPlay", "sound", "muteReactions"];

function valid(settings) {
  const out = { ...DEFAULTS };
  if (settings && typeof settings === "object") {
    if (settings.pace in PACES) out.pace = settings.pace;
    if (SORT_ORDERS.includes(settings.sort)) out.sort = settings.sort;
    for (const flag of FLAGS) {
      if (typeof settings[flag] === "boolean") out[flag] = settings[flag];
    }
  }
  return out;
}

export function settings() {
  try {
    return valid(JSON.parse(localStorage.getItem(KEY) || "{}"));
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(next) {
  localStorage.setItem(KEY, JSON.stringify(valid(next)));
}

/** How long a received move stays on its own before the next is shown. */
export function paced(ms) {
  return ms * PACES[settings().pace];
}

function choice(name, value, options, current) {
  return el("fieldset", { class: "setting" }, el("legend", {}, t(`settings.${name}`)),
    ...options.map((option) => el("label", { class: "level-choice", for: `setting-${name}-${option}` },
      el("input", { type: "radio", name, value: option, id: `setting-${name}-${option}`, checked: option === current }),
      " ", t(`settings.${name}.${option}`))));
}

function flag(name, current) {
  return el("label", { class: "option", for: `setting-${name}` },
    el("input", { type: "checkbox", id: `setting-${name}`, name, checked: current }), " ", t(`settings.${name}`));
}

/** The settings form; ``onsave(settings)`` runs when the person saves. */
export function settingsForm(onsave) {
  const now = settings();
  const form = el("form", { class: "options settings-form", method: "dialog" },
    choice("pace", now.pace, Object.keys(PACES), now.pace),
    choice("sort", now.sort, SORT_ORDERS, now.sort),
    ...FLAGS.map((name) => flag(name, now[name])),
    el("div", { class: "buttons" },
      el("button", { type: "submit", class: "action primary", id: "save-settings" }, t("settings.save")),
      el("button", { type: "button", class: "action subtle", onclick: () => document.getElementById("dialog").close() },
        t("rules.cancel"))));
  form.addEventListener("submit", () => {
    const read = (name) => form.elements[name];
    const next = { pace: read("pace").value, sort: read("sort").value,
      ...Object.fromEntries(FLAGS.map((name) => [name, read(name).checked])) };
    saveSettings(next);
    onsave(settings());
  });
  return form;
}
