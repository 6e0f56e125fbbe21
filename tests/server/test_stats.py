"""Statistics through the API: a finished game's figures against its record,
two identities kept apart, and each game summarised once."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from tricktable import catalog
from tricktable.core.match import MatchState
from tests.harness import finish, identity_of, settle


def finished_game(client: TestClient, game: str = "euchre", seed: int = 3) -> dict:
    state = settle(client, client.post("/api/games", json={"game": game}).json())
    return finish(client, state, seed=seed)


def person_moves(record: dict) -> list[str]:
    """The texts of every action seat 0 took, read by stepping the record (not
    through the statistics' own code)."""
    parsed = catalog.parse_record(record)
    state = parsed.start()
    mine = []
    for text in parsed.actions:
        if state.to_move == 0:
            mine.append(text)
        state.apply_any(state.parse_action(text))
    return mine


def test_the_figures_of_a_finished_euchre_match_match_its_record(client):
    done = finished_game(client)
    record = client.get(f"/api/games/{done['id']}/record").json()
    match = catalog.replay(record)
    assert isinstance(match, MatchState) and match.over
    deals = [r for r in match.results if r["counts"]]
    stats = client.get("/api/stats", params={"game": "euchre"}).json()
    assert stats["games"] == 1 and stats["deals"] == len(deals) > 0
    assert stats["points_per_deal"] == round(match.totals[0] / len(deals), 3)
    assert stats["wins"] == int(match.totals[0] > match.totals[1])
    moves = person_moves(record)
    counters = {c["name"]: c["count"] for c in stats["counters"]}
    assert counters["called"] == sum(1 for m in moves if m == "order up" or m.startswith("call "))
    assert counters["alone"] == moves.count("alone")
    assert [g["deals"] for g in stats["recent"]] == [len(deals)]
    assert stats["accuracy"] == []  # no analysis yet: nothing is made up


def test_statistics_of_two_identities_are_kept_apart(client):
    finished_game(client)
    with TestClient(client.app) as other:
        identity_of(other)
        assert other.get("/api/stats", params={"game": "euchre"}).json()["games"] == 0
        finished_game(other, seed=5)
        finished_game(other, seed=6)
        assert other.get("/api/stats", params={"game": "euchre"}).json()["games"] == 2
    assert client.get("/api/stats", params={"game": "euchre"}).json()["games"] == 1
    with TestClient(client.app) as nobody:  # no identity: nothing played
        assert nobody.get("/api/stats", params={"game": "euchre"}).json()["games"] == 0


def test_each_finished_game_is_summarised_once(client, monkeypatch):
    finished_game(client)
    summarised: list[dict] = []
    real = catalog.summarize_record

    def counting(record, seat):
        summarised.append(record)
        return real(record, seat)

    monkeypatch.setattr(catalog, "summarize_record", counting)
    first = client.get("/api/stats", params={"game": "euchre"}).json()
    assert len(summarised) == 1
    again = client.get("/api/stats", params={"game": "euchre"}).json()
    assert again == first and len(summarised) == 1  # the stored summary, no replay
    finished_game(client, seed=7)
    assert client.get("/api/stats", params={"game": "euchre"}).json()["games"] == 2
    assert len(summarised) == 2  # only the new game


def test_an_open_game_does_not_count(client):
    client.post("/api/games", json={"game": "euchre"})
    assert client.get("/api/stats", params={"game": "euchre"}).json()["games"] == 0


@pytest.mark.parametrize("game", ["chess", ""])
def test_an_unknown_game_is_refused(client, game):
    assert client.get("/api/stats", params={"game": game}).status_code in (404, 422)


@pytest.mark.parametrize("game, counters", [
    ("doppelkopf", {"re", "kontra", "announced"}),
    ("double-sar", {"deals_won", "called", "callers_kot", "goon_kot"}),
    ("mendikot", {"deals_won", "mendikot", "whitewash", "tens"}),
])
def test_each_game_family_reports_its_own_counters(client, game, counters):
    finished_game(client, game)
    stats = client.get("/api/stats", params={"game": game}).json()
    assert stats["games"] == 1 and counters <= {c["name"] for c in stats["counters"]}
    assert "called_euchred" not in {c["name"] for c in stats["counters"]}
    assert sum(g["deals"] for g in stats["recent"]) == stats["deals"]


def test_a_record_that_no_longer_replays_is_left_out_once(client, monkeypatch):
    from tricktable.errors import RecordError

    finished_game(client)
    calls = []

    def broken(record, seat):
        calls.append(1)
        raise RecordError("made under other rules")

    monkeypatch.setattr(catalog, "summarize_record", broken)
    assert client.get("/api/stats", params={"game": "euchre"}).json()["games"] == 0
    assert client.get("/api/stats", params={"game": "euchre"}).json()["games"] == 0
    assert calls == [1]  # kept as left out: not tried again on every request


def test_a_long_past_is_summarised_a_batch_per_request(client, monkeypatch):
    from tricktable.server.play import stats as stats_module

    monkeypatch.setattr(stats_module, "SUMMARIES_PER_REQUEST", 1)
    finished_game(client)
    finished_game(client, seed=8)
    first = client.get("/api/stats", params={"game": "euchre"}).json()
    assert first["games"] == 1 and first["complete"] is False
    second = client.get("/api/stats", params={"game": "euchre"}).json()
    assert second["games"] == 2 and second["complete"] is True


def test_the_accuracy_series_is_each_analysed_games_accuracy(client):
    """A game whose analysis is done shows its accuracy (as the analysis
    computes it) beside its points; a game without one shows none."""
    from tricktable.server.play.analysis import accuracy_of

    analysed, plain = finished_game(client, seed=3), finished_game(client, seed=4)
    store = client.app.state.room.store
    decisions = [{"index": 4, "deal": 0, "seat": 0, "chosen": "pass", "best": "order up", "value": -0.4,
                  "best_value": 0.6, "lost": 1.0, "ranked": []},
                 {"index": 9, "deal": 0, "seat": 0, "chosen": "play AH", "best": "play AH", "value": 0.2,
                  "best_value": 0.2, "lost": 0.0, "ranked": []}]
    assert store.queue_analysis(analysed["id"], len(decisions), "test", time.time() + 30)
    assert store.save_analysis(analysed["id"], "test", "done", decisions, None)
    stats = client.get("/api/stats", params={"game": "euchre"}).json()
    assert [g["game_id"] for g in stats["recent"]] == [analysed["id"], plain["id"]]
    assert stats["accuracy"] == [{"game_id": analysed["id"], "accuracy": accuracy_of(decisions)}]
    assert 0 < stats["accuracy"][0]["accuracy"] < 100
