"""Quick match ("play with anyone")."""

from __future__ import annotations

import time

from tests.server.test_tables import friend_of, load

WAIT = 0.6


def quick(person, game: str = "euchre", **options) -> dict:
    answer = person.post("/api/quick-match", json={"game": game, "options": options})
    assert answer.status_code == 200, answer.text
    return answer.json()


def started(person, table_id: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table = person.get(f"/api/tables/{table_id}").json()
        if table["game_id"] is not None:
            return table
        time.sleep(0.05)
    raise TimeoutError("the quick match did not start")


def test_a_quick_match_seats_people_together_and_computers_fill_in_after_the_wait(client):
    client.app.state.quick.wait = WAIT
    friend, other_game = friend_of(client), friend_of(client)
    first = quick(client)
    assert first["quick"] and first["game_id"] is None and 0 < first["starts_in"] <= WAIT
    assert quick(client)["id"] == first["id"]  # asking again keeps the seat
    second = quick(friend)
    assert second["id"] == first["id"] and [s["you"] for s in second["seats"]] == [False, True, False, False]
    assert quick(other_game, "doppelkopf")["id"] != first["id"]  # another game: another table

    opened = time.monotonic()
    table = started(friend, first["id"])
    assert time.monotonic() - opened < WAIT + 2  # nobody waits much longer than the wait
    assert [s["person"] for s in table["seats"]] == [True, True, False, False] and table["starts_in"] is None
    game = load(friend, table["game_id"])
    assert game["view"]["seat"] == 1
    assert load(client, table["game_id"])["view"]["seat"] == 0
    assert quick(friend_of(client))["id"] != first["id"]  # a started table takes nobody


def test_a_quick_match_starts_at_once_with_four_people(client):
    client.app.state.quick.wait = 60.0  # would be far too long: the fourth person starts it
    people = [client, *(friend_of(client) for _ in range(3))]
    seated = [quick(person, "doppelkopf") for person in people]
    assert len({table["id"] for table in seated}) == 1
    assert seated[-1]["game_id"] is not None and seated[-1]["starts_in"] is None
    assert {load(person, seated[-1]["game_id"])["view"]["seat"] for person in people} == {0, 1, 2, 3}
    assert quick(friend_of(client), "doppelkopf")["id"] != seated[0]["id"]  # full and started: a new one
    assert seated[0]["id"] not in client.app.state.quick._timers  # started sooner: its timer is cancelled


def test_options_must_match_and_a_lost_timer_starts_at_the_next_look(client):
    quick_match = client.app.state.quick
    quick_match.wait = 2.0  # (four requests must fit in before joining stops)
    quick_match._later = lambda _delay, _run: (lambda: None)  # as if the process had stopped before its timer ran
    friend, other = friend_of(client), friend_of(client)
    first = quick(client)
    catalog = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    option = next(o for o in catalog["euchre"]["options"] if len(o["choices"]) > 1)
    other_value = next(c for c in option["choices"] if c != option["default"])
    assert quick(other, **{option["name"]: other_value})["id"] != first["id"]
    assert quick(friend, **{option["name"]: option["default"]})["id"] == first["id"]  # the defaults, spelt out
    assert client.get(f"/api/tables/{first['id']}").json()["game_id"] is None
    time.sleep(max(0.0, client.get(f"/api/tables/{first['id']}").json()["starts_in"]) + 0.05)
    assert client.get(f"/api/tables/{first['id']}").json()["game_id"] is not None


def test_a_quick_match_refuses_bad_requests(client):
    assert client.post("/api/quick-match", json={"game": "no-such-game"}).status_code == 404
    assert client.post("/api/quick-match", json={"game": "euchre", "options": {"person_seat": 1}}).status_code == 422
    assert client.post("/api/quick-match", json={"game": "euchre", "options": {"x": [1]}}).status_code == 422
    assert client.post("/api/quick-match", json={"options": {}}).status_code == 422
