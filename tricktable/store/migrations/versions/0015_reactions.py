"""Quick reactions kept a minute, so that every server process tells its own
streams of a table's match (not only the sender's process).

Revision ID: 0015
Revises: 0014
"""

from alembic import op
import sqlalchemy as sa

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reactions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("key", sa.String(20), nullable=False),
        sa.Column("writer", sa.String(12), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("reactions_at", "reactions", ["at"])


def downgrade() -> None:
    op.drop_index("reactions_at", "reactions")
    op.drop_table("reactions")
