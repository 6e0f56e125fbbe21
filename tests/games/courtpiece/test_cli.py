"""The tricktable command works for every Court Piece game (double-sar, single-sar
and the relatives the registry names): bench, selfplay, replay and play in the terminal."""

import itertools
import json

import pytest

from tricktable import cli
from tricktable.games import get_spec


@pytest.mark.parametrize("game", ["double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"])
def test_selfplay_records_replay_and_bench(game, tmp_path, capsys):
    assert cli.main(["selfplay", game, "--deals", "12", "--seed", "cp", "--json", "--records", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 12 and sum(summary["mean_points"]) > 0
    for path in sorted(tmp_path.glob("*.json")):
        record = json.loads(path.read_text())
        assert record["game"] == game and record["rules_version"] == get_spec(game).rules_version
        assert cli.main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["terminal"] and replayed["actions"] == len(record["actions"])
    assert cli.main(["bench", game, "--seconds", "0.3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["per_second"] > 0


@pytest.mark.parametrize("game", ["single-sar", "hidden-trump", "mendikot"])
def test_play_in_the_terminal(game, monkeypatch, capsys):
    answers = itertools.repeat("1")
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    cli.play(game, "terminal", "random", {"target_points": 5})
    out = capsys.readouterr().out
    assert "your hand:" in out and "deal 1 over" in out and "Match over" in out
