"""The holes an attacker found, each as the problem it was: a game answering
to anyone, a daily deal a throwaway identity could preview, input that made
a 500, look-alike nicknames, writers that waited for a whole lock, a health
check that passed on a full disk, costly routes without a limit.  Each failed
before the fix and passes after."""

from __future__ import annotations

import errno
import os
import subprocess
import threading
import time
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tricktable.server import create_app
from tricktable.server.trust.identity import COOKIE
from tricktable.server.trust.limits import Limits, Rate
from tricktable.server.play.room import daily_seed
from tricktable.server.play.scheduler import forced_bot
from tests.harness import backdate_identities, finish, settle, sqlite_held

NO_SUCH_GAME = {"detail": "no such game"}


def stranger_of(client: TestClient) -> TestClient:
    """Another person on the same server: a client with its own cookie jar."""
    other = TestClient(client.app)
    other.post("/api/identity")
    return other


def new_game(client: TestClient, game: str = "euchre") -> dict:
    return settle(client, client.post("/api/games", json={"game": game}).json())


# -- a game is its owner's alone -----------------------------------------------------------
def every_game_route(client: TestClient, state: dict, fast_path: bool) -> dict[str, tuple[int, object]]:
    """Each route of one game, asked by ``client``: (status, body)."""
    game_id, version = state["id"], state["version"]
    action = {"action": state["view"]["legal"][0], "version": version}
    if not fast_path:
        action["via"] = "route"  # a key the fast path does not take: the route answers
    answers = {
        "view": client.get(f"/api/games/{game_id}"),
        "act": client.post(f"/api/games/{game_id}/actions", json=action),
        "hint": client.get(f"/api/games/{game_id}/hint", params={"version": version}),
        "record": client.get(f"/api/games/{game_id}/record"),
        "share": client.post(f"/api/games/{game_id}/share"),
        "analyse": client.post(f"/api/games/{game_id}/analysis"),
        "analysis": client.get(f"/api/games/{game_id}/analysis"),
        "play on": client.post(f"/api/games/{game_id}/play-on", json={"at": 0}),
    }
    out: dict[str, tuple[int, object]] = {name: (answer.status_code, answer.json()) for name, answer in answers.items()}
    with client.stream("GET", f"/api/games/{game_id}/events", params={"version": version}) as stream:
        out["events"] = (stream.status_code, None if stream.status_code == 200 else (stream.read(), stream.json())[1])
    return out


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast path", "route"])
def test_anyone_could_play_and_watch_anyones_game(client, fast_path):
    """Identity A's game answers 404 to identity B and to a caller with no
    identity, on every route (so ids cannot be probed), and nothing changes."""
    mine = new_game(client)
    stranger = stranger_of(client)
    nobody = TestClient(client.app)  # no cookie at all
    for caller in (stranger, nobody):
        answers = every_game_route(caller, mine, fast_path)
        assert answers == {name: (404, NO_SUCH_GAME) for name in answers}, answers
    assert "set-cookie" not in nobody.get(f"/api/games/{mine['id']}").headers  # reading issues no identity
    again = client.get(f"/api/games/{mine['id']}").json()
    assert again["version"] == mine["version"]  # nothing changed
    played = client.post(f"/api/games/{mine['id']}/actions",
                         json={"action": again["view"]["legal"][0], "version": again["version"]})
    assert played.status_code == 200 and played.json()["version"] == mine["version"] + 1  # the owner plays on


def test_an_unknown_game_and_someone_elses_answer_alike(client):
    mine = new_game(client)
    stranger = stranger_of(client)
    theirs = stranger.get(f"/api/games/{mine['id']}")
    unknown = stranger.get("/api/games/" + "x" * len(mine["id"]))
    assert (theirs.status_code, theirs.json()) == (unknown.status_code, unknown.json()) == (404, NO_SUCH_GAME)


def test_a_finished_games_record_is_shared_only_through_its_owners_link(client):
    mine = new_game(client)
    assert client.post(f"/api/games/{mine['id']}/share").status_code == 409  # not over yet
    done = finish(client, mine)
    link = client.post(f"/api/games/{done['id']}/share")
    assert link.status_code == 201, link.text
    token = link.json()["token"]
    assert len(token) >= 32 and mine["id"] not in token
    stranger, nobody = stranger_of(client), TestClient(client.app)
    owners = client.get(f"/api/games/{done['id']}/record").json()
    for reader in (stranger, nobody):
        assert reader.get(f"/api/games/{done['id']}/record").status_code == 404  # the id opens nothing
        shared = reader.get(link.json()["record"])
        assert shared.status_code == 200 and shared.json() == owners
    assert nobody.get("/api/shared/" + "A" * 32).status_code == 404
    assert client.post(f"/api/games/{done['id']}/share").json()["token"] != token  # a new link each time


