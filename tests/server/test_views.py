"""The person's views as the server builds and writes them (issue 15): the
match part shared by a deal's views and written from kept bytes, equal to
the game's own view and its plain JSON."""

from __future__ import annotations

import random

import orjson
import pytest

from tricktable.games import GAMES, get_spec
from tricktable.server.responses import HUMAN, encode, person_view


def positions(game: str, matches: int = 3):
    """States of random matches of ``game`` at several deals (one state per match)."""
    rng = random.Random(game)
    spec = get_spec(game)
    for number in range(matches):
        state = spec.new_match(f"views/{game}/{number}", spec.normalize_options({}), daily=False)
        for _ in range(rng.randrange(30, 400)):
            if state.is_terminal():
                break
            if state.to_move < 0:
                state.apply_referee(state.referee_actions()[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("game", GAMES)
def test_the_persons_view_and_its_json_are_the_games_own(game):
    for state in positions(game):
        shared = person_view(state)
        assert shared == state.view(HUMAN)
        again = person_view(state)
        assert again == shared and again["match"] is shared["match"]  # read once per deal, then shared
        response = {"id": "g", "version": 3, "view": again, "steps": []}
        assert orjson.loads(encode(response)) == orjson.loads(orjson.dumps({**response, "view": state.view(HUMAN)}))
        assert response["view"] is again and isinstance(again["match"], dict)  # the caller's objects unchanged


def test_a_response_without_a_shared_match_is_plain_json():
    response = {"view": {"match": {"deal_number": 1}}, "steps": []}
    assert encode(response) == orjson.dumps(response)
