"""Seats know their signed-in player: ``seats.player_id`` (NULL for a bot or a guest), so a
table restored after a restart still knows who to rate and whose profile lists the game.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN on both databases (as 0003): no batch copy of ``seats``.
    op.add_column("seats", sa.Column("player_id", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