def test_a_daily_attempt_answers_only_to_its_identity(client):
    attempt = settle(client, client.post("/api/daily/euchre").json())
    stranger = stranger_of(client)
    assert stranger.get(f"/api/games/{attempt['id']}").status_code == 404
    answer = stranger.post(f"/api/games/{attempt['id']}/actions",
                           json={"action": attempt["view"]["legal"][0], "version": attempt["version"]})
    assert answer.status_code == 404


# -- a daily nobody can preview ---------------------------------------------------------------
def deals(record: dict) -> list:
    from tricktable.server.trust.fairness import deals_of

    return deals_of(record)


def test_a_fresh_identity_could_preview_the_days_ranked_deals(client):
    """A practice attempt plays the previous day's daily (its leaderboard is
    closed), never the day's ranked deals."""
    store = client.app.state.room.store
    client.post("/api/identity")
    backdate_identities(store, days=2)  # the only identity so far: a regular
    ranked = client.post("/api/daily/euchre").json()
    assert ranked["daily"]["ranked"] is True and ranked["daily"]["deals_day"] == ranked["daily"]["day"]
    fresh = TestClient(client.app)
    practice = fresh.post("/api/daily/euchre").json()
    assert practice["daily"]["ranked"] is False and practice["daily"]["practice_reason"] == "new_identity"
    day = ranked["daily"]["day"]
    yesterday = (datetime.strptime(day, "%Y-%m-%d") - timedelta(days=1)).strftime("%Y-%m-%d")
    assert practice["daily"]["deals_day"] == yesterday
    rows = [store.load(attempt["id"]) for attempt in (ranked, practice)]
    assert rows[0].record["seed"] == daily_seed(store.secret(), "euchre", day)
    assert rows[1].record["seed"] == daily_seed(store.secret(), "euchre", yesterday)
    first_deals = [deals(row.record)[0] for row in rows]
    assert first_deals[0] != first_deals[1]
    assert ranked["view"]["hand"] != practice["view"]["hand"]


def test_an_identity_stocked_the_day_before_cannot_rank(client):
    """Issued before the day began but never played with: practice."""
    answer = client.post("/api/identity")
    from sqlalchemy import update

    from tricktable.store.schema import identities

    with client.app.state.room.store.engine.begin() as db:
        db.execute(update(identities).values(issued_at=identities.c.issued_at - 2 * 86400))
    status = client.post("/api/identity").json()
    assert status == {"issued_day": status["issued_day"], "ranked_today": False, "practice_reason": "no_finished_game"}
    assert answer.status_code == 200
    attempt = client.post("/api/daily/euchre").json()
    assert attempt["daily"]["ranked"] is False and attempt["daily"]["practice_reason"] == "no_finished_game"


def test_a_game_finished_today_does_not_make_todays_daily_ranked(client):
    """The finished game must be from an earlier day: one finished today
    counts from tomorrow (else a stocked identity could play one quick game)."""
    from sqlalchemy import update

    from tricktable.store.schema import identities

    store = client.app.state.room.store
    finish(client, new_game(client))
    with store.engine.begin() as db:
        db.execute(update(identities).values(issued_at=identities.c.issued_at - 2 * 86400))
    assert client.post("/api/identity").json()["practice_reason"] == "no_finished_game"
    assert client.post("/api/daily/euchre").json()["daily"]["ranked"] is False


def test_a_regular_ranks(client):
    client.post("/api/identity")
    backdate_identities(client.app.state.room.store, days=1)
    assert client.post("/api/identity").json()["ranked_today"] is True
    attempt = client.post("/api/daily/euchre").json()
    assert attempt["daily"]["ranked"] is True and "practice_reason" not in attempt["daily"]


# -- no input makes a 5xx ------------------------------------------------------------------------
IDENTITY_ROUTES = [("post", "/api/daily/euchre", None), ("put", "/api/nickname", {"nickname": "Anna"}),
                   ("post", "/api/games", {"game": "euchre"}), ("get", "/api/nickname", None),
                   ("post", "/api/identity/transfer", None), ("get", "/api/daily/euchre/leaderboard", None),
                   ("post", "/api/commitments", None)]


