"""``serve --workers N`` steers each client's connections to one worker by her
address (two workers >= 1.6x one; ``tricktable/server/steering.py``),
so her stream is on the process that commits her actions and no step has to
cross to another process through the database."""

from __future__ import annotations

import os
import queue
import random
import signal
import socket
import sqlite3
import threading
import time

import httpx
import pytest

from tricktable.server.process.steering import listening_sockets, socket_for
from tests.harness import ServerProcess, free_port, listen, same_person


def accepted_by(sockets: list[socket.socket], port: int, address: str) -> int:
    """Which of ``sockets`` accepts a connection from ``address``."""
    with socket.create_connection(("127.0.0.1", port), source_address=(address, 0)):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            for index, listener in enumerate(sockets):
                try:
                    connection, _ = listener.accept()
                except BlockingIOError:
                    continue
                connection.close()
                return index
            time.sleep(0.001)
    raise AssertionError(f"nobody accepted the connection from {address}")


def word(address: str) -> int:
    return int.from_bytes(socket.inet_aton(address), "big")


@pytest.fixture
def group(request):
    """(sockets, port) of a steered group of ``request.param`` (count, steer)."""
    count, steer = request.param
    port = free_port()
    sockets = listening_sockets("127.0.0.1", port, count, steer)
    for listener in sockets:
        listener.setblocking(False)
    yield sockets, port
    for listener in sockets:
        listener.close()


@pytest.mark.parametrize("group", [(2, "address"), (3, "address")], indirect=True)
def test_a_clients_connections_all_reach_the_socket_her_address_names(group):
    sockets, port = group
    addresses = [f"127.0.0.{last}" for last in range(2, 14)]
    for address in addresses * 3:
        assert accepted_by(sockets, port, address) == socket_for(word(address), len(sockets)), address
    assert {socket_for(word(address), len(sockets)) for address in addresses} == set(range(len(sockets)))


@pytest.mark.parametrize("group", [(2, "address"), (2, "none")], indirect=True, ids=["local-proxy", "steer-none"])
def test_a_local_proxy_and_steer_none_are_spread_by_the_system(group, request):
    """127.0.0.1 is what a proxy on this machine connects from: steering all its
    connections to one worker would leave the others idle; so would steering
    by the balancer's address, which ``--steer none`` is for."""
    sockets, port = group
    address = "127.0.0.1" if "local-proxy" in request.node.name else "127.0.0.9"
    reached = {accepted_by(sockets, port, address) for _ in range(40)}  # all to one: 2 ** -39
    assert reached == {0, 1}


def frames_after(database: str, game_id: str, version: int) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM frames WHERE game_id = ? AND version > ?",
                          (game_id, version)).fetchone()[0]


def test_a_person_on_two_workers_is_told_her_steps_by_the_process_that_committed_them(tmp_path):
    """Two workers: in each of twelve matches the person's page opens its stream
    and sends her action on connections of their own, as a browser does.  The
    process that commits her action and the computer players' answer has her
    stream itself, so it stores no step frame for another process.  (Spread by
    the system, stream and actions meet on one process in half the matches:
    all twelve by chance, 1 in 4,096.)"""
    database = tmp_path / "steered.db"
    server = ServerProcess(f"sqlite:///{database}", workers=2).start()
    rng = random.Random(5)
    person = "127.0.0.23"
    try:
        for match in range(12):
            page = httpx.Client(base_url=server.url, timeout=30, transport=httpx.HTTPTransport(local_address=person))
            stream = httpx.Client(base_url=server.url, timeout=30,
                                  transport=httpx.HTTPTransport(local_address=person))
            same_person(page, stream)
            stop = threading.Event()  # the match's stream ends with it: closing its client then is no error
            try:
                state = page.post("/api/games", json={"game": "euchre"}).json()
                state = wait_for_turn(page, state)
                events: "queue.Queue[tuple[float, str, dict]]" = queue.Queue()
                listen(stream, state["id"], state["version"], events, stop)
                answer = page.post(f"/api/games/{state['id']}/actions",
                                   json={"action": rng.choice(state["view"]["legal"]), "version": state["version"]})
                assert answer.status_code == 200, answer.text
                told = until_settled(events, answer.json()["version"])
                assert told["version"] > state["version"]
                assert frames_after(str(database), state["id"], state["version"]) == 0, f"match {match}"
            finally:
                stop.set()
                page.close()
                stream.close()
    finally:
        server.stop()


def wait_for_turn(http: httpx.Client, state: dict) -> dict:
    """The game once the person may act (the computer players' opening moves done)."""
    deadline = time.monotonic() + 30
    while state["thinking"] is not None or not state["view"]["legal"]:
        assert time.monotonic() < deadline, "the computer players never handed the turn over"
        time.sleep(0.05)
        state = http.get(f"/api/games/{state['id']}").json()
    return state


def until_settled(events: "queue.Queue[tuple[float, str, dict]]", version: int) -> dict:
    """The stream's steps until the computer players have answered the action at ``version``."""
    while True:
        _arrived, kind, data = events.get(timeout=30)
        if kind in ("step", "state") and data["version"] >= version and data["thinking"] is None:
            return data


def workers_of(supervisor: int) -> set[int]:
    """The server processes ``serve --workers`` started (its direct children but
    multiprocessing's resource tracker)."""
    found = set()
    for task in os.listdir(f"/proc/{supervisor}/task"):
        with open(f"/proc/{supervisor}/task/{task}/children") as children:
            for child in children.read().split():
                try:
                    with open(f"/proc/{child}/cmdline", "rb") as cmdline:
                        command = cmdline.read()
                except OSError:
                    continue
                if b"spawn_main" in command and b"resource_tracker" not in command:
                    found.add(int(child))
    return found


def test_a_worker_killed_with_sigkill_is_started_again_on_its_socket(tmp_path):
    """Steering names sockets, so a dead worker's people keep being sent to its
    socket: the supervisor starts a new worker on it, and the connections that
    came meanwhile wait in its queue, then are served (they would wait for
    ever if nobody took the socket over)."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'restart.db'}", workers=2).start()
    try:
        assert server.process is not None
        deadline = time.monotonic() + 60
        while len(before := workers_of(server.process.pid)) < 2:
            assert time.monotonic() < deadline, "the two workers did not start"
            time.sleep(0.1)
        os.kill(min(before), signal.SIGKILL)
        addresses = [f"127.0.0.{last}" for last in range(2, 14)]  # both sockets (the test above)
        for address in addresses:
            with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=60) as http:
                assert http.get(f"{server.url}/healthz").status_code == 200, address
        after = workers_of(server.process.pid)
        assert len(after) == 2 and min(before) not in after
    finally:
        server.stop()
