"""The typed Doppelkopf observation: immutable, its wire shape, and the fast
``situation`` the search rollouts use holding exactly what the observation holds."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf.observation import (
    Contract,
    DoppelkopfObservation,
    Outcome,
    Phase,
    Situation,
    Team,
)
from tricktable.games.doppelkopf.rules import SOLO_NAMES

WIRE_KEYS = {"game", "seat", "dealer", "phase", "to_move", "hand", "hand_sizes", "reservations", "contract", "trumps",
             "declarer", "teams", "announcements", "marriage", "poverty", "leader", "trick", "tricks", "points_won",
             "tricks_won", "actions", "legal", "terminal", "options", "pigs", "superpigs"}


def positions(dk, deals: int, seed: int = 0):
    """States along steered random deals of every contract (announcements also out of turn)."""
    rng = random.Random(seed)
    for index in range(deals):
        shape = ("marriage", "poverty", "contested", "any", "any")[index % 5]
        reserve = {"any": "healthy" if index % 10 == 3 else "random"}.get(shape, shape)
        state = SPEC.new_deal(dk.shaped_deal(rng, index % 4, shape), SPEC.normalize_options({}))
        policy = dk.Policy(reserve=reserve, announce=0.3)
        yield state
        while not state.is_terminal():
            policy.step(state, rng)
            yield state


def test_the_rollouts_situation_is_the_observations(dk):
    """``DoppelkopfState.situation(seat)`` (the fast rollout interface) equals the situation
    built from that seat's observation alone, for every seat at every position: a rollout
    player knows what the seat would know at the table, nothing more."""
    checked = 0
    for state in positions(dk, 40):
        for seat in range(4):
            assert state.situation(seat) == Situation.of(state.observe(seat))
            checked += 1
    assert checked > 5000


def test_wire_shape_and_stable_keys(dk):
    """``to_json`` gives the page's keys; phases, contracts, teams and outcomes carry stable values."""
    seen_phases, seen_contracts, seen_outcomes = set(), set(), set()
    for state in positions(dk, 40, seed=1):
        obs = state.observe(state.to_move if state.to_move >= 0 else 0)
        data = obs.to_json()
        assert set(data) == WIRE_KEYS | ({"result"} if obs.terminal else set())
        assert json.loads(json.dumps(data)) == data
        assert data["phase"] == obs.phase.value and data["contract"] == (obs.contract.value if obs.contract else None)
        seen_phases.add(obs.phase)
        seen_contracts.add(obs.contract)
        if obs.result:
            seen_outcomes.add(obs.result.outcome)
    assert seen_phases == set(Phase)
    assert {Contract.NORMAL, Contract.MARRIAGE, Contract.POVERTY} <= seen_contracts
    assert Outcome.RE_WON in seen_outcomes and Outcome.KONTRA_WON in seen_outcomes
    assert [c.value for c in Contract][-len(SOLO_NAMES):] == [f"solo {n}" for n in SOLO_NAMES]
    assert [t.value for t in Team] == ["re", "kontra"]


def test_observation_is_immutable(dk):
    state = dk.run(dk.start(["", "QC", "QC", ""], dealer=3), "healthy", "healthy", "healthy", "healthy")
    obs = state.observe(0)
    assert isinstance(obs, DoppelkopfObservation)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hand = ()  # type: ignore[misc]  # the point of the test: assignment must fail
    with pytest.raises(TypeError):
        obs.options["poverty"] = False  # type: ignore[index]  # read-only mapping
    before = obs.to_json()
    obs.to_json()["hand"].clear()
    assert obs.to_json() == before