@pytest.mark.parametrize("cookie", ["caf\u00e9.c2ln", "\u00b2", "x.\u00ff\u00ff", "\u00e9"])
def test_a_non_ascii_cookie_made_a_500(client, cookie):
    """Refused as unsigned (401) on every route that reads the identity, and
    the page's way out works: ``POST /api/identity`` gives a fresh one."""
    mine = new_game(client)
    client.cookies.clear()
    raw = {"cookie": f"{COOKIE}=".encode() + cookie.encode("utf-8")}  # as a browser sends it: UTF-8 bytes
    for method, path, body in IDENTITY_ROUTES:
        answer = client.request(method, path, json=body, headers=raw)
        assert answer.status_code == 401, (path, answer.status_code, answer.text)
    for path in (f"/api/games/{mine['id']}", f"/api/games/{mine['id']}/record"):
        assert client.get(path, headers=raw).status_code == 401
    for extra in ({}, {"via": "route"}):
        acted = client.post(f"/api/games/{mine['id']}/actions", headers=raw,
                            json={"action": "pass", "version": mine["version"], **extra})
        assert acted.status_code == 401
    fresh = client.post("/api/identity", headers=raw)
    assert fresh.status_code == 200 and fresh.json()["practice_reason"] == "new_identity"
    assert COOKIE in fresh.headers["set-cookie"]  # the bad one is replaced
    assert client.put("/api/nickname", json={"nickname": "Berta"}).status_code == 200


@pytest.mark.parametrize("last_event_id", ["\u00b2", "9" * 5000, "-1", "1e3", "", " 7"])
def test_a_last_event_id_made_a_500(client, last_event_id):
    """Not ASCII digits, or too long: the query's version is used instead."""
    mine = new_game(client)
    header = last_event_id.encode("utf-8")  # as a client sends it: bytes
    with client.stream("GET", f"/api/games/{mine['id']}/events", params={"version": mine["version"]},
                       headers={"Last-Event-ID": header}) as stream:
        assert stream.status_code == 200
        first = next(stream.iter_lines())
        assert first.startswith(":")


def test_a_huge_version_is_a_422_not_a_500(client):
    mine = new_game(client)
    for path in (f"/api/games/{mine['id']}/events", f"/api/games/{mine['id']}/hint"):
        assert client.get(path, params={"version": "9" * 5000}).status_code == 422


@pytest.mark.parametrize("nickname", ["e" + "\u0301" * 65, "e" + "\u0301" * 4, "\u0b95" + "\u0bcd" * 5])
def test_a_nickname_of_one_letter_and_many_accents_made_a_500(client, nickname):
    """On PostgreSQL a name longer than its column was a 500; refused first."""
    answer = client.put("/api/nickname", json={"nickname": nickname})
    assert answer.status_code == 422, answer.text


def test_the_longest_accepted_nickname_fits_its_column(database_url):
    """20 visible characters with their marks, up to the column's 64 code
    points, on both databases."""
    from tricktable.nicknames import MAX_CODE_POINTS, clean_nickname, skeletons
    from tricktable.store import Store

    longest = clean_nickname(("\u1ec7" * 20)[:20] + "")  # ệ: two marks each in NFD, one code point in NFKC
    hindi = clean_nickname("\u0921\u093c\u094b\u0902" * 5 + "\u0915" * 15)  # marks up to the column
    assert len(hindi) <= MAX_CODE_POINTS
    store = Store(database_url)
    try:
        for index, name in enumerate((longest, hindi)):
            assert store.set_nickname(f"device-{index}", name, skeletons(name))
            assert store.nickname(f"device-{index}") == name
    finally:
        store.close()


# -- look-alike nicknames --------------------------------------------------------------------
LOOK_ALIKES = [
    ("ABE", "\u0391\u0392\u0395"),       # Greek capitals
    ("Lil", "LiI"),                       # capital I for small l
    ("Paypal", "PayPaI"),
    ("ape", "\u0430\u0440\u0435"),        # all Cyrillic: а р е
    ("Bob", "B0b"),                       # digit zero
    ("Alice", "ALICE"),
    ("Max", "\u041c\u0430\u0445"),         # all Cyrillic: М а х
    ("Sam", "\uff33am"),                  # full-width
    ("modern", "rnodern"),
]
INVISIBLE = ["Ada\ufe0f", "Ada\ufe0e", "A\u034fda", "Ad\u200ba", "Ad\u200ca", "Ad\u2060a", "Ada\u00ad",
             "Ad\u180ba", "Ada\U000e0101"]


