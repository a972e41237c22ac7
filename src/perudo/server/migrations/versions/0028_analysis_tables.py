"""The analysis's tables (issue 28): ``game_seat_tokens`` (every device token that held a
person's seat during a game: a seat's own analysis is theirs, not a later occupant's) and
``analyses`` (each finished game's analysis per viewer, shared by every process of the
multi-process mode: its owner, progress and result).

Revision ID: 0028
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_seat_tokens",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", "token_hash", name="game_seat_tokens_pk"),
    )
    op.create_table(
        "analyses",
        sa.Column("game_key", sa.String(32), nullable=False),
        sa.Column("viewer", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_key", "viewer", name="analyses_pk"),
    )


def downgrade() -> None:
    op.drop_table("analyses")
    op.drop_table("game_seat_tokens")
