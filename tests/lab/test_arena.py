"""The duplicate arena: ``tricktable-lab arena``."""

from __future__ import annotations

import json
from pathlib import Path

from lab import cli
from lab.arena import arena, percentiles


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
    normal, hard = best_bot("mendikot", "normal"), best_bot("mendikot", "hard")
    assert (normal.name, hard.name) == ("search-noinfer", "search-noinfer") and normal.budget_ms < hard.budget_ms
    assert best_bot("euchre", "normal").name == "search"  # Euchre's normal weighs its worlds (levels.GAME_LEVELS)


def test_timing_reports_wall_and_cpu_percentiles():
    from lab.timing import measure

    result = measure("euchre", "heuristic", 3)
    assert result["decisions"] > 0 and result["cpu_ms"]["p50"] <= result["cpu_ms"]["max"]
    assert set(result["wall_ms"]) == {"p50", "p95", "max"}


def test_a_baseline_commit_plays_b_through_its_own_worker():
    # HEAD's search as the baseline of this checkout's search (same code, same seeds):
    # every decision is the same, so the duplicate score is exactly zero.
    import subprocess

    from lab.arena import Baseline
    from lab.baseline import ROOT

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

    from lab.arena import Baseline
    from lab.baseline import ROOT

    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    result = arena("euchre", "random", "random", 3, "base", budget_ms=5, baseline=Baseline(head, bot="random"))
    assert result["b"] == f"random@{head}" and result["mean_diff"] == 0
    assert arena("euchre", "random", "search", 3, "base", budget_ms=5, hard_stop=False)["mean_diff"] != 0


def test_a_preset_is_played_by_both_bots():
    """``--preset``: the deals are played under the game's preset (the DDV table scores
    the same play differently), and an unknown preset is refused before any deal."""
    import pytest

    from tricktable.errors import OptionError

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

    from lab.arena import table_options

    first = table_options("double-sar", rules_version="double-sar-1")
    assert first["call_any_suit"] is True and first["new_cards_on_turn"] is True
    assert table_options("double-sar")["call_any_suit"] is False
    assert table_options("double-sar", rules_version="double-sar-2") == table_options("double-sar")
    assert arena("double-sar", "heuristic", "random", 2, "v1", rules_version="double-sar-1")["deals"] == 2
    with pytest.raises(ValueError, match="no rules version"):
        arena("double-sar", "heuristic", "random", 2, "v1", rules_version="double-sar-9")


# -- the results file (--results): a run that adds up across stops and sessions ----------------------------
def _played_indices(monkeypatch):
    """The deal indices this process plays from now on (with one job, the deals are played here)."""
    from lab import arena as arena_module

    played = []
    play = arena_module.duplicate_deal

    def recorded(game, a, b, seed, index, *args, **kwargs):
        played.append(index)
        return play(game, a, b, seed, index, *args, **kwargs)

    monkeypatch.setattr(arena_module, "duplicate_deal", recorded)
    return played


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_results_file_adds_up_to_one_uninterrupted_run(tmp_path, monkeypatch):
    """Three deals, then the same run resumed to eight (in two jobs): the file holds a header and
    deals 0-7 once each, enough to recompute the summary, which is that of eight deals in one go;
    a third run of a complete file plays nothing and gives the same summary."""
    from lab.arena import DealResult, summary

    results = tmp_path / "arena.jsonl"
    whole = arena("euchre", "heuristic", "random", 8, "resume")
    assert arena("euchre", "heuristic", "random", 3, "resume", results=results)["deals"] == 3
    reports = []
    resumed = arena("euchre", "heuristic", "random", 8, "resume", jobs=2, progress=reports.append, results=results)
    assert (resumed["deals"], resumed["mean_diff"], resumed["stderr"]) == (8, whole["mean_diff"], whole["stderr"])
    assert [report["deals"] for report in reports] == [4, 5, 6, 7, 8]  # --progress counts the file's deals too
    header, *deals = _lines(results)
    assert header["experiment"]["seed"] == "resume" and sorted(deal["index"] for deal in deals) == list(range(8))
    from_file = [DealResult(deal["diff"], deal["tables"], deal["a_ms"], deal["b_ms"])
                 for deal in sorted(deals, key=lambda deal: deal["index"])]
    assert summary("euchre", "heuristic", "random", from_file) == resumed
    played = _played_indices(monkeypatch)
    assert arena("euchre", "heuristic", "random", 8, "resume", results=results) == resumed and played == []


