"""Tables of friends, continued: a table's ``hints`` (whether the hint is
offered at a table of more than one person), its ``open_seats`` (a bitmask of
the computer players' seats a newcomer may take during the match), and
``past_matches``: a match its table moved on from ("play again"), with the
seats and clock it was played with (it keeps answering to its people at their
seats) and the match that followed it (its streams tell the pages).  A table
of its own, not columns of ``games``: those would sit behind ``actions``,
which is kept last so a load does not read the pages a long match spills into.

Revision ID: 0016
Revises: 0015
"""

from alembic import op
import sqlalchemy as sa

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("open_seats", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "past_matches",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("clock", sa.Integer),
        sa.Column("next_id", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("past_matches")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("open_seats")
        batch.drop_column("hints")
