// The page's entry: language, routes (#/, #/play/GAME, #/daily/GAME (today's), #/daily/GAME/ID,
// #/rules/GAME, #/leaderboard/GAME, #/stats/GAME, #/games, #/replay/ID, #/shared/TOKEN,
// #/record, a table of friends' #/table/ID, #/join/TOKEN and #/watch/TOKEN) and the Rules button.

import { api, ApiError, memory } from "./api.js";
import { fairNewGame } from "./fairness.js";
import { useFourColours } from "./cards.js";
import { clear, el, toast } from "./dom.js";
import { preferredLanguage, setLanguage, t, language } from "./i18n.js";
import { renderHome, renderLeaderboard } from "./home.js";
import { broughtText, passkeyPanel } from "./passkeys.js";
import { renderStats } from "./stats.js";
import { renderHistory } from "./history.js";
import { Replay } from "./replay.js";
import { chosenLevel, setLevels } from "./levels.js";
import { howToPlay, renderRulesPage, rulesDialog, setRulesPages } from "./rules.js";
import { setRenderers } from "./games/index.js";
import { settings, settingsForm } from "./settings.js";
import { dailyIntro, openDialog } from "./sheets.js";
import { problemText, Table } from "./table.js";
import { joinByInvite, Lobby, WatchLobby } from "./friends.js";

const main = document.getElementById("main");
const rulesButton = document.getElementById("rules-button");
const settingsButton = document.getElementById("settings-button");
let catalog = { games: [], day: "" };
let table = null;
let replay = null; // the replay viewer on the page, if any
let lobby = null; // a table of friends' lobby on the page, if any
let routing = 0; // how many routes have begun: a route still fetching when the next begins shows nothing
let opened = null; // a record the person opened from a file: {body, record}, shown at #/record
let identity = {}; // what POST /api/identity said (``ranked_today``: whether today's dailies count)

function specOf(game) {
  return catalog.games.find((g) => g.name === game);
}

