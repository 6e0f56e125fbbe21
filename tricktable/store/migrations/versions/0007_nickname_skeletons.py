"""Nickname keys by UTS #39: look-alikes are mapped before case folding
(``tricktable.nicknames.skeleton``), and a second key, ``case_skeleton``,
folds first; each is unique.  Every stored name gets both keys again; a name
that now collides with an earlier one (by device order) keeps its name but
no key in that column, as when skeletons were first added, so it still shows
and cannot be chosen by anyone else again.

Revision ID: 0007
Revises: 0006
"""

from alembic import op
import sqlalchemy as sa

from tricktable.nicknames import skeletons

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

nicknames = sa.table("nicknames", sa.column("device", sa.String), sa.column("nickname", sa.String),
                     sa.column("skeleton", sa.String), sa.column("case_skeleton", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("nicknames") as batch:
        batch.add_column(sa.Column("case_skeleton", sa.String(200)))
    connection = op.get_bind()
    rows = connection.execute(sa.select(nicknames.c.device, nicknames.c.nickname)
                              .order_by(nicknames.c.device)).all()
    connection.execute(sa.update(nicknames).values(skeleton=None))  # the new keys may swap between rows
    taken: tuple[set[str], set[str]] = (set(), set())
    for device, nickname in rows:
        keys = [key if key not in seen else None for key, seen in zip(skeletons(nickname), taken)]
        for key, seen in zip(keys, taken):
            if key is not None:
                seen.add(key)
        connection.execute(sa.update(nicknames).where(nicknames.c.device == device)
                           .values(skeleton=keys[0], case_skeleton=keys[1]))
    op.create_index("nicknames_case_skeleton", "nicknames", ["case_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("nicknames_case_skeleton", "nicknames")
    with op.batch_alter_table("nicknames") as batch:
        batch.drop_column("case_skeleton")
