"""Playing strength for the web page: easy, normal and hard.

* easy — a sound beginner (``easy``): the expert rules with a few human-like
  slips (another card of the same suit now and then), instant.
* normal — ``search`` with a fifth of the budget and every sampled world weighing
  the same (the web app's default: its moves come quickly enough for a live table,
  and it is what the server pays for most).  Weighing the worlds by what the others'
  decisions reveal (``bots.inference``) costs 40–70 % more CPU per decision at this
  budget and measured no stronger (docs/strength.md), so normal goes without it —
  except where a game's own entry in ``GAME_LEVELS`` says otherwise.
* hard — the same search with the full budget, and likewise without inference
  except where ``GAME_LEVELS`` says otherwise.
"""

from __future__ import annotations

from typing import Any

from tricktable.bots.base import Bot, make_bot
from tricktable.bots.players import SearchBot, game_module
from tricktable.errors import GameError
from tricktable.core.observation import Observation

LEVELS: dict[str, tuple[str, float]] = {
    "easy": ("easy", 0.0),
    "normal": ("search-noinfer", 50.0),
    "hard": ("search-noinfer", 250.0),
}
DEFAULT_LEVEL = "normal"

GAME_LEVELS: dict[str, dict[str, tuple[str, float]]] = {
    "euchre": {"normal": ("search", 50.0), "hard": ("search", 250.0)},
    "doppelkopf": {"hard": ("search", 250.0)},
}
"""A game's levels where they differ from ``LEVELS``.

Euchre weighs its worlds by inference: at 50 ms that is 350 weighted worlds instead of
450 unweighted ones (``euchre.WORLDS_PER_MS``).  At earlier rates (200 weighted against
350 unweighted, about the same CPU per decision: Euchre's inference replays the whole
history in the kernel) it measured stronger: +0.067 ± 0.030 points per deal over 240
duplicate deals (docs/strength.md).

Doppelkopf's hard keeps inference: its hard level's target was met with it (+0.349 ± 0.084
over 500 deals) and inference was never measured at Doppelkopf's hard budget.  In the
five Court Piece games inference at hard's budget measured weaker: −0.052 ± 0.015 a deal
pooled over 2,300 deals (docs/strength.md)."""


RELIEF_LEVELS: dict[str, tuple[str, float]] = {"quick": ("search-noinfer", 10.0)}
"""Levels nobody chooses: what an overloaded server plays instead of a chosen
level (``relieved``).  A fifth of normal's budget still searches (it plays
well above the easy rules), at a fifth of the CPU."""
RELIEF: dict[str, tuple[str, ...]] = {
    "hard": ("hard", "normal", "quick", "easy"),
    "normal": ("normal", "quick", "easy"),
    "easy": ("easy",),
}
"""Each level, then the shorter thinking an overloaded server falls back to, step by step."""


def relieved(level: str, step: int) -> str:
    """``level`` relieved by ``step`` steps (0: as chosen), down to the easy rules."""
    chain = RELIEF.get(level, (level,))
    return chain[min(step, len(chain) - 1)]


def level_bot(game: str, level: str) -> tuple[str, float]:
    """The bot's name and budget (0: none) that play ``game`` at ``level``."""
    if level in RELIEF_LEVELS:
        return RELIEF_LEVELS[level]
    if level not in LEVELS:
        raise GameError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    return GAME_LEVELS.get(game, {}).get(level, LEVELS[level])


def best_bot(game: str, level: str = DEFAULT_LEVEL, seed: str = "bot") -> Bot:
    """The computer player for ``game`` at ``level``."""
    name, budget_ms = level_bot(game, level)
    game_module(game)  # an unknown game is a clear error here, not at the first decision
    return make_bot(name, seed=seed, budget_ms=budget_ms) if budget_ms else make_bot(name, seed=seed)


HINT_LEVEL = "hard"
HINT_BUDGET_MS = LEVELS[HINT_LEVEL][1]


def hint_worlds(obs: Observation) -> int:
    """How many worlds the hint samples at ``obs``: what the hard level's budget buys
    for that many legal actions (the game's ``worlds_for``), as a fixed count, so the
    hint's values never depend on the machine's speed or load."""
    name, budget_ms = level_bot(obs.game, HINT_LEVEL)
    count: int = game_module(obs.game).worlds_for(budget_ms, len(obs.legal), inference=name == "search")
    return count


def hint_seed(match_seed: str, actions_before: int) -> str:
    """The seed of the hint at the decision that follows the record's first
    ``actions_before`` actions: computable from the record alone, so a game's
    analysis searches every decision exactly as the hint did."""
    return f"{match_seed}/hint/{actions_before}"


def hard_hint(obs: Observation, seed: str = "hint", worlds: int | None = None) -> list[dict[str, Any]]:
    """The page's Hint button and the analysis: what the hard computer player would
    do in the person's seat, and every legal action's value to it
    (``SearchBot.ranked``), from ``worlds`` sampled worlds (default
    ``hint_worlds``) with no clock: the same observation and seed give the same
    values on any machine."""
    name, _budget_ms = level_bot(obs.game, HINT_LEVEL)
    bot = make_bot(name, seed=seed, worlds=worlds or hint_worlds(obs))
    assert isinstance(bot, SearchBot)  # every game's hard level searches
    return bot.ranked(obs)
