"""The tricktable command: selfplay, replay, bench and play (terminal game)."""

import json

from tricktable import cli


def test_selfplay_writes_records_that_replay_to_the_same_scores(tmp_path, capsys):
    assert cli.main(["selfplay", "euchre", "--deals", "20", "--seed", "t", "--json", "--records", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 20 and len(summary["mean_points"]) == 4
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 20
    assert cli.main(["replay", str(files[3]), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    record = json.loads(files[3].read_text())
    assert replayed["terminal"] and replayed["actions"] == len(record["actions"])
    assert sum(replayed["scores"]) >= 0 and replayed["breakdown"]


def test_selfplay_progress_prints_the_running_count_to_stderr(capsys):
    assert cli.main(["selfplay", "euchre", "--deals", "250", "--seed", "p", "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["deals"] == 250  # stdout: the summary alone
    counts = [json.loads(line) for line in captured.err.splitlines()]
    assert [count["done"] for count in counts] == list(range(2, 251, 2))  # every hundredth of the deals
    assert counts[-1] == {"game": "euchre", "done": 250, "deals": 250, "played": 250}


def test_replay_of_a_corrupted_file_fails_with_the_reason(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "euchre", "rules_version": "euchre-1", "kind": "match", "seed": "x", '
                   '"actions": ["play AS"]}')
    assert cli.main(["replay", str(bad)]) == 2
    assert "action 1" in capsys.readouterr().err


def test_bench_reports_deals_per_second(capsys):
    assert cli.main(["bench", "euchre", "--seconds", "0.5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "euchre" and result["deals"] > 0 and result["per_second"] > 0
    assert set(result) >= {"game", "deals", "seconds", "per_second"}


def test_bench_inference_reports_weighted_and_uniform_rates(capsys):
    assert cli.main(["bench", "euchre", "--inference", "--positions", "6", "--worlds", "12", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "euchre" and result["positions"] >= 4
    assert 0 <= result["uniform"] <= 1 and 0 <= result["weighted"] <= 1 and 0 < result["ess_share"] <= 1
    assert set(result) >= {"top", "hand_in_top", "hand_uniform", "weight_cpu_ms"}


def test_play_in_the_terminal_accepts_numbers_and_text(monkeypatch, capsys):
    import itertools

    answers = itertools.chain(["nonsense", "pass"], itertools.repeat("1"))
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    cli.play("euchre", "terminal-seed", "random", {})
    out = capsys.readouterr().out
    assert "your hand:" in out
    assert "! 'nonsense' is not a Euchre action" in out  # refused, and asked again
    assert "deal 1 over" in out and "Match over" in out
