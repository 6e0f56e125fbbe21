"""Step frames for other server processes: the committing process
stores each step's encoded event (the bytes the game's streams send) with the
commit, so that a stream of the game on another process forwards them instead
of reading the record and building the step's views again.  Kept for seconds
only (``Store.FRAMES_KEPT_SECONDS``): a stream that finds its frames gone, or
never written (a server from before this revision), reads the record as before.

Revision ID: 0005
Revises: 0004
"""

from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "frames",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("frame", sa.LargeBinary, nullable=False),
        sa.Column("written_at", sa.Float, nullable=False),
    )
    op.create_index("frames_written_at", "frames", ["written_at"])


def downgrade() -> None:
    op.drop_index("frames_written_at", "frames")
    op.drop_table("frames")
