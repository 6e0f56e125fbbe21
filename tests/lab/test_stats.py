"""``tricktable-lab selfplay --stats``: behaviour statistics of the bots."""

from __future__ import annotations

import json

from lab import cli


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


def _stats(capsys, game: str, deals: int) -> dict:
    assert cli.main(["selfplay", game, "--bot", "heuristic", "--deals", str(deals), "--stats", "--json"]) == 0
    stats: dict = json.loads(capsys.readouterr().out)["stats"]
    return stats


def test_doppelkopf_stats_count_announcements_by_level_and_solo_wins(capsys):
    stats = _stats(capsys, "doppelkopf", 150)
    levels = stats["announcements_by_highest_level"]
    assert list(levels) == ["re/kontra", "no 90", "no 60", "no 30", "schwarz"]
    made = sum(level["n"] for level in levels.values())
    assert made == round(stats["announcement_rate"] * 150)
    won = sum(level["n"] * level["success"] for level in levels.values())
    assert abs(won / made - stats["announcement_success"]) < 0.01
    assert levels["no 60"]["n"] == 0  # the rules never announce beyond no 90
    assert stats["announcements_against_solos"]["n"] == 0  # nor against a solo
    assert 0 <= stats["solo_win_rate"] <= 1 and 0 <= stats["silent_solo_win_rate"] <= 1
    by_contract = stats["announcements_by_contract"]
    split = [team for teams in by_contract.values() for team in teams.values()]
    assert sum(team["n"] for team in split) == made
    assert abs(sum(team["n"] * team["success"] for team in split) - won) < 0.01 * made
    assert {"normal", "marriage", "poverty"} <= set(by_contract) <= {"normal", "marriage", "poverty", "solo", "silent solo"}
    assert set(by_contract["normal"]) == {"re", "kontra"} and "kontra" not in by_contract.get("solo", {})


def test_court_piece_stats_in_every_game_of_the_family(capsys):
    for game in ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"):
        stats = _stats(capsys, game, 40)
        assert stats["deals"] == 40
        assert abs(sum(stats["outcome_rates"].values()) - 1) < 0.01
        assert 0.3 < stats["callers_win_rate"] < 0.95
        assert stats["new_cards_rate"] == 0  # new cards is a person's privilege
        hidden = game in ("hidden-trump", "mendikot")
        assert (stats["reveal_rate"] > 0) == hidden


def test_declared_solos_plays_out_exactly_the_deals_with_a_declared_solo(capsys):
    """The same deals and bots as a whole selfplay: the solos counted, won and scored
    are those of the full run, and no other deal is played out."""
    full = _stats(capsys, "doppelkopf", 300)
    assert cli.main(["selfplay", "doppelkopf", "--bot", "heuristic", "--deals", "300", "--declared-solos",
                     "--json"]) == 0
    screened = json.loads(capsys.readouterr().out)
    solos = round(full["solo_rate"] * 300)
    assert solos > 0 and screened["deals"] == 300 and screened["played"] == solos
    assert screened["stats"]["deals"] == solos and screened["stats"]["solo_rate"] == 1.0
    assert screened["stats"]["solo_win_rate"] == full["solo_win_rate"]


def test_declared_solos_is_refused_outside_doppelkopf(capsys):
    assert cli.main(["selfplay", "euchre", "--bot", "heuristic", "--deals", "1", "--declared-solos"]) != 0


def test_every_game_of_the_catalog_has_its_statistics():
    from lab import stats
    from tricktable.catalog import GAMES

    for game in GAMES:
        assert type(stats.stats_for(game)) is not stats.Stats, game
