"""The store on SQLite and PostgreSQL: records with versions, the optimistic
check, one daily attempt per device, the secret, nicknames and ranks."""

from __future__ import annotations

from tricktable.nicknames import skeletons

import time

import threading

import pytest
from sqlalchemy.exc import IntegrityError

from tricktable.store import StaleVersion, Store

RECORD = {"format": 1, "game": "euchre", "rules_version": "euchre-1", "options": {}, "kind": "match",
          "seed": "s", "daily": False, "actions": []}


def test_game_round_trip_and_versions(database_url):
    store = Store(database_url)
    row = store.create_game(RECORD, "open")
    assert store.load(row.id).version == 1
    saved = store.save(row, dict(RECORD, actions=["pass"]), "open")
    loaded = store.load(row.id)
    assert (saved.version, loaded.version, loaded.record["actions"]) == (2, 2, ["pass"])
    assert store.load("nope") is None


def test_a_stale_writer_changes_nothing(database_url):
    store = Store(database_url)
    row = store.create_game(RECORD, "open")
    store.save(row, dict(RECORD, actions=["pass"]), "open")
    with pytest.raises(StaleVersion):
        store.save(row, dict(RECORD, actions=["order up"]), "open")  # still thinks version 1
    assert store.load(row.id).record["actions"] == ["pass"]


def test_racing_writers_only_one_applies(database_url):
    store = Store(database_url)
    row = store.create_game(RECORD, "open")
    barrier, outcomes = threading.Barrier(4), []

    def write(action: str) -> None:
        barrier.wait()
        try:
            store.save(row, dict(RECORD, actions=[action]), "open")
            outcomes.append("ok")
        except StaleVersion:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(a,)) for a in ("pass", "order up", "call S", "alone")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "stale", "stale", "stale"]
    assert store.load(row.id).version == 2


def test_one_daily_attempt_per_device(database_url):
    store = Store(database_url)
    first = store.create_game(RECORD, "open", daily_day="2026-01-01", device="d" * 20)
    with pytest.raises(IntegrityError):
        store.create_game(RECORD, "open", daily_day="2026-01-01", device="d" * 20)
    assert store.find_daily("euchre", "2026-01-01", "d" * 20).id == first.id
    store.create_game(RECORD, "open", daily_day="2026-01-02", device="d" * 20)  # another day is fine
    store.create_game(RECORD, "open")  # ordinary games have no day or device
    store.create_game(RECORD, "open")


def test_the_secret_is_made_once_and_shared(database_url):
    first = Store(database_url).secret()
    assert len(first) == 64
    assert Store(database_url).secret() == first


def test_a_look_alike_nickname_is_refused_by_the_database(database_url):
    store = Store(database_url)
    assert store.set_nickname("a" * 20, "Alice", skeletons("Alice"))
    assert not store.set_nickname("b" * 20, "ALICE", skeletons("ALICE"))
    assert store.set_nickname("a" * 20, "Alice2", skeletons("Alice2"))  # one's own name may change
    assert store.set_nickname("b" * 20, "Alice", skeletons("Alice"))  # ... and the old one is free again
    assert store.nickname("b" * 20) == "Alice"


def test_a_practice_attempt_never_reaches_the_leaderboard(database_url):
    store = Store(database_url)
    row = store.create_game(RECORD, "open", daily_day="2026-01-01", device="p" * 20, ranked=False)
    store.save(row, RECORD, "over", score=7)
    assert store.leaderboard("euchre", "2026-01-01", "p" * 20)["entries"] == []


def test_leaderboard_ranks_ties_and_own_rank(database_url):
    store = Store(database_url)
    for index, score in enumerate([5, 9, 5, -3]):
        device = f"device-{index:012d}"
        row = store.create_game(RECORD, "open", daily_day="2026-01-01", device=device)
        store.save(row, RECORD, "over", score=score)
        store.set_nickname(device, f"player {index}", skeletons(f"player {index}"))
    store.set_nickname("device-000000000000", "renamed", skeletons("renamed"))
    board = store.leaderboard("euchre", "2026-01-01", "device-000000000002", limit=3)
    # A tie goes to who finished first: device 0 before device 2.
    assert [(e["rank"], e["score"]) for e in board["entries"]] == [(1, 9), (2, 5), (3, 5)]
    assert board["entries"][1]["nickname"] == "renamed"
    assert board["own"] == {"rank": 3, "score": 5}
    last = store.leaderboard("euchre", "2026-01-01", "device-000000000003", limit=3)
    assert last["own"] == {"rank": 4, "score": -3}  # outside the top 3, still ranked
    assert store.leaderboard("euchre", "2026-01-02", None) == {
        "game": "euchre", "day": "2026-01-02", "entries": [], "own": None}


