"""The tricktable command works for double-sar and single-sar: bench, selfplay,
replay and play in the terminal."""

import itertools
import json

import pytest

from tricktable import cli


@pytest.mark.parametrize("game", ["double-sar", "single-sar"])
def test_selfplay_records_replay_and_bench(game, tmp_path, capsys):
    assert cli.main(["selfplay", game, "--deals", "12", "--seed", "cp", "--json", "--records", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 12 and sum(summary["mean_points"]) > 0
    for path in sorted(tmp_path.glob("*.json")):
        record = json.loads(path.read_text())
        assert cli.main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["terminal"] and replayed["actions"] == len(record["actions"])
    assert cli.main(["bench", game, "--seconds", "0.3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["per_second"] > 0


def test_play_in_the_terminal(monkeypatch, capsys):
    answers = itertools.repeat("1")
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    cli.play("single-sar", "terminal", "random", {"target_points": 5})
    out = capsys.readouterr().out
    assert "your hand:" in out and "deal 1 over" in out and "Match over" in out
