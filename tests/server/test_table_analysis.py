"""Looking back at a table's match from each person's own seat: two people at
one table (neither at seat 0) each get the analysis of his own seat's
decisions, whose values are the hint's for that seat's observation and seed;
never another's.  Each plays on from his own seat, replays the match with his
seat at the bottom, finds it in his history and counts it in his statistics,
also once the table is gone.

The searches sample a few worlds (as tests/server/test_analysis.py does), so
the match is analysed in seconds."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from tricktable.bots import levels
from tricktable.bots.levels import hard_hint, hint_seed
from tricktable.catalog import replay
from tricktable.server.play import analysis as analysis_module
from tricktable.store.schema import tables
from tests.harness import identity_of
from tests.server.test_analysis import analysed, stranger_of
from tests.server.test_tables import friend_of, join, load, my_seat, new_table, start

WORLDS = 4
HINTS_ASKED = 3
"""Hints each person asks for while playing (compared with his analysis afterwards)."""


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch):
    monkeypatch.setattr(levels, "hint_worlds", lambda obs: WORLDS)
    monkeypatch.setattr(analysis_module, "hint_worlds", lambda obs: WORLDS)


def two_at_a_table(host: TestClient) -> tuple[dict[int, TestClient], str]:
    """A Euchre table of the host (moved to seat 1) and a friend (seat 3),
    computer players at 0 and 2, no turn clock, hints allowed: the people by seat, the game id."""
    friend = friend_of(host)
    table = new_table(host, clock=0)
    assert my_seat(join(friend, table["code"], seat=3)) == 3
    moved = host.post(f"/api/tables/{table['id']}/seats", json={"seat": 0, "to": 1})
    assert moved.status_code == 200 and my_seat(moved.json()) == 1, moved.text
    # (hints are off at a table of two unless the host allows them; the test compares with them)
    assert host.post(f"/api/tables/{table['id']}/hints", json={"hints": True}).status_code == 200
    return {1: host, 3: friend}, start(host, table)["id"]


def play_out(people: dict[int, TestClient], game_id: str, timeout: float = 60.0) -> dict[int, list[list[dict]]]:
    """The match played to its end, each person taking his last legal action on
    his turn; the hints each asked for at his first decisions with a choice."""
    hints: dict[int, list[list[dict]]] = {seat: [] for seat in people}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = load(people[1], game_id)
        if state["view"]["terminal"]:
            return hints
        mover = state["view"]["to_move"]
        if mover not in people:
            time.sleep(0.01)  # a computer player's turn
            continue
        mine = load(people[mover], game_id)
        legal = mine["view"]["legal"]
        if len(legal) > 1 and len(hints[mover]) < HINTS_ASKED:
            hint = people[mover].get(f"/api/games/{game_id}/hint", params={"version": mine["version"]})
            assert hint.status_code == 200, hint.text
            hints[mover].append(hint.json()["hints"])
        answer = people[mover].post(f"/api/games/{game_id}/actions", json={"action": legal[-1], "version": mine["version"]})
        assert answer.status_code in (200, 409), answer.text  # (409: a computer player moved first; look again)
    raise TimeoutError(f"the table's match {game_id} did not finish in {timeout} s")


def ranked(hint: list[dict]) -> list[tuple[str, float]]:
    return [(h["action"], h["value"]) for h in hint]


@pytest.fixture
def finished_table(client):
    people, game_id = two_at_a_table(client)
    hints = play_out(people, game_id)
    return people, game_id, hints


def test_each_person_gets_the_analysis_of_his_own_seat_with_the_hints_values(client, finished_table):
    people, game_id, hints = finished_table
    record = client.get(f"/api/games/{game_id}/record").json()
    reports = {}
    for seat, person in people.items():
        assert person.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"  # a read starts nothing
        assert person.post(f"/api/games/{game_id}/analysis").status_code == 202
    for seat, person in people.items():
        reports[seat] = report = analysed(person, game_id)
        assert report["status"] == "done" and report["done"] == report["total"] == len(report["decisions"]) > 0
        assert {d["seat"] for d in report["decisions"]} == {seat}  # his own decisions, nobody else's
        assert len(hints[seat]) == HINTS_ASKED
        for hint, decision in zip(hints[seat], report["decisions"]):
            assert ranked(hint) == [(r["action"], r["value"]) for r in decision["ranked"]]
        for decision in report["decisions"]:  # every value: the hint's search of that seat's observation and seed
            state = replay({**record, "actions": record["actions"][:decision["index"]]})
            assert state.to_move == seat and record["actions"][decision["index"]] == decision["chosen"]
            expected = hard_hint(state.observe(seat), hint_seed(record["seed"], decision["index"]))
            assert ranked(expected) == [(r["action"], r["value"]) for r in decision["ranked"]]
    assert not {d["index"] for d in reports[1]["decisions"]} & {d["index"] for d in reports[3]["decisions"]}
    for seat, person in people.items():  # his statistics' accuracy is his own seat's analysis
        stats = person.get("/api/stats", params={"game": "euchre"}).json()
        assert stats["accuracy"] == [{"game_id": game_id, "accuracy": reports[seat]["accuracy"]}]
    store = client.app.state.room.store
    assert store.analysis(game_id, 0) is None and store.analysis(game_id, 2) is None  # the computer players' seats
    for answer in (stranger_of(client).get(f"/api/games/{game_id}/analysis"),
                   stranger_of(client).post(f"/api/games/{game_id}/analysis"),
                   stranger_of(client).post(f"/api/games/{game_id}/play-on", json={"at": 3})):
        assert answer.status_code == 404
    # A share link shows the sharer's own seat: the friend's link, the friend's analysis.
    token = people[3].post(f"/api/games/{game_id}/share").json()["token"]
    reader = TestClient(client.app)
    assert reader.get(f"/api/shared/{token}/analysis").json() == reports[3]
    assert reader.get(f"/api/shared/{token}/replay").json()["seat"] == 3


def test_each_person_plays_on_from_his_own_seat_against_computer_players(client, finished_table):
    people, game_id, _hints = finished_table
    record = client.get(f"/api/games/{game_id}/record").json()
    for seat, person in people.items():
        at = next(i for i in range(len(record["actions"]))
                  if replay({**record, "actions": record["actions"][:i]}).to_move == seat and i > 5)
        answer = person.post(f"/api/games/{game_id}/play-on", json={"at": at})
        assert answer.status_code == 201, answer.text
        copy = answer.json()
        assert copy["view"]["seat"] == seat and copy["copy_of"] == {**copy["copy_of"], "game": game_id, "at": at}
        kept = replay({**record, "actions": record["actions"][:at]})
        assert copy["view"]["hand"] == kept.observe(seat).to_json()["hand"]  # his cards; the others' stay hidden
        assert load(person, copy["id"])["view"]["seat"] == seat
        row = client.app.state.room.store.load(copy["id"])
        assert row.owner == identity_of(person) and not row.counts_on_leaderboard and row.daily_day is None
        assert row.seats == tuple(identity_of(person) if s == seat else None for s in range(4))
        other = people[4 - seat]  # (1 and 3)
        assert other.get(f"/api/games/{copy['id']}").status_code == 404  # the copy is his alone
        mine = person.post(f"/api/games/{copy['id']}/actions", json={"action": copy["view"]["legal"][0],
                                                                     "version": copy["version"]})
        assert mine.status_code == 200, mine.text  # his turn, in his own seat
        assert mine.json()["steps"][0]["seat"] == seat


def test_each_person_replays_finds_and_counts_the_match_from_his_own_seat(client, finished_table):
    people, game_id, _hints = finished_table
    assert client.put("/api/nickname", json={"nickname": "Host"}).status_code == 200
    for seat, person in people.items():
        body = person.get(f"/api/games/{game_id}/replay").json()
        assert body["seat"] == seat and body["players"][1] == "Host" and body["players"][0] is None
        history = person.get("/api/history").json()["games"]
        assert [(g["id"], g["seat"]) for g in history] == [(game_id, seat)]
        stats = person.get("/api/stats", params={"game": "euchre"}).json()
        assert stats["games"] == 1
        match = replay(client.get(f"/api/games/{game_id}/record").json())
        assert stats["wins"] == int(match.totals[seat % 2] > match.totals[1 - seat % 2])
    # The table is gone a day after its last step; its match stays its people's, each at his seat.
    store = client.app.state.room.store
    with store.engine.begin() as db:
        db.execute(delete(tables))
    for seat, person in people.items():
        assert load(person, game_id)["view"]["seat"] == seat
        assert person.get(f"/api/games/{game_id}/replay").json()["seat"] == seat
        assert person.get("/api/history").json()["games"][0]["seat"] == seat
