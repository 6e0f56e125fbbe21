"""Real server processes: two servers sharing one PostgreSQL database, a
server killed with SIGKILL mid-game, also in the middle of the computer
players' turn, whose successor resumes the same game, and the supervisor of
several workers killed with SIGKILL, whose workers must not keep the port."""

from __future__ import annotations

import os
import random
import socket
import threading
import time

import httpx

from tricktable.catalog import replay
from tests.harness import ServerProcess, act, frame_view, read_events, same_person, settle
from tricktable.store import Store


def play(http: httpx.Client, state: dict, rng: random.Random) -> dict:
    return act(http, state, rng.choice(state["view"]["legal"]))


def test_two_servers_on_one_postgres_database(postgres):
    url = postgres.new_database()
    first, second = ServerProcess(url).start(), ServerProcess(url).start()
    try:
        clients = [httpx.Client(base_url=first.url, timeout=30), httpx.Client(base_url=second.url, timeout=30)]
        same_person(*clients)
        state = settle(clients[0], clients[0].post("/api/games", json={"game": "euchre"}).json())
        rng, turn = random.Random(5), 0
        while not state["view"]["terminal"]:
            state = play(clients[turn % 2], state, rng)  # requests alternate between processes
            turn += 1
        assert turn > 10
        # Both processes share the daily secret, so both give the same deal.
        one = settle(clients[0], clients[0].post("/api/daily/euchre").json())
        with httpx.Client(base_url=second.url, timeout=30) as someone_else:  # its own identity cookie
            two = someone_else.post("/api/daily/euchre").json()
        # (The commitment to the day's seed: the computer players differ per attempt.)
        assert one["fairness"]["commitment"] == two["fairness"]["commitment"] and one["id"] != two["id"]
        # A race across processes: the same version sent to both; one wins.
        outcomes = []

        def send(http: httpx.Client) -> None:
            answer = http.post(f"/api/games/{one['id']}/actions",
                               json={"action": one["view"]["legal"][0], "version": one["version"]})
            outcomes.append(answer.status_code)

        threads = [threading.Thread(target=send, args=(http,)) for http in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == [200, 409]
        final = clients[1].get(f"/api/games/{one['id']}").json()
        assert final["version"] > one["version"]
        told = [d for k, d in events_after(clients[1], one["id"], one["version"], final["version"])]
        assert told[0]["steps"][0]["seat"] == 0  # exactly one person's action at that version
        for http in clients:
            http.close()
    finally:
        first.stop()
        second.stop()


def events_after(http: httpx.Client, game_id: str, version: int, until: int) -> list[tuple[str, dict]]:
    """The step events after ``version`` up to ``until`` (catch-up only)."""
    out = []
    with http.stream("GET", f"/api/games/{game_id}/events", params={"version": version}) as response:
        for kind, data in read_events(response):
            if data is not None and kind == "step":
                out.append((kind, data))
                if data["version"] >= until:
                    break
    return out


def test_kill_9_mid_game_loses_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    server = ServerProcess(url).start()
    rng = random.Random(9)
    try:
        http = httpx.Client(base_url=server.url, timeout=30)
        state = settle(http, http.post("/api/games", json={"game": "euchre"}).json())
        for _ in range(6):
            state = play(http, state, rng)
        server.kill()  # SIGKILL: no shutdown handler runs
        server = ServerProcess(url, port=server.port).start()
        resumed = http.get("/api/games/" + state["id"]).json()
        assert (resumed["version"], frame_view(resumed["view"])) == (state["version"], frame_view(state["view"]))
        state = resumed
        while not state["view"]["terminal"]:
            state = play(http, state, rng)
        assert max(state["view"]["match"]["team_points"]) >= 10
        http.close()
    finally:
        server.stop()


def acknowledged_until_a_computer_player_thinks(http: httpx.Client, state: dict) -> tuple[dict, dict]:
    """The person acts (first legal action) until a computer player's step is
    acknowledged and another computer player is thinking after it; a step that
    gives the turn back to the person (a deal where one bot moves before him)
    means acting again.  The acknowledged views by version, and the person's last answer."""
    acknowledged: dict = {}
    while True:
        mine = http.post(f"/api/games/{state['id']}/actions",
                         json={"action": state["view"]["legal"][0], "version": state["version"]}).json()
        assert mine["thinking"] is not None
        acknowledged[mine["version"]] = mine["view"]
        with http.stream("GET", f"/api/games/{mine['id']}/events", params={"version": mine["version"]}) as response:
            for kind, data in read_events(response):
                if kind == "step":
                    acknowledged[data["version"]] = data["view"]
                    state = data
                    break
        if state["thinking"] is not None:  # the next computer player is thinking now
            return acknowledged, mine


def test_kill_9_during_the_computer_players_turn_and_the_restarted_server_finishes_it(tmp_path):
    """The real (searching) computer players are killed mid-thought; every step
    acknowledged before is kept, and the new server finishes their turn by
    itself (its start-up scan; nobody loads the game)."""
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    server = ServerProcess(url, bot=None).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=60)
        state = settle(http, http.post("/api/games", json={"game": "doppelkopf", "level": "hard"}).json())
        acknowledged, mine = acknowledged_until_a_computer_player_thinks(http, state)
        server.kill()
        server = ServerProcess(url, bot=None, port=server.port).start()
        store, deadline = Store(url), time.monotonic() + 90
        try:  # watch the database only: no request wakes the game, the start-up scan must
            while replay(store.load(mine["id"]).record).to_move != 0:
                assert time.monotonic() < deadline, "the restarted server did not finish the bots' turn"
                time.sleep(0.2)
        finally:
            store.close()
        told = {}
        with http.stream("GET", f"/api/games/{mine['id']}/events", params={"version": state["version"]}) as response:
            for kind, data in read_events(response):
                if kind == "step":
                    told[data["version"]] = data["view"]
                    if data["thinking"] is None:
                        break
        for version, view in acknowledged.items():
            assert told[version] == view, f"version {version} changed after the restart"
        last = max(told)
        assert last > max(acknowledged) and sorted(told) == list(range(state["version"] + 1, last + 1))
        final = http.get(f"/api/games/{mine['id']}").json()
        assert final["version"] == last and final["thinking"] is None
        http.close()
    finally:
        server.stop()



def all_below(pid: int) -> list[int]:
    """Every process below ``pid`` (from /proc: Linux, the server's host)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as children:
                    todo += [int(child) for child in children.read().split()]
            except OSError:
                pass
        if parent != pid:
            found.append(parent)
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_workers_of_a_supervisor_killed_with_sigkill_stop_and_free_the_port(tmp_path):
    """``serve --workers 2``: uvicorn's supervisor is killed with SIGKILL, which
    it cannot pass on; its workers (and their thinking processes) still stop,
    so the port is free for the next server."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'workers.db'}", workers=2).start()
    below: list[int] = []
    try:
        deadline = time.monotonic() + 15
        while len(below) < 4 and time.monotonic() < deadline:  # two workers, a thinking process each
            time.sleep(0.2)
            below = [pid for pid in all_below(server.process.pid) if alive(pid)]
        assert len(below) >= 2, f"expected the workers below the supervisor, found {below}"
        server.kill()  # SIGKILL to the supervisor alone
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (any(alive(pid) for pid in below) or not port_is_free(server.port)):
            time.sleep(0.2)
        assert not [pid for pid in below if alive(pid)], "orphaned workers are still running"
        assert port_is_free(server.port)
    finally:
        server.kill()
        for pid in below:
            if alive(pid):
                os.kill(pid, 9)
