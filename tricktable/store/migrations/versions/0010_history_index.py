"""A person's history: their games newest first (``Store.history``), read
by owner in the order of ``created_at`` then ``id`` without a sort.

Revision ID: 0010
Revises: 0009
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_owner_created", "games", ["owner", "created_at", "id"])


def downgrade() -> None:
    op.drop_index("games_owner_created", "games")
