"""Trust through the API: identities, ranked and practice dailies, nicknames,
request size, strict types, rate limits, a busy database, static files and
the OpenAPI document."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

from tricktable.server import create_app
from tricktable.server.trust.identity import COOKIE
from tricktable.server.trust.limits import Limits, Rate
from tricktable.server.play.scheduler import forced_bot
from tests.harness import act, backdate_identities, finish, settle, sqlite_held


@pytest.fixture
def tight(sqlite_url):
    """An app with small limits, to reach them in a few requests."""
    limits = Limits(identity_per_address=Rate(3, 3600), games_per_identity=Rate(4, 60),
                    nickname_per_identity=Rate(2, 600), actions_per_identity=Rate(3, 60),
                    daily_per_identity=Rate(2, 60), open_games_per_identity=3)
    app = create_app(sqlite_url, limits=limits, bot_factory=forced_bot("random"))
    with TestClient(app) as test_client:
        yield test_client
    app.state.room.store.close()


# -- identity ---------------------------------------------------------------------
def test_the_server_issues_a_signed_httponly_identity(client):
    answer = client.post("/api/identity")
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert answer.json() == {"issued_day": answer.json()["issued_day"], "ranked_today": False, "practice_reason": "new_identity"}
    value = client.cookies[COOKIE]
    assert value.split(".")[0] not in answer.text  # the id itself is never in a body
    assert "set-cookie" not in client.post("/api/identity").headers  # kept, not renewed


@pytest.mark.parametrize("cookie, status", [("madeup", 401), ("madeup.c2lnbmF0dXJl", 403)])
def test_an_unsigned_or_forged_identity_is_refused(client, cookie, status):
    client.cookies.set(COOKIE, cookie)
    for answer in (client.post("/api/daily/euchre"), client.put("/api/nickname", json={"nickname": "Anna"}),
                   client.post("/api/games", json={"game": "euchre"})):
        assert answer.status_code == status, answer.text
    assert client.post("/api/identity").status_code == 200  # the page's way out: a fresh identity


def test_a_changed_identity_is_refused(client):
    client.post("/api/identity")
    real = client.cookies[COOKIE]
    identity, signature = real.split(".")
    client.cookies.set(COOKIE, f"{identity[:-1]}{'A' if identity[-1] != 'A' else 'B'}.{signature}")
    assert client.post("/api/daily/euchre").status_code == 403


def test_issuing_identities_is_limited_per_address_block(tight):
    for _ in range(3):
        tight.cookies.clear()
        assert tight.post("/api/identity").status_code == 200
    tight.cookies.clear()
    answer = tight.post("/api/identity")
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) > 0


def test_address_blocks():
    from tricktable.server.trust.limits import address_block

    assert address_block("203.0.113.7") == address_block("203.0.113.250") == "203.0.113.0/24"
    assert address_block("::ffff:203.0.113.9") == "203.0.113.0/24"
    assert address_block("2001:db8:1:2:aaaa::1") == address_block("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_block("2001:db8:1:3::1") != address_block("2001:db8:1:2::1")


def test_a_transfer_code_carries_the_identity_once(client, sqlite_url):
    client.post("/api/identity")
    backdate_identities(client.app.state.room.store, days=2)
    old = client.cookies[COOKIE]
    code = client.post("/api/identity/transfer").json()
    assert code["expires_in"] == 600 and len(code["code"]) == 11
    with TestClient(client.app) as phone:
        answer = phone.post("/api/identity/claim", json={"code": code["code"].lower()})
        assert answer.status_code == 200 and answer.json()["ranked_today"] is True
        assert phone.cookies[COOKIE] == old
        with TestClient(client.app) as third:
            assert third.post("/api/identity/claim", json={"code": code["code"]}).status_code == 404  # used up


def test_an_expired_transfer_code_is_refused(client, monkeypatch):
    client.post("/api/identity")
    code = client.post("/api/identity/transfer").json()["code"]
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 601)
    with TestClient(client.app) as phone:
        assert phone.post("/api/identity/claim", json={"code": code}).status_code == 404


# -- the daily: ranked once, practice for new identities ------------------------------
def test_a_fresh_identity_plays_the_daily_as_practice(client):
    state = client.post("/api/daily/euchre").json()
    assert state["daily"]["ranked"] is False
    state = finish(client, state)
    assert state["daily"]["score"] is not None  # scored ...
    assert client.get("/api/daily/euchre/leaderboard").json()["entries"] == []  # ... never ranked


def test_one_ranked_attempt_per_identity_and_day(client):
    backdate_identities(client.app.state.room.store, days=1)
    client.post("/api/identity")
    backdate_identities(client.app.state.room.store, days=1)
    first = client.post("/api/daily/euchre").json()
    assert first["daily"]["ranked"] is True
    first = finish(client, first)
    again = client.post("/api/daily/euchre").json()
    assert again["id"] == first["id"] and again["view"]["terminal"]  # the same finished attempt, no new one
    board = client.get("/api/daily/euchre/leaderboard").json()
    assert len(board["entries"]) == 1 and board["own"]["rank"] == 1
    # The attempt row is unique: even a direct second insert is refused.
    from sqlalchemy.exc import IntegrityError

    row = client.app.state.room.store.load(first["id"])
    with pytest.raises(IntegrityError):
        client.app.state.room.store.create_game(row.record, "open", daily_day=row.daily_day, device=row.device)


def test_daily_computer_players_draw_from_a_secret_per_attempt(client):
    """Two attempts with the same person's moves get the same deals but do not
    unfold identically: a throwaway attempt does not show another's cards."""
    runs = []
    for _person in range(4):
        client.cookies.clear()
        state = settle(client, client.post("/api/daily/euchre").json())
        texts = [s["text"] for s in state["steps"]]
        for _ in range(12):
            if state["view"]["terminal"]:
                break
            state = act(client, state, state["view"]["legal"][0])
            texts += [s["text"] for s in state["steps"]]
        row = client.app.state.room.store.load(state["id"])
        assert row.bot_secret and row.bot_secret not in str(state)
        runs.append((row.record["seed"], texts))
    assert len({seed for seed, _ in runs}) == 1  # one seed: the same deals for everybody
    assert len({str(texts) for _, texts in runs}) > 1


