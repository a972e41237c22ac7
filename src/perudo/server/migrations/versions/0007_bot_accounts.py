"""Bot accounts (docs/bot-api.md): ``players.bot_at`` (when an account became a bot account,
irreversibly; NULL for a person) and ``bot_tokens``, a bot account's API tokens (only each
token's SHA-256 is kept).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN on both databases (as 0003, 0004): no batch copy of ``players``, which
    # sessions, ratings and games' players point to.
    op.add_column("players", sa.Column("bot_at", sa.Float, nullable=True))
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("public_id", sa.String(24), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("label", sa.String(60), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_bot_tokens_public_id", "bot_tokens", ["public_id"], unique=True)
    op.create_index("ix_bot_tokens_player_id", "bot_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_tokens_player_id", "bot_tokens")
    op.drop_index("ix_bot_tokens_public_id", "bot_tokens")
    op.drop_table("bot_tokens")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot_at")
