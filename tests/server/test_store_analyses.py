"""The analyses' store on both databases: one per game, progress written only
by the process that holds it, a lapsed lease taken over, a live one not; each
decision a row of its own; a failed one retried while it may be; the
migration from one JSON list per analysis."""

from __future__ import annotations

import json

from sqlalchemy import column, create_engine, event, insert, select, table

from tricktable.store import Store
from tests.server.test_store_actions import alembic_to


def test_an_analysis_is_one_per_game_and_written_only_by_its_holder(database_url):
    store = Store(database_url)
    try:
        assert store.analysis("g1") is None
        assert store.queue_analysis("g1", 3, "a", lease_until=100.0)
        assert not store.queue_analysis("g1", 3, "b", lease_until=100.0)  # started once
        found = store.analysis("g1")
        assert (found.status, found.done, found.total, found.decisions, found.worker) == ("queued", 0, 3, [], "a")
        assert not store.claim_analysis("g1", "b", lease_until=200.0, now=50.0)  # a's lease runs until 100
        assert not store.save_analysis("g1", "b", "running", [{"index": 4}], 200.0)
        assert store.save_analysis("g1", "a", "running", [{"index": 4}], 110.0)
        assert store.claim_analysis("g1", "b", lease_until=300.0, now=150.0)  # lapsed: b takes it over
        assert not store.renew_analysis("g1", "a", 400.0)  # a learns it at its next write
        assert store.save_analysis("g1", "b", "done", [{"index": 4}, {"index": 9}], None)
        found = store.analysis("g1")
        assert (found.status, found.done, found.decisions[1], found.lease_until) == ("done", 2, {"index": 9}, None)
        assert not store.claim_analysis("g1", "c", lease_until=500.0, now=450.0)  # done: nothing to take over
    finally:
        store.close()


def test_each_decision_is_a_row_of_its_own_added_once(database_url, monkeypatch):
    """A stored decision is one inserted row: the earlier ones are neither read
    back nor written again (one decision costs the same at the end of a long
    match), and the same index sent twice is kept once."""
    store = Store(database_url)
    try:
        assert store.queue_analysis("g1", 300, "a", lease_until=100.0)
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute",
                     lambda conn, cursor, statement, *rest: statements.append(statement))
        for index in range(200):
            assert store.save_analysis("g1", "a", "running", [{"index": index, "lost": index / 10}], 100.0)
        late = statements[-3:]  # the 200th decision's statements
        assert [s.split()[0] for s in late] == ["SELECT", "UPDATE", "INSERT"]
        assert "decisions" not in late[1].split(" WHERE ")[0]  # the analysis's row keeps no list
        assert store.save_analysis("g1", "a", "running", [{"index": 7, "lost": 99.0}, {"index": 500}], 100.0)
        found = store.analysis("g1")
        assert found.done == len(found.decisions) == 201
        assert [d["index"] for d in found.decisions] == [*range(200), 500]  # in the record's order
        assert found.decisions[7] == {"index": 7, "lost": 0.7}  # the first one stored stays
    finally:
        store.close()


def test_a_failed_analysis_is_retried_only_while_it_may_be(database_url):
    store = Store(database_url)
    try:
        assert store.queue_analysis("g1", 3, "a", lease_until=100.0)
        assert not store.retry_analysis("g1", "b", 200.0)  # not failed
        assert store.save_analysis("g1", "a", "failed", [{"index": 4}], None, error="BrokenProcessPool", retry=True)
        found = store.analysis("g1")
        assert (found.status, found.error, found.attempts, found.retry) == ("failed", "BrokenProcessPool", 1, True)
        assert store.retry_analysis("g1", "b", 200.0)
        assert not store.retry_analysis("g1", "c", 200.0)  # b retries it: once
        found = store.analysis("g1")
        assert (found.status, found.worker, found.attempts, found.retry) == ("queued", "b", 2, False)
        assert found.error == "BrokenProcessPool" and found.decisions == [{"index": 4}]  # kept for the reader
        assert store.save_analysis("g1", "b", "running", [{"index": 9}], 210.0)
        assert store.analysis("g1").error == "BrokenProcessPool"  # progress leaves the last error as it was
        assert store.save_analysis("g1", "b", "failed", [], None, error="ValueError: no such card", retry=False)
        assert not store.retry_analysis("g1", "c", 300.0)  # failed for good
        found = store.analysis("g1")
        assert (found.status, found.error, found.attempts, found.done) == ("failed", "ValueError: no such card", 2, 2)
    finally:
        store.close()


