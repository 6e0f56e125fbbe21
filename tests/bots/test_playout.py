"""The games' fast playouts (``SearchGame.playout``, issue 14 Speed) agree with the
real game: the same rollouts, played once through ``GameState.apply`` with the
policy on rebuilt tables and once through the fast playout, end with the same value
for the same seat; and a playout declines options it does not model."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest

from tricktable.bots.players import game_module, search_game
from tricktable.bots.search import SearchGame, rollout
from tricktable.core.protocol import GameState
from tricktable.games import entry

GAMES = ("euchre", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


def _search(game: str) -> SearchGame:
    found = search_game(game_module(game), SimpleNamespace(game=game))  # only .game is read
    assert found.playout is not None
    return found


def _fast(search: SearchGame, state: GameState, seat: int) -> float | None:
    """The playout alone on a copy of ``state`` (None: it declined)."""
    assert search.playout is not None
    return search.playout(state.clone(), seat)


def _positions(game: str, count: int, seed: int) -> list[GameState]:
    """States part way through deals: each action the policy's or a random legal one."""
    spec = entry(game).spec
    search, rng = _search(game), random.Random(seed)
    options = spec.normalize_options(entry(game).bot_options)
    states = []
    for index in range(count):
        state = spec.new_deal(spec.deal_from_seed(f"playout-{seed}", index % 4, options), options)
        for _ in range(rng.randrange(70)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if not legal:
                state.apply_referee(state.referee_actions()[0])
            else:
                state.apply(search.policy(state) if rng.random() < 0.5 else rng.choice(list(legal)))
        if not state.is_terminal():
            states.append(state)
    return states


@pytest.mark.parametrize("game", GAMES)
def test_fast_playout_ends_every_rollout_like_the_real_game(game):
    fast = _search(game)
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random(game)
    played = 0
    for state in _positions(game, 300, 1):
        seat = rng.randrange(4)
        played += _fast(fast, state, seat) is not None
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert played >= 60  # the fast path really ran in a good share of the positions


def test_euchre_playout_declines_an_option_it_does_not_model_and_follows_the_bidding_ones():
    search = _search("euchre")
    states = [s for s in _positions("euchre", 60, 2) if _fast(search, s, 0) is not None]
    assert states
    state = states[0].clone()
    state.options = dict(state.options, stick_the_dealer=not state.options["stick_the_dealer"])
    assert _fast(search, state, 0) is not None  # a bidding option: modelled
    state.options["defend_alone"] = True  # a rule it does not know: the rollout stays in the real game
    assert _fast(search, state, 0) is None
    assert rollout(state.clone(), search, 0) == rollout(state.clone(), dataclasses.replace(search, playout=None), 0)


def test_court_piece_playout_declines_an_option_it_does_not_model():
    search = _search("double-sar")
    states = [s for s in _positions("double-sar", 60, 3) if _fast(search, s, 1) is not None]
    assert states
    state = states[0].clone()
    state.options = dict(state.options, ace_on_ace=True)  # the state applies it: still modelled
    assert _fast(search, state, 1) is not None
    state.options["must_trump"] = True
    assert _fast(search, state, 1) is None
