// A table of friends' calls and the host's tools: the routes of a table, the
// links kept on the host's device (the server shows them once), a link box to
// pass one on, and, during the match, the host's dialog of the table's seats
// (give a person's seat to a computer player, open a computer's seat to a newcomer).

import { api } from "./api.js";
import { append, clear, el, toast } from "./dom.js";
import { t } from "./i18n.js";
import { openDialog } from "./sheets.js";
import { problemText } from "./table.js";

const path = (id, route = "") => `api/tables/${encodeURIComponent(id)}${route}`;

export const tables = {
  create: (game, options, level, clock, hints) => api.post("api/tables", { game, options, level, clock, hints }),
  get: (id) => api.get(path(id)),
  join: (codeOrInvite) => api.post(path(codeOrInvite, "/join"), {}),
  move: (id, seat, to) => api.post(path(id, "/seats"), { seat, to }),
  computer: (id, seat) => api.post(path(id, "/computer"), { seat }),
  open: (id, seat) => api.post(path(id, "/open"), { seat }),
  hints: (id, hints) => api.post(path(id, "/hints"), { hints }),
  start: (id) => api.post(path(id, "/start")),
};

// The invite token is shown once (the server keeps only its hash): the host's
// page keeps it to show the link again in the lobby and when he opens a seat.
export const inviteKey = (id) => `tt.table.invite.${id}`;
export const watchKey = (id) => `tt.table.watch.${id}`; // the watch link's token, likewise shown once

/** The page's link for a kept token (``route``: "join" or "watch"), or null if this device has none. */
export function keptLink(key, route) {
  const token = localStorage.getItem(key);
  return token ? `${location.origin}${location.pathname}#/${route}/${token}` : null;
}

/** A link to pass on (``name``: "invite" or "watch"): shown, and shared or copied with one button. */
export function linkBox(name, label, link) {
  const share = navigator.share ? t("friends.share") : t("friends.copy");
  return el("div", { class: "invite-box" },
    el("label", { for: `${name}-link` }, label),
    el("div", { class: "join-row" },
      el("input", { id: `${name}-link`, type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      el("button", { type: "button", class: "action", id: `copy-${name}`, "aria-label": `${share}: ${label}`, onclick: async () => {
        try {
          if (navigator.share) await navigator.share({ title: t("app.title"), url: link });
          else {
            await navigator.clipboard.writeText(link);
            toast(t("friends.copied"));
          }
        } catch {
          document.getElementById(`${name}-link`)?.select(); // copying refused: the link is selected to copy by hand
        }
      } }, share)));
}

/** How a seat's holder is named: "You", a computer player, an open seat, or a person (his nickname and role). */
export function holderName(holder) {
  if (holder.you) return t("friends.seat_you");
  if (!holder.person) return holder.open ? t("host.seat_open") : t("friends.seat_computer");
  const role = holder.host ? t("friends.seat_host") : t("friends.seat_friend");
  return holder.nickname ? `${holder.nickname} · ${role}` : role;
}

/** The host's dialog of the table's seats during the match.  ``table``: the
 * table's description; ``seatName(seat)``: where a seat sits as the host sees
 * it; ``onChange(table)``: the table as the server answers a change. */
export class SeatsDialog {
  constructor(table, seatName, onChange) {
    this.table = table;
    this.seatName = seatName;
    this.onChange = onChange;
    this.confirming = null; // the seat whose removal waits for "yes"
    this.body = el("div", { class: "host-seats-body" });
  }

  open() {
    this.render();
    return openDialog(el("div", { class: "host-seats" },
      el("h2", { id: "host-seats-title" }, t("host.title")), this.body,
      el("div", { class: "buttons" }, el("button", { type: "button", class: "action primary", id: "host-seats-close",
        onclick: () => document.getElementById("dialog").close() }, t("host.close")))), "host-dialog");
  }

  render() {
    const focused = document.activeElement && this.body.contains(document.activeElement) ? document.activeElement.id : null;
    const open = this.table.seats.some((s) => s.open);
    const invite = keptLink(inviteKey(this.table.id), "join");
    append(clear(this.body), [
      el("ul", { class: "host-seat-list" }, ...this.table.seats.map((holder) => this.seatRow(holder))),
      el("p", { class: "lobby-problem", id: "host-problem", role: "alert" }),
      open ? el("div", { class: "host-open", id: "host-open" },
        el("p", {}, t("host.open_note")),
        el("div", { class: "code-box" }, el("p", { class: "code-label", id: "host-code-label" }, t("friends.code_label")),
          el("p", { class: "code", id: "host-code", "aria-labelledby": "host-code-label", lang: "en" }, this.table.code)),
        invite ? linkBox("invite", t("friends.invite_label"), invite) : null) : null]);
    // Focus stays where it was; where its button went, on the next choice (or the dialog's close button).
    const next = this.body.querySelector(".confirm-box button");
    if (next) next.focus();
    else if (focused) (document.getElementById(focused) || document.getElementById("host-seats-close"))?.focus();
  }

  /** One seat: where it sits, who holds it, and what the host may do with it. */
  seatRow(holder) {
    const seat = holder.seat;
    return el("li", { class: `lobby-seat${holder.person ? " person" : ""}${holder.you ? " you" : ""}`, dataset: { seat } },
      el("p", { class: "seat-number" }, t("friends.seat_number", { n: seat + 1 }), holder.you ? "" : ` · ${this.seatName(seat)}`),
      el("p", { class: "seat-who" }, holderName(holder)),
      ...this.seatActions(holder));
  }

  seatActions(holder) {
    const seat = holder.seat;
    if (holder.host) return [];
    if (holder.person && this.confirming === seat) {
      return [el("div", { class: "confirm-box", role: "group", "aria-labelledby": `confirm-${seat}-text` },
        el("p", { id: `confirm-${seat}-text` }, t("host.confirm_remove", { who: holderName(holder) })),
        el("button", { type: "button", class: "action primary", id: `confirm-computer-${seat}`,
          onclick: () => this.change(() => tables.computer(this.table.id, seat)) }, t("host.confirm_yes")),
        el("button", { type: "button", class: "action", id: `cancel-computer-${seat}`,
          onclick: () => this.confirm(null) }, t("host.confirm_no")))];
    }
    if (holder.person) {
      return [el("button", { type: "button", class: "action", id: `host-computer-${seat}`,
        onclick: () => this.confirm(seat) }, t("friends.to_computer"))];
    }
    if (holder.open) {
      return [el("button", { type: "button", class: "action", id: `host-close-${seat}`,
        onclick: () => this.change(() => tables.computer(this.table.id, seat)) }, t("host.close_seat"))];
    }
    return [el("button", { type: "button", class: "action", id: `host-open-${seat}`,
      onclick: () => this.change(() => tables.open(this.table.id, seat)) }, t("host.open_seat"))];
  }

  confirm(seat) {
    this.confirming = seat;
    this.render();
  }

  /** The table after one of the host's changes (or his problem, in words). */
  async change(request) {
    for (const button of this.body.querySelectorAll("button")) button.disabled = true;
    try {
      this.update(await request());
    } catch (error) {
      this.render();
      this.body.querySelector("#host-problem").textContent = problemText(error);
    }
  }

  /** A newer description of the table (a change, or a newcomer who took an open seat). */
  update(table) {
    this.table = table;
    // A look that finds a newcomer leaves a removal waiting for "yes" as it is; a removal done ends it.
    if (this.confirming !== null && !table.seats[this.confirming].person) this.confirming = null;
    this.onChange(table);
    if (this.body.isConnected) this.render();
  }
}