# -- nicknames -----------------------------------------------------------------------
@pytest.mark.parametrize("taken, attempt", [("Alice", "alice"), ("Alice", "ALICE"), ("Alice", "\uff21lice"),
                                            ("Champion", "Charnpion"), ("Anna Maria", "Anna  Maria")])
def test_a_look_alike_of_a_taken_nickname_is_refused(client, taken, attempt):
    assert client.put("/api/nickname", json={"nickname": taken}).status_code == 200
    client.cookies.clear()
    answer = client.put("/api/nickname", json={"nickname": attempt})
    assert answer.status_code == 409 and "taken" in answer.json()["detail"]


@pytest.mark.parametrize("nickname, words", [
    ("\u0410lice", "script"),          # Cyrillic А among Latin letters
    ("Ωmega", "script"),
    ("\u200b\u200b", "ZERO WIDTH"),     # invisible only
    ("a\u200db", "ZERO WIDTH"),
    ("\u0301\u0302", "visible"),         # marks only
    (" \u0301x", "follow a letter"),
    ("-_-", "letter or digit"),
    ("x" * 21, "visible"),
])
def test_invisible_mark_only_and_mixed_script_nicknames_are_refused(client, nickname, words):
    answer = client.put("/api/nickname", json={"nickname": nickname})
    assert answer.status_code == 422 and words in answer.json()["detail"], answer.text


def test_hindi_and_thai_nicknames_with_their_marks_are_fine(client):
    for name in ("राहुल शर्मा", "สมชาย", "日本たろう"):
        client.cookies.clear()
        assert client.put("/api/nickname", json={"nickname": name}).status_code == 200, name


def test_nickname_changes_are_rate_limited(tight):
    assert tight.put("/api/nickname", json={"nickname": "One"}).status_code == 200
    assert tight.put("/api/nickname", json={"nickname": "Two"}).status_code == 200
    answer = tight.put("/api/nickname", json={"nickname": "Three"})
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) > 0
    assert tight.get("/api/nickname").json()["nickname"] == "Two"


# -- request size and types -------------------------------------------------------------
def test_a_body_over_16_kb_is_refused_before_it_is_read(client):
    big = b'{"game": "euchre", "options": {}, "pad": "' + b"x" * 17000 + b'"}'
    answer = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413

    def chunks():  # no Content-Length: read at most 16 KB + 1 of it
        for _ in range(1000):
            yield b"x" * 1024

    answer = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    small = client.post("/api/games", content=b'{"game": "euchre"}', headers={"Content-Type": "application/json"})
    assert small.status_code == 201


@pytest.mark.parametrize("body, field", [
    ({"action": "pass", "version": "1"}, "version"),
    ({"action": "pass", "version": True}, "version"),
    ({"action": "pass", "version": 1.0}, "version"),
    ({"action": 5, "version": 1}, "action"),
])
def test_action_fields_are_strictly_typed(client, body, field):
    state = settle(client, client.post("/api/games", json={"game": "euchre"}).json())
    answer = client.post(f"/api/games/{state['id']}/actions", json=body)
    assert answer.status_code == 422 and field in answer.json()["detail"]
    assert client.get(f"/api/games/{state['id']}").json()["version"] == state["version"]


@pytest.mark.parametrize("body", [
    {"game": "euchre", "options": {"stick_the_dealer": 1.0}},
    {"game": "euchre", "options": {"stick_the_dealer": 1}},
    {"game": "euchre", "options": {"stick_the_dealer": "true"}},
    {"game": "doppelkopf", "options": {"preset": []}},
    {"game": "doppelkopf", "options": {"preset": {}}},
    {"game": ["euchre"]},
    {"game": "euchre", "level": 2},
    {"game": "euchre", "fairness": {"nonce": "x" * 20, "client_seed": 7}},
    {"game": "euchre", "fairness": {"nonce": "x" * 20, "client_seed": "no spaces"}},
])
def test_new_game_fields_are_strictly_typed(client, body):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"]


