"""The open watch streams of every table, in all server processes together, so
that a table's cap on watchers holds however many processes serve it.

Revision ID: 0014
Revises: 0013
"""

from alembic import op
import sqlalchemy as sa

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "watchers",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("watchers_table", "watchers", ["table_id"])
    op.create_index("watchers_until", "watchers", ["until"])


def downgrade() -> None:
    op.drop_index("watchers_until", "watchers")
    op.drop_index("watchers_table", "watchers")
    op.drop_table("watchers")
