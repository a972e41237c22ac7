"""Accounts: players, their sign-in sessions, their passkeys, and failed sign-ins counted
per account and per address (perudo.server.accounts).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float, nullable=True),
    )
    op.create_index("ix_players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("public_id", sa.String(24), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("agent", sa.String(200), nullable=False),
    )
    op.create_index("ix_sessions_public_id", "sessions", ["public_id"], unique=True)
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("sign_in_failures", "passkeys", "sessions", "players"):
        op.drop_table(table)
