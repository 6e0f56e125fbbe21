"""A match's ``match_info`` is kept per seat and deal (core/match.py): what a
seat sees is exactly what building it afresh gives, at every step of whole
matches, and a clone that goes another way never takes the other's."""

import random

import pytest

from tricktable.catalog import GAMES, get_spec


def check(match) -> None:
    for seat in range(4):
        assert match.match_info(seat) == match._build_match_info(seat)
        # its JSON is built once per MatchInfo and kept: the same as a fresh one's
        assert match.match_info(seat).to_json() == match._build_match_info(seat).to_json()


@pytest.mark.parametrize("game", GAMES)
def test_the_kept_match_info_is_the_one_built_afresh_at_every_step(game):
    spec = get_spec(game)
    rng = random.Random(game)
    match = spec.new_match(f"info/{game}", spec.normalize_options({}))
    steps = 0
    while not match.is_terminal() and steps < 400:
        check(match)
        match = match.clone()  # as the server does between requests
        match.apply(rng.choice(match.legal_actions()))
        steps += 1
    check(match)


def test_clones_that_go_different_ways_keep_their_own_match_info():
    spec = get_spec("euchre")
    match = spec.new_match("info/fork", spec.normalize_options({}))
    check(match)
    left, right = match.clone(), match.clone()
    for twin, seed in ((left, "left"), (right, "right")):
        rng = random.Random(seed)
        while twin.deal_index == 0:
            twin.apply(rng.choice(twin.legal_actions()))
    for twin in (left, right, left):
        check(twin)
    assert left.match_info(0).previous_deal != right.match_info(0).previous_deal


def test_the_kept_json_of_a_match_info_gives_new_objects_and_is_never_pickled():
    """Each view gets its own copy of the kept JSON (a caller may change it);
    an observation sent to a thinking process travels without it."""
    import pickle

    import tricktable.server.play.bot_pool  # noqa: F401 - registers how read-only mappings pickle

    spec = get_spec("euchre")
    rng = random.Random("pickle")
    match = spec.new_match("info/pickle", spec.normalize_options({}))
    while match.deal_index == 0:
        match.apply(rng.choice(match.legal_actions()))
    info = match.match_info(0)
    first, second = info.to_json(), info.to_json()
    assert first == second and first["previous_deal"] is not second["previous_deal"]
    first["previous_deal"]["actions"].clear()
    assert info.to_json() == second
    travelled = pickle.loads(pickle.dumps(match.observe(0)))
    assert "_json" not in travelled.match.__dict__
    assert travelled == match.observe(0) and travelled.to_json() == match.view(0)
