"""Passkeys through the API, answered by a software authenticator: register
one to an identity, sign in with it from a fresh client (the identity, its
nickname and games come back), and every refusal: a replayed or expired
challenge, a challenge of another identity, a counter that did not grow,
another identity's passkey."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from tricktable.server.trust.identity import COOKIE
from tricktable.server.trust.passkeys import CHALLENGE_SECONDS
from tests.harness import act, backdate_identities, finish, identity_of, settle
from tests.server.soft_authenticator import create, get

ORIGIN = "http://testserver"  # the TestClient's


def register(client: TestClient):
    options = client.post("/api/passkeys/register/options").json()
    credential, answer = create(options, ORIGIN)
    added = client.post("/api/passkeys/register", json={"credential": answer})
    assert added.status_code == 201, added.text
    return credential


def sign_in(client: TestClient, credential, **kwargs):
    options = client.post("/api/passkeys/sign-in/options").json()
    return client.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN, **kwargs)})


def test_a_passkey_brings_the_identity_and_its_nickname_back(client):
    assert client.put("/api/nickname", json={"nickname": "Kiri"}).status_code == 200
    owner = identity_of(client)
    options = client.post("/api/passkeys/register/options").json()
    assert options["rp"]["id"] == "testserver" and options["authenticatorSelection"]["residentKey"] == "required"
    assert owner not in str(options)  # the user handle is derived, never the id (the cookie's secret)
    credential = register(client)
    with TestClient(client.app) as cleared:  # a cleared browser: no cookie
        answer = sign_in(cleared, credential)
        assert answer.status_code == 200, answer.text
        assert answer.json()["nickname"] == "Kiri"
        assert cleared.cookies[COOKIE] == client.cookies[COOKIE]
        assert [p["id"] for p in cleared.get("/api/passkeys").json()["passkeys"]] == [answer_id(credential)]


def answer_id(credential) -> str:
    from tests.server.soft_authenticator import b64url

    return b64url(credential.id)


def test_a_replayed_answer_is_refused(client):
    credential = register(client)
    options = client.post("/api/passkeys/sign-in/options").json()
    answer = get(credential, options, ORIGIN)
    assert client.post("/api/passkeys/sign-in", json={"credential": answer}).status_code == 200
    again = client.post("/api/passkeys/sign-in", json={"credential": answer})
    assert again.status_code == 400 and "used" in again.json()["detail"]


def test_a_replayed_registration_is_refused(client):
    options = client.post("/api/passkeys/register/options").json()
    _credential, answer = create(options, ORIGIN)
    assert client.post("/api/passkeys/register", json={"credential": answer}).status_code == 201
    assert client.post("/api/passkeys/register", json={"credential": answer}).status_code == 400


def test_an_expired_challenge_is_refused(client, monkeypatch):
    credential = register(client)
    options = client.post("/api/passkeys/sign-in/options").json()
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + CHALLENGE_SECONDS + 1)
    answer = client.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN)})
    assert answer.status_code == 400 and "expired" in answer.json()["detail"]


def test_a_registration_challenge_is_bound_to_its_identity(client):
    options = client.post("/api/passkeys/register/options").json()
    _credential, answer = create(options, ORIGIN)
    with TestClient(client.app) as other:
        refused = other.post("/api/passkeys/register", json={"credential": answer})
        assert refused.status_code == 400 and "another identity" in refused.json()["detail"]
        assert other.get("/api/passkeys").json()["passkeys"] == []
    assert client.get("/api/passkeys").json()["passkeys"] == []  # and the challenge is used up


def test_a_counter_that_did_not_grow_is_refused(client):
    credential = register(client)
    assert sign_in(client, credential, count_step=3).status_code == 200
    cloned = sign_in(client, credential, count_step=0)  # a copy of the key with the old count
    assert cloned.status_code == 400


def test_a_wrong_origin_is_refused(client):
    options = client.post("/api/passkeys/register/options").json()
    _credential, answer = create(options, "https://evil.example")
    assert client.post("/api/passkeys/register", json={"credential": answer}).status_code == 400
    assert client.get("/api/passkeys").json()["passkeys"] == []


def test_only_the_owner_removes_a_passkey(client):
    credential = register(client)
    with TestClient(client.app) as other:
        other.post("/api/identity")
        assert other.delete(f"/api/passkeys/{answer_id(credential)}").status_code == 404
    assert len(client.get("/api/passkeys").json()["passkeys"]) == 1
    assert client.delete(f"/api/passkeys/{answer_id(credential)}").status_code == 200
    assert client.get("/api/passkeys").json()["passkeys"] == []
    assert sign_in(client, credential).status_code == 400  # a removed passkey signs in nobody


@pytest.mark.parametrize("credential", [{}, {"response": {"clientDataJSON": "!!"}}, {"id": 5}])
def test_a_malformed_answer_is_refused_and_changes_nothing(client, credential):
    client.post("/api/passkeys/sign-in/options")
    assert client.post("/api/passkeys/sign-in", json={"credential": credential}).status_code == 400
    assert client.post("/api/passkeys/register", json={"credential": credential}).status_code == 400
    assert client.get("/api/passkeys").json()["passkeys"] == []


def test_sign_in_tries_are_limited_per_address_wrong_ones_included(sqlite_url):
    from tricktable.server import create_app
    from tricktable.server.play.scheduler import forced_bot
    from tricktable.server.trust.limits import Limits, Rate

    app = create_app(sqlite_url, limits=Limits(passkey_sign_ins_per_address=Rate(3, 600)),
                     bot_factory=forced_bot("random"))
    with TestClient(app) as client:
        client.post("/api/passkeys/sign-in/options")
        assert client.post("/api/passkeys/sign-in", json={"credential": {}}).status_code == 400
        client.post("/api/passkeys/sign-in/options")
        limited = client.post("/api/passkeys/sign-in", json={"credential": {}})
        assert limited.status_code == 429 and "Retry-After" in limited.headers
    app.state.room.store.close()


def test_a_configured_origin_is_the_relying_party(sqlite_url):
    from tricktable.server import create_app
    from tricktable.server.play.scheduler import forced_bot

    app = create_app(sqlite_url, bot_factory=forced_bot("random"), origin="https://cards.example.org")
    with TestClient(app) as client:
        options = client.post("/api/passkeys/register/options").json()
        assert options["rp"]["id"] == "cards.example.org"
        _credential, answer = create(options, ORIGIN)  # the request's own origin is not the site's
        refused = client.post("/api/passkeys/register", json={"credential": answer})
        assert refused.status_code == 400 and "origin" in refused.json()["detail"]
    app.state.room.store.close()


def test_without_an_identity_there_is_no_passkey_to_list_or_remove(client):
    credential = register(client)
    with TestClient(client.app) as nobody:
        assert nobody.get("/api/passkeys").json() == {"passkeys": []}
        assert nobody.delete(f"/api/passkeys/{answer_id(credential)}").status_code == 404
        assert COOKIE not in nobody.cookies  # neither made an identity
    assert len(client.get("/api/passkeys").json()["passkeys"]) == 1


# -- a passkey on a browser whose own identity has games ---------------------------------------
def games_of(person: TestClient) -> list[str]:
    return [g["id"] for g in person.get("/api/history", params={"limit": 50}).json()["games"]]


def finished_daily(person: TestClient, game: str = "euchre") -> dict:
    return finish(person, settle(person, person.post(f"/api/daily/{game}").json()))


def test_the_browsers_games_come_along_when_the_person_asks(client):
    """A browser with its own identity (no passkey, games played) signs in
    with a passkey and brings its games along: its finished and its open game
    are the passkey identity's now (history, statistics, playing on), and the
    old identity keeps none."""
    credential = register(client)
    own = finish(client, settle(client, client.post("/api/games", json={"game": "euchre"}).json()))
    with TestClient(client.app) as browser:
        old_cookie = browser.post("/api/identity").cookies.get(COOKIE) or browser.cookies[COOKIE]
        played = finish(browser, settle(browser, browser.post("/api/games", json={"game": "euchre"}).json()), seed=5)
        assert browser.post(f"/api/games/{played['id']}/analysis").status_code == 202
        open_game = settle(browser, browser.post("/api/games", json={"game": "euchre"}).json())
        options = browser.post("/api/passkeys/sign-in/options").json()
        assert options["here"] == {"games": 2, "passkey": False}  # what the page warns of
        answer = browser.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN),
                                                             "bring": True})
        assert answer.status_code == 200, answer.text
        assert answer.json()["brought"] == {"games": 2, "practice_dailies": 0}
        assert browser.cookies[COOKIE] == client.cookies[COOKIE]
        assert set(games_of(browser)) == {own["id"], played["id"], open_game["id"]}
        assert browser.get("/api/stats", params={"game": "euchre"}).json()["games"] == 2
        assert browser.get(f"/api/games/{played['id']}/analysis").status_code == 200  # its analysis came too
        act(browser, open_game, open_game["view"]["legal"][0])  # the open game plays on as the passkey's
        browser.cookies.set(COOKIE, old_cookie)
        assert games_of(browser) == [] and browser.get(f"/api/games/{played['id']}").status_code == 404


def test_without_asking_the_games_stay_with_the_browsers_identity(client):
    credential = register(client)
    with TestClient(client.app) as browser:
        game = settle(browser, browser.post("/api/games", json={"game": "euchre"}).json())
        old_cookie = browser.cookies[COOKIE]
        options = browser.post("/api/passkeys/sign-in/options").json()
        answer = browser.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN)})
        assert answer.status_code == 200 and answer.json()["brought"] is None
        assert games_of(browser) == []
        browser.cookies.set(COOKIE, old_cookie)
        assert games_of(browser) == [game["id"]]


def test_two_identities_that_each_have_a_passkey_are_never_merged(client):
    credential = register(client)
    with TestClient(client.app) as browser:
        register(browser)
        game = settle(browser, browser.post("/api/games", json={"game": "euchre"}).json())
        old_cookie = browser.cookies[COOKIE]
        options = browser.post("/api/passkeys/sign-in/options").json()
        assert options["here"] == {"games": 1, "passkey": True}
        refused = browser.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN),
                                                              "bring": True})
        assert refused.status_code == 409 and "passkey of its own" in refused.json()["detail"]
        assert browser.cookies[COOKIE] == old_cookie and games_of(browser) == [game["id"]]  # nothing changed
        assert game["id"] not in games_of(client)
        for bad in ({"credential": {}, "bring": "yes"}, {"credential": {}, "bring": True, "more": 1}):
            assert browser.post("/api/passkeys/sign-in", json=bad).status_code == 422


def test_a_day_with_an_attempt_on_both_sides_stays_at_one_ranked_attempt(client):
    """Both identities played today's Euchre daily, ranked: the passkey's own
    attempt stays the day's ranked one; the browser's comes along as practice
    and leaves the leaderboard.  The browser's Double Sar daily, the only one
    of its day, comes along ranked, its leaderboard row with it."""
    store = client.app.state.room.store
    credential = register(client)
    assert client.put("/api/nickname", json={"nickname": "Keeper"}).status_code == 200
    backdate_identities(store, days=1, cookie=client.cookies[COOKIE])
    mine = finished_daily(client)
    with TestClient(client.app) as browser:
        browser.post("/api/identity")
        backdate_identities(store, days=1, cookie=browser.cookies[COOKIE])
        theirs = finished_daily(browser)
        only = finished_daily(browser, "double-sar")
        assert theirs["daily"]["ranked"] and only["daily"]["ranked"] and mine["daily"]["ranked"]
        assert len(client.get("/api/daily/euchre/leaderboard").json()["entries"]) == 2
        options = browser.post("/api/passkeys/sign-in/options").json()
        answer = browser.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN),
                                                             "bring": True})
        assert answer.status_code == 200, answer.text
        assert answer.json()["brought"]["practice_dailies"] == 1
        board = browser.get("/api/daily/euchre/leaderboard").json()
        assert [(e["nickname"], e["score"], e["you"]) for e in board["entries"]] == [
            ("Keeper", mine["daily"]["score"], True)]  # one attempt of the day on the board: the passkey's own
        assert browser.post("/api/daily/euchre").json()["id"] == mine["id"]  # the day's attempt is still his own
        assert not store.load(theirs["id"]).counts_on_leaderboard and store.load(mine["id"]).counts_on_leaderboard
        sar = browser.get("/api/daily/double-sar/leaderboard").json()["entries"]
        assert [(e["nickname"], e["score"], e["you"]) for e in sar] == [("Keeper", only["daily"]["score"], True)]
        assert browser.post("/api/daily/double-sar").json()["id"] == only["id"]  # his attempt of that day now
        history = {g["id"]: g for g in browser.get("/api/history", params={"limit": 50}).json()["games"]}
        assert history[theirs["id"]]["ranked"] is False and history[only["id"]]["ranked"] is True


def test_a_table_and_its_match_being_played_come_along(client):
    """The browser's identity hosts a table whose match is under way: brought
    along, the passkey's identity holds its seat (and hosts it) while the table lives."""
    from tests.server.test_tables import friend_of, join, new_table, start

    credential = register(client)
    with TestClient(client.app) as browser:
        friend = friend_of(client)
        table = new_table(browser, clock=0)
        join(friend, table["code"], seat=2)
        game = start(browser, table)
        options = browser.post("/api/passkeys/sign-in/options").json()
        assert options["here"] == {"games": 1, "passkey": False}
        answer = browser.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN),
                                                             "bring": True})
        assert answer.status_code == 200 and answer.json()["brought"]["games"] == 1, answer.text
        mine = browser.get(f"/api/games/{game['id']}")
        assert mine.status_code == 200 and mine.json()["view"]["seat"] == 0
        described = browser.get(f"/api/tables/{table['id']}").json()
        assert described["host"] and [s["you"] for s in described["seats"]] == [True, False, False, False]
        assert friend.get(f"/api/games/{game['id']}").json()["view"]["seat"] == 2  # the friend keeps his


def test_a_practice_daily_never_takes_the_days_ranked_attempt(client):
    """The browser's identity is new: its daily is practice.  Brought along, it
    is the passkey identity's game, but not its attempt of the day: that one
    may still be ranked."""
    store = client.app.state.room.store
    credential = register(client)
    backdate_identities(store, days=1, cookie=client.cookies[COOKIE])
    with TestClient(client.app) as browser:
        practice = settle(browser, browser.post("/api/daily/euchre").json())
        assert practice["daily"]["ranked"] is False
        options = browser.post("/api/passkeys/sign-in/options").json()
        answer = browser.post("/api/passkeys/sign-in", json={"credential": get(credential, options, ORIGIN),
                                                             "bring": True})
        assert answer.status_code == 200 and answer.json()["brought"]["practice_dailies"] == 0, answer.text
        assert practice["id"] in games_of(browser)
        ranked = browser.post("/api/daily/euchre").json()
        assert ranked["id"] != practice["id"] and ranked["daily"]["ranked"] is True
