"""An analysis's decisions one row each (``analysis_decisions``) instead of one
JSON list rewritten whole at every decision; and a failed analysis's retries:
``attempts`` (attempts started) and ``retry`` (a POST starts it again).

Every stored list is split into rows.  An analysis that failed before this
revision may be retried (its cause is not known).

Revision ID: 0012
Revises: 0011
"""

from alembic import op
import orjson
import sqlalchemy as sa

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

analyses = sa.table("analyses", sa.column("game_id", sa.String), sa.column("status", sa.String),
                    sa.column("decisions", sa.Text), sa.column("retry", sa.Boolean))
decisions = sa.table("analysis_decisions", sa.column("game_id", sa.String), sa.column("action_index", sa.Integer),
                     sa.column("decision", sa.Text))


def upgrade() -> None:
    op.create_table(
        "analysis_decisions",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("action_index", sa.Integer, primary_key=True),
        sa.Column("decision", sa.Text, nullable=False),
    )
    bind = op.get_bind()
    # One analysis at a time: a match has at most a few hundred decisions.
    for game_id, text in bind.execute(sa.select(analyses.c.game_id, analyses.c.decisions)).all():
        rows = [{"game_id": game_id, "action_index": d["index"], "decision": orjson.dumps(d).decode()}
                for d in orjson.loads(text)]
        if rows:
            bind.execute(sa.insert(decisions), rows)
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("decisions")
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("retry", sa.Boolean, nullable=False, server_default=sa.false()))
    bind.execute(sa.update(analyses).where(analyses.c.status == "failed").values(retry=True))


def downgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("retry")
        batch.drop_column("attempts")
        batch.add_column(sa.Column("decisions", sa.Text, nullable=False, server_default="[]"))
    bind = op.get_bind()
    for (game_id,) in bind.execute(sa.select(analyses.c.game_id)).all():
        texts = bind.execute(sa.select(decisions.c.decision).where(decisions.c.game_id == game_id)
                             .order_by(decisions.c.action_index)).scalars().all()
        bind.execute(sa.update(analyses).where(analyses.c.game_id == game_id)
                     .values(decisions=f"[{','.join(texts)}]"))
    op.drop_table("analysis_decisions")
