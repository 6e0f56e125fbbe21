"""Tables of friends: create, join by code or invite, seat, start; then every
person plays his own seat, sees only his own seat's observation (answers,
loads and live streams) and can act for no other seat."""

from __future__ import annotations

import queue
import threading
import time
from types import SimpleNamespace

from fastapi.testclient import TestClient
from sqlalchemy import update

from tricktable.catalog import replay
from tricktable.server import create_app
from tricktable.server.play import commit
from tricktable.server.play.scheduler import forced_bot
from tricktable.server.play.tables import CODE_ALPHABET, CODE_LENGTH, TABLE_SECONDS
from tricktable.server.trust.limits import Limits, Rate
from tricktable.store.schema import tables
from tests.harness import identity_of, listen
from tests.server.test_api import strings_in


def friend_of(client: TestClient) -> TestClient:
    """Another person (a cookie jar of his own) on the same server."""
    return TestClient(client.app)


def new_table(host: TestClient, game: str = "euchre", clock: int | None = None, **options) -> dict:
    answer = host.post("/api/tables", json={"game": game, "options": options, "clock": clock})
    assert answer.status_code == 201, answer.text
    return answer.json()


def join(person: TestClient, key: str, seat: int | None = None) -> dict:
    answer = person.post(f"/api/tables/{key}/join", json={} if seat is None else {"seat": seat})
    assert answer.status_code == 200, answer.text
    return answer.json()


def start(host: TestClient, table: dict) -> dict:
    answer = host.post(f"/api/tables/{table['id']}/start")
    assert answer.status_code == 201, answer.text
    return answer.json()


