"""Passkeys and claims: the WebAuthn ceremonies' challenges (``webauthn_challenges``: one row
per attempt, short-lived, taken once) and the seat tokens of each game's seats at its start
(``game_seat_tokens``), by which a device that played a game anonymously claims it when its
person signs up or in (perudo.server.accounts.passkeys, perudo.server.accounts.claims).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("player_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_webauthn_challenges_expires_at", "webauthn_challenges", ["expires_at"])
    op.create_table(
        "game_seat_tokens",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", "token_hash", name="game_seat_tokens_pk"),
    )
    op.create_index("ix_game_seat_tokens_token_hash", "game_seat_tokens", ["token_hash"])


def downgrade() -> None:
    op.drop_table("game_seat_tokens")
    op.drop_table("webauthn_challenges")
