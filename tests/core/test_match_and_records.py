"""Matches as game states, and match records (core protocol, using Euchre)."""

import random

import pytest

from tricktable.errors import GameOver, OptionError, RecordError
from tricktable.catalog import parse_record, replay
from tricktable.core.record import record_of
from tricktable.catalog import GAMES, UnknownGame, get_spec

EUCHRE = get_spec("euchre")


def played_match(seed: str, actions: int | None = None):
    match = EUCHRE.new_match(seed, EUCHRE.normalize_options({}))
    rng = random.Random(seed)
    while not match.is_terminal() and (actions is None or len(match.history) < actions):
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_a_match_record_replays_to_the_identical_state():
    match = played_match("record", actions=130)
    again = replay(record_of(match).dumps())
    assert again.totals == match.totals and again.deal_index == match.deal_index
    assert [again.view(s) for s in range(4)] == [match.view(s) for s in range(4)]


def test_deal_seeds_come_from_the_match_seed():
    one, two = played_match("same", 40), played_match("same", 40)
    assert one.view(0) == two.view(0)
    assert played_match("other", 0).view(0)["hand"] != played_match("same", 0).view(0)["hand"]


def test_match_view_carries_results_with_breakdowns_and_no_seed():
    match = played_match("views")
    view = match.view(1)
    assert view["terminal"] and view["match"]["over"]
    assert all(result["lines"] for result in view["match"]["results"])
    assert "views" not in repr(view) and match.seed not in repr(view)
    with pytest.raises(GameOver):
        match.act(match.current.to_move if match.current.to_move >= 0 else 0, "pass")


def test_clone_is_independent():
    match = played_match("clone", 20)
    twin = match.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(match.history) == 20 and len(twin.history) == 21


def test_unknown_options_and_presets_are_refused():
    with pytest.raises(OptionError, match="no option"):
        EUCHRE.normalize_options({"jokers": True})
    with pytest.raises(OptionError, match="cannot be"):
        EUCHRE.normalize_options({"stick_the_dealer": "sometimes"})
    with pytest.raises(OptionError, match="preset"):
        EUCHRE.normalize_options({"preset": "tournament"})


def test_unknown_game_is_a_clear_error():
    with pytest.raises(UnknownGame, match="unknown game"):
        get_spec("chess")
    assert "euchre" in GAMES
    with pytest.raises(RecordError, match="unknown game"):
        parse_record({"game": "chess"})


@pytest.mark.parametrize("change, reason", [
    ({"kind": "tournament"}, "kind"),
    ({"seed": ""}, "seed"),
    ({"daily": "yes"}, "daily"),
    ({"options": {"stick_the_dealer": 3}}, "cannot be"),
    ({"format": 99}, "format"),
])
def test_malformed_match_records_are_rejected(change, reason):
    data = record_of(played_match("m", 10)).to_json()
    data.update(change)
    with pytest.raises(RecordError, match=reason):
        replay(data)
