// Passkeys: keep one's identity (games, statistics, nickname) without an
// e-mail.  Settings adds one to this browser's identity and lists them; the
// home page of a fresh browser offers "I have a passkey" to sign in with one.
// The browser's own WebAuthn JSON helpers do the encoding.

import { api, ApiError } from "./api.js";
import { clear, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { openDialog } from "./sheets.js";

// This browser registered a passkey or signed in with one: its identity is
// not a fresh one to offer "I have a passkey" to.
const KNOWN = "tt.passkey";
export const passkeyKnown = () => localStorage.getItem(KNOWN) === "1";

export const passkeysSupported = () =>
  typeof window.PublicKeyCredential === "function" && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";

function problem(error) {
  if (error && error.name === "NotAllowedError") return t("passkey.cancelled");
  if (error instanceof ApiError && error.status === 429) return t("passkey.too_often");
  if (error instanceof ApiError && error.status === 409) return t("passkey.exists");
  if (error instanceof ApiError) return t("passkey.refused");
  return t("passkey.failed");
}

async function addPasskey() {
  const options = await api.passkeyRegisterOptions();
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  const added = await api.passkeyRegister(credential.toJSON());
  localStorage.setItem(KNOWN, "1");
  return added;
}

/** Sign in with a passkey: this browser then plays as the passkey's identity.
 * Where this browser's own identity has games, the person is told first how
 * many stay behind, and may bring them along (when that identity has no
 * passkey of its own); null if he cancelled. */
export async function signInWithPasskey() {
  const { here, ...options } = await api.passkeySignInOptions();
  const choice = here && here.games > 0 ? await askAboutGames(here) : "leave";
  if (choice !== "bring" && choice !== "leave") return null;
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  const who = await api.passkeySignIn(credential.toJSON(), choice === "bring");
  localStorage.setItem(KNOWN, "1");
  return who;
}

/** "bring", "leave" or "" (cancelled): what becomes of this browser's games. */
function askAboutGames(here) {
  const choice = (value, label, primary) => el("button", { type: "submit", value, id: `passkey-${value || "cancel"}`,
    class: `action${primary ? " primary" : ""}` }, label);
  const buttons = here.passkey
    ? [choice("leave", t("passkey.sign_in_anyway"), true), choice("", t("rules.cancel"))]
    : [choice("bring", t("passkey.bring"), true), choice("leave", t("passkey.leave")), choice("", t("rules.cancel"))];
  return openDialog(el("form", { method: "dialog", class: "passkey-games", id: "passkey-games" },
    el("h2", {}, t("passkey.here_title")),
    el("p", {}, tn("passkey.here_games", here.games)),
    el("p", {}, t(here.passkey ? "passkey.here_own_passkey" : "passkey.here_choose")),
    el("div", { class: "buttons" }, ...buttons)));
}

/** What a sign-in brought along, in words ("" if nothing). */
export function broughtText(who) {
  if (!who.brought) return "";
  const practice = who.brought.practice_dailies ? ` ${tn("passkey.brought_practice", who.brought.practice_dailies)}` : "";
  return `${tn("passkey.brought", who.brought.games)}${practice}`;
}

const dateText = (seconds) => new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang);

/** The Settings section: add a passkey, and the identity's passkeys with a Remove each. */
export function passkeyPanel() {
  const out = el("p", { class: "passkey-out", id: "passkey-out", "aria-live": "polite" });
  const list = el("ul", { class: "passkey-list", id: "passkey-list" });
  const refresh = async () => {
    try {
      const { passkeys } = await api.passkeys();
      clear(list).append(...passkeys.map((p, i) => el("li", { dataset: { passkey: p.id } },
        el("span", {}, t("passkey.item", { n: i + 1, date: dateText(p.created_at) })),
        el("button", { type: "button", class: "action subtle", "aria-label": t("passkey.remove_n", { n: i + 1 }),
          onclick: async () => {
            try {
              await api.removePasskey(p.id);
              clear(out).append(t("passkey.removed"));
            } catch (error) {
              clear(out).append(problem(error));
            }
            refresh();
          } }, t("passkey.remove")))));
      if (!passkeys.length) list.append(el("li", { class: "empty" }, t("passkey.none")));
    } catch (error) {
      clear(out).append(problem(error));
    }
  };
  const add = async () => {
    try {
      await addPasskey();
      clear(out).append(t("passkey.added"));
    } catch (error) {
      clear(out).append(problem(error));
    }
    refresh();
  };
  if (!passkeysSupported()) {
    return el("section", { class: "passkeys" }, el("h3", {}, t("passkey.title")), el("p", {}, t("passkey.unsupported")));
  }
  refresh();
  return el("section", { class: "passkeys", "aria-labelledby": "passkey-title" },
    el("h3", { id: "passkey-title" }, t("passkey.title")), el("p", {}, t("passkey.explain")),
    el("button", { type: "button", class: "action", id: "passkey-add", onclick: add }, t("passkey.add")),
    list, out);
}

/** The home page's "I have a passkey" for a browser with a fresh identity;
 * ``onSignedIn`` runs once this browser took the passkey's identity. */
export function passkeySignIn(onSignedIn) {
  if (!passkeysSupported() || passkeyKnown()) return null;
  const out = el("p", { class: "passkey-out", id: "passkey-sign-in-out", "aria-live": "polite" });
  const go = async () => {
    try {
      const who = await signInWithPasskey();
      if (who) onSignedIn(who);
    } catch (error) {
      clear(out).append(problem(error));
    }
  };
  return el("div", { class: "passkey-sign-in" },
    el("button", { type: "button", class: "action", id: "passkey-sign-in", onclick: go }, t("passkey.sign_in")), out);
}
