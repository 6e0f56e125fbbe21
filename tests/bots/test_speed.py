"""The search speed bench: ``tricktable bench GAME --search`` (issue 14, Speed)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tricktable import cli
from tricktable.arena import deal_state
from tricktable.core.errors import GameError
from tricktable.games import entry
from tricktable.speed import ROOT, baseline_tree, decisions


def test_decisions_are_fixed_by_the_seed_and_replay_to_a_real_choice():
    first, again = decisions("euchre", 6, "s"), decisions("euchre", 6, "s")
    assert first == again and len(first) == 6
    spec = entry("euchre").spec
    for job in first:
        state = deal_state(spec, job["seed"], job["index"], spec.normalize_options({}))
        for seat, text in job["prefix"]:
            state.act(seat, text)
        assert len(state.observe(state.to_move).legal) > 1


def test_an_unknown_baseline_commit_is_a_clear_error():
    with pytest.raises(GameError, match="not in the repository"):
        baseline_tree("no-such-commit")


def test_bench_search_prints_both_sides_on_the_same_decisions(capsys):
    # HEAD as its own baseline: the same code makes the same choices on the same decisions.
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    assert cli.main(["bench", "euchre", "--search", "--json", "--decisions", "3", "--budget-ms", "5",
                     "--baseline-commit", head]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "euchre" and result["decisions"] == 3 and result["same_choice"] == 3
    for side in (result, result["baseline"]):
        assert side["rollouts_per_cpu_s"] > 0
        assert 0 < side["cpu_ms_per_decision"]["p50"] <= side["cpu_ms_per_decision"]["p95"]
        assert 0 < side["wall_ms_per_decision"]["p50"] <= side["wall_ms_per_decision"]["p95"]
    assert result["rollouts"] == result["baseline"]["rollouts"]


def test_plain_bench_still_counts_random_deals(capsys):
    assert cli.main(["bench", "euchre", "--seconds", "0.2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["per_second"] > 0
