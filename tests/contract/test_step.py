"""The step a game reports (``GameState.last_step``) agrees with its views, for
every game: random matches in which any seat acts whenever it may (in turn or
out of turn) and the referee when nobody can.  After each action, for every
seat, the step's text is the last action of that seat's view of the deal it
was taken in, its completed trick the trick that view gained, and its deal
and match ends those the views show."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable.catalog import ENTRIES, GameEntry
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameState
from tricktable.core.rng import derive_seed
from tricktable.errors import GameError

from tests.contract.test_contract import OPTION_CASES, seat_actions

STEPS = 700
"""Actions per match: several deals of every game (a Doppelkopf deal is some 60)."""


SHOWS_SEATS_APART = {"euchre", "doppelkopf", "hidden-trump"}
"""Games where an action's text differs by seat (a face-down card, a hidden reservation)."""


def step_cases() -> list[Any]:
    return [pytest.param(game, name, id=f"{game.name}-{name or 'default'}")
            for game in ENTRIES for name in (None, *OPTION_CASES.get(game.name, {}))]


def deal_of(observed: Observation, deal_over: bool) -> Observation:
    """The observation of the deal a step was taken in: the finished one where it ended it."""
    if not deal_over:
        return observed
    assert observed.match is not None and observed.match.previous_deal is not None
    return observed.match.previous_deal


def act_at_random(match: GameState, rng: random.Random) -> int:
    """One random action of any seat that may act (the referee's where none may): the seat it settles."""
    choices = seat_actions(match)
    if choices:
        seat, action = rng.choice(choices)
        match.apply_for(seat, action)
        return seat
    seat = match.to_move
    match.apply_referee(rng.choice(list(match.referee_actions())))
    return seat


@pytest.mark.parametrize(("game", "option_set"), step_cases())
def test_the_reported_step_agrees_with_every_seats_view(game: GameEntry, option_set: str | None) -> None:
    spec = game.spec
    rng = random.Random(f"step/{game.name}/{option_set}")
    options = spec.normalize_options(OPTION_CASES[game.name][option_set] if option_set else {})
    match = spec.new_match(derive_seed("step contract", game.name, option_set or ""), options)
    with pytest.raises(GameError):
        match.last_step()
    seen = {"deal ends": 0, "tricks": 0, "texts that differ by seat": 0}
    for _ in range(STEPS):
        if match.is_terminal():
            break
        before = [match.observe(seat) for seat in range(4)]
        actor = act_at_random(match, rng)
        step = match.last_step()
        assert step.seat == actor
        assert step.match_over == match.is_terminal()
        for seat in range(4):
            observed = match.observe(seat)
            assert observed.match is not None and before[seat].match is not None
            assert step.deal_over == (len(observed.match.results) > len(before[seat].match.results))
            deal = deal_of(observed, step.deal_over)
            assert step.text_for(seat) == deal.actions[-1][1]
            tricks, tricks_before = getattr(deal, "tricks"), getattr(before[seat], "tricks")
            assert step.completed == (tricks[-1] if len(tricks) > len(tricks_before) else None)
        seen["deal ends"] += step.deal_over
        seen["tricks"] += step.completed is not None
        seen["texts that differ by seat"] += len(set(step.texts)) > 1
    assert seen["deal ends"] >= 2 and seen["tricks"] >= 10, seen
    if game.name in SHOWS_SEATS_APART:
        assert seen["texts that differ by seat"] > 0, seen
