"""The shortcuts every view takes (for the server's speed): card texts looked up, a match's
observation copied without building it anew, and the person's view written
in the game's own key order, match last."""

from __future__ import annotations

import dataclasses
import random

import orjson
import pytest

from tricktable.cards import COPY_OFFSET, card_text
from tricktable.core.observation import CARD_TEXTS, card_texts
from tricktable.catalog import GAMES, get_spec
from tricktable.server.play.view import HUMAN, encode, person_view


def matches_in_play(game: str, count: int = 3):
    """Random matches of ``game`` at several moments each, the last one over."""
    rng = random.Random(f"wire/{game}")
    spec = get_spec(game)
    for number in range(count):
        state = spec.new_match(f"wire/{game}/{number}", spec.normalize_options({}), daily=False)
        while not state.is_terminal():
            if rng.random() < 0.02:
                yield state
            if state.to_move < 0:
                state.apply_referee(state.referee_actions()[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        yield state


def test_every_card_id_of_both_copies_reads_as_card_text():
    ids = [*range(52), *range(COPY_OFFSET, COPY_OFFSET + 52)]
    assert sorted(CARD_TEXTS) == ids
    assert all(CARD_TEXTS[card] == card_text(card) for card in ids)
    assert card_texts([COPY_OFFSET + 11, 0, 51]) == ["KC", "2C", "AS"]
    with pytest.raises(KeyError):  # no text for an id that is not a card
        card_texts([52])


@pytest.mark.parametrize("game", GAMES)
def test_a_match_observation_is_the_deal_observation_replaced_field_by_field(game):
    over = 0
    for state in matches_in_play(game):
        for seat in range(4):
            deal = state.current.observe(seat)
            info = state.match_info(seat)
            built = state.observe(seat)
            if info.over:
                expected = dataclasses.replace(deal, match=info, terminal=True, to_move=-1, legal=())
                over += 1
            else:
                expected = dataclasses.replace(deal, match=info)
            assert type(built) is type(expected) and built == expected
            assert deal.match is None  # the deal's own observation is left as it was
            with pytest.raises(dataclasses.FrozenInstanceError):
                built.seat = seat  # type: ignore[misc]  # the copy is as frozen as the original
    assert over == 3 * 4


@pytest.mark.parametrize("game", GAMES)
def test_the_persons_view_keeps_the_games_key_order_with_the_match_last(game):
    for state in matches_in_play(game):
        own = state.view(HUMAN)
        expected = {key: value for key, value in own.items() if key != "match"} | {"match": own["match"]}
        view = person_view(state)
        assert list(view) == list(expected)
        assert encode({"view": view}) == orjson.dumps({"view": expected}, option=orjson.OPT_NON_STR_KEYS)
