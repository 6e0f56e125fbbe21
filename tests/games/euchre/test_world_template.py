"""Euchre world sampling: the further worlds of one observation are its first
replayed world on another deal (``spec._on_deal``), not a replay each.  Every such
world must be the very state a full replay of the public actions on that deal
gives — compared here field by field, over random play that reaches the lone
maker, defend-alone, sitting-out dealer and hidden-discard cases (euchre.md,
"Going alone", "Defending alone", house options)."""

from __future__ import annotations

import random

import pytest

from lab.arena import deal_state
from tricktable.games.euchre import spec as euchre
from tricktable.games.euchre.state import ALONE, DEFEND_ALONE, DISCARD, EuchreState

HOUSE = {"defend_alone": True, "dealers_partner_alone": True, "farmers_hand": True, "stick_the_dealer": False}


def _compare(obs, cases: set[str], state: EuchreState) -> None:
    spec = euchre.SPEC
    spec.sample_world(obs, random.Random(0))  # the first world: the template
    for k in range(1, 4):
        further = spec.sample_world(obs, random.Random(k))
        euchre._TEMPLATE[0] = None
        euchre._PLACES.clear()  # the hidden places worked out afresh too
        replayed = spec.sample_world(obs, random.Random(k))
        assert vars(further).keys() == vars(replayed).keys()
        for field, value in vars(replayed).items():
            assert getattr(further, field) == value, (field, obs.actions)
    if state.alone:
        cases.add("alone")
    if state.lone_defender >= 0:
        cases.add("defend alone")
    if state.maker >= 0 and state.out >> state.dealer & 1:
        cases.add("dealer sits out")
    if any(DISCARD <= a < DISCARD + 52 for a in state._history) and obs.seat != state.dealer:
        cases.add("hidden discard")
    if any(DISCARD <= a < DISCARD + 52 for a in state._history) and obs.seat == state.dealer:
        cases.add("own discard")


@pytest.mark.parametrize("options", [{}, HOUSE], ids=["plain", "house"])
def test_further_worlds_of_an_observation_equal_a_full_replay(options):
    spec = euchre.SPEC
    options = spec.normalize_options(options)
    rng = random.Random(14)
    cases: set[str] = set()
    compared = 0
    for index in range(40):
        state = deal_state(spec, "template", index, options)
        while not state.is_terminal():
            for seat in {state.to_move, rng.randrange(4)}:  # the seat to move and one other view
                _compare(state.observe(seat), cases, state)
                compared += 1
            legal = list(state.legal_actions())
            lone = [a for a in legal if a in (ALONE, DEFEND_ALONE)]
            state.apply(lone[0] if lone and rng.random() < 0.6 else rng.choice(legal))
    wanted = {"alone", "dealer sits out", "hidden discard", "own discard"} | ({"defend alone"} if options["defend_alone"] else set())
    assert wanted <= cases, cases
    assert compared >= 300
