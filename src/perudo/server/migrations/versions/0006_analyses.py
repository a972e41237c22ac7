"""The analyses' table (issue 28): ``analyses``, each finished game's analysis per viewer, shared
by every process of the multi-process mode: its owner, progress and result. (Who played a seat,
which a seat's own analysis asks, is ``game_seat_tokens`` of revision 0005.)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
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
