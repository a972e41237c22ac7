"""Friends: who follows whom, who blocks whom, and invitations to a table by name
(perudo.server.social).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name, other in (("follows", "followed_id"), ("blocks", "blocked_id")):
        op.create_table(
            name,
            sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
            sa.Column(other, sa.Integer, sa.ForeignKey("players.id"), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.PrimaryKeyConstraint("player_id", other, name=f"{name}_pk"),
        )
        op.create_index(f"ix_{name}_{other}", name, [other])
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("table_name", sa.String(80), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])


def downgrade() -> None:
    op.drop_table("invitations")
    op.drop_table("blocks")
    op.drop_table("follows")
