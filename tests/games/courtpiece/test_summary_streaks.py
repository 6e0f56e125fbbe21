"""The statistics count the streak bonuses a player's team won (seven deals in
a row: ``match.py``), read from the match's score sheet; games without the
bonus (Mendikot) report no such counter."""

from __future__ import annotations

import random

from tricktable import catalog
from tricktable.core.record import record_of
from tricktable.core.summary import summarize
from tricktable.games.courtpiece.summary import FACTS

from .test_match import new_match, play_deal, win_for


def test_each_streak_bonus_counts_for_the_team_that_won_it():
    match = new_match(target_points=31)
    deals = []
    for _ in range(7):  # the bonus for team 0
        deals.append(play_deal(match, win_for(0)))
    for _ in range(6):  # six more: no second bonus yet, and the other team breaks the run
        deals.append(play_deal(match, win_for(0)))
    deals.append(play_deal(match, win_for(1)))
    bonuses = [line for result in match.results for line in result["lines"] if line["key"] == "streak"]
    assert [line["team"] for line in bonuses] == [0]
    counted = {seat: summarize(match, deals, seat, FACTS).counters["streaks"] for seat in range(4)}
    assert counted == {0: 1, 1: 0, 2: 1, 3: 0}


def played(game: str, seed: str, **options):
    spec = catalog.get_spec(game)
    match = spec.new_match(seed, spec.normalize_options(options))
    rng = random.Random(seed)
    while not match.is_terminal():
        match.apply_any(rng.choice(list(match.referee_actions() or match.legal_actions())))
    return match


def test_a_recorded_match_counts_its_bonuses_and_mendikot_has_none():
    # Random play to 31 points: these seeds' matches have a bonus each (team 0's, team 1's) and one none.
    found = {}
    for seed in ("streak-3", "streak-5", "streak-1"):
        match = played("single-sar", seed, target_points=31)
        for seat in range(4):
            won = sum(1 for result in match.results for line in result["lines"]
                      if line["key"] == "streak" and line["team"] == seat % 2)
            assert catalog.summarize_record(record_of(match), seat).counters["streaks"] == won
            found[seed, seat] = won
    assert found["streak-3", 0] == found["streak-5", 1] == 1 and found["streak-1", 0] == found["streak-1", 1] == 0
    assert "streaks" not in catalog.summarize_record(record_of(played("mendikot", "streak-1")), 0).counters
