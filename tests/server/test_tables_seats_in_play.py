"""During the match the host may give a person's seat to a computer player for
good (the person is removed: the game no longer answers to him, his streams
are told so and end, the computer player plays the seat at once) or open a
computer player's seat to a newcomer, who plays it from its next decision."""

from __future__ import annotations

import queue
import threading
import time

from fastapi.testclient import TestClient
from sqlalchemy import delete

from tricktable.store.schema import tables
from tests.harness import listen, read_events
from tests.server.test_tables import friend_of, join, load, my_seat, new_table, start, wait_for_people
from tests.server.test_tables_watch import next_of


def until_turn_of(seat: int, people: dict[int, TestClient], game_id: str, timeout: float = 30.0) -> dict:
    """Play the other people's first legal actions until ``seat`` (a person's) is to move."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = wait_for_people(people[seat], game_id, set(people))
        mover = state["view"]["to_move"]
        assert not state["view"]["terminal"]
        if mover == seat:
            return state
        mine = load(people[mover], game_id)
        people[mover].post(f"/api/games/{game_id}/actions",
                           json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    raise TimeoutError(f"seat {seat} did not come to move")


class Stream:
    """A game's event stream read to its end in a thread: the kinds of its events and their data."""

    def __init__(self, person: TestClient, game_id: str, version: int):
        self.events: list[tuple[str, dict | None]] = []
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(person, game_id, version), daemon=True)
        self.thread.start()
        assert self.opened.wait(10)

    def _read(self, person: TestClient, game_id: str, version: int) -> None:
        try:
            with person.stream("GET", f"/api/games/{game_id}/events", params={"version": version}) as response:
                self.opened.set()
                for kind, data in read_events(response):
                    if data is not None:
                        self.events.append((kind, data))
        finally:
            self.opened.set()

    def ended(self, timeout: float) -> bool:
        self.thread.join(timeout)
        return not self.thread.is_alive()


def removed_everywhere(friend: TestClient, game_id: str, table_id: str, version: int) -> None:
    """The game and the table answer ``friend`` as they answer a stranger."""
    assert friend.get(f"/api/games/{game_id}").status_code == 404
    assert friend.post(f"/api/games/{game_id}/actions", json={"action": "pass", "version": version}).status_code == 404
    assert friend.get(f"/api/games/{game_id}/events", params={"version": version}).status_code == 404
    assert friend.get(f"/api/games/{game_id}/hint", params={"version": version}).status_code == 404
    assert friend.get(f"/api/games/{game_id}/record").status_code == 404
    assert friend.get(f"/api/tables/{table_id}").status_code == 404


def test_the_host_removes_a_friend_mid_match_and_a_computer_player_plays_at_once(client):
    friend, third = friend_of(client), friend_of(client)
    table = new_table(client)  # (two people and more: a turn clock of 30 s)
    join(friend, table["code"])
    join(third, table["code"])
    game = start(client, table)
    people = {0: client, 1: friend, 2: third}
    state = until_turn_of(1, people, game["id"])
    assert state["deadline_in"] > 20  # his clock runs: the computer player must not wait for it
    stream = Stream(friend, game["id"], state["version"])
    hosts: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(client, game["id"], state["version"], hosts, stop)

    assert third.post(f"/api/tables/{table['id']}/computer", json={"seat": 1}).status_code == 403
    assert client.post(f"/api/tables/{table['id']}/computer", json={"seat": 0}).status_code == 422  # the host stays
    assert client.post(f"/api/tables/{table['id']}/computer", json={"seat": 7}).status_code == 422
    assert load(friend, game["id"])["view"]["seat"] == 1  # (refusals changed nothing)
    answer = client.post(f"/api/tables/{table['id']}/computer", json={"seat": 1})
    assert answer.status_code == 200, answer.text
    assert [s["person"] for s in answer.json()["seats"]] == [True, False, True, False]

    try:  # the host's stream (nobody loads the game meanwhile) tells the computer player's step, long before 30 s
        played = next_of(hosts, "step", timeout=10, version=state["version"] + 1)
        assert played["steps"][0]["seat"] == 1 and "auto" not in played["steps"][0]
    finally:
        stop.set()
    assert stream.ended(10), "the removed person's stream stays open"
    assert stream.events[-1] == ("removed", {"seat": 1})
    removed_everywhere(friend, game["id"], table["id"], state["version"])
    record = client.app.state.room.store.load(game["id"]).record
    assert "auto" not in record  # played by the computer player, not by the clock
    # The others play on; his seat stays the computer player's.
    assert load(third, game["id"])["view"]["seat"] == 2 and load(client, game["id"])["view"]["seat"] == 0


