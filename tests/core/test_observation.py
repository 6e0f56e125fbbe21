"""Observations: immutable, the wire shape is ``to_json``, and a match's
observation hands out no live part of the match."""

import dataclasses
import random

import pytest

from tricktable.core.observation import Observation
from tricktable.core.protocol import TERMINAL
from tricktable.catalog import get_spec

EUCHRE = get_spec("euchre")


def finished_deals(match, deals: int, rng: random.Random):
    while len(match.results) < deals and not match.is_terminal():
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_an_observation_cannot_be_changed():
    obs = Observation("euchre", 0, 0, (1, 2), ((1, "pass"),), ("pass",), False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.seat = 2  # type: ignore[misc]  # the point of the test: assignment must fail
    assert obs.to_json() == {"game": "euchre", "seat": 0, "to_move": 0, "hand": ["3C", "4C"],
                             "actions": [[1, "pass"]], "legal": ["pass"], "terminal": False}


def test_clearing_the_results_of_a_match_view_changes_nothing_in_the_match():
    match = finished_deals(EUCHRE.new_match("results", EUCHRE.normalize_options({})), 2, random.Random(3))
    played = match.deals_played
    view = match.view(0)
    view["match"]["results"].clear()
    view["match"]["totals"][0] += 100
    assert match.deals_played == played and match.view(0)["match"]["results"]
    assert match.observe(0).match.deal_number == played + 1


def test_a_finished_match_is_terminal_in_every_seat_observation():
    match = finished_deals(EUCHRE.new_match("over", EUCHRE.normalize_options({})), 10**6, random.Random(5))
    assert match.is_terminal()
    for seat in range(4):
        obs = match.observe(seat)
        assert obs.terminal and obs.to_move == TERMINAL and obs.legal == () and obs.match.over
        assert match.view(seat)["match"]["previous_deal"]["terminal"]
