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
from tests.harness import identity_of
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
