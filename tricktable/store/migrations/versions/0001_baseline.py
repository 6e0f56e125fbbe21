"""The schema as it was before migrations: games, meta, nicknames, scores.

A database made by an older server already has these tables (and maybe not
``games.deadline``, added later); this revision creates what is missing, so
old and new databases arrive at the same place.

Revision ID: 0001
"""

from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in present:
        op.create_table(
            "games",
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("record", sa.Text, nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("status", sa.String(8), nullable=False),
            sa.Column("daily_day", sa.String(10)),
            sa.Column("device", sa.String(64)),
            sa.Column("deadline", sa.Float),
            sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
            sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
            sa.UniqueConstraint("game", "daily_day", "device", name="one_daily_attempt"),
        )
    elif "deadline" not in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}:
        op.add_column("games", sa.Column("deadline", sa.Float))
    if "meta" not in present:
        op.create_table("meta", sa.Column("key", sa.String(40), primary_key=True),
                        sa.Column("value", sa.Text, nullable=False))
    if "nicknames" not in present:
        op.create_table("nicknames", sa.Column("device", sa.String(64), primary_key=True),
                        sa.Column("nickname", sa.String(64), nullable=False))
    if "scores" not in present:
        op.create_table(
            "scores",
            sa.Column("game", sa.String(40), primary_key=True),
            sa.Column("day", sa.String(10), primary_key=True),
            sa.Column("device", sa.String(64), primary_key=True),
            sa.Column("score", sa.Integer, nullable=False),
            sa.Column("game_id", sa.String(40), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
        )
