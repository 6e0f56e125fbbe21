"""The duplicate arena: ``tricktable arena``."""

from __future__ import annotations

import json

from tricktable import cli
from tricktable.arena import arena, percentiles


def test_a_deterministic_bot_against_itself_scores_exactly_zero():
    # Both tables of a duplicate deal are then the same game with seats swapped.
    result = arena("euchre", "heuristic", "heuristic", 30, "self")
    assert result["deals"] == 30 and result["mean_diff"] == 0 and result["stderr"] == 0


def test_heuristic_beats_random_in_a_short_duplicate_match():
    result = arena("euchre", "heuristic", "random", 60, "short")
    assert result["mean_diff"] > 3 * result["stderr"] > 0


def test_parallel_jobs_give_the_same_result_as_one():
    one = arena("euchre", "heuristic", "random", 12, "jobs")
    two = arena("euchre", "heuristic", "random", 12, "jobs", jobs=2)
    assert one["mean_diff"] == two["mean_diff"] and one["stderr"] == two["stderr"]


def test_arena_command_prints_the_json_keys(capsys):
    assert cli.main(["arena", "euchre", "--a", "heuristic", "--b", "random", "--deals", "5", "--seed", "c",
                     "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"game", "a", "b", "deals", "mean_diff", "stderr", "a_ms", "b_ms"}
    assert set(result["a_ms"]) == {"p50", "p95", "max"} and result["deals"] == 5


def test_percentiles_of_decision_times():
    times = [float(t) for t in range(1, 101)]
    assert percentiles(times) == {"p50": 50.5, "p95": 95.0, "max": 100.0}
    assert percentiles([]) == {"p50": 0.0, "p95": 0.0, "max": 0.0}


def test_levels_map_onto_bots_and_budgets():
    from tricktable.bots.levels import LEVELS, best_bot

    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert best_bot("euchre", "easy").name == "easy"
    normal, hard = best_bot("euchre", "normal"), best_bot("euchre", "hard")
    assert (normal.name, hard.name) == ("search-noinfer", "search") and normal.budget_ms < hard.budget_ms


def test_timing_reports_wall_and_cpu_percentiles():
    from tricktable.bots.timing import measure

    result = measure("euchre", "heuristic", 3)
    assert result["decisions"] > 0 and result["cpu_ms"]["p50"] <= result["cpu_ms"]["max"]
    assert set(result["wall_ms"]) == {"p50", "p95", "max"}


def test_a_baseline_commit_plays_b_through_its_own_worker():
    # HEAD's search as the baseline of this checkout's search (same code, same seeds):
    # every decision is the same, so the duplicate score is exactly zero.
    import subprocess

    from tricktable.arena import Baseline
    from tricktable.speed import ROOT

    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    result = arena("euchre", "search", "search", 2, "base", budget_ms=5, hard_stop=False,
                   baseline=Baseline(head))
    assert result["b"] == f"search@{head}" and result["deals"] == 2
    assert result["mean_diff"] == 0 and result["b_ms"]["p50"] > 0


def test_a_baseline_commit_plays_the_bot_named_for_b():
    # B is the named bot of the commit (here HEAD's random player): with the same seeds
    # it plays exactly as this checkout's random player, where a search would not.
    import subprocess

    from tricktable.arena import Baseline
    from tricktable.speed import ROOT

    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    result = arena("euchre", "random", "random", 3, "base", budget_ms=5, baseline=Baseline(head, bot="random"))
    assert result["b"] == f"random@{head}" and result["mean_diff"] == 0
    assert arena("euchre", "random", "search", 3, "base", budget_ms=5, hard_stop=False)["mean_diff"] != 0


def test_a_preset_is_played_by_both_bots():
    """``--preset``: the deals are played under the game's preset (the DDV table scores
    the same play differently), and an unknown preset is refused before any deal."""
    import pytest

    from tricktable.core.errors import OptionError

    ddv = arena("doppelkopf", "heuristic", "random", 4, "preset", preset="ddv")
    standard = arena("doppelkopf", "heuristic", "random", 4, "preset")
    assert ddv["deals"] == standard["deals"] == 4 and ddv["mean_diff"] != standard["mean_diff"]
    with pytest.raises(OptionError):
        arena("doppelkopf", "heuristic", "random", 4, "preset", preset="no such preset")


def test_an_older_rules_version_is_played_by_both_bots():
    """``--rules-version``: both bots play the legacy options that reproduce the game's
    first rules (what a baseline commit of that time played: Double Sar's caller names
    any suit); an unknown version is refused before any deal."""
    import pytest

    from tricktable.arena import table_options

    first = table_options("double-sar", rules_version="double-sar-1")
    assert first["call_any_suit"] is True and first["new_cards_on_turn"] is True
    assert table_options("double-sar")["call_any_suit"] is False
    assert table_options("double-sar", rules_version="double-sar-2") == table_options("double-sar")
    assert arena("double-sar", "heuristic", "random", 2, "v1", rules_version="double-sar-1")["deals"] == 2
    with pytest.raises(ValueError, match="no rules version"):
        arena("double-sar", "heuristic", "random", 2, "v1", rules_version="double-sar-9")
