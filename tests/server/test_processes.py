"""Real server processes: two servers sharing one PostgreSQL database, and a
server killed with SIGKILL mid-game that resumes the same game."""

from __future__ import annotations

import random
import threading

import httpx

from tricktable.server.testing import ServerProcess


def play(http: httpx.Client, base: str, state: dict, rng: random.Random) -> dict:
    answer = http.post(f"{base}/api/games/{state['id']}/actions",
                       json={"action": rng.choice(state["view"]["legal"]), "version": state["version"]})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_two_servers_on_one_postgres_database(postgres):
    url = postgres.new_database()
    first, second = ServerProcess(url).start(), ServerProcess(url).start()
    try:
        with httpx.Client(timeout=30) as http:
            state = http.post(f"{first.url}/api/games", json={"game": "euchre"}).json()
            rng, servers, turn = random.Random(5), [first.url, second.url], 0
            while not state["view"]["terminal"]:
                state = play(http, servers[turn % 2], state, rng)  # requests alternate between processes
                turn += 1
            assert turn > 10
            # Both processes share the daily secret, so both give the same deal.
            one = http.post(f"{first.url}/api/daily/euchre").json()
            with httpx.Client(timeout=30) as someone_else:  # its own identity cookie
                two = someone_else.post(f"{second.url}/api/daily/euchre").json()
            # (The commitment to the day's seed: the computer players differ per attempt, so
            # the first view may already be in another deal when a partner went alone.)
            assert one["fairness"]["commitment"] == two["fairness"]["commitment"] and one["id"] != two["id"]
            # A race across processes: the same version sent to both; one wins.
            outcomes = []

            def send(base: str) -> None:
                answer = http.post(f"{base}/api/games/{one['id']}/actions",
                                   json={"action": one["view"]["legal"][0], "version": one["version"]})
                outcomes.append(answer.status_code)

            threads = [threading.Thread(target=send, args=(base,)) for base in servers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(outcomes) == [200, 409]
            final = http.get(f"{second.url}/api/games/{one['id']}").json()
            assert final["version"] == one["version"] + 1
    finally:
        first.stop()
        second.stop()


def test_kill_9_mid_game_loses_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    server = ServerProcess(url).start()
    rng = random.Random(9)
    try:
        with httpx.Client(timeout=30) as http:
            state = http.post(f"{server.url}/api/games", json={"game": "euchre"}).json()
            for _ in range(6):
                state = play(http, server.url, state, rng)
            server.kill()  # SIGKILL: no shutdown handler runs
            server = ServerProcess(url, port=server.port).start()
            resumed = http.get(f"{server.url}/api/games/{state['id']}").json()
            assert (resumed["version"], resumed["view"]) == (state["version"], state["view"])
            state = resumed
            while not state["view"]["terminal"]:
                state = play(http, server.url, state, rng)
            assert max(state["view"]["match"]["team_points"]) >= 10
    finally:
        server.stop()
