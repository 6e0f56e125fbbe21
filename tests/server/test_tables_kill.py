"""A real server process killed with SIGKILL in the middle of a trick at a
table of two people (and two computer players): every acknowledged action is
in the record, each person's stream, reconnecting with its ``Last-Event-ID``,
gets exactly the steps it missed (its own seat's views, no other seat's
cards), and the match goes on."""

from __future__ import annotations

import threading
import time

import httpx

from tests.harness import ServerProcess, read_events
from tests.server.test_api import strings_in
from tests.server.test_tables import state_at
from tricktable.store import Store

PEOPLE = (0, 1)


class LiveStream:
    """A seat's event stream read in a thread until it breaks (the server is
    killed) or it has told ``until`` (then the client closes it)."""

    def __init__(self, http: httpx.Client, game_id: str, version: int, until: int | None = None):
        self.seen = version
        self.until = until
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(http, game_id), daemon=True)
        self.thread.start()
        assert self.opened.wait(10)

    def _read(self, http: httpx.Client, game_id: str) -> None:
        try:
            with http.stream("GET", f"/api/games/{game_id}/events", params={"version": self.seen}) as response:
                self.opened.set()
                for kind, data in read_events(response):
                    if kind in ("step", "state"):
                        self.seen = data["version"]
                        if self.until is not None and self.seen >= self.until:
                            return
        except httpx.HTTPError:
            pass  # the server was killed under it
        finally:
            self.opened.set()


def person_to_move(http: httpx.Client, game_id: str, timeout: float = 20.0) -> dict:
    """The game once the computer players have moved and a person is to move."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = http.get(f"/api/games/{game_id}").json()
        if state["thinking"] is None and state["view"]["to_move"] in PEOPLE:
            return state
        time.sleep(0.02)
    raise TimeoutError("the computer players did not move")


def act(people: dict[int, httpx.Client], game_id: str, acknowledged: dict[int, str]) -> dict:
    """The person to move plays his first legal action; its answer, noted as acknowledged."""
    state = person_to_move(people[0], game_id)
    mover = people[state["view"]["to_move"]]
    mine = mover.get(f"/api/games/{game_id}").json()
    answer = mover.post(f"/api/games/{game_id}/actions",
                        json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    assert answer.status_code == 200, answer.text
    told = answer.json()
    acknowledged[told["version"]] = told["steps"][0]["text"]
    return told


def mid_trick(people: dict[int, httpx.Client], game_id: str, acknowledged: dict[int, str], at_least: int = 0) -> dict:
    """Act on until a trick is part played and a person is to move in it
    (and ``at_least`` actions are acknowledged): the game then."""
    state = person_to_move(people[0], game_id)
    while not (state["view"]["phase"] == "play" and state["view"]["trick"] and len(acknowledged) >= at_least):
        act(people, game_id, acknowledged)
        state = person_to_move(people[0], game_id)
    return state


def others_cards(record: dict, version: int, seat: int) -> set[str]:
    """The cards in the other seats' hands at ``version`` (the up-card is shown to all)."""
    deal = state_at(record, version).current
    held = 0
    for other, hand in enumerate(deal.hands):
        if other != seat:
            held |= hand
    held &= ~(1 << deal.up_card)
    return {deal.action_text(card).split()[-1] for card in range(52) if held >> card & 1}


def test_kill_9_mid_trick_at_a_table_loses_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'table-crash.db'}"
    server = ServerProcess(url).start()
    people = {seat: httpx.Client(base_url=server.url, timeout=30) for seat in PEOPLE}
    try:
        table = people[0].post("/api/tables", json={"game": "euchre", "clock": 0}).json()
        assert people[1].post(f"/api/tables/{table['code']}/join", json={}).json()["seats"][1]["you"]
        game_id = people[0].post(f"/api/tables/{table['id']}/start").json()["id"]
        acknowledged: dict[int, str] = {}
        state = mid_trick(people, game_id, acknowledged, at_least=3)
        # The friend's stream stops two actions before the kill; the host's is open when the server dies.
        streams = {1: LiveStream(people[1], game_id, 1, until=state["version"]),
                   0: LiveStream(people[0], game_id, 1)}
        streams[1].thread.join(10)
        act(people, game_id, acknowledged)
        act(people, game_id, acknowledged)
        mid_trick(people, game_id, acknowledged)
        last = max(acknowledged)
        server.kill()  # SIGKILL: no shutdown handler runs
        for stream in streams.values():
            stream.thread.join(10)
        last_ids = {seat: stream.seen for seat, stream in streams.items()}
        assert last_ids[1] < last  # the friend's stream missed steps

        server = ServerProcess(url, port=server.port).start()
        store = Store(url)
        try:
            row = store.load(game_id)
        finally:
            store.close()
        record, stored = row.record, row.version
        base = record["version_base"]
        for version, text in acknowledged.items():
            assert record["actions"][base["actions"] + version - base["version"] - 1] == text, version
        assert stored >= last

        for seat, http in people.items():
            told = []
            with http.stream("GET", f"/api/games/{game_id}/events", params={"version": 0},
                             headers={"Last-Event-ID": str(last_ids[seat])}) as response:
                assert response.status_code == 200
                if last_ids[seat] < stored:
                    for kind, data in read_events(response):
                        if kind in ("step", "state"):
                            told.append((kind, data))
                            if data["version"] >= stored:
                                break
            assert [kind for kind, _ in told] == ["step"] * (stored - last_ids[seat])
            assert [data["version"] for _, data in told] == list(range(last_ids[seat] + 1, stored + 1))
            for _, data in told:
                assert data["view"]["seat"] == seat
                hidden = others_cards(record, data["version"], seat)
                assert hidden and not hidden & strings_in({k: v for k, v in data["view"].items() if k != "match"})

        # The match goes on: the next person acts, and the computer players answer.
        after = act(people, game_id, acknowledged)
        assert after["version"] == stored + 1
        assert person_to_move(people[0], game_id)["version"] > after["version"] or after["thinking"] is None
    finally:
        for http in people.values():
            http.close()
        server.stop()
