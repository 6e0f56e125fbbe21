"""Tables of friends: a table for a game, its options and level, reached by a
short code or an unguessable invite link (stored as the hash of its token), its
seats (an identity each, or none: a computer player), its host and turn clock,
and the game it started (a game is read with its table's seats: whose seat it
is costs no second read).

Revision ID: 0011
Revises: 0010
"""

from alembic import op
import sqlalchemy as sa

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("level", sa.String(10), nullable=False),
        sa.Column("host", sa.String(40), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("clock", sa.Integer),
        sa.Column("game_id", sa.String(40)),
        sa.Column("touched_at", sa.Float, nullable=False),
    )
    op.create_index("tables_code", "tables", ["code"], unique=True)
    op.create_index("tables_invite_hash", "tables", ["invite_hash"], unique=True)
    op.create_index("tables_game_id", "tables", ["game_id"], unique=True)


def downgrade() -> None:
    op.drop_index("tables_game_id", "tables")
    op.drop_index("tables_invite_hash", "tables")
    op.drop_index("tables_code", "tables")
    op.drop_table("tables")
