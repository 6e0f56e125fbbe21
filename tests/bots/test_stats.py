"""``tricktable selfplay --stats``: behaviour statistics of the bots."""

from __future__ import annotations

import json

from tricktable import cli


def test_selfplay_stats_show_rare_and_mostly_successful_lone_hands(capsys):
    assert cli.main(["selfplay", "euchre", "--bot", "heuristic", "--deals", "400", "--stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert stats["contracts"] == 400  # stick the dealer: every deal gets a trump
    assert 0 < stats["alone_rate"] < 0.2 and stats["alone_success"] > 0.8
    assert 0 < stats["stuck_dealer_rate"] < 0.15
    assert 0.05 < stats["euchred_rate"] < 0.3 and stats["makers_success"] > 0.7
    assert 0 < stats["march_rate"] < 0.4


def test_random_bots_make_worse_contracts_than_the_rules(capsys):
    results = {}
    for bot in ("random", "heuristic"):
        assert cli.main(["selfplay", "euchre", "--bot", bot, "--deals", "300", "--stats", "--json"]) == 0
        results[bot] = json.loads(capsys.readouterr().out)["stats"]
    assert results["random"]["euchred_rate"] > results["heuristic"]["euchred_rate"] + 0.1


def test_selfplay_gives_the_search_bots_the_budget_asked_for(monkeypatch, capsys):
    from tricktable.bots import players

    budgets: list[float] = []
    original = players.SearchBot.choose

    def choose(self, obs):
        budgets.append(self.budget_ms)
        return original(self, obs)

    monkeypatch.setattr(players.SearchBot, "choose", choose)
    assert cli.main(["selfplay", "euchre", "--bot", "search", "--budget-ms", "5", "--deals", "1", "--json"]) == 0
    assert budgets and set(budgets) == {5.0}
