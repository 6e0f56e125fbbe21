"""Expired tables are deleted (their codes free again), cheaply, when a table is created."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update

from tricktable.server.play.tables import TABLE_SECONDS
from tricktable.store import Store
from tricktable.store.schema import games, tables
from tests.server.test_tables import new_table, start, wait_for_people


def test_expired_tables_are_deleted_when_a_table_is_created(client):
    store = client.app.state.room.store
    idle, played, fresh = new_table(client), new_table(client), new_table(client)
    game = start(client, played)
    wait_for_people(client, game["id"], {0})  # the computer players' moves would step the match again
    long_ago = time.time() - TABLE_SECONDS - 5
    with store.engine.begin() as db:
        db.execute(update(tables).where(tables.c.id.in_([idle["id"], played["id"]])).values(touched_at=long_ago))
    tables_of = client.app.state.quick.tables  # the routes' ``Tables``
    tables_of._swept_at = float("-inf")
    assert tables_of.sweep() == 1  # the idle one; the played one's match stepped just now
    with store.engine.begin() as db:
        left = set(db.execute(select(tables.c.id)).scalars())
        assert idle["id"] not in left and {played["id"], fresh["id"]} <= left
        db.execute(update(games).where(games.c.id == game["id"])
                   .values(updated_at=datetime.now(timezone.utc) - timedelta(seconds=TABLE_SECONDS + 5)))
    tables_of._swept_at = float("-inf")
    new_table(client)  # creating a table sweeps
    with store.engine.begin() as db:
        left = set(db.execute(select(tables.c.id)).scalars())
    assert played["id"] not in left and fresh["id"] in left
    assert client.get(f"/api/tables/{played['id']}").status_code == 404


def test_the_store_deletes_only_tables_whose_match_also_stepped_long_ago(database_url):
    """On both databases: the match's ``updated_at`` (a timestamp with zone) is compared right."""
    store = Store(database_url)
    try:
        waiting = store.create_table("waiting", "AAAAAA", "h1", "euchre", {}, "easy", "host", ("host", None, None, None),
                                     None, "w1", quick_until=time.time() + 10)
        store.create_table("idle", "BBBBBB", "h2", "euchre", {}, "easy", "host", ("host", None, None, None), None, "w2")
        assert [t.id for t in store.open_quick_tables("euchre", {}, time.time())] == [waiting.id]
        assert store.open_quick_tables("euchre", {"x": 1}, time.time()) == []
        assert store.open_quick_tables("euchre", {}, time.time() + 20) == []  # past its start
        assert store.delete_expired_tables(time.time() - TABLE_SECONDS) == 0
        assert store.delete_expired_tables(time.time() + 1) == 2  # (a cutoff after now: both are old)
        assert store.table("idle") is None and store.table_by_code("BBBBBB") is None
    finally:
        store.close()
