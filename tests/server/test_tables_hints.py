"""The hint at tables: off while more than one person sits unless the host
allowed it (a table setting chosen before the start); alone at a table, as in
a game alone, always offered."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_tables import friend_of, join, load, start
from tests.server.test_tables_seats_in_play import until_turn_of


def hinted_table(host: TestClient, **body) -> dict:
    answer = host.post("/api/tables", json={"game": "euchre", "clock": 0, **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def hint(person: TestClient, game_id: str):
    state = load(person, game_id)
    return person.get(f"/api/games/{game_id}/hint", params={"version": state["version"]})


def test_two_people_get_no_hint_unless_the_host_allowed_it(client):
    friend = friend_of(client)
    table = hinted_table(client)
    assert table["hints"] is False
    join(friend, table["code"])
    game = start(client, table)
    assert game["hints"] is False and load(friend, game["id"])["hints"] is False
    until_turn_of(1, {0: client, 1: friend}, game["id"])
    refused = hint(friend, game["id"])
    assert refused.status_code == 403 and "host" in refused.text


def test_the_host_allows_hints_before_the_start_and_then_every_person_may_ask(client):
    friend = friend_of(client)
    table = hinted_table(client)
    join(friend, table["code"])
    assert friend.post(f"/api/tables/{table['id']}/hints", json={"hints": True}).status_code == 403
    assert client.post(f"/api/tables/{table['id']}/hints", json={"hints": "yes"}).status_code == 422
    assert client.get(f"/api/tables/{table['id']}").json()["hints"] is False  # (refusals changed nothing)
    allowed = client.post(f"/api/tables/{table['id']}/hints", json={"hints": True})
    assert allowed.status_code == 200 and allowed.json()["hints"] is True
    game = start(client, table)
    assert client.post(f"/api/tables/{table['id']}/hints", json={"hints": False}).status_code == 409  # started
    assert game["hints"] is True
    until_turn_of(1, {0: client, 1: friend}, game["id"])
    answer = hint(friend, game["id"])
    assert answer.status_code == 200 and answer.json()["hints"], answer.text


def test_hints_chosen_at_creation_and_alone_at_a_table_always(client):
    assert hinted_table(client, hints=True)["hints"] is True
    assert client.post("/api/tables", json={"game": "euchre", "hints": 1}).status_code == 422
    alone = hinted_table(client)
    game = start(client, alone)
    assert game["hints"] is True  # one person, three computer players: as in a game alone
    until_turn_of(0, {0: client}, game["id"])
    assert hint(client, game["id"]).status_code == 200
