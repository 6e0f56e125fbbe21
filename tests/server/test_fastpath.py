"""The person's action answered without FastAPI (``server/fastpath.py``)
answers exactly what the FastAPI route answers.

A body with one more key is not the fast path's (it takes exactly ``action``
and ``version``) and reaches the route, which ignores the key: so each case is
sent both ways, to twin games (the same deal, the same computer players), and
the two answers compared."""

from __future__ import annotations

import pytest

from tricktable.server.http import fastpath
from tests.harness import identity_of, settle


def twins(client) -> tuple[dict, dict]:
    room = client.app.state.room
    made = [room.new_game("euchre", {}, seed="twins", owner=identity_of(client)) for _ in range(2)]
    for game in made:
        room.resume(game["id"])
    return settle(client, made[0]), settle(client, made[1])


def both_ways(client, first: dict, second: dict, action: str, version_shift: int = 0, **headers: str):
    """The answer of the fast path (first game) and of the route (second game)."""
    fast = client.post(f"/api/games/{first['id']}/actions", headers=headers,
                       json={"action": action, "version": first["version"] + version_shift})
    routed = client.post(f"/api/games/{second['id']}/actions", headers=headers,
                         json={"action": action, "version": second["version"] + version_shift, "via": "route"})
    return fast, routed


def comparable(answer) -> tuple:
    body = answer.json()
    if answer.status_code == 200:  # the twins differ only in their ids and fairness commitments
        body = {key: value for key, value in body.items() if key not in ("id", "fairness")}
    headers = {key: answer.headers.get(key) for key in ("content-type", "retry-after", "vary",
                                                        "content-security-policy", "x-content-type-options")}
    return answer.status_code, body, headers


def test_the_fast_path_answers_what_the_route_answers(client, monkeypatch):
    taken = []
    real = fastpath.FastActions._act
    monkeypatch.setattr(fastpath.FastActions, "_act", lambda self, *args: taken.append(args[1]) or real(self, *args))
    first, second = twins(client)
    assert first["view"] == second["view"]
    action = first["view"]["legal"][0]
    fast, routed = both_ways(client, first, second, action)
    assert comparable(fast) == comparable(routed) and fast.status_code == 200
    assert taken == [action]  # (one of the two went the fast way, the other not)
    first, second = settle(client, fast.json()), settle(client, routed.json())
    for case, shift in (("play 2X", 0), ("not an action", 0), (action, -1), (action, 5)):  # illegal, unknown, stale
        fast, routed = both_ways(client, first, second, case, shift)
        assert fast.status_code in (409, 422), fast.text
        assert comparable(fast) == comparable(routed)
    missing = client.post("/api/games/nope/actions", json={"action": "pass", "version": 1})
    assert (missing.status_code, missing.json()) == (404, {"detail": "no such game"})


def test_the_fast_path_checks_the_identity_as_the_route_does(client):
    first, second = twins(client)
    forged = {"Cookie": "tt_identity=someone.c2lnbmVk"}
    client.cookies.clear()
    fast, routed = both_ways(client, first, second, first["view"]["legal"][0], **forged)
    assert fast.status_code == 403 and comparable(fast) == comparable(routed)
    fast, routed = both_ways(client, first, second, first["view"]["legal"][0], Cookie="tt_identity=unsigned")
    assert fast.status_code == 401 and comparable(fast) == comparable(routed)


def test_the_fast_path_compresses_a_large_answer_for_a_client_that_takes_gzip(client):
    first, _second = twins(client)
    raw = client.post(f"/api/games/{first['id']}/actions", headers={"Accept-Encoding": "gzip"},
                      json={"action": first["view"]["legal"][0], "version": first["version"]})
    assert raw.status_code == 200 and raw.headers["content-encoding"] == "gzip"
    assert raw.headers["vary"] == "Accept-Encoding"
    assert raw.json()["version"] == first["version"] + 1  # (httpx took the gzip off)


@pytest.mark.parametrize("body", [b'{"action": "pass", "version": "1"}', b'{"action": "pass", "version": true}',
                                  b'{"action": "", "version": 1}', b'{"action": "pass"}', b"[1,", b'"pass"'])
def test_a_body_the_fast_path_does_not_take_gets_the_routes_422(client, body):
    first, _second = twins(client)
    answer = client.post(f"/api/games/{first['id']}/actions", content=body,
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 422 and "invalid request" in answer.json()["detail"]
    assert client.get(f"/api/games/{first['id']}").json()["version"] == first["version"]  # nothing changed
