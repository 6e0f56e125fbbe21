"""Every person's own seat, at a table's match as alone: an analysis (and its
decisions) per game and seat; a game's people per seat (``game_seats``,
filled from the tables that started matches, so they outlive their tables);
a summary for statistics per game and person; a share link's seat.

Existing analyses and decisions are seat 0's (the only seat analysed before);
existing summaries keep their owner; existing share links show seat 0.

Revision ID: 0017
Revises: 0016
"""

from alembic import op
import orjson
import sqlalchemy as sa

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

tables = sa.table("tables", sa.column("game_id", sa.String), sa.column("seats", sa.Text))
game_seats = sa.table("game_seats", sa.column("game_id", sa.String), sa.column("seat", sa.Integer),
                      sa.column("identity", sa.String))

ANALYSES = ["game_id", "status", "done", "total", "error", "attempts", "retry", "worker", "lease_until",
            "created_at", "updated_at"]
DECISIONS = ["game_id", "action_index", "decision"]
SUMMARIES = ["game_id", "owner", "game", "finished_at", "format", "summary"]


def _analyses(name: str, by_seat: bool) -> None:
    op.create_table(
        name,
        sa.Column("game_id", sa.String(40), primary_key=True),
        *([sa.Column("seat", sa.Integer, primary_key=True)] if by_seat else []),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="1"),
        sa.Column("retry", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("worker", sa.String(40)),
        sa.Column("lease_until", sa.Float),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )


def _decisions(name: str, by_seat: bool) -> None:
    op.create_table(
        name,
        sa.Column("game_id", sa.String(40), primary_key=True),
        *([sa.Column("seat", sa.Integer, primary_key=True)] if by_seat else []),
        sa.Column("action_index", sa.Integer, primary_key=True),
        sa.Column("decision", sa.Text, nullable=False),
    )


def _summaries(name: str, by_person: bool) -> None:
    op.create_table(
        name,
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("owner", sa.String(40), primary_key=by_person, nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
    )


def _moved(old: str, new: str, columns: list[str], seat: bool) -> None:
    """``old``'s rows copied into ``new`` (with seat 0 where ``seat``), ``old``
    dropped and ``new`` given its name.  A table is made anew because its
    primary key changes (SQLite cannot alter one)."""
    names = ", ".join(columns)
    op.execute(f"INSERT INTO {new} ({names}{', seat' if seat else ''}) "
               f"SELECT {names}{', 0' if seat else ''} FROM {old}")
    op.drop_table(old)
    op.rename_table(new, old)


def upgrade() -> None:
    _analyses("analyses_by_seat", True)
    _moved("analyses", "analyses_by_seat", ANALYSES, seat=True)
    _decisions("analysis_decisions_by_seat", True)
    _moved("analysis_decisions", "analysis_decisions_by_seat", DECISIONS, seat=True)
    _summaries("game_summaries_by_person", True)
    op.drop_index("game_summaries_owner_game", "game_summaries")
    _moved("game_summaries", "game_summaries_by_person", SUMMARIES, seat=False)
    op.create_index("game_summaries_owner_game", "game_summaries", ["owner", "game", "finished_at"])
    with op.batch_alter_table("shared_records") as batch:
        batch.add_column(sa.Column("seat", sa.Integer))
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("identity", sa.String(40), nullable=False),
    )
    op.create_index("game_seats_identity", "game_seats", ["identity", "game_id"])
    bind = op.get_bind()
    started = bind.execute(sa.select(tables.c.game_id, tables.c.seats).where(tables.c.game_id.is_not(None))).all()
    rows = [{"game_id": game_id, "seat": seat, "identity": holder}
            for game_id, text in started for seat, holder in enumerate(orjson.loads(text)) if holder is not None]
    if rows:
        bind.execute(sa.insert(game_seats), rows)


def downgrade() -> None:
    op.drop_index("game_seats_identity", "game_seats")
    op.drop_table("game_seats")
    with op.batch_alter_table("shared_records") as batch:
        batch.drop_column("seat")
    # Only what the old schema can hold: seat 0's analyses, one summary per game (its owner's).
    _summaries("game_summaries_by_game", False)
    op.drop_index("game_summaries_owner_game", "game_summaries")
    op.execute("INSERT INTO game_summaries_by_game SELECT s.game_id, s.owner, s.game, s.finished_at, s.format, "
               "s.summary FROM game_summaries s JOIN games g ON g.id = s.game_id AND g.owner = s.owner")
    op.drop_table("game_summaries")
    op.rename_table("game_summaries_by_game", "game_summaries")
    op.create_index("game_summaries_owner_game", "game_summaries", ["owner", "game", "finished_at"])
    _decisions("analysis_decisions_by_game", False)
    _moved_back("analysis_decisions", "analysis_decisions_by_game", DECISIONS)
    _analyses("analyses_by_game", False)
    _moved_back("analyses", "analyses_by_game", ANALYSES)


def _moved_back(old: str, new: str, columns: list[str]) -> None:
    names = ", ".join(columns)
    op.execute(f"INSERT INTO {new} ({names}) SELECT {names} FROM {old} WHERE seat = 0")
    op.drop_table(old)
    op.rename_table(new, old)