def test_a_loaded_practice_attempt_is_not_ranked(database_url):
    """The request path reads rows on the driver's own cursor: a stored
    ``ranked`` false comes back ``False`` (SQLite stores 0), so the attempt
    stays off the leaderboard when it is saved from a loaded row."""
    store = Store(database_url)
    row = store.create_game(RECORD, "open", daily_day="2026-01-01", device="q" * 20, ranked=False)
    loaded = store.load(row.id)
    assert loaded.ranked is False and not loaded.counts_on_leaderboard
    store.save(loaded, RECORD, "over", score=7)
    assert store.leaderboard("euchre", "2026-01-01", "q" * 20)["entries"] == []


def test_the_store_knows_its_own_last_write_and_not_anothers(database_url):
    """What the change feed asks so that it does not wake this process's
    streams for its own commits: the (version, lease) this store wrote last;
    another store (process) on the same database writing makes it false, and
    a refused write is not counted."""
    mine, other = Store(database_url), Store(database_url)
    row = mine.create_game(RECORD, "open")
    saved = mine.save(row, dict(RECORD, actions=["pass"]), "open")
    assert mine.wrote_last(row.id, saved.version, None)
    assert not other.wrote_last(row.id, saved.version, None)
    theirs = other.save(saved, dict(RECORD, actions=["pass", "pass"]), "open")
    assert not mine.wrote_last(row.id, theirs.version, None)
    with pytest.raises(StaleVersion):
        mine.save(saved, dict(RECORD, actions=["pass", "pass"]), "open")
    assert not mine.wrote_last(row.id, theirs.version, None)
    assert mine.claim_turn(row.id, theirs.version, "me", 30)
    version, until = mine.versions([row.id])[row.id]
    assert version == theirs.version and mine.wrote_last(row.id, version, until)
    assert not mine.wrote_last(row.id, version, until + 1)  # another claim since: not ours
    assert mine.release_turn(row.id, "me", version)
    assert mine.wrote_last(row.id, version, None)
    assert other.claim_turn(row.id, version, "other", 30)
    assert not mine.wrote_last(row.id, *mine.versions([row.id])[row.id])


def test_the_versions_of_many_games_are_read_in_batches(database_url):
    store = Store(database_url)
    rows = [store.create_game(RECORD, "open") for _ in range(73)]
    store.save(rows[60], RECORD, "open")
    found = store.versions([row.id for row in rows] + ["nope"])
    assert set(found) == {row.id for row in rows}
    assert found[rows[60].id] == (2, None) and found[rows[0].id] == (1, None)
    assert store.versions([]) == {}


def test_writers_of_several_processes_queue_on_one_file_lock(sqlite_url):
    """SQLite: a writer holds an exclusive ``flock`` beside the database file
    (other processes' writers queue on it instead of sleeping in SQLite's busy
    handler); another process cannot take it meanwhile, and can after."""
    import subprocess
    import sys

    store = Store(sqlite_url)
    path = sqlite_url.removeprefix("sqlite:///") + ".writer-lock"
    probe = ("import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR)\n"
             "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n    sys.exit(3)")
    assert store._write_lock is not None
    with store._write_lock.hold(time.monotonic() + 1):
        assert subprocess.run([sys.executable, "-c", probe, path]).returncode == 3
    assert subprocess.run([sys.executable, "-c", probe, path]).returncode == 0
    store.close()


def test_a_writer_late_to_its_turn_waits_in_sqlite_only_what_it_has_left_and_gives_the_wait_back(sqlite_url):
    """SQLite's busy timeout is cut to the writer's deadline for its
    transaction, and the pooled connection gets the full one back after it."""
    from tricktable.store import engine

    store = Store(sqlite_url, pool_size=1)
    seen = []
    try:
        token = engine.ANSWER_BY.set(time.monotonic() + 0.5)  # a request that came 2 s ago
        try:
            with store._raw(write=True) as db:
                seen.append(db.cursor.execute("PRAGMA busy_timeout").fetchone()[0])
        finally:
            engine.ANSWER_BY.reset(token)
        with store._raw(write=True) as db:  # the same pooled connection, a writer in time
            seen.append(db.cursor.execute("PRAGMA busy_timeout").fetchone()[0])
    finally:
        store.close()
    assert 400 <= seen[0] <= 500 and seen[1] == engine.BUSY_MS
