"""The ``heuristic`` and ``search`` bots for every game, and the hint.

Each game's bots live in their own module (named in ``GAME_BOTS``), which
provides ``heuristic_text(obs)`` (the expert rules), ``SEARCH`` (a
``SearchGame``) and ``worlds_for(budget_ms, actions, inference=True)`` (how many
sampled worlds the budget affords on a 2-core machine for that many candidate
actions, with or without weighing them by inference).  It may
also provide ``search_game(obs)`` (when one module serves several games) and
``distinct_actions(obs)`` (the candidates worth trying: equivalent cards once).
Every one of them gets the seat's ``Observation``.  The bots here only dispatch on ``obs.game``,
so ``make_bot("search")`` works for any game that has landed.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from types import MappingProxyType, ModuleType
from typing import Any, Mapping, Sequence

from tricktable.bots.base import Bot, allowed
from tricktable.bots.search import SearchGame, best_action, evaluate
from tricktable.core.observation import Observation
from tricktable.errors import GameError, UnknownGame

HARD_STOP_MS = 800.0
"""Search stops sampling after this long whatever the budget (max ≤ 1 s)."""
NO_CLOCK_MS = float("inf")
"""A search with a fixed number of worlds samples them all, however long it takes."""


GAME_BOTS: Mapping[str, str] = MappingProxyType({
    "euchre": "tricktable.bots.euchre",
    "doppelkopf": "tricktable.bots.doppelkopf",
    "double-sar": "tricktable.bots.courtpiece",
    "single-sar": "tricktable.bots.courtpiece",
    "hidden-trump": "tricktable.bots.relatives",
    "be-ranga": "tricktable.bots.relatives",
    "mendikot": "tricktable.bots.relatives",
})
"""Each game's bots module, imported on first use (so a command for one game does not
pay for the others' bots); the catalog has one entry for each of these games."""


def game_module(game: str) -> ModuleType:
    """The computer players of ``game``."""
    if game not in GAME_BOTS:
        raise UnknownGame(f"unknown game {game!r}; known: {', '.join(GAME_BOTS)}")
    return importlib.import_module(GAME_BOTS[game])


class HeuristicBot(Bot):
    """Expert rules for every decision of the game; no search."""

    name = "heuristic"

    def choose(self, obs: Observation, among: Sequence[str] | None = None) -> str:
        """The rules' action; where it is not among those allowed, the first allowed one."""
        choices = allowed(obs, among)
        text: str = game_module(obs.game).heuristic_text(obs)
        return text if text in choices else choices[0]


SLIP_RATE = 0.08
"""How often the easy bot plays another card than the rules' one (when it has another)."""


class EasyBot(HeuristicBot):
    """The rules with a few human-like slips: now and then (``SLIP_RATE`` of the card
    plays with a choice) another legal card, of the rules' card's suit when there is
    one: too high or too low a card of the right suit, or the wrong discard.  Bids,
    calls and announcements stay the rules'.  Seeded by the position, so a replay
    slips at the same cards."""

    name = "easy"

    def choose(self, obs: Observation, among: Sequence[str] | None = None) -> str:
        text = super().choose(obs, among)
        if not text.startswith("play "):
            return text
        others = [t for t in allowed(obs, among) if t.startswith("play ") and t != text]
        rng = self.rng_for(obs)
        if not others or rng.random() >= SLIP_RATE:
            return text
        same_suit = [t for t in others if t[-1] == text[-1]]
        return rng.choice(same_suit or others)


class SearchBot(Bot):
    """Samples worlds consistent with the observation and plays the action with the best
    expected score (see ``tricktable.bots.search``)."""

    name = "search"
    inference = True
    """Weigh the sampled worlds by what the others' decisions reveal (``bots.inference``)."""

    def __init__(self, seed: str = "bot", budget_ms: float = 250.0, worlds: int | None = None,
                 clock: bool = True):
        """``worlds``: sample exactly this many worlds per decision, with no
        clock, so the bot plays the same on any machine however loaded (what
        an outside comparison or an analysis needs); None: as many as
        ``budget_ms`` buys on a 2-core machine (the game's ``worlds_for``),
        stopped after ``HARD_STOP_MS`` whatever the count (the web's players)
        — or, with ``clock=False``, never stopped (the lab's duplicate matches
        against a baseline commit, whose worlds per decision follow its own
        ``worlds_for``)."""
        super().__init__(seed, budget_ms)
        if worlds is not None and worlds < 1:
            raise GameError("a search needs at least one world")
        self.worlds = worlds
        self.hard_ms = NO_CLOCK_MS if worlds is not None or not clock else HARD_STOP_MS

    def choose(self, obs: Observation, among: Sequence[str] | None = None) -> str:
        module = game_module(obs.game)
        actions = candidates(module, obs) if among is None else allowed(obs, among)
        if len(actions) == 1:
            return actions[0]
        game, worlds = self._search(module, obs, actions)
        return best_action(game, obs, self.rng_for(obs), worlds, self.hard_ms, actions)

    def ranked(self, obs: Observation) -> list[dict[str, Any]]:
        """Every legal action by expected value (points for the seat's side per deal),
        best first, all on one scale (``search.evaluate``): the hint.  ``chosen`` marks
        what this bot would play; it is the rules' action unless another is clearly
        better, so it may stand below an action whose lead is within the noise — the
        list is still ordered by the value it shows.  Empty when the seat has no legal
        action."""
        if not obs.legal:
            return []
        module = game_module(obs.game)
        actions = list(obs.legal)
        game, worlds = self._search(module, obs, actions)
        evaluation = evaluate(game, obs, self.rng_for(obs), worlds, self.hard_ms, actions)
        # Rounded first and ordered by the rounded figure, so the list is ordered by
        # exactly the value it shows (ties keep the search's order).
        rows = [{"action": e.action, "value": round(e.value, 3), "worlds": e.worlds,
                 "chosen": e.action == evaluation.choice} for e in evaluation.estimates]
        return sorted(rows, key=lambda row: -row["value"])

    def _search(self, module: ModuleType, obs: Observation, actions: list[str]) -> tuple[SearchGame, int]:
        """The game's search as this bot weighs its worlds, and how many it samples."""
        worlds = self.worlds or module.worlds_for(self.budget_ms, len(actions), inference=self.inference)
        return search_game(module, obs, self.inference), worlds


class SearchWithoutInferenceBot(SearchBot):
    """``search`` with every sampled world weighing the same (no ``SearchGame.weight``):
    the arena's way to measure what inference is worth, and the normal level (see
    ``bots.levels``)."""

    name = "search-noinfer"
    inference = False


def candidates(module: ModuleType, obs: Observation) -> list[str]:
    chooser = getattr(module, "distinct_actions", None)
    return list(chooser(obs)) if chooser else list(obs.legal)


def search_game(module: ModuleType, obs: Observation, inference: bool = True) -> SearchGame:
    """The game's search, its worlds weighed by inference or (without) all alike."""
    chooser = getattr(module, "search_game", None)
    game: SearchGame = chooser(obs) if chooser else module.SEARCH
    return game if inference else replace(game, weight=None)


def hint(obs: Observation, budget_ms: float = 250.0, seed: str = "hint") -> list[dict[str, Any]]:
    """``SearchBot.ranked``: what ``search`` at ``budget_ms`` would play first, then the
    other legal actions by expected value."""
    return SearchBot(seed=seed, budget_ms=budget_ms).ranked(obs)