def load(person: TestClient, game_id: str) -> dict:
    answer = person.get(f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_first_legal(person: TestClient, game_id: str) -> int:
    """``person`` (whose turn it is) plays his first legal action; the version it made."""
    mine = load(person, game_id)
    answer = person.post(f"/api/games/{game_id}/actions",
                         json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    assert answer.status_code == 200, answer.text
    return int(answer.json()["version"])


def my_seat(table: dict) -> int:
    return next(seat["seat"] for seat in table["seats"] if seat["you"])


def test_a_table_is_created_joined_by_code_and_invite_and_started_by_its_host(client):
    friend, third, stranger = friend_of(client), friend_of(client), friend_of(client)
    table = new_table(client)
    assert len(table["code"]) == CODE_LENGTH and set(table["code"]) <= set(CODE_ALPHABET)
    assert len(table["invite"]) >= 22  # 128 bits in URL-safe base64
    assert table["host"] and my_seat(table) == 0 and [s["person"] for s in table["seats"]] == [True, False, False, False]
    assert "invite" not in client.get(f"/api/tables/{table['id']}").json()  # shown once, stored hashed

    assert my_seat(join(friend, table["code"].lower())) == 1  # codes are read in either case
    assert my_seat(join(third, table["invite"], seat=3)) == 3
    assert my_seat(join(friend, table["code"])) == 1  # joining again keeps the seat
    assert stranger.get(f"/api/tables/{table['id']}").status_code == 404  # only its people see it
    assert stranger.post(f"/api/tables/{table['code']}/join", json={"seat": 1}).status_code == 409  # taken
    assert friend.post(f"/api/tables/{table['id']}/start").status_code == 403  # only the host starts
    assert friend.post(f"/api/tables/{table['id']}/seats", json={"seat": 1, "to": 2}).status_code == 403

    moved = client.post(f"/api/tables/{table['id']}/seats", json={"seat": 3, "to": 2})
    assert moved.status_code == 200 and [s["person"] for s in moved.json()["seats"]] == [True, True, True, False]
    freed = client.post(f"/api/tables/{table['id']}/computer", json={"seat": 2})
    assert freed.status_code == 200 and [s["person"] for s in freed.json()["seats"]] == [True, True, False, False]
    assert third.get(f"/api/tables/{table['id']}").status_code == 404  # he left the table with his seat
    assert client.post(f"/api/tables/{table['id']}/seats", json={"seat": 0, "to": 4}).status_code == 422

    game = start(client, table)
    assert game["view"]["seat"] == 0
    theirs = load(friend, game["id"])
    assert theirs["view"]["seat"] == 1 and theirs["id"] == game["id"]
    assert set(theirs["view"]["hand"]).isdisjoint(game["view"]["hand"])
    assert third.get(f"/api/games/{game['id']}").status_code == 404
    assert stranger.get(f"/api/games/{game['id']}").status_code == 404
    assert client.get(f"/api/tables/{table['id']}").json()["game_id"] == game["id"]
    assert client.post(f"/api/tables/{table['id']}/start").status_code == 409  # one match per table
    assert stranger.post(f"/api/tables/{table['invite']}/join", json={}).status_code == 409  # started


def test_at_most_four_people_and_the_host_keeps_a_seat(client):
    table = new_table(client)
    for seat in (1, 2, 3):
        assert my_seat(join(friend_of(client), table["code"])) == seat
    assert friend_of(client).post(f"/api/tables/{table['code']}/join", json={}).status_code == 409
    assert client.post(f"/api/tables/{table['id']}/computer", json={"seat": 0}).status_code == 422


def test_a_guessed_code_is_a_404_and_guessing_is_rate_limited(sqlite_url):
    limits = Limits(table_codes_per_identity=Rate(5, 600), table_codes_per_address=Rate(8, 600))
    app = create_app(sqlite_url, limits=limits, bot_factory=forced_bot("random"))
    guesses = iter(f"{a}{b}ZZZZ" for a in CODE_ALPHABET for b in CODE_ALPHABET)
    with TestClient(app) as guesser:
        assert guesser.post("/api/identity").status_code == 200
        statuses = [guesser.post(f"/api/tables/{next(guesses)}/join", json={}).status_code for _ in range(6)]
        assert statuses == [404] * 5 + [429]  # the identity's limit
        fresh = TestClient(app)  # a new identity each time, from the same address
        statuses = [fresh.post(f"/api/tables/{next(guesses)}/join", json={}).status_code for _ in range(4)]
        assert statuses == [404] * 3 + [429]  # the address's limit: 8 guesses in all
        assert guesser.post("/api/tables/not-an-invite-token-at-all/join", json={}).status_code == 404
    app.state.room.store.close()


def test_a_table_is_gone_a_day_after_its_last_change(client):
    table = new_table(client)
    store = client.app.state.room.store
    with store.engine.begin() as db:
        db.execute(update(tables).where(tables.c.id == table["id"]).values(touched_at=time.time() - TABLE_SECONDS - 5))
    assert client.get(f"/api/tables/{table['id']}").status_code == 404
    assert friend_of(client).post(f"/api/tables/{table['code']}/join", json={}).status_code == 404


def four_people_at(client: TestClient, game: str) -> tuple[list[TestClient], dict]:
    """A started table of ``game`` with four people: their clients by seat, and the game id."""
    people = [client, *(friend_of(client) for _ in range(3))]
    table = new_table(client, game)
    for person in people[1:]:
        join(person, table["code"])
    return people, start(client, table)


def test_each_person_acts_only_for_his_own_seat_and_a_replay_is_refused(client):
    people, game = four_people_at(client, "euchre")
    for _ in range(12):
        state = load(people[0], game["id"])
        mover = state["view"]["to_move"]
        mine = load(people[mover], game["id"])
        action = mine["view"]["legal"][0]
        for seat, person in enumerate(people):
            if seat != mover:  # the same action, the same version, from another seat: not his turn
                refused = person.post(f"/api/games/{game['id']}/actions",
                                      json={"action": action, "version": mine["version"]})
                assert refused.status_code == 409, refused.text
        answer = people[mover].post(f"/api/games/{game['id']}/actions", json={"action": action, "version": mine["version"]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["view"]["seat"] == mover and answer.json()["steps"][0]["seat"] == mover
        replayed = people[mover].post(f"/api/games/{game['id']}/actions",
                                      json={"action": action, "version": mine["version"]})
        assert replayed.status_code == 409  # stale: the game moved on
        assert answer.json()["thinking"] is None  # nobody's seat is played by a computer player


def state_at(record: dict, version: int):
    """The game of ``record`` at ``version`` (one action a version from ``version_base`` on)."""
    base = record["version_base"]
    return replay(dict(record, actions=record["actions"][:base["actions"] + version - base["version"]]))


def wait_for_people(person: TestClient, game_id: str, people: set[int], timeout: float = 20.0) -> dict:
    """The game once the computer players have moved and a person is to move (or it is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = load(person, game_id)
        if state["view"]["terminal"] or (state["thinking"] is None and state["view"]["to_move"] in people):
            return state
        time.sleep(0.05)
    raise TimeoutError("the computer players did not move")


def test_two_people_at_a_doppelkopf_table_one_announces_out_of_turn(client):
    friend = friend_of(client)
    table = new_table(client, "doppelkopf")
    join(friend, table["code"], seat=2)
    game = start(client, table)
    people = {0: client, 2: friend}
    for _ in range(200):
        state = wait_for_people(client, game["id"], set(people))
        mover = state["view"]["to_move"]
        waiting = 2 if mover == 0 else 0
        theirs = load(people[waiting], game["id"])
        announcements = [text for text in theirs["view"]["legal"] if text in ("re", "kontra")]
        if announcements:
            answer = people[waiting].post(f"/api/games/{game['id']}/actions",
                                          json={"action": announcements[0], "version": theirs["version"]})
            assert answer.status_code == 200, answer.text
            step = answer.json()["steps"][0]
            assert (step["seat"], step["text"]) == (waiting, announcements[0])
            assert answer.json()["view"]["to_move"] == mover  # still the other person's turn
            return
        mine = load(people[mover], game["id"])
        answer = people[mover].post(f"/api/games/{game['id']}/actions",
                                    json={"action": mine["view"]["legal"][0], "version": mine["version"]})
        assert answer.status_code in (200, 409), answer.text  # 409: a computer player moved first
    raise AssertionError("no announcement out of turn came up")


def test_every_step_reaches_every_persons_stream_without_the_others_cards(client):
    friend = friend_of(client)
    table = new_table(client)
    join(friend, table["code"])
    game = start(client, table)
    room = client.app.state.room
    state = wait_for_people(client, game["id"], {0, 1})
    streams: dict[int, queue.Queue] = {0: queue.Queue(), 1: queue.Queue()}
    stop = threading.Event()
    for seat, person in ((0, client), (1, friend)):
        listen(person, game["id"], state["version"], streams[seat], stop)
    try:
        mover = state["view"]["to_move"]
        version = play_first_legal({0: client, 1: friend}[mover], game["id"])
        deal = state_at(room.store.load(game["id"]).record, version).current
        for seat, inbox in streams.items():
            while True:
                _when, kind, data = inbox.get(timeout=10)
                if kind == "step" and data["version"] == version:
                    break
            assert data["view"]["seat"] == seat and data["steps"][0]["seat"] == mover
            other = deal.hands[1 - seat] & ~(1 << deal.up_card)  # (the up-card is shown to all)
            hidden = {deal.action_text(card).split()[-1] for card in range(52) if other >> card & 1}
            assert hidden and not hidden & strings_in({k: v for k, v in data["view"].items() if k != "match"})
    finally:
        stop.set()


def test_a_turn_clock_that_runs_out_has_a_computer_player_decide_once(client, monkeypatch):
    friend = friend_of(client)
    table = new_table(client)
    join(friend, table["code"])
    game = start(client, table)
    assert client.get(f"/api/tables/{table['id']}").json()["clock"] == 30  # two people: the default clock
    state = wait_for_people(client, game["id"], {0, 1})
    mover = state["view"]["to_move"]
    assert 25 < state["deadline_in"] <= 30
    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(client, game["id"], state["version"], inbox, stop)
    try:
        room = client.app.state.room
        # The referee's clock a minute on: the clock has run out (not 30 s of the test's time).
        monkeypatch.setattr(commit, "time", SimpleNamespace(time=lambda: time.time() + 60, monotonic=time.monotonic))
        room.resume(game["id"])
        while True:
            _when, kind, data = inbox.get(timeout=20)
            if kind == "step" and data["version"] == state["version"] + 1:
                break
        assert data["steps"][0]["seat"] == mover and data["steps"][0]["auto"] is True
    finally:
        stop.set()
        monkeypatch.undo()
    record = room.store.load(game["id"]).record
    assert record["auto"] == [state["version"] + 1]
    # A page that loads the game now (its person back after dropping) marks the seat too.
    assert load(friend, game["id"])["auto_seats"] == [mover]
    # The seat is still his: at his next decision the clock runs again, and he acts himself.
    for _ in range(40):
        state = wait_for_people(client, game["id"], {0, 1})
        if state["view"]["to_move"] == mover or state["view"]["terminal"]:
            break
        other = [client, friend][state["view"]["to_move"]]
        theirs = load(other, game["id"])
        other.post(f"/api/games/{game['id']}/actions", json={"action": theirs["view"]["legal"][0],
                                                             "version": theirs["version"]})
    assert state["view"]["to_move"] == mover and state["deadline_in"] > 20
    mine = load([client, friend][mover], game["id"])
    answer = [client, friend][mover].post(f"/api/games/{game['id']}/actions",
                                          json={"action": mine["view"]["legal"][0], "version": mine["version"]})
    assert answer.status_code == 200 and "auto" not in answer.json()["steps"][0]
    assert answer.json()["auto_seats"] == []  # he decided again himself


def test_a_table_offers_only_its_clocks(client):
    assert client.post("/api/tables", json={"game": "euchre", "clock": 45}).status_code == 422
    table = new_table(client, clock=0)
    assert table["clock"] == 0


def test_a_seat_watching_on_another_server_process_gets_its_own_view(two_processes):
    """The host acts on one process; his friend's stream is on another, which
    learns of the commit from the change feed (the frames stored are seat 0's)."""
    here, there = two_processes
    friend = TestClient(there.app)
    table = new_table(here)
    join(friend, table["code"])
    game = start(here, table)
    state = wait_for_people(here, game["id"], {0, 1})
    inbox: queue.Queue = queue.Queue()
    stop = threading.Event()
    listen(friend, game["id"], state["version"], inbox, stop)
    try:
        mover = state["view"]["to_move"]
        actor = here if mover == 0 else TestClient(here.app, cookies=friend.cookies)
        mine = load(actor, game["id"])
        answer = actor.post(f"/api/games/{game['id']}/actions",
                            json={"action": mine["view"]["legal"][0], "version": mine["version"]})
        assert answer.status_code == 200, answer.text
        seats_seen = []
        while True:
            _when, kind, data = inbox.get(timeout=20)
            if kind in ("step", "state"):
                seats_seen.append(data["view"]["seat"])
                if kind == "step" and data["version"] == answer.json()["version"]:
                    break
        assert data["steps"][0]["seat"] == mover
        assert set(seats_seen) == {1}  # never the frames of seat 0 that the other process stored
    finally:
        stop.set()


def test_people_joining_at_once_each_get_a_seat_of_their_own(client):
    table = new_table(client)
    friends = [friend_of(client) for _ in range(3)]
    for friend in friends:  # each has his identity before the race
        assert friend.post("/api/identity").status_code == 200
    answers: list = []
    threads = [threading.Thread(target=lambda f=f: answers.append(f.post(f"/api/tables/{table['code']}/join",
                                                                          json={})))
               for f in friends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [200, 200, 200]
    assert sorted(my_seat(answer.json()) for answer in answers) == [1, 2, 3]


def test_a_table_names_its_people_by_the_nicknames_they_chose_and_nothing_else(client):
    friend = friend_of(client)
    table = new_table(client)
    joined = join(friend, table["code"])
    assert friend.put("/api/nickname", json={"nickname": "Asha"}).status_code == 200
    seats = {seat["seat"]: seat for seat in client.get(f"/api/tables/{table['id']}").json()["seats"]}
    assert seats[my_seat(joined)]["nickname"] == "Asha" and seats[my_seat(table)]["nickname"] is None
    assert not {seat["nickname"] for seat in seats.values() if not seat["person"]} - {None}
    answer = client.get(f"/api/tables/{table['id']}").text
    assert identity_of(friend) not in answer and identity_of(client) not in answer
