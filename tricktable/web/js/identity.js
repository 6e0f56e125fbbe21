// The person's identity as the page shows it: carrying it to another device
// with a one-time code, and what a refused nickname means.

import { api, ApiError } from "./api.js";
import { clear, el } from "./dom.js";
import { t } from "./i18n.js";

/** The home page's "another device" box: show a code here, or enter one
 * made on the other device (``onChanged`` runs once this browser took the
 * other identity: what the page remembered of the old one is stale);
 * ``extra``: more to offer in it (signing in with a passkey). */
export function identityPanel(onChanged, extra = null) {
  const out = el("p", { class: "transfer-out", id: "transfer-out", "aria-live": "polite" });
  const input = el("input", { id: "transfer-code", name: "code", maxlength: "20", autocomplete: "off",
    spellcheck: "false", placeholder: "ABCDE-FGHJK" });
  const show = async () => {
    try {
      const { code, expires_in: seconds } = await api.transferCode();
      clear(out).append(t("identity.code_is"), " ", el("strong", { class: "code", id: "transfer-shown" }, code), " ",
        t("identity.code_expires", { minutes: Math.round(seconds / 60) }));
    } catch (error) {
      clear(out).append(problem(error));
    }
  };
  const claim = async (event) => {
    event.preventDefault();
    try {
      await api.claimTransfer(input.value);
      clear(out).append(t("identity.claimed"));
      if (onChanged) onChanged();
    } catch (error) {
      clear(out).append(error instanceof ApiError && error.status === 404 ? t("identity.bad_code") : problem(error));
    }
  };
  return el("details", { class: "identity-panel" },
    el("summary", {}, t("identity.title")),
    el("p", {}, t("identity.explain")),
    el("button", { type: "button", class: "action", id: "transfer-make", onclick: show }, t("identity.make_code")),
    el("form", { class: "transfer", onsubmit: claim },
      el("label", { for: "transfer-code" }, t("identity.enter_code")), input,
      el("button", { type: "submit", class: "action" }, t("identity.use_code"))),
    out, extra);
}

/** Why the server refused a nickname, in the person's language. */
export function nicknameProblem(error) {
  if (error instanceof ApiError && error.status === 409) return t("nickname.taken");
  if (error instanceof ApiError && error.status === 429) return t("nickname.too_often");
  return t("daily.bad_nickname", { msg: error.message });
}

function problem(error) {
  if (error instanceof ApiError && error.status === 429) return t("identity.too_often");
  return t("error.refused", { msg: error.message });
}
