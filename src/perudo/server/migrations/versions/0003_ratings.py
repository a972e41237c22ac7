"""Ratings: who sat in each seat of a game (signed-in players), whether the game is rated and
its variant (the table's preset), each player's rating per variant and pool, and each rated
game's changes (one row per player and game: the update is applied once, in the transaction
that ends the game).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default) on both databases: a batch copy of ``games`` on
    # SQLite would drop the table the moves' foreign keys point to.
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("variant", sa.String(40), nullable=True))
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="game_players_pk"),
    )
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "variant", "pool", name="ratings_pk"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="rating_changes_pk"),
    )
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"])


def downgrade() -> None:
    for table in ("rating_changes", "ratings", "game_players"):
        op.drop_table(table)
    op.drop_column("games", "variant")
    op.drop_column("games", "rated")
