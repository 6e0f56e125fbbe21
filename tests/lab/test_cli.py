"""The tricktable-lab command: selfplay (its records replay with ``tricktable replay``),
bench, stats of played records and timing."""

import json

import pytest

from lab import cli as lab_cli
from tricktable import cli
from tricktable.catalog import GAMES, get_spec


@pytest.mark.parametrize("game", GAMES)
def test_selfplay_writes_records_that_replay_to_the_same_scores(game, tmp_path, capsys):
    deals = {"euchre": 20, "doppelkopf": 5}.get(game, 12)
    assert lab_cli.main(["selfplay", game, "--deals", str(deals), "--seed", "t", "--json", "--records",
                         str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == deals and len(summary["mean_points"]) == 4
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == deals
    for path in files if game != "euchre" else files[3:4]:
        record = json.loads(path.read_text())
        assert record["game"] == game and record["rules_version"] == get_spec(game).rules_version
        assert cli.main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["terminal"] and replayed["actions"] == len(record["actions"])
        assert replayed["breakdown"]


def test_selfplay_progress_prints_the_running_count_to_stderr(capsys):
    assert lab_cli.main(["selfplay", "euchre", "--deals", "250", "--seed", "p", "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["deals"] == 250  # stdout: the summary alone
    counts = [json.loads(line) for line in captured.err.splitlines()]
    assert [count["done"] for count in counts] == list(range(2, 251, 2))  # every hundredth of the deals
    assert counts[-1] == {"game": "euchre", "done": 250, "deals": 250, "played": 250}


@pytest.mark.parametrize("game", ["euchre", "doppelkopf", "double-sar", "hidden-trump"])
def test_bench_reports_deals_per_second(game, capsys):
    assert lab_cli.main(["bench", game, "--seconds", "0.3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == game and result["deals"] > 0 and result["per_second"] > 0
    assert set(result) >= {"game", "deals", "seconds", "per_second"}


def test_bench_inference_reports_weighted_and_uniform_rates(capsys):
    assert lab_cli.main(["bench", "euchre", "--inference", "--positions", "6", "--worlds", "12", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "euchre" and result["positions"] >= 4
    assert 0 <= result["uniform"] <= 1 and 0 <= result["weighted"] <= 1 and 0 < result["ess_share"] <= 1
    assert set(result) >= {"top", "hand_in_top", "hand_uniform", "weight_cpu_ms"}


def test_stats_of_played_records_are_those_of_selfplay(tmp_path, capsys):
    assert lab_cli.main(["selfplay", "euchre", "--bot", "heuristic", "--deals", "30", "--seed", "s", "--json",
                         "--stats", "--records", str(tmp_path)]) == 0
    played = json.loads(capsys.readouterr().out)["stats"]
    assert lab_cli.main(["stats", "euchre", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == played


def test_timing_prints_the_decision_times(capsys):
    assert lab_cli.main(["timing", "euchre", "--bot", "heuristic", "--deals", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "euchre" and result["deals"] == 1 and result["decisions"] > 0