def test_an_open_seat_takes_a_newcomer_who_plays_it_from_its_next_decision(client):
    friend, newcomer, late = friend_of(client), friend_of(client), friend_of(client)
    table = new_table(client, clock=0)
    join(friend, table["code"])
    assert client.post(f"/api/tables/{table['id']}/open", json={"seat": 2}).status_code == 409  # not started
    game = start(client, table)
    assert newcomer.post(f"/api/tables/{table['code']}/join", json={}).status_code == 409  # no seat open
    assert client.post(f"/api/tables/{table['id']}/open", json={"seat": 1}).status_code == 409  # a person's
    assert friend.post(f"/api/tables/{table['id']}/open", json={"seat": 2}).status_code == 403
    opened = client.post(f"/api/tables/{table['id']}/open", json={"seat": 2})
    assert opened.status_code == 200 and [s["open"] for s in opened.json()["seats"]] == [False, False, True, False]
    assert newcomer.post(f"/api/tables/{table['code']}/join", json={"seat": 3}).status_code == 409  # not open

    seated = join(newcomer, table["invite"])
    assert my_seat(seated) == 2 and seated["game_id"] == game["id"] and not any(s["open"] for s in seated["seats"])
    assert late.post(f"/api/tables/{table['code']}/join", json={}).status_code == 409  # taken: none open now
    theirs = load(newcomer, game["id"])
    assert theirs["view"]["seat"] == 2
    assert set(theirs["view"]["hand"]).isdisjoint(load(client, game["id"])["view"]["hand"])
    # From its next decision the seat is his: the computer players wait for him there.
    people = {0: client, 1: friend, 2: newcomer}
    state = until_turn_of(2, people, game["id"])
    time.sleep(0.3)
    assert load(newcomer, game["id"])["version"] == state["version"]  # nobody played it for him
    mine = load(newcomer, game["id"])
    answer = newcomer.post(f"/api/games/{game['id']}/actions",
                           json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    assert answer.status_code == 200 and answer.json()["steps"][0]["seat"] == 2


def test_two_newcomers_for_one_open_seat_one_gets_it(client):
    table = new_table(client, clock=0)
    start(client, table)
    assert client.post(f"/api/tables/{table['id']}/open", json={"seat": 3}).status_code == 200
    comers = [friend_of(client) for _ in range(2)]
    for comer in comers:
        assert comer.post("/api/identity").status_code == 200
    answers: list = []
    threads = [threading.Thread(target=lambda c=c: answers.append(c.post(f"/api/tables/{table['code']}/join", json={})))
               for c in comers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [200, 409]


def test_a_removed_persons_stream_on_another_server_process_ends_once_it_looks(two_processes):
    here, there = two_processes
    friend = friend_of(here)
    table = new_table(here, clock=0)
    join(friend, table["code"])
    game = start(here, table)
    state = wait_for_people(here, game["id"], {0, 1})
    stream = Stream(TestClient(there.app, cookies=friend.cookies), game["id"], state["version"])
    assert here.post(f"/api/tables/{table['id']}/computer", json={"seat": 1}).status_code == 200
    assert stream.ended(10), "the removed person's stream on the other process stays open"
    assert stream.events[-1] == ("removed", {"seat": 1})


def test_seats_changed_mid_match_are_the_ones_kept_once_the_table_is_gone(client):
    """The game keeps its people with it (``game_seats``) for when its table is
    deleted: the removed person stays removed, the newcomer keeps his seat."""
    friend, newcomer = friend_of(client), friend_of(client)
    table = new_table(client, clock=0)
    join(friend, table["code"])
    game = start(client, table)
    assert client.post(f"/api/tables/{table['id']}/computer", json={"seat": 1}).status_code == 200
    assert client.post(f"/api/tables/{table['id']}/open", json={"seat": 2}).status_code == 200
    assert my_seat(join(newcomer, table["code"])) == 2
    store = client.app.state.room.store
    with store.engine.begin() as db:
        db.execute(delete(tables).where(tables.c.id == table["id"]))
    fresh = TestClient(client.app, cookies=newcomer.cookies)
    assert load(fresh, game["id"])["view"]["seat"] == 2
    assert TestClient(client.app, cookies=friend.cookies).get(f"/api/games/{game['id']}").status_code == 404
    assert load(client, game["id"])["view"]["seat"] == 0


def test_every_stream_of_the_match_is_told_each_time_a_seat_changes_hands(client):
    """A friend's page and a watcher's show a seat's new holder without a
    reload: their streams say ``seats`` (with the seat) when the host gives a
    person's seat to a computer player, opens it, and a newcomer takes it."""
    friend, third, newcomer, watcher = (friend_of(client) for _ in range(4))
    table = new_table(client, clock=0)
    join(friend, table["code"])
    join(third, table["code"])
    game = start(client, table)
    state = wait_for_people(client, game["id"], {0, 1, 2})
    inboxes = {name: queue.Queue() for name in ("host", "third", "watcher")}
    stop = threading.Event()
    listen(client, game["id"], state["version"], inboxes["host"], stop)
    listen(third, game["id"], state["version"], inboxes["third"], stop)
    listen(watcher, game["id"], 0, inboxes["watcher"], stop, path=f"/api/watch/{table['watch']}/events")
    try:
        assert client.post(f"/api/tables/{table['id']}/computer", json={"seat": 1}).status_code == 200
        for inbox in inboxes.values():
            assert next_of(inbox, "seats") == {"seat": 1}
        assert client.post(f"/api/tables/{table['id']}/open", json={"seat": 3}).status_code == 200
        for inbox in inboxes.values():
            assert next_of(inbox, "seats") == {"seat": 3}
        assert my_seat(join(newcomer, table["invite"])) == 3
        for inbox in inboxes.values():
            assert next_of(inbox, "seats") == {"seat": 3}
        # A refused change tells nobody anything.
        assert third.post(f"/api/tables/{table['id']}/computer", json={"seat": 0}).status_code == 403
        time.sleep(0.3)
        for inbox in inboxes.values():
            assert all(kind != "seats" for _when, kind, _data in list(inbox.queue))
    finally:
        stop.set()


def test_a_seat_changing_hands_is_told_to_the_streams_on_another_server_process(two_processes):
    here, there = two_processes
    friend, third = friend_of(here), TestClient(there.app)
    table = new_table(here, clock=0)
    join(friend, table["code"])
    join(third, table["code"])
    game = start(here, table)
    state = wait_for_people(here, game["id"], {0, 1, 2})
    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(third, game["id"], state["version"], inbox, stop)
    try:
        assert here.post(f"/api/tables/{table['id']}/computer", json={"seat": 1}).status_code == 200
        assert next_of(inbox, "seats") == {"seat": 1}
    finally:
        stop.set()
