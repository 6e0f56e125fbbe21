"""Tables of friends, continued: a watch link per table (stored as the hash of
its token, like the invite), quick-match tables (``quick_until``: the Unix
second their match starts at the latest, null for a table of friends), and an
index on ``touched_at`` for deleting expired tables cheaply.

Revision ID: 0013
Revises: 0012
"""

from alembic import op
import sqlalchemy as sa

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("watch_hash", sa.String(64)))
        batch.add_column(sa.Column("quick_until", sa.Float))
    op.create_index("tables_watch_hash", "tables", ["watch_hash"], unique=True)
    op.create_index("tables_touched_at", "tables", ["touched_at"])
    op.create_index("tables_quick", "tables", ["game", "quick_until"])


def downgrade() -> None:
    op.drop_index("tables_quick", "tables")
    op.drop_index("tables_touched_at", "tables")
    op.drop_index("tables_watch_hash", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("quick_until")
        batch.drop_column("watch_hash")
