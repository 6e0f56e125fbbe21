// Which renderer draws which game; a game without its own module still plays
// through the generic one (cards to click, every other action a button).

import { base } from "./base.js";
import { courtpiece } from "./courtpiece.js";
import { doppelkopf } from "./doppelkopf.js";
import { euchre } from "./euchre.js";

const RENDERERS = {
  euchre,
  doppelkopf,
  "double-sar": courtpiece,
  "single-sar": courtpiece,
  "hidden-trump": courtpiece,
  "be-ranga": courtpiece,
  mendikot: courtpiece,
};

export function renderer(game) {
  return RENDERERS[game] || base;
}
