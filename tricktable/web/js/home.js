// The home page (each game with Daily and New game, today's leaderboards) and
// the full leaderboard page.

import { api, memory } from "./api.js";
import { clear, el } from "./dom.js";
import { t } from "./i18n.js";
import { identityPanel } from "./identity.js";
import { levelControl, rememberLevel } from "./levels.js";
import { passkeySignIn } from "./passkeys.js";
import { friendsBox, friendsShortcut } from "./friends.js";

export function leaderboardTable(board, limit = 100) {
  const wrap = el("div", { class: "leaderboard" });
  if (!board.entries.length) {
    wrap.append(el("p", { class: "empty" }, t("daily.no_scores")));
  } else {
    const rows = board.entries.slice(0, limit).map((entry) =>
      el("tr", { class: entry.you ? "you" : "" }, el("td", { class: "num" }, String(entry.rank)),
        el("td", { class: "nick" }, entry.nickname || t("daily.anonymous")),
        el("td", { class: "num" }, String(entry.score))));
    wrap.append(el("table", { class: "sheet" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("daily.player")),
        el("th", { scope: "col", class: "num" }, t("daily.score")))),
      el("tbody", {}, rows)));
  }
  if (board.own) wrap.append(el("p", { class: "own-rank" }, t("daily.rank", { rank: board.own.rank, score: board.own.score })));
  return wrap;
}

/** ``onSignedIn(identity)``: this browser took a passkey's identity ("I have a passkey"). */
export async function renderHome(root, catalog, identity = {}, onSignedIn = () => {}) {
  clear(root);
  // A fresh identity (a cleared browser, a new device) may be an old one's: its
  // passkey is offered at the top; otherwise in the "another device" box.
  const fresh = identity && identity.practice_reason === "new_identity";
  const signIn = passkeySignIn(onSignedIn);
  const list = el("div", { class: "games" });
  // A browser whose dailies are practice today is told so before it starts one.
  // A fresh browser may be an old identity's: its passkey is offered right there.
  const practice = identity && identity.ranked_today === false
    ? el("div", { class: "practice-note", id: "home-practice" }, el("p", {}, t("home.practice_today")),
      fresh ? signIn : null) : null;
  root.append(el("section", { class: "home" },
    el("h1", {}, t("app.title")), el("p", { class: "tagline" }, t("app.tagline")),
    // One row of the person's own places (wrapping on a phone), so the games come early on a small screen.
    el("div", { class: "my-games" },
      el("a", { class: "action", href: "#/games", id: "my-games" }, t("history.title")),
      el("a", { class: "action", href: `#/stats/${catalog.games[0].name}`, id: "my-stats" }, t("stats.title")),
      friendsShortcut()),
    levelControl("home-level", rememberLevel), el("p", { class: "level-note" }, t("level.note")), practice, list,
    friendsBox(catalog),
    identityPanel(() => memory.setNickname(""), fresh && practice ? null : signIn)));
  for (const game of catalog.games) {
    const board = el("div", { class: "mini-board" }, el("p", { class: "empty" }, "…"));
    list.append(el("article", { class: "game-card", dataset: { game: game.name } },
      el("h2", {}, t(`game.${game.name}`)),
      el("a", { class: "more", href: `#/leaderboard/${game.name}` }, t("home.full_leaderboard")),
      el("p", { class: "blurb" }, t(`game.${game.name}.blurb`)),
      el("div", { class: "buttons" },
        el("a", { class: "action primary", href: `#/play/${game.name}` }, t("home.new_game")),
        el("a", { class: "action", href: `#/daily/${game.name}` }, t("home.daily")),
        el("a", { class: "action subtle", href: `#/rules/${game.name}` }, t("rules.button"))),
      el("h3", {}, t("home.leaderboard", { day: catalog.day })), board));
    api.leaderboard(game.name).then((data) => clear(board).append(leaderboardTable(data, 5)))
      .catch(() => clear(board));
  }
}

export async function renderLeaderboard(root, game, day) {
  clear(root);
  const data = await api.leaderboard(game);
  root.append(el("section", { class: "page" },
    el("h1", {}, t(`game.${game}`), " — ", t("home.leaderboard", { day })),
    leaderboardTable(data),
    el("p", {}, el("a", { href: `#/daily/${game}`, class: "action primary" }, t("home.daily")))));
}
