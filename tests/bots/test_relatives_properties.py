"""Properties of the relatives' bots: legal actions only, views only, determinism."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.bots import make_bot
from tricktable.bots import relatives as rb
from tricktable.bots.players import GAME_BOTS

from .relatives_helpers import SPECS, client_view, new_state, random_state

GAMES = sorted(SPECS)


def test_every_relative_has_its_bots():
    assert all(GAME_BOTS[game] == "tricktable.bots.relatives" for game in GAMES)


@settings(max_examples=150)
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.integers(0, 60))
def test_heuristic_never_produces_an_illegal_action(game, seed, steps):
    state = random_state(game, seed, steps)
    if state.is_terminal() or not state.legal_actions():
        return
    view = client_view(state)
    choice = make_bot("heuristic").choose(view)
    assert choice in view.legal and choice != "new cards"


@settings(max_examples=60)
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.integers(0, 60))
def test_rollout_policy_never_produces_an_illegal_action(game, seed, steps):
    state = random_state(game, seed, steps)
    while not state.is_terminal():
        if not state.legal_actions():
            state.apply_referee(state.referee_actions()[0])
            continue
        action = rb.policy(state)
        assert action in state.legal_actions() and state.action_text(action) != "new cards"
        state.apply(action)


@settings(max_examples=15)
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.integers(0, 60))
def test_search_never_produces_an_illegal_action(game, seed, steps):
    state = random_state(game, seed, steps)
    if state.is_terminal() or not state.legal_actions():
        return
    view = client_view(state)
    choice = make_bot("search", budget_ms=10).choose(view)
    assert choice in view.legal and choice != "new cards"


def test_search_decides_the_same_for_the_same_view_and_seed():
    for game in GAMES:
        for seed in range(3):
            state = random_state(game, seed, 10 + 7 * seed)
            if state.is_terminal() or not state.legal_actions():
                continue
            view = client_view(state)
            assert len({make_bot("search", seed="s", budget_ms=30).choose(view) for _ in range(2)}) == 1


HANDS = [
    "5S 6S 7S 8S 9S 10S JS QS 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 6C 7C 8C 9C 6D 7D 8D 9D",
    "AH KH QH JH 10H 9H 8H 7H 10C JC QC KC AC",
    "2S 3S 4S AS KS 2C 3C 4C 5C 2D 3D 4D 5D",
]
SWAPPED = [HANDS[1], HANDS[0], HANDS[2], HANDS[3]]  # seats 0 and 1 exchange their cards


@pytest.mark.parametrize("game", GAMES)
def test_bots_are_handed_views_and_cannot_see_hidden_cards(game):
    """Seat 2 cannot tell these two deals apart (seats 0 and 1 hold each other's
    cards; in Hidden Trump and Mendikot seat 3 put down another card), so every bot
    with the same seed must decide the same in both."""
    states = [new_state(game, hands) for hands in (HANDS, SWAPPED)]
    for state, down in zip(states, ("2S", "3S")):
        if game != "be-ranga":
            state.act(3, f"hide {down}")
        state.act(3, "play 2C")
    views = [client_view(state) for state in states]
    assert views[0] == views[1] and views[0].seat == 2
    for name in ("heuristic", "search"):
        bot = make_bot(name, seed="same", budget_ms=40) if name == "search" else make_bot(name)
        assert bot.choose(views[0]) == bot.choose(views[1])


@settings(max_examples=150)
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.integers(0, 60))
def test_rollouts_play_the_same_rules_as_the_bot(game, seed, steps):
    """The search finishes its worlds with ``policy`` on states; it must decide as
    the heuristic bot does on the seat's view, or the rollouts would model other players."""
    state = random_state(game, seed, steps)
    if state.is_terminal() or not state.legal_actions():
        return
    assert state.action_text(rb.policy(state)) == rb.heuristic_text(client_view(state))