/** The person's open game of ``game``, or a new one with the remembered options. */
async function ordinaryGame(game) {
  const id = memory.gameId(game);
  if (id) {
    try {
      const state = await api.load(id);
      if (!state.view.terminal) return state;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  return startGame(game, memory.options(game));
}

async function startGame(game, options, level = chosenLevel()) {
  // Court Piece gives 10 s instead of 20 s to call in the person's very first game
  // (the rules: "10 in the person's very first game ever"); the how-to says so.
  const spec = specOf(game);
  if (spec && spec.first_game_option && !localStorage.getItem("tt.courtpiece.played")) {
    options = { ...options, first_game: true };
  }
  const state = await fairNewGame(game, options, level);
  if (spec && spec.first_game_option) localStorage.setItem("tt.courtpiece.played", "1");
  memory.setGameId(game, state.id);
  return state;
}

function leaveTable() {
  if (table) table.stop();
  table = null;
  if (replay) replay.stop();
  replay = null;
  if (lobby) lobby.stop();
  lobby = null;
  delete main.dataset.busy; // only a table is ever busy
}

/** "Play again" after a match: the same game, level and options. */
async function playAgain(game, options, level) {
  showTable(await startGame(game, options, level));
}

/** ``seated``: the table of friends the match is played at (null: alone); its
 * next match ("play again") is shown by its lobby's route, which finds it. */
function showTable(state, seated = null) {
  leaveTable();
  const shown = (table = new Table(main, state, playAgain, seated && seated.seats,
                                   { seated, onNextMatch: () => route() }));
  rulesButton.hidden = false;
  // Not awaited: the first-visit help and the replay of the computer players'
  // first moves may wait for the person; the page is ready meanwhile.
  howToPlay(state.game, specOf(state.game))
    .then(() => table === shown && dailyIntro(state))
    .then(() => table === shown && shown.start());
}

/** A watch link's table, read-only, once its match has started. */
function showWatched(answer, token) {
  leaveTable();
  const shown = (table = new Table(main, answer.match, null, answer.table.seats,
                                   { watch: token, onNextMatch: () => route() }));
  shown.start();
}

/** A game's table, unless another route began while it was fetched (the person went on meanwhile). */
function showRouted(state, routed) {
  if (routed === routing) showTable(state);
}

/** The replay viewer, unless another route began while its game was fetched
 * (a later click wins; two viewers would both answer the keys). */
function showReplay(body, source, routed) {
  if (routed !== routing) return;
  leaveTable();
  replay = new Replay(main, body, source);
}

async function route() {
  const routed = ++routing;
  const [, page, game, id] = location.hash.split("/");
  leaveTable();
  rulesButton.hidden = true;
  document.getElementById("dialog").open && document.getElementById("dialog").close();
  try {
    if ((page === "play" || page === "daily" || page === "rules" || page === "leaderboard" || page === "stats")
        && !specOf(game)) {
      location.hash = "#/";
      return;
    }
    if (page === "play") showRouted(await ordinaryGame(game), routed);
    else if (page === "daily") showRouted(id ? await api.load(decodeURIComponent(id)) : await api.daily(game), routed);
    else if (page === "rules") await renderRulesPage(main, game);
    else if (page === "leaderboard") await renderLeaderboard(main, game, catalog.day);
    else if (page === "stats") await renderStats(main, catalog, game);
    else if (page === "games") await renderHistory(main, catalog, openRecord);
    else if (page === "replay") {
      const id = decodeURIComponent(game);
      showReplay(await api.replay(id), { kind: "own", id }, routed);
    } else if (page === "shared") {
      const token = decodeURIComponent(game);
      showReplay(await api.sharedReplay(token), { kind: "shared", token }, routed);
    } else if (page === "record" && opened) showReplay(opened.body, { kind: "file", record: opened.record }, routed);
    else if (page === "record") location.hash = "#/games";
    else if (page === "join") await joinByInvite(decodeURIComponent(game));
    else if (page === "table") {
      lobby = new Lobby(main, decodeURIComponent(game), (state, seated) => showTable(state, seated));
      await lobby.start();
    } else if (page === "watch") {
      const token = decodeURIComponent(game);
      lobby = new WatchLobby(main, token, (answer) => showWatched(answer, token));
      await lobby.start();
    }
    else await renderHome(main, catalog, identity, signedIn);
  } catch (error) {
    // A clear message and a way to try again, never a raw "Failed to fetch".
    clear(main).append(el("div", { class: "page problem", role: "alert" }, el("p", { class: "error" }, problemText(error)),
      el("button", { type: "button", class: "action primary", id: "retry", onclick: () => route() }, t("error.retry"))));
  }
  main.dataset.page = page || "home";
}

/** This browser took another identity (a passkey): what the page knew of the old one is stale. */
function signedIn(who) {
  identity = who;
  memory.setNickname(who.nickname || "");
  const welcome = who.nickname ? t("passkey.welcome_back", { name: who.nickname }) : t("passkey.signed_in");
  toast([welcome, broughtText(who)].filter(Boolean).join(" "));
  route();
}

/** A record file the server replayed: shown in the viewer at #/record. */
function openRecord(body, record) {
  opened = { body, record };
  if (location.hash === "#/record") route();
  else location.hash = "#/record";
}

rulesButton.addEventListener("click", async () => {
  if (!table) return;
  const options = await rulesDialog(specOf(table.game));
  if (options === null) return;
  if (table.state.daily || table.friends) {
    // The daily deal is played under standard rules; the new options apply to New game.
    toast(t("rules.saved_for_new_games"));
    return;
  }
  await showTable(await startGame(table.game, options));
});

settingsButton.addEventListener("click", async () => {
  const content = el("div", { class: "settings-dialog" }, el("h2", {}, t("settings.title")),
    settingsForm((saved) => {
      useFourColours(saved.fourColour);
      if (table) table.render();
    }), passkeyPanel());
  await openDialog(content, "settings-box");
});

async function boot() {
  useFourColours(settings().fourColour);
  await setLanguage(preferredLanguage());
  const select = document.getElementById("lang-select");
  select.value = language();
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    if (table) table.render();
    else route();
  });
  identity = await api.identity(); // before anything else, so parallel requests share one identity
  catalog = await api.games();
  setLevels(catalog.levels, catalog.default_level);
  setRenderers(catalog.games);
  setRulesPages(catalog.games);
  // A share link may also come as ?replay=TOKEN.
  // (replaceState: setting location.hash would also fire a hashchange, and so route twice.)
  const shared = new URLSearchParams(location.search).get("replay");
  if (shared && !location.hash.startsWith("#/shared/")) history.replaceState(null, "", `#/shared/${encodeURIComponent(shared)}`);
  // An invite link may also come as ?join=TOKEN.
  const invite = new URLSearchParams(location.search).get("join");
  if (invite && !location.hash.startsWith("#/table/")) history.replaceState(null, "", `#/join/${encodeURIComponent(invite)}`);
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "1";
}

// Installable on a phone's home screen; the page's files are cached (sw.js).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}

boot();