def test_a_deal_cut_short_by_a_kill_is_played_again(tmp_path, monkeypatch):
    results = tmp_path / "arena.jsonl"
    arena("doppelkopf", "heuristic", "random", 4, "cut", results=results)
    content = results.read_bytes()
    results.write_bytes(content[:-40])  # the last deal's line, killed halfway through its write
    whole = arena("doppelkopf", "heuristic", "random", 4, "cut")
    played = _played_indices(monkeypatch)
    resumed = arena("doppelkopf", "heuristic", "random", 4, "cut", results=results)
    assert played == [3] and (resumed["mean_diff"], resumed["stderr"]) == (whole["mean_diff"], whole["stderr"])
    assert results.read_bytes().endswith(b"\n") and [deal["index"] for deal in _lines(results)[1:]] == [0, 1, 2, 3]


def test_a_results_file_of_another_experiment_or_other_bots_is_refused(tmp_path, monkeypatch, capsys):
    from lab import arena as arena_module

    results = tmp_path / "arena.jsonl"
    command = ["arena", "double-sar", "--a", "heuristic", "--b", "random", "--deals", "2", "--seed", "one",
               "--results", str(results)]
    assert cli.main(command) == 0
    before = results.read_bytes()
    assert cli.main([*command[:-4], "--seed", "two", *command[-2:]]) == 2
    assert "experiment.seed: 'one' in the file, 'two' in this run" in capsys.readouterr().err
    monkeypatch.setattr(arena_module, "sources_hash", lambda: "the bots of another commit")
    assert cli.main(command) == 2
    assert "bots.sources" in capsys.readouterr().err and results.read_bytes() == before


def test_the_bots_sources_hash_follows_the_code_they_play_with(tmp_path):
    """Two runs have the same bots when the playing layers' sources are the same: an edit of a bot
    changes the hash, an edit of the server (or of docs, tests: outside the package) does not."""
    import shutil

    from lab.arena import sources_hash
    import tricktable

    package = tmp_path / "tricktable"
    shutil.copytree(Path(tricktable.__file__).parent, package, ignore=shutil.ignore_patterns("_native", "__pycache__"))
    same = sources_hash(package)
    assert same == sources_hash(Path(tricktable.__file__).parent)
    (package / "server" / "app.py").write_text("# another server\n")
    assert sources_hash(package) == same
    search = package / "bots" / "search.py"
    search.write_text(search.read_text() + "\n# another bot\n")
    assert sources_hash(package) != same


def test_a_run_killed_with_kill_9_resumes_where_it_stopped(tmp_path):
    """The real stop: two jobs of search deals, ``kill -9`` once a few deals are in the file (the
    pool processes then end and free the file), and the same command resumed to a few more deals
    sums up what one uninterrupted run of those deals gives."""
    import signal
    import subprocess
    import sys
    import time

    results = tmp_path / "arena.jsonl"
    command = [sys.executable, "-m", "lab.cli", "arena", "euchre", "--a", "search", "--b", "random",
               "--budget-ms", "5", "--no-hard-stop", "--seed", "kill", "--jobs", "2", "--results", str(results)]

    def finished():
        content = results.read_bytes() if results.exists() else b""
        return [json.loads(line)["index"] for line in content[:content.rfind(b"\n") + 1].splitlines()[1:]]

    run = subprocess.Popen([*command, "--deals", "1000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while run.poll() is None and time.monotonic() < deadline and len(finished()) < 3:
        time.sleep(0.05)
    assert run.poll() is None, "the run stopped before it was killed"
    run.send_signal(signal.SIGKILL)
    run.wait()
    deals = max(finished()) + 3  # (the deals in play at the kill, if any, among them)
    resumed = subprocess.run([*command, "--deals", str(deals), "--json"], capture_output=True, text=True, check=True)
    whole = arena("euchre", "search", "random", deals, "kill", budget_ms=5, hard_stop=False)
    assert {key: json.loads(resumed.stdout)[key] for key in ("deals", "mean_diff", "stderr")} == \
        {key: whole[key] for key in ("deals", "mean_diff", "stderr")}
