// Which renderer draws which game: the server's catalog names each game's
// renderer module (``renderer``); a game without its own module still plays
// through the generic one (cards to click, every other action a button).

import { base } from "./base.js";
import { courtpiece } from "./courtpiece.js";
import { doppelkopf } from "./doppelkopf.js";
import { euchre } from "./euchre.js";

const MODULES = { base, courtpiece, doppelkopf, euchre };
let chosen = {};

/** Remember each game's renderer from ``GET /api/games``. */
export function setRenderers(games) {
  chosen = Object.fromEntries(games.filter((game) => MODULES[game.renderer]).map((game) => [game.name, MODULES[game.renderer]]));
}

export function renderer(game) {
  return chosen[game] || MODULES[game] || base;
}
