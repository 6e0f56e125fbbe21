"""Summaries and their sums: hand-made summaries with known figures, and every
game's summary of a whole match against what its match and deals say."""

from __future__ import annotations

import random

import pytest

from tricktable import catalog
from tricktable.core.record import record_of, replay_deals
from tricktable.core.summary import DEALS, Finished, GameFacts, GameSummary, statistics

FACTS = GameFacts(deal=lambda deal, seat: {}, won=lambda match, seat: False,
                  counters=("called", "called_won", "tens"), rates={"called": DEALS, "called_won": "called"})


def finished(game_id: str, when: float, points: tuple[int, ...], won: bool, **counters: int) -> Finished:
    return Finished(game_id, when, GameSummary(len(points), points, won, counters))


def test_sums_rates_and_the_recent_games_in_order():
    games = [finished("b", 2.0, (1, 0, 3), True, called=2, called_won=1),
             finished("a", 1.0, (0, 0), False, called=0, called_won=0),
             finished("c", 3.0, (4,), True, called=1, called_won=1)]
    figures = statistics(games, FACTS, recent=2)
    assert (figures["games"], figures["deals"], figures["wins"]) == (3, 6, 2)
    assert figures["win_rate"] == 0.667 and figures["points_per_deal"] == round(8 / 6, 3)
    assert figures["counters"] == [{"name": "called", "count": 3, "of": "deals", "rate": 0.5},
                                   {"name": "called_won", "count": 2, "of": "called", "rate": 0.667}]
    assert [g["game_id"] for g in figures["recent"]] == ["b", "c"]  # the last two, oldest first
    assert figures["recent"][0]["points_per_deal"] == round(4 / 3, 3)


def test_no_games_no_rates_and_no_counters_the_games_do_not_have():
    empty = statistics([], FACTS, recent=5)
    assert empty["games"] == 0 and empty["win_rate"] is None and empty["points_per_deal"] is None
    assert empty["counters"] == [] and empty["recent"] == []
    figures = statistics([finished("a", 1.0, (1,), False, tens=3)], FACTS, recent=5)
    assert figures["counters"] == [{"name": "tens", "count": 3}]  # "called" is not this game's


def test_a_summary_survives_its_json():
    summary = GameSummary(3, (1, -2, 0), True, {"re": 2})
    assert GameSummary.from_json(summary.to_json()) == summary


@pytest.mark.parametrize("game", catalog.GAMES)
def test_every_games_summary_agrees_with_its_match(game):
    spec = catalog.get_spec(game)
    match = spec.new_match(f"summary/{game}", spec.normalize_options({}))
    rng = random.Random(game)
    while not match.is_terminal():
        match.apply_any(rng.choice(list(match.referee_actions() or match.legal_actions())))
    record = record_of(match)
    replayed, deals = replay_deals(record, catalog.get_spec)
    assert len(deals) == len(match.results) and replayed.returns() == match.returns()
    summary = catalog.summarize_record(record, 0)
    counted = [r for r in match.results if r["counts"]]
    assert summary.deals == len(counted) and sum(summary.points) == match.totals[0]
    assert set(summary.counters) <= set(catalog.entry(game).facts.counters)
    assert all(value >= 0 for value in summary.counters.values())


def test_each_familys_counters_hold_together():
    def played(game: str, seed: str) -> GameSummary:
        spec = catalog.get_spec(game)
        match = spec.new_match(seed, spec.normalize_options({}))
        rng = random.Random(seed)
        while not match.is_terminal():
            match.apply_any(rng.choice(list(match.referee_actions() or match.legal_actions())))
        return catalog.summarize_record(record_of(match), 0)

    for seed in ("one", "two", "three"):
        dk = played("doppelkopf", seed).counters
        deals = played("doppelkopf", seed).deals
        assert dk["re"] + dk["kontra"] == deals  # every deal played, one side or the other
        assert dk["re_won"] <= dk["re"] and dk["solo"] <= dk["re"] and dk["announced_won"] <= dk["announced"]
        eu = played("euchre", seed).counters
        assert eu["called_euchred"] <= eu["called"] and eu["alone_made"] <= eu["alone"] <= eu["called"]
        mk = played("mendikot", seed)
        assert mk.counters["tens"] <= 4 * mk.deals and mk.counters["deals_won"] <= mk.deals
        assert "called" not in played("be-ranga", seed).counters  # trump is not called in Be-Ranga
