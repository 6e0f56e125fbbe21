"""World sampling keeps what one observation's worlds share (``courtpiece.sampling``:
the hidden places, the call to honour, the seat's own hand, the face-down card's
facts; ``core.sampling``: each card's places): every world drawn with those kept
equals, slot by slot, the world drawn from scratch with the same random numbers, in
every Court Piece game, with a called suit to honour and the dealer's flip
(court-piece.md, "Calling trump") and, in Hidden Trump and Mendikot, a card put
down (and in Hidden Trump changed) and revealed (court-piece.md, "Relatives": Hidden Trump; "The app's
own extras": Change trump)."""

from __future__ import annotations

import random

import pytest

from tricktable.core import sampling as core_sampling
from tricktable.core.rng import derive_seed
from tricktable.catalog import entry
from tricktable.games.courtpiece import sampling

GAMES = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


def _forget() -> None:
    sampling._LAST_PLAN[0] = sampling._LAST_HIDDEN_PLAN[0] = sampling._TEMPLATE[0] = None
    core_sampling._LAST_PLAN[0] = None


def _views(game: str, deals: int):
    """Views of the seat to move along random deals (random legal actions, the
    referee's timeout now and then: flips, changes of trump, reveals happen)."""
    spec = entry(game).spec
    options = spec.normalize_options({"new_cards": "off", "change_trump": True} if "change_trump" in
                                     spec.normalize_options({}) else {"new_cards": "off"})
    rng = random.Random(game)
    for index in range(deals):
        state = spec.new_deal(spec.deal_from_seed(derive_seed("plan", index), index % 4, options), options)
        while not state.is_terminal():
            referee = state.referee_actions()
            if referee and rng.random() < 0.3:
                state.apply_referee(referee[0])
                continue
            if rng.random() < 0.4:
                yield state.observe(state.to_move)
            state.apply(rng.choice(list(state.legal_actions())))


def _slots(world) -> list[object]:
    return [getattr(world, slot) for slot in type(world).__slots__]


@pytest.mark.parametrize("game", GAMES)
def test_worlds_drawn_with_the_kept_plan_equal_worlds_drawn_from_scratch(game):
    spec = entry(game).spec
    compared = changed = flipped = revealed = 0
    for obs in _views(game, 12):  # what is kept comes from the view before, then from this one
        kept = [_slots(spec.sample_world(obs, random.Random(k))) for k in range(3)]
        for k in range(3):
            _forget()
            assert _slots(spec.sample_world(obs, random.Random(k))) == kept[k], (game, obs.actions)
            compared += 1
        texts = [t for _, t in obs.actions]
        changed += any(t.startswith("change trump") for t in texts)
        flipped += obs.flip_card is not None
        revealed += "reveal" in texts
    assert compared >= 150
    if game == "hidden-trump":
        assert changed >= 3  # a card put down and changed
    if game in ("hidden-trump", "mendikot"):
        assert revealed >= 20
    if game in ("double-sar", "single-sar"):
        assert flipped >= 3  # the flip card, which is never among the first five
