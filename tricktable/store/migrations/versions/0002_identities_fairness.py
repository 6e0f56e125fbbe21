"""Server-issued identities, transfer codes, ranked and practice daily
attempts, the bots' secret per attempt, the deal commitment, nickname
skeletons.

Old rows stay readable: a game without ``ranked`` was a scored daily attempt
(``NULL`` counts as ranked), a game without ``server_seed`` has no commitment,
and every existing nickname gets its skeleton (a later look-alike of an older
name keeps its name but no skeleton, so it still shows; it cannot be chosen
again by anyone).

Revision ID: 0002
Revises: 0001
"""

from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from tricktable.nicknames import skeleton

    op.create_table(
        "identities",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("issued_at", sa.Float, nullable=False),
        sa.Column("address", sa.String(64)),
    )
    op.create_table(
        "transfer_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("identity", sa.String(40), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(40)))
        batch.add_column(sa.Column("ranked", sa.Boolean))
        batch.add_column(sa.Column("bot_secret", sa.String(64)))
        batch.add_column(sa.Column("server_seed", sa.String(64)))
        batch.add_column(sa.Column("client_seed", sa.String(64)))
        batch.add_column(sa.Column("commitment", sa.String(64)))
    op.create_index("games_owner_status", "games", ["owner", "status"])
    op.create_index("games_commitment", "games", ["commitment"], unique=True)
    with op.batch_alter_table("scores") as batch:
        batch.add_column(sa.Column("finished_at", sa.Float))
    with op.batch_alter_table("nicknames") as batch:
        batch.add_column(sa.Column("skeleton", sa.String(200)))
    nicknames = sa.table("nicknames", sa.column("device", sa.String), sa.column("nickname", sa.String),
                         sa.column("skeleton", sa.String))
    bind = op.get_bind()
    taken: set[str] = set()
    for device, nickname in bind.execute(sa.select(nicknames.c.device, nicknames.c.nickname)
                                         .order_by(nicknames.c.device)).all():
        shape = skeleton(nickname)
        if shape not in taken:
            taken.add(shape)
            bind.execute(sa.update(nicknames).where(nicknames.c.device == device).values(skeleton=shape))
    op.create_index("nicknames_skeleton", "nicknames", ["skeleton"], unique=True)
