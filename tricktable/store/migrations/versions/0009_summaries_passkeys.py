"""Statistics and passkeys: ``game_summaries`` keeps each finished game
summarised once for its owner's statistics; ``passkeys`` holds the WebAuthn
credentials registered to identities and ``passkey_challenges`` the
challenges handed out for them (single use, short-lived).

Revision ID: 0009
Revises: 0008
"""

from alembic import op
import sqlalchemy as sa

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_summaries",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("owner", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
    )
    op.create_index("game_summaries_owner_game", "game_summaries", ["owner", "game", "finished_at"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("identity", sa.String(40), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used_at", sa.Float),
    )
    op.create_index("passkeys_identity", "passkeys", ["identity"])
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(100), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("identity", sa.String(40)),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("passkey_challenges_expires_at", "passkey_challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_index("passkey_challenges_expires_at", "passkey_challenges")
    op.drop_table("passkey_challenges")
    op.drop_index("passkeys_identity", "passkeys")
    op.drop_table("passkeys")
    op.drop_index("game_summaries_owner_game", "game_summaries")
    op.drop_table("game_summaries")
