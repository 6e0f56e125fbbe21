// The page's entry: language, routes (#/, #/play/GAME, #/daily/GAME,
// #/rules/GAME, #/leaderboard/GAME) and the Rules button.

import { api, ApiError, memory } from "./api.js";
import { clear, el, toast } from "./dom.js";
import { preferredLanguage, setLanguage, t, language } from "./i18n.js";
import { renderHome, renderLeaderboard } from "./home.js";
import { chosenLevel, setLevels } from "./levels.js";
import { renderRulesPage, rulesDialog } from "./rules.js";
import { Table } from "./table.js";

const main = document.getElementById("main");
const rulesButton = document.getElementById("rules-button");
let catalog = { games: [], day: "" };
let table = null;

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

async function startGame(game, options) {
  // Court Piece gives 10 s instead of 20 s to call in the person's very first game.
  const spec = specOf(game);
  if (spec && spec.first_game_option && !localStorage.getItem("tt.courtpiece.played")) {
    options = { ...options, first_game: true };
  }
  const state = await api.newGame(game, options, chosenLevel());
  if (spec && spec.first_game_option) localStorage.setItem("tt.courtpiece.played", "1");
  memory.setGameId(game, state.id);
  return state;
}

function showTable(state) {
  table = new Table(main, state, showTable);
  rulesButton.hidden = false;
  // Not awaited: the replay of the computer players' first moves may stop at a
  // score sheet that waits for the person; the page is ready meanwhile.
  table.start();
}

async function route() {
  const [, page, game] = location.hash.split("/");
  table = null;
  rulesButton.hidden = true;
  document.getElementById("dialog").open && document.getElementById("dialog").close();
  try {
    if ((page === "play" || page === "daily" || page === "rules" || page === "leaderboard") && !specOf(game)) {
      location.hash = "#/";
      return;
    }
    if (page === "play") await showTable(await ordinaryGame(game));
    else if (page === "daily") await showTable(await api.daily(game));
    else if (page === "rules") await renderRulesPage(main, game);
    else if (page === "leaderboard") await renderLeaderboard(main, game, catalog.day);
    else await renderHome(main, catalog);
  } catch (error) {
    clear(main).append(el("p", { class: "error" }, t("error.generic", { msg: error.message })));
  }
  main.dataset.page = page || "home";
}

rulesButton.addEventListener("click", async () => {
  if (!table) return;
  const options = await rulesDialog(specOf(table.game));
  if (options === null) return;
  if (table.state.daily) {
    // The daily deal is played under standard rules; the new options apply to New game.
    toast(t("rules.saved_for_new_games"));
    return;
  }
  await showTable(await startGame(table.game, options));
});

async function boot() {
  await setLanguage(preferredLanguage());
  const select = document.getElementById("lang-select");
  select.value = language();
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    if (table) table.render();
    else route();
  });
  catalog = await api.games();
  setLevels(catalog.levels, catalog.default_level);
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "1";
}

boot();
