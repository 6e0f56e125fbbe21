"""Property tests over many random deals, per contract and per option set.

Deals are steered towards each contract (a marriage or poverty hand is dealt on
purpose, the reservation policy picks the contract), then played with random
legal actions and random announcements, on the announcer's turn and out of turn."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from tricktable.cards import card_text, cards_of
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import FACES, KONTRA, RE, SOLO_NAMES, TEAM_NAMES

CONTRACTS = ["random", "healthy", "marriage", "poverty", "contested", *[f"solo {n}" for n in SOLO_NAMES]]
OPTION_SETS = {
    "standard": {},
    "ddv": {"preset": "ddv"},
    "all_options": {"second_heart_ten": True, "soloist_leads": True, "karlchen_only_by_winning": True},
}
CASES = [(c, o) for c in CONTRACTS for o in OPTION_SETS]


def new_state(dk, rng: random.Random, contract: str, options: str) -> tuple[st.DoppelkopfState, object]:
    shape = contract if contract in ("marriage", "poverty", "contested") else "any"
    opts = SPEC.normalize_options(OPTION_SETS[options])
    state = SPEC.new_deal(dk.shaped_deal(rng, rng.randrange(4), shape), opts)
    reserve = st.SOLO + SOLO_NAMES.index(contract[5:]) if contract.startswith("solo") else contract
    return state, dk.Policy(reserve=reserve, announce=rng.choice([0.0, 0.1, 0.4]), accept=rng.choice([0.2, 0.7]))


def check_conservation(state: st.DoppelkopfState) -> None:
    """Every card is in exactly one place: a hand, a trick, or face down in a poverty offer."""
    places = Counter()
    for hand in state.hands:
        places.update(c % 64 for c in range(128) if hand >> c & 1)
    for _, cards, _, _ in state.tricks:
        places.update(cards)
    places.update(state.trick)
    if state.phase == st.OFFERING or (state.outcome == "thrown_in"):
        places.update(c % 64 for c in state.given)
    assert places == Counter({f: 2 for f in FACES})
    assert state.counts == [h.bit_count() for h in state.hands]


def check_finished(state: st.DoppelkopfState, contract: str) -> None:
    assert state.is_terminal()
    check_conservation(state)
    assert sum(state.returns()) == 0
    if state.outcome == "thrown_in":
        assert state.contract == st.POVERTY_GAME and state.partner < 0
        return
    assert sum(state.won_points) == 240 and sum(state.won_tricks) == 12
    assert sorted((state.team.count(RE), state.team.count(KONTRA))) in ([2, 2], [1, 3])
    assert state.lone == (state.team.count(RE) == 1)
    points = state.returns()
    if state.lone:
        soloist = state.team.index(RE)
        assert points[soloist] == -3 * points[(soloist + 1) % 4]
    if contract.startswith("solo"):
        assert state.contract == st.SOLO_GAME and SOLO_NAMES[state.solo] == contract[5:]
    elif contract in ("marriage", "poverty"):
        assert state.contract in (contract, st.SOLO_GAME) or (contract == "poverty" and not state.options["poverty"])
    elif contract == "healthy":
        assert state.contract in (st.NORMAL_GAME, st.SILENT_SOLO)


def random_deals(dk, seed: int, contract: str, options: dict, count: int) -> Iterator[tuple[Any, Any, random.Random]]:
    """``count`` fresh deals of ``contract`` under ``options``: (state, policy, rng) each."""
    rng = random.Random(seed)
    for _ in range(count):
        state, policy = new_state(dk, rng, contract, options)
        yield state, policy, rng


every_case = pytest.mark.parametrize("contract,options", CASES)
any_seed = given(seed=hs.integers(0, 2**32 - 1))


@every_case
@settings(max_examples=20)
@any_seed
def test_deals_conserve_cards_points_and_sum_to_zero(dk, contract, options, seed):
    """Cards conserved, 240 card points distributed, zero-sum settlement (2,000 deals per contract and option set)."""
    for state, policy, rng in random_deals(dk, seed, contract, options, 100):
        dk.play_out(state, rng, policy, stop=lambda s: rng.random() < 0.02)
        check_conservation(state)
        dk.play_out(state, rng, policy)
        check_finished(state, contract)


def check_view(state: st.DoppelkopfState, seat: int) -> None:
    """One seat's observation shows its own hand and no hidden team, reservation or poverty card
    (leaks and sampled worlds in general: tests/contract)."""
    view = state.view(seat)
    assert sorted(view["hand"]) == sorted(card_text(c) for c in cards_of(state.hands[seat]))
    # Team knowledge is never wrong, and is complete once public.
    for other, team in enumerate(view["teams"]):
        assert team in (None, TEAM_NAMES[state.team[other]])
    for other, text in enumerate(view["reservations"]):
        if other != seat and text not in (None, "healthy"):
            assert text == st.HIDDEN_RESERVATION or other == state.declarer
    if state.contract == st.POVERTY_GAME and seat not in (state.declarer, state.partner):
        assert view["poverty"]["given"] is None and view["poverty"]["returned"] is None
    if state.contract == st.SILENT_SOLO and seat != state.declarer and not state.is_terminal():
        assert view["contract"] == "normal"


@every_case
@settings(max_examples=3)
@any_seed
def test_views_hide_what_the_seat_may_not_know(dk, contract, options, seed):
    """Views show no hidden hand, reservation, poverty card or team, in every contract."""
    for state, policy, rng in random_deals(dk, seed, contract, options, 3):
        while True:
            if rng.random() < 0.1 or state.is_terminal() or not state.history:
                for seat in range(4):
                    check_view(state, seat)
            if state.is_terminal():
                break
            policy.step(state, rng)
