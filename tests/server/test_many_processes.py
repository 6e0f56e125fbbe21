"""Several server processes on one database, on SQLite and on a
throwaway PostgreSQL: a game played alternately through both, live updates
seen from the other process, and a bot turn finished by the survivor after
the process working it was killed mid-thought."""

from __future__ import annotations

import queue
import random
import threading
import time

import httpx
import pytest

from tricktable.catalog import replay
from tests.harness import ServerProcess, listen, read_events, same_person
from tricktable.store import Store

LEASE_SECONDS = "2"


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    return request.getfixturevalue("postgres").new_database()


def wait_for_step(events: "queue.Queue[tuple[float, str, dict]]", version: int, timeout: float = 30) -> float:
    """When the step (or state) with ``version`` arrived."""
    deadline = time.monotonic() + timeout
    while True:
        arrived, kind, data = events.get(timeout=max(0.01, deadline - time.monotonic()))
        if kind in ("step", "state") and data["version"] >= version:
            return arrived


def test_a_game_played_through_two_processes_is_seen_live_from_the_other(shared_url):
    servers = [ServerProcess(shared_url), ServerProcess(shared_url)]
    stop = threading.Event()
    try:
        for server in servers:  # started inside the try: a failed start stops the other one too
            server.start()
        clients = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
        same_person(*clients)  # one person, a tab on each process
        rng, turn, delays, played = random.Random(3), 0, [], []
        deadline = time.monotonic() + 300
        while turn < 20:  # a match may end early (random players): then another one, until 20 actions
            state = clients[len(played) % 2].post("/api/games", json={"game": "euchre"}).json()
            watched: "queue.Queue[tuple[float, str, dict]]" = queue.Queue()
            listen(clients[0], state["id"], state["version"], watched, stop)  # a tab on process A
            state = clients[1].get(f"/api/games/{state['id']}").json()
            while not state["view"]["terminal"] and turn < 40:
                # The computer players' turn; it may end the match, leaving the person nothing to do.
                while (state["thinking"] is not None or not state["view"]["legal"]) and not state["view"]["terminal"]:
                    assert time.monotonic() < deadline, "the computer players never handed the turn back"
                    time.sleep(0.05)
                    state = clients[turn % 2].get(f"/api/games/{state['id']}").json()
                if state["view"]["terminal"]:
                    break
                http = clients[turn % 2]  # the person's actions alternate between the processes
                sent = time.monotonic()
                answer = http.post(f"/api/games/{state['id']}/actions",
                                   json={"action": rng.choice(state["view"]["legal"]), "version": state["version"]})
                assert answer.status_code == 200, answer.text
                mine = answer.json()
                arrived = wait_for_step(watched, mine["version"])  # process A's stream tells it
                if turn % 2:
                    delays.append(arrived - sent)
                state = http.get(f"/api/games/{mine['id']}").json()
                turn += 1
            while state["thinking"] is not None:  # the computer players' last answers
                time.sleep(0.05)
                state = clients[0].get(f"/api/games/{state['id']}").json()
            played.append(state)
        # Everything both processes committed is one record per game that replays.
        store = Store(shared_url)
        try:
            for state in played:
                row = store.load(state["id"])
                assert row is not None and replay(row.record).view(0)["actions"] == state["view"]["actions"]
        finally:
            store.close()
        delays.sort()
        print(f"\nmove committed by B seen on A's stream: median {delays[len(delays) // 2] * 1000:.0f} ms, "
              f"max {delays[-1] * 1000:.0f} ms (n={len(delays)}; includes B's answer)")
    finally:
        stop.set()
        for server in servers:
            server.stop()


def test_a_bot_turn_is_finished_by_the_survivor_when_its_process_is_killed_mid_thought(shared_url):
    """The hard computer players think in process A (it took the turn's
    lease); A is killed -9 while one of them thinks; B, which nobody asks,
    takes the turn over once the lease ran out and finishes it.  A stream on
    B is told that a computer player thinks meanwhile."""
    env = {"TRICKTABLE_LEASE_SECONDS": LEASE_SECONDS}
    first = ServerProcess(shared_url, bot=None, env=env)
    second = ServerProcess(shared_url, bot=None, env=env)
    store = Store(shared_url)
    try:
        first.start()
        second.start()
        http = httpx.Client(base_url=first.url, timeout=60)
        state = http.post("/api/games", json={"game": "doppelkopf", "level": "hard"}).json()
        deadline = time.monotonic() + 90
        while True:
            while state["thinking"] is not None:  # the computer players' moves, worked by A
                time.sleep(0.1)
                state = http.get(f"/api/games/{state['id']}").json()
                assert time.monotonic() < deadline
            if state["view"]["phase"] == "play":
                break
            # The reservations first: the computer players decide them by the rules, so
            # fast that their turn could end before the kill; their cards are searched.
            state = http.post(f"/api/games/{state['id']}/actions",
                              json={"action": state["view"]["legal"][0], "version": state["version"]}).json()
        from sqlalchemy import select

        from tricktable.store.schema import games

        def lease_holder(game_id: str) -> str | None:
            with store.engine.begin() as db:
                owner: str | None = db.execute(select(games.c.lease_owner).where(games.c.id == game_id)).scalar()
                return owner

        holder = None
        while holder is None:
            legal = state["view"]["legal"]
            card = next((text for text in legal if text.startswith("play ")), legal[0])  # (a new deal: its first bid)
            mine = http.post(f"/api/games/{state['id']}/actions", json={"action": card, "version": state["version"]}).json()
            if mine["thinking"] is not None:
                # A took the turn's lease with her card; the bots may still end it before we
                # look (forced cards are played at once): then she plays on.
                holder = lease_holder(mine["id"])
            if holder is None:
                state = http.get(f"/api/games/{state['id']}").json()
                while state["thinking"] is not None:
                    time.sleep(0.1)
                    state = http.get(f"/api/games/{state['id']}").json()
                assert time.monotonic() < deadline, "nobody took the computer players' turn"
        assert f":{first.process.pid}:" in holder  # A works the turn it was asked for
        # SIGKILL at once while A's computer players think: the bots are fast enough
        # (the compiled kernels) to finish a turn while a stream on B is being opened.
        first.kill()
        before = store.load(mine["id"])
        assert before is not None and replay(before.record).to_move != 0
        with httpx.Client(base_url=second.url, timeout=30) as other:
            same_person(http, other)
            with other.stream("GET", f"/api/games/{mine['id']}/events", params={"version": mine["version"]}) as seen:
                kinds = []
                for kind, data in read_events(seen):
                    kinds.append(kind)
                    if kind == "thinking" or (kind == "step" and data["thinking"] is None):
                        break
                assert "thinking" in kinds  # B tells its tab that a computer player thinks (A's lease, then B's own)
        while True:
            row = store.load(mine["id"])
            assert row is not None
            if replay(row.record).to_move == 0:
                break
            assert time.monotonic() < deadline + 60, "the surviving process did not finish the bots' turn"
            time.sleep(0.2)
        assert row.version > before.version
        with httpx.Client(base_url=second.url, timeout=30) as tab:
            same_person(http, tab)
            final = tab.get(f"/api/games/{mine['id']}").json()
        assert final["version"] == row.version and final["thinking"] is None
        http.close()
    finally:
        store.close()
        first.stop()
        second.stop()
