"""The lease on a game's computer-player turn: which server process works it
and until when.  Both NULL when nobody does; a lease whose time
has passed belongs to a process that died, and another takes the turn over.

Revision ID: 0003
Revises: 0002
"""

from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(40)))
        batch.add_column(sa.Column("lease_until", sa.Float))
    op.create_index("games_lease_until", "games", ["lease_until"])
