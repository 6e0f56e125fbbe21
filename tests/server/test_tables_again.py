"""Play again: once a table's match is over, its host starts a new one at the
same table (seats, options, level, clock), the finished one keeps answering
to its people at their seats, and every stream of it is told the new one."""

from __future__ import annotations

import queue
import threading
import time

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tricktable.store.schema import games as games_table
from tests.harness import listen
from tests.server.test_tables import friend_of, join, load, new_table, start
from tests.server.test_tables_watch import next_of


def play_until_over(people: dict[int, TestClient], game_id: str, timeout: float = 60.0) -> dict:
    """Every person plays his first legal action at his turns until the match
    is over (the computer players are random and instant); the last state."""
    deadline = time.monotonic() + timeout
    anyone = next(iter(people.values()))
    while time.monotonic() < deadline:
        state = load(anyone, game_id)
        if state["view"]["terminal"]:
            return state
        mover = state["view"]["to_move"]
        if state["thinking"] is not None or mover not in people:
            time.sleep(0.02)
            continue
        mine = load(people[mover], game_id)
        if mine["version"] == state["version"]:
            answer = people[mover].post(f"/api/games/{game_id}/actions",
                                        json={"action": mine["view"]["legal"][0], "version": mine["version"]})
            assert answer.status_code in (200, 409), answer.text  # 409: a computer player moved first
    raise TimeoutError("the match did not end")


def a_finished_table(client: TestClient) -> tuple[TestClient, dict, dict]:
    """A Euchre table to 5 points of the host (seat 0) and a friend (seat 1),
    no clock, its match played to its end: the friend, the table, the game."""
    friend = friend_of(client)
    table = new_table(client, clock=0, game_target=5)
    join(friend, table["code"])
    return friend, table, start(client, table)


def test_the_host_plays_again_at_the_same_table_and_every_stream_follows(client):
    friend, table, game = a_finished_table(client)
    watcher = friend_of(client)
    assert client.post(f"/api/tables/{table['id']}/again").status_code == 409  # not over yet
    inboxes = {name: queue.Queue() for name in ("host", "friend", "watcher")}
    stop = threading.Event()
    listen(client, game["id"], 1, inboxes["host"], stop)
    listen(friend, game["id"], 1, inboxes["friend"], stop)
    listen(watcher, game["id"], 1, inboxes["watcher"], stop, path=f"/api/watch/{table['watch']}/events")
    try:
        finished = play_until_over({0: client, 1: friend}, game["id"])
        assert friend.post(f"/api/tables/{table['id']}/again").status_code == 403  # only the host
        answer = client.post(f"/api/tables/{table['id']}/again")
        assert answer.status_code == 201, answer.text
        again = answer.json()
        assert again["id"] != game["id"] and again["view"]["seat"] == 0 and not again["view"]["terminal"]
        for inbox in inboxes.values():
            assert next_of(inbox, "next") == {"game_id": again["id"]}  # (the watcher: nothing more)
    finally:
        stop.set()
    assert client.post(f"/api/tables/{table['id']}/again").status_code == 409  # the new match is not over
    described = client.get(f"/api/tables/{table['id']}").json()
    assert described["game_id"] == again["id"] and described["clock"] == 0
    theirs = load(friend, again["id"])
    assert theirs["view"]["seat"] == 1 and theirs["level"] == game["level"]
    record = client.app.state.room.store.load(again["id"]).record
    assert record["options"]["game_target"] == 5
    # The finished match still answers to each person at his own seat, and names the next one.
    old = load(friend, game["id"])
    assert old["view"]["seat"] == 1 and old["version"] == finished["version"] and old["next_id"] == again["id"]
    assert load(client, game["id"])["view"]["seat"] == 0
    assert friend_of(client).get(f"/api/games/{game['id']}").status_code == 404
    history = [entry["id"] for entry in client.get("/api/history").json()["games"]]
    assert history[:2] == [again["id"], game["id"]]
    # A stream of the old match opened later is told the next one too.
    late: queue.Queue = queue.Queue()
    stop_late = threading.Event()
    listen(friend, game["id"], finished["version"], late, stop_late)
    try:
        assert next_of(late, "next") == {"game_id": again["id"]}
    finally:
        stop_late.set()


def test_a_double_click_on_play_again_starts_one_match(client):
    friend, table, game = a_finished_table(client)
    play_until_over({0: client, 1: friend}, game["id"])
    store = client.app.state.room.store
    with store.engine.begin() as db:
        before = db.execute(select(func.count()).select_from(games_table)).scalar_one()
    answers: list = []
    clicks = [threading.Thread(target=lambda: answers.append(client.post(f"/api/tables/{table['id']}/again")))
              for _ in range(2)]
    for click in clicks:
        click.start()
    for click in clicks:
        click.join()
    assert sorted(answer.status_code for answer in answers) == [201, 409]
    with store.engine.begin() as db:
        assert db.execute(select(func.count()).select_from(games_table)).scalar_one() == before + 1
    made = next(answer.json()["id"] for answer in answers if answer.status_code == 201)
    assert client.get(f"/api/tables/{table['id']}").json()["game_id"] == made


def test_play_again_is_refused_before_the_start_and_to_strangers(client):
    table = new_table(client)
    assert client.post(f"/api/tables/{table['id']}/again").status_code == 409
    assert friend_of(client).post(f"/api/tables/{table['id']}/again").status_code == 404
    assert client.post("/api/tables/no-such-table/again").status_code == 404


def test_a_stream_on_another_server_process_is_told_the_next_match(two_processes):
    """The host plays again on one process; his friend's stream of the finished
    match is on another, whose channel never heard it: its next look at the
    database (a quiet stream's, within a second or so) tells it."""
    here, there = two_processes
    friend, table, game = a_finished_table(here)
    finished = play_until_over({0: here, 1: friend}, game["id"])
    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(TestClient(there.app, cookies=friend.cookies), game["id"], finished["version"], inbox, stop)
    try:
        again = here.post(f"/api/tables/{table['id']}/again")
        assert again.status_code == 201, again.text
        assert next_of(inbox, "next", timeout=5) == {"game_id": again.json()["id"]}
    finally:
        stop.set()