@pytest.mark.parametrize("taken, attempt", LOOK_ALIKES)
def test_look_alike_nicknames_passed(client, taken, attempt):
    assert client.put("/api/nickname", json={"nickname": taken}).status_code == 200
    client.cookies.clear()
    answer = client.put("/api/nickname", json={"nickname": attempt})
    assert answer.status_code == 409 and "taken" in answer.json()["detail"], answer.text


@pytest.mark.parametrize("nickname", INVISIBLE)
def test_invisible_characters_in_a_nickname_passed(client, nickname):
    """Default-ignorable code points show nothing: ``Ada`` + U+FE0F looks like ``Ada``."""
    answer = client.put("/api/nickname", json={"nickname": nickname})
    assert answer.status_code == 422 and "invisible" in answer.json()["detail"], answer.text


def test_names_that_only_look_similar_by_case_stay_apart(client):
    for name in ("Lil", "Lin", "Bill", "Bili"):
        client.cookies.clear()
        assert client.put("/api/nickname", json={"nickname": name}).status_code == 200, name


# -- every write answers within 3 s ------------------------------------------------------------------
def test_a_locked_database_made_writes_wait_for_the_whole_lock(client, sqlite_url):
    """24 actions at once while another process holds the SQLite file for
    10 s: every answer within 3.5 s (503 with Retry-After while locked), none
    lost, none doubled."""
    people = [client, stranger_of(client)]  # twelve games each (twenty may be open at once)
    games = [(person, new_game(person)) for person in people for _ in range(12)]
    answers: dict[str, tuple[int, float, str | None]] = {}

    def send(person: TestClient, state: dict) -> None:
        started = time.monotonic()
        answer = person.post(f"/api/games/{state['id']}/actions",
                             json={"action": state["view"]["legal"][0], "version": state["version"]})
        answers[state["id"]] = (answer.status_code, time.monotonic() - started, answer.headers.get("retry-after"))

    with sqlite_held(sqlite_url):
        locked_at = time.monotonic()
        threads = [threading.Thread(target=send, args=game) for game in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert time.monotonic() - locked_at < 10  # all answered while the lock was still held
    assert len(answers) == 24
    assert max(took for _status, took, _retry in answers.values()) < 3.5, answers
    assert {(status, retry) for status, _took, retry in answers.values()} == {(503, "2")}
    store = client.app.state.room.store
    for person, state in games:  # nothing was committed; each action goes through once afterwards
        before = store.load(state["id"])
        assert before.version == state["version"]
        answer = person.post(f"/api/games/{state['id']}/actions",
                             json={"action": state["view"]["legal"][0], "version": state["version"]})
        assert answer.status_code == 200 and answer.json()["version"] == state["version"] + 1
        after = store.load(state["id"])
        assert after.record["actions"][:len(before.record["actions"])] == before.record["actions"]
        assert len(after.record["actions"]) >= len(before.record["actions"]) + 1


def test_healthz_said_200_while_the_disk_was_full(client, monkeypatch):
    """``/healthz`` writes a fresh block beside the database; a full disk fails it."""
    assert client.get("/healthz").status_code == 200
    real_write = os.write

    def full(descriptor: int, data: bytes) -> int:
        if "health-probe" in os.readlink(f"/proc/self/fd/{descriptor}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(descriptor, data)

    monkeypatch.setattr(os, "write", full)
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.headers["retry-after"] == "2"


def test_healthz_on_a_really_full_disk(tmp_path):
    """The same on a real full file system (a 1 MB tmpfs filled up), where
    the machine lets us mount one."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here; test_healthz_said_200_while_the_disk_was_full covers the code")
    try:
        app = create_app(f"sqlite:///{mount / 'db.sqlite'}", bot_factory=forced_bot("random"))
        with TestClient(app) as http:
            assert http.get("/healthz").status_code == 200
            filler = mount / "filler"
            descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
            try:
                while os.write(descriptor, b"\0" * 4096):
                    pass
            except OSError as error:
                assert error.errno == errno.ENOSPC
            finally:
                os.close(descriptor)
            assert http.get("/healthz").status_code == 503
            filler.unlink()
            assert http.get("/healthz").status_code == 200
        app.state.room.store.close()
    finally:
        subprocess.run(["umount", str(mount)], check=False)


# -- limits on every costly route ---------------------------------------------------------------------
@pytest.fixture
def tight(sqlite_url):
    limits = Limits(hints_per_identity=Rate(3, 60), hints_per_address=Rate(5, 60),
                    transfer_codes_per_identity=Rate(2, 600), transfer_codes_per_address=Rate(3, 600),
                    commitments_per_identity=Rate(3, 60), commitments_per_address=Rate(4, 60),
                    games_per_identity=Rate(2, 60), streams_per_identity=2, streams_per_address=3,
                    shares_per_identity=Rate(2, 600))
    app = create_app(sqlite_url, limits=limits, bot_factory=forced_bot("random"))
    with TestClient(app) as test_client:
        yield test_client
    app.state.room.store.close()


def statuses(answers) -> list[int]:
    return [answer.status_code for answer in answers]


def test_a_flood_of_hints_all_ran(tight, monkeypatch):
    """Counted per identity and per address; one at a time per game."""
    from tricktable.server.play import room as room_module

    monkeypatch.setattr(room_module, "hard_hint", lambda obs, seed: [{"action": "x", "value": 0.0}])
    mine = new_game(tight)
    hint = lambda http: http.get(f"/api/games/{mine['id']}/hint", params={"version": mine["version"]})  # noqa: E731
    assert statuses(hint(tight) for _ in range(4)) == [200, 200, 200, 429]
    assert int(hint(tight).headers["retry-after"]) > 0
    stranger = stranger_of(tight)
    assert statuses(hint(stranger) for _ in range(3)) == [404, 404, 429]  # the address's five are used up


def test_one_hint_at_a_time_per_game(tight, monkeypatch):
    from tricktable.server.play import room as room_module

    inside, release = threading.Event(), threading.Event()

    def slow(obs, seed):
        inside.set()
        release.wait(10)
        return []

    monkeypatch.setattr(room_module, "hard_hint", slow)
    mine = new_game(tight)
    first: list[int] = []
    thread = threading.Thread(target=lambda: first.append(
        tight.get(f"/api/games/{mine['id']}/hint", params={"version": mine["version"]}).status_code))
    thread.start()
    assert inside.wait(10)
    second = tight.get(f"/api/games/{mine['id']}/hint", params={"version": mine["version"]})
    release.set()
    thread.join(10)
    assert second.status_code == 429 and "being worked out" in second.json()["detail"]
    assert first == [200]


def test_a_flood_of_transfer_codes(tight):
    tight.post("/api/identity")
    assert statuses(tight.post("/api/identity/transfer") for _ in range(3)) == [200, 200, 429]
    other = TestClient(tight.app)
    assert statuses(other.post("/api/identity/transfer") for _ in range(2)) == [200, 429]  # the address's three


def test_a_flood_of_commitments(tight):
    tight.post("/api/identity")
    assert statuses(tight.post("/api/commitments") for _ in range(4)) == [200, 200, 200, 429]
    assert statuses([TestClient(tight.app).post("/api/commitments")] * 1) == [200]  # no identity: the address
    assert statuses([TestClient(tight.app).post("/api/commitments")]) == [429]


def test_a_flood_of_event_streams(tight):
    mine = new_game(tight)
    url = f"/api/games/{mine['id']}/events"
    opened = []
    try:
        for _ in range(2):
            stream = tight.stream("GET", url, params={"version": mine["version"]})
            opened.append(stream)
            assert stream.__enter__().status_code == 200
        third = tight.get(url, params={"version": mine["version"]})
        assert third.status_code == 429
    finally:
        for stream in opened:
            stream.__exit__(None, None, None)
    deadline = time.monotonic() + 5
    while tight.app.state.streams.count(None, "testclient")[1]:  # closed streams give their places back
        assert time.monotonic() < deadline
        time.sleep(0.05)
    with tight.stream("GET", url, params={"version": mine["version"]}) as again:
        assert again.status_code == 200


def test_refused_game_creations_counted_against_the_limit(tight, sqlite_url):
    """A creation refused with 503 (a locked database) does not count."""
    tight.post("/api/identity")
    with sqlite_held(sqlite_url):
        assert statuses(tight.post("/api/games", json={"game": "euchre"}) for _ in range(3)) == [503] * 3
    assert statuses(tight.post("/api/games", json={"game": "euchre"}) for _ in range(3)) == [201, 201, 429]


def test_a_flood_of_share_links(tight):
    done = finish(tight, new_game(tight))
    assert statuses(tight.post(f"/api/games/{done['id']}/share") for _ in range(3)) == [201, 201, 429]
