"""The views' kept texts and tricks (``DoppelkopfState.seen_actions``, ``seen_tricks``):
kept per state with the facts the texts depend on (the reservation that
plays, the poverty's two players), extended as the deal goes on and shared
by clones, they always equal the ones spelled from scratch: along clones that
go other ways, a state observed at some steps only, while a reservation is
revealed and a poverty exchanged, and in sampled worlds (whose hidden
reservations and exchanged cards are drawn anew)."""

from __future__ import annotations

import random

import pytest

from tricktable.core.sampling import SamplingError
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st

from tests.games.walks import walk_with_clones

OPTION_SETS = {
    "standard": {},
    "ddv": {"preset": "ddv"},
    "house": {"preset": "house", "schweinchen": True, "throwing_in": True},
}


def from_scratch(state: st.DoppelkopfState, seat: int):
    twin = state.clone()
    twin.forget_seen()
    return twin.seen_actions(seat), twin.seen_tricks()


def assert_as_from_scratch(state: st.DoppelkopfState) -> None:
    for seat in range(4):
        observed = state.observe(seat)
        assert (observed.actions, observed.tricks) == from_scratch(state, seat), (seat, state.history)


def random_step(state: st.DoppelkopfState, rng: random.Random) -> None:
    """Any seat's action, announcements out of turn among them; at the
    reservations a poverty or marriage where the hand has one, else mostly
    healthy (else nearly every deal is a solo)."""
    if state.phase == st.RESERVING:
        legal = state.legal_actions()
        steered = [a for a in (st.POVERTY, st.MARRIAGE) if a in legal] or [st.HEALTHY] * (rng.random() < 0.75)
        if steered:
            state.apply(steered[0])
            return
    state.apply_for(*rng.choice([(seat, action) for seat in range(4) for action in state.legal_actions_for(seat)]))


def new_deal(seed: str, dealer: int, options, poor: bool = False) -> st.DoppelkopfState:
    """A deal of the seed, or (``poor``, where the options allow poverty) the
    first of the seed's sequels in which a hand may declare poverty."""
    for attempt in range(500):
        state = SPEC.new_deal(SPEC.deal_from_seed(f"{seed}/{attempt}", dealer, options), options)
        if not poor or not options["poverty"] or any(st.POVERTY in state.reservation_options(s) for s in range(4)):
            return state
    raise AssertionError("no poor hand in 500 deals")


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_kept_texts_and_tricks_equal_the_ones_spelled_from_scratch(name):
    options = SPEC.normalize_options(OPTION_SETS[name])
    rng = random.Random(name)
    contracts = set()
    for index in range(60):
        state = new_deal(f"seen {name} {index}", index % 4, options, poor=index % 2 == 1)
        walk_with_clones(state, rng, random_step, assert_as_from_scratch, clone_share=0.1, clone_steps=8)
        contracts.add(state.contract)
    assert {st.NORMAL_GAME, st.SOLO_GAME, st.MARRIAGE_GAME} <= contracts
    assert st.POVERTY_GAME in contracts or not options["poverty"]


def test_sampled_worlds_spell_their_own_hidden_actions():
    """Worlds drawn from observations with hidden reservations (the further
    ones are the first on another deal, their reservations drawn again) read
    as their own history spells, from every seat."""
    options = SPEC.normalize_options({})
    rng = random.Random(7)
    worlds = hidden = 0
    for index in range(30):
        state = SPEC.new_deal(SPEC.deal_from_seed(f"seen worlds {index}", index % 4, options), options)
        while not state.is_terminal():
            if state.phase != st.RESERVING and rng.random() < 0.1:
                observed = state.observe(state.to_move)
                hidden += any(text == st.HIDDEN_RESERVATION for _, text in observed.actions)
                for _ in range(3):
                    try:
                        world = SPEC.sample_world(observed, rng)
                    except SamplingError:
                        continue
                    assert_as_from_scratch(world)
                    worlds += 1
            random_step(state, rng)
    assert worlds > 100 and hidden > 10
