"""A game's actions in a column of their own, appended to by each commit
(``games.actions``: the record's actions as JSON strings joined by commas);
``games.record`` keeps the rest of the record, with ``"actions": []``.  A
commit then sends the actions it adds instead of the whole record again.

Every existing record is split in place.  Servers from before this revision
read ``record`` alone: all server processes on one database move to it
together (the downgrade joins the records again).

Revision ID: 0004
Revises: 0003
"""

from typing import Any, Iterator

from alembic import op
import orjson
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BATCH = 500
games = sa.table("games", sa.column("id", sa.String), sa.column("record", sa.Text), sa.column("actions", sa.Text))


def _rows(bind: Any, *columns: Any) -> Iterator[Any]:
    """Every game, BATCH at a time in id order (a large database is not read into memory at once)."""
    after = ""
    while True:
        batch = bind.execute(sa.select(games.c.id, *columns).where(games.c.id > after)
                             .order_by(games.c.id).limit(BATCH)).all()
        yield from batch
        if len(batch) < BATCH:
            return
        after = batch[-1][0]


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("actions", sa.Text, nullable=False, server_default=""))
    bind = op.get_bind()
    split = sa.update(games).where(games.c.id == sa.bindparam("game_id")).values(
        record=sa.bindparam("head"), actions=sa.bindparam("inside"))
    for game_id, text in _rows(bind, games.c.record):
        record = orjson.loads(text)
        bind.execute(split, {"game_id": game_id, "head": orjson.dumps({**record, "actions": []}).decode(),
                             "inside": orjson.dumps(record["actions"]).decode()[1:-1]})


def downgrade() -> None:
    bind = op.get_bind()
    join = sa.update(games).where(games.c.id == sa.bindparam("game_id")).values(record=sa.bindparam("whole"))
    for game_id, head, inside in _rows(bind, games.c.record, games.c.actions):
        record = orjson.loads(head)
        record["actions"] = orjson.loads(f"[{inside}]")
        bind.execute(join, {"game_id": game_id, "whole": orjson.dumps(record).decode()})
    with op.batch_alter_table("games") as batch:
        batch.drop_column("actions")