def test_the_migration_turns_each_stored_list_into_rows_and_back(database_url):
    """A database at 0008 (each analysis's decisions one JSON list) is
    converted by the store's start; one that had failed may be retried once
    (its cause is unknown); the downgrade gives the lists back."""
    alembic_to(database_url, "0008")
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    old = table("analyses", column("game_id"), column("status"), column("done"), column("total"), column("decisions"),
                column("error"))
    lists = {"g1": [{"index": 2, "lost": 0.5}, {"index": 11, "lost": 0.0}], "g2": [{"index": 1}], "g3": []}
    with engine.begin() as db:
        for (game_id, decisions), status in zip(lists.items(), ["done", "failed", "queued"]):
            db.execute(insert(old).values(game_id=game_id, status=status, done=len(decisions), total=3,
                                          decisions=json.dumps(decisions),
                                          error="RuntimeError" if status == "failed" else None))
    store = Store(database_url)
    try:
        for game_id, decisions in lists.items():
            assert store.analysis(game_id).decisions == decisions
        assert [store.analysis(g).retry for g in lists] == [False, True, False]
        assert store.retry_analysis("g2", "a", 100.0) and store.analysis("g2").attempts == 2
    finally:
        store.close()
    alembic_to(database_url, "0008", down=True)
    with engine.begin() as db:
        stored = dict(db.execute(select(old.c.game_id, old.c.decisions)).all())
    engine.dispose()
    assert {game_id: json.loads(text) for game_id, text in stored.items()} == lists


def test_an_analysis_is_one_per_seat_of_a_game(database_url):
    store = Store(database_url)
    try:
        assert store.queue_analysis("g1", 3, "a", lease_until=100.0, seat=1)
        assert store.queue_analysis("g1", 5, "a", lease_until=100.0, seat=3)  # another seat: its own analysis
        assert not store.queue_analysis("g1", 3, "b", lease_until=100.0, seat=1)
        assert store.analysis("g1") is None  # seat 0's: none
        assert store.save_analysis("g1", "a", "done", [{"index": 4}], None, seat=1)
        assert store.save_analysis("g1", "a", "running", [{"index": 6}], 100.0, seat=3)
        assert store.analysis("g1", 1).decisions == [{"index": 4}] and store.analysis("g1", 1).status == "done"
        assert store.analysis("g1", 3).decisions == [{"index": 6}] and store.analysis("g1", 3).total == 5
        assert store.finished_decisions([("g1", 1), ("g1", 3)]) == {"g1": [{"index": 4}]}  # seat 3's is not done
        assert store.finished_decisions([("g1", 0)]) == {}
    finally:
        store.close()


def test_the_seats_migration_keeps_analyses_as_seat_0s_and_fills_the_tables_people(database_url):
    """A database at 0013: its analyses and decisions become seat 0's, its
    summaries stay their owners', a started table's people are kept with its
    match; the downgrade gives back seat 0's analyses."""
    alembic_to(database_url, "0013")
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    analyses = table("analyses", column("game_id"), column("status"), column("done"), column("total"))
    decisions = table("analysis_decisions", column("game_id"), column("action_index"), column("decision"))
    summaries = table("game_summaries", column("game_id"), column("owner"), column("game"), column("finished_at"),
                      column("format"), column("summary"))
    tables = table("tables", column("id"), column("code"), column("invite_hash"), column("game"), column("options"),
                   column("level"), column("host"), column("seats"), column("game_id"), column("touched_at"))
    with engine.begin() as db:
        db.execute(insert(analyses).values(game_id="g1", status="done", done=1, total=1))
        db.execute(insert(decisions).values(game_id="g1", action_index=2, decision=json.dumps({"index": 2})))
        db.execute(insert(summaries).values(game_id="g1", owner="me", game="euchre", finished_at=1.0, format=1,
                                            summary="{}"))
        db.execute(insert(tables).values(id="t1", code="ABCDEF", invite_hash="i", game="euchre", options="{}",
                                         level="normal", host="host", seats=json.dumps([None, "host", None, "friend"]),
                                         game_id="g2", touched_at=1.0))
    store = Store(database_url)
    try:
        assert store.analysis("g1", 0).decisions == [{"index": 2}] and store.analysis("g1", 1) is None
        assert [s.game_id for s in store.summaries("me", "euchre", 1)] == ["g1"]
        assert store.seats_held("friend", ["g2"]) == {"g2": 3} and store.seats_held("host", ["g2"]) == {"g2": 1}
    finally:
        store.close()
    alembic_to(database_url, "0013", down=True)
    with engine.begin() as db:
        assert db.execute(select(decisions.c.game_id, decisions.c.action_index)).all() == [("g1", 2)]
        assert db.execute(select(summaries.c.game_id, summaries.c.owner)).all() == []  # (no game row: not the owner's)
    engine.dispose()
