"""A person's history: their games newest first (``Store.history``), read
by owner in the order of ``created_at`` then ``id`` without a sort.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_owner_created", "games", ["owner", "created_at", "id"])


def downgrade() -> None:
    op.drop_index("games_owner_created", "games")
