"""Mail: a player's confirmed e-mail address (``emails``) and the single-use tokens mailed to
confirm an address or reset a password (``mail_tokens``, kept as their SHA-256 only).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "emails",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("address_key", sa.String(254), nullable=False),
        sa.Column("confirmed_at", sa.Float, nullable=False),
    )
    op.create_index("ix_emails_address_key", "emails", ["address_key"])
    op.create_table(
        "mail_tokens",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_mail_tokens_player_id", "mail_tokens", ["player_id"])


def downgrade() -> None:
    for table in ("mail_tokens", "emails"):
        op.drop_table(table)