# -- rate limits and the open-game cap -------------------------------------------------
def test_creating_games_is_rate_limited_and_open_games_are_capped(tight):
    for _ in range(3):
        assert tight.post("/api/games", json={"game": "euchre"}).status_code == 201
    capped = tight.post("/api/games", json={"game": "euchre"})
    assert capped.status_code == 429 and "unfinished" in capped.json()["detail"]
    assert capped.headers["retry-after"]
    limited = tight.post("/api/games", json={"game": "euchre"})
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0


def test_actions_and_daily_attempts_are_rate_limited(tight):
    state = settle(tight, tight.post("/api/games", json={"game": "euchre"}).json())
    codes = []
    for _ in range(4):
        answer = tight.post(f"/api/games/{state['id']}/actions",
                            json={"action": state["view"]["legal"][0], "version": state["version"]})
        codes.append(answer.status_code)
        if answer.status_code == 200:
            state = settle(tight, answer.json())
    assert codes == [200, 200, 200, 429]
    assert [tight.post("/api/daily/euchre").status_code for _ in range(3)] == [200, 200, 429]


# -- a busy database ----------------------------------------------------------------------
def test_a_locked_database_answers_503_within_3_seconds(client, sqlite_url):
    client.post("/api/identity")
    with sqlite_held(sqlite_url):
        started = time.monotonic()
        answer = client.post("/api/games", json={"game": "euchre"})
        took = time.monotonic() - started
        assert answer.status_code == 503 and answer.headers["retry-after"] == "2", answer.text
        assert took < 3.0
        assert client.get("/healthz").status_code == 503
    assert client.get("/healthz").status_code == 200
    assert client.post("/api/games", json={"game": "euchre"}).status_code == 201


def test_an_unreachable_database_answers_503(tmp_path):
    from tests.harness import Postgres, find_pg_bin

    if find_pg_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    server = Postgres.start()
    app = create_app(server.new_database(), bot_factory=forced_bot("random"))
    try:
        with TestClient(app) as http:
            assert http.get("/healthz").status_code == 200
            server.stop()
            started = time.monotonic()
            answer = http.post("/api/games", json={"game": "euchre"})
            assert answer.status_code == 503 and answer.headers["retry-after"]
            assert http.get("/healthz").status_code == 503
            assert time.monotonic() - started < 6.0  # two requests, each under 3 s
    finally:
        app.state.room.store.close()


# -- static files, docs, OpenAPI ------------------------------------------------------------
@pytest.mark.parametrize("path", ["/__init__.py", "/__pycache__/__init__.cpython-311.pyc", "/docs", "/redoc"])
def test_only_the_pages_own_files_are_served(client, path):
    assert client.get(path).status_code == 404


def test_openapi_lists_every_status_code(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths["/api/games"]["post"]["responses"]) >= {"201", "401", "403", "404", "409", "413", "422", "429", "503"}
    assert set(paths["/api/games/{game_id}/actions"]["post"]["responses"]) >= {"200", "404", "409", "413", "422", "429", "503"}
    assert set(paths["/api/daily/{game}"]["post"]["responses"]) >= {"200", "401", "403", "404", "429", "503"}
    assert set(paths["/api/nickname"]["put"]["responses"]) >= {"200", "401", "403", "409", "422", "429"}
    for path, methods in paths.items():
        for method, operation in methods.items():
            assert {"413", "422", "503"} <= set(operation["responses"]), (path, method)


def test_many_requests_at_once_neither_fail_nor_wait_for_connections(client):
    outcomes = []

    def ask() -> None:
        outcomes.append(client.get("/api/daily/euchre/leaderboard").status_code)

    threads = [threading.Thread(target=ask) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == [200] * 40


def test_an_action_reads_its_identity_from_the_database_once_per_process(client, monkeypatch):
    """``Identities.known`` (the person's action): the signature checked every
    time, the database asked once for an identity it has (never deleted once
    issued), every time for one it does not."""
    from tricktable.server.trust.identity import IdentityRefused

    identities = client.app.state.identities
    reads: list[str] = []
    real = identities.store.identity
    monkeypatch.setattr(identities.store, "identity", lambda identity: reads.append(identity) or real(identity))
    never_issued = identities.sign("never-issued")
    for _ in range(2):
        with pytest.raises(IdentityRefused):
            identities.known(never_issued)
    assert reads == ["never-issued", "never-issued"]
    issued = identities.issue("127.0.0.1")
    cookie = identities.sign(issued.id)
    assert identities.known(cookie) == issued.id == identities.known(cookie)
    assert reads.count(issued.id) == 1
    with pytest.raises(IdentityRefused):
        identities.known(cookie[:-4] + ("AAAA" if not cookie.endswith("AAAA") else "BBBB"))
