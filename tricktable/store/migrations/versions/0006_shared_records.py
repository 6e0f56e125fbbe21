"""Share links of finished games: a game answers only to its owner, and its
owner may hand its record to others through an unguessable link, stored here
as the hash of its token.

Revision ID: 0006
Revises: 0005
"""

from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shared_records",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )
    op.create_index("shared_records_game", "shared_records", ["game_id"])


def downgrade() -> None:
    op.drop_index("shared_records_game", "shared_records")
    op.drop_table("shared_records")
