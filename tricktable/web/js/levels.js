// The computer players' level (easy, normal, hard): chosen on the home page or
// in the Rules dialog, remembered on this device, used for every new game.  The
// daily deal is always played at the server's default level.

import { el } from "./dom.js";
import { t } from "./i18n.js";

let known = { levels: ["easy", "normal", "hard"], fallback: "normal" };

/** The levels the server offers and its default (from ``GET /api/games``). */
export function setLevels(levels, fallback) {
  if (Array.isArray(levels) && levels.includes(fallback)) known = { levels, fallback };
}

export function chosenLevel() {
  const saved = localStorage.getItem("tt.level");
  return known.levels.includes(saved) ? saved : known.fallback;
}

export function rememberLevel(level) {
  if (known.levels.includes(level)) localStorage.setItem("tt.level", level);
}

/** Radio buttons for the level; ``onchange(level)`` is called on a change. */
export function levelControl(idPrefix, onchange = () => {}) {
  const current = chosenLevel();
  return el("fieldset", { class: "level" }, el("legend", {}, t("level.label")),
    ...known.levels.map((level) => el("label", { class: "level-choice", for: `${idPrefix}-${level}` },
      el("input", { type: "radio", name: "level", value: level, id: `${idPrefix}-${level}`, checked: level === current,
        onchange: () => onchange(level) }),
      " ", t(`level.${level}`))));
}
