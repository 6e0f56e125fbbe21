// Translations: one plain JSON catalog per language in ../i18n/.  English is the
// fallback for a key a catalog lacks.  Every string goes into the page through
// textContent, never as markup.

export const LANGUAGES = ["en", "de", "hi", "th"];
const catalogs = {};
let current = "en";

async function load(lang) {
  if (!catalogs[lang]) {
    const response = await fetch(`i18n/${lang}.json`);
    catalogs[lang] = await response.json();
  }
  return catalogs[lang];
}

/** The stored choice, else the browser's first language we have, else English. */
export function preferredLanguage() {
  const stored = localStorage.getItem("tt.lang");
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function setLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  await Promise.all([load("en"), load(lang)]);
  current = lang;
  if (remember) localStorage.setItem("tt.lang", lang);
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.title = t("app.title");
}

export function language() {
  return current;
}

/** The text of ``key`` with ``{name}`` placeholders filled in. */
export function t(key, params = {}) {
  const text = (catalogs[current] || {})[key] ?? (catalogs.en || {})[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** A text that counts something: ``key.one`` / ``key.other`` … chosen by the
 * language's plural rules ("1 card", "2 cards"); ``{n}`` is the count. */
export function tn(key, n, params = {}) {
  const form = new Intl.PluralRules(current).select(n);
  const chosen = has(`${key}.${form}`) ? `${key}.${form}` : `${key}.other`;
  return t(chosen, { ...params, n });
}

/** Whether a catalog (or the English fallback) has ``key``. */
export function has(key) {
  return key in (catalogs[current] || {}) || key in (catalogs.en || {});
}
