"""A finished game's analysis: every decision of the person's seat searched as
the hint searches it, stored with the game as it is computed (so a restarted
server goes on where the last one stopped), with the lease of the server
process working it.

Revision ID: 0008
Revises: 0007
"""

from alembic import op
import sqlalchemy as sa

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Text, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("worker", sa.String(40)),
        sa.Column("lease_until", sa.Float),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )


def downgrade() -> None:
    op.drop_table("analyses")
