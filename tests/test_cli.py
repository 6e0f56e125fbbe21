"""The tricktable command: replay and play (the terminal game)."""

import itertools

import pytest

from tricktable import cli


def test_replay_of_a_corrupted_file_fails_with_the_reason(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "euchre", "rules_version": "euchre-1", "kind": "match", "seed": "x", '
                   '"actions": ["play AS"]}')
    assert cli.main(["replay", str(bad)]) == 2
    assert "action 1" in capsys.readouterr().err


def test_play_in_the_terminal_accepts_numbers_and_text(monkeypatch, capsys):
    answers = itertools.chain(["nonsense", "pass"], itertools.repeat("1"))
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    cli.play("euchre", "terminal-seed", "random", {})
    out = capsys.readouterr().out
    assert "your hand:" in out
    assert "! 'nonsense' is not a Euchre action" in out  # refused, and asked again
    assert "deal 1 over" in out and "Match over" in out


@pytest.mark.parametrize("game", ["single-sar", "hidden-trump", "mendikot"])
def test_play_in_the_terminal_court_piece(game, monkeypatch, capsys):
    answers = itertools.repeat("1")
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    cli.play(game, "terminal", "random", {"target_points": 5})
    out = capsys.readouterr().out
    assert "your hand:" in out and "deal 1 over" in out and "Match over" in out


def test_the_measuring_tools_are_not_product_commands(capsys):
    for command in ("selfplay", "bench", "arena"):
        with pytest.raises(SystemExit):
            cli.main([command, "euchre"])
    assert "invalid choice" in capsys.readouterr().err
