"""The views' kept texts and tricks (``CourtPieceState.seen_actions``,
``seen_tricks``): kept per state, extended as the deal goes on and shared by
clones, they always equal the actions and tricks spelled again from the
history, whatever happened in between: clones that go other ways, a state
observed at some steps and not at others, a replay of the record, the
sampled worlds (whose face-down card is put in place of the original's)."""

from __future__ import annotations

import random

import pytest

from tricktable.core.observation import Trick
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.core.rng import derive_seed
from tricktable.catalog import entry
from tricktable.games.courtpiece import sampling
from tricktable.games.courtpiece.actions import HIDE
from tricktable.games.courtpiece.state import CourtPieceState

from tests.games.walks import walk_with_clones

GAMES = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


def spelled(state: CourtPieceState, seat: int) -> tuple[tuple[int, str], ...]:
    """The actions as ``seat`` reads them, spelled from the whole history."""
    seen_text = state.variant.trump.seen_text
    return tuple((actor, seen_text(state, seat, actor, action)) for actor, action in zip(state.actors, state.history))


def tricks_of(state: CourtPieceState) -> tuple[Trick, ...]:
    return tuple(Trick(leader, CourtPieceState._seated(leader, cards), winner) for leader, cards, winner in state.tricks)


def assert_as_spelled(state: CourtPieceState) -> None:
    for seat in range(4):
        observed = state.observe(seat)
        assert observed.actions == spelled(state, seat), (seat, state.history)
        assert observed.tricks == tricks_of(state)


def random_step(state: CourtPieceState, rng: random.Random) -> None:
    """Any seat's action (new cards out of turn too), the referee's timeout now and then."""
    if state.referee_actions() and rng.random() < 0.3:
        state.apply_referee(state.referee_actions()[0])
        return
    choices = [(seat, action) for seat in range(4) for action in state.legal_actions_for(seat)]
    if not choices:
        state.apply_referee(state.referee_actions()[0])
        return
    state.apply_for(*rng.choice(choices))


def deals(game: str, count: int):
    """Fresh deals; every third lets any seat ask for new cards (most of those end early)."""
    spec = entry(game).spec
    for index in range(count):
        options = spec.normalize_options({"new_cards": "any seat" if index % 3 == 0 else "off"})
        deal = spec.deal_from_seed(derive_seed("seen", game, index), index % 4, options)
        yield spec.new_deal(deal, options)


@pytest.mark.parametrize("game", GAMES)
def test_kept_texts_and_tricks_equal_the_spelled_ones_along_clones_that_go_other_ways(game):
    rng = random.Random(game)
    checked = 0
    for state in deals(game, 30):
        checked += walk_with_clones(state, rng, random_step, assert_as_spelled, clone_share=0.2, clone_steps=6)
        again = replay(record_of(state))
        assert isinstance(again, CourtPieceState)
        assert [again.observe(s) for s in range(4)] == [state.observe(s) for s in range(4)]
    assert checked > 300


@pytest.mark.parametrize("game", ["hidden-trump", "mendikot"])
def test_a_rewritten_face_down_card_is_spelled_anew(game):
    """A sampled world puts its own card in place of the original's face-down
    one (``rewrite_action``): the seat that put it down reads the new card."""
    state = next(deals(game, 1))
    while not any(HIDE <= action < HIDE + 52 for action in state.history):
        random_step(state, random.Random(len(state.history)))
    assert_as_spelled(state)  # every seat's texts kept
    index = next(i for i, action in enumerate(state.history) if HIDE <= action < HIDE + 52)
    other = next(HIDE + c for c in range(52) if HIDE + c != state.history[index])
    state.rewrite_action(index, other)
    assert_as_spelled(state)
    hider = state.actors[index]
    assert state.observe(hider).actions[index][1] == state.action_text(other)


@pytest.mark.parametrize("game", GAMES)
def test_sampled_worlds_read_their_own_history(game):
    """Worlds drawn from one observation (the first replayed, the others that
    replay on their own deal, with their own face-down card) read as their
    own history spells, from every seat."""
    spec = entry(game).spec
    rng = random.Random(game)
    worlds = 0
    for state in deals(game, 12):
        sampling._TEMPLATE[0] = None
        while not state.is_terminal():
            if state.to_move >= 0 and rng.random() < 0.15:
                observed = state.observe(state.to_move)
                for _ in range(3):
                    world = spec.sample_world(observed, rng)
                    assert_as_spelled(world)
                    worlds += 1
            random_step(state, rng)
    assert worlds > 50
