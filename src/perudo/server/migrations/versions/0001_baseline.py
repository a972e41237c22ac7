"""The schema before revisions: tables, seats, games, game_actions, chat_messages.

A new database gets these tables. A database made by an earlier version (which made its
tables with ``create_all`` and added the columns it lacked at each start) keeps its rows and
gets the columns it lacks (each nullable or with a server default) and the unique index of
the games' keys, each game without a key getting one: what the store did by hand before.

Revision ID: 0001
Revises:
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables(md: sa.MetaData) -> list[sa.Table]:
    """The tables as the server made them at main 450075a (frozen here: later revisions
    change them, never this list)."""
    return [
        sa.Table(
            "tables",
            md,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("config", sa.Text, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("private", sa.Boolean, nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("fence", sa.BigInteger, nullable=True),
            sa.Column("creator", sa.Text, nullable=True),
        ),
        sa.Table(
            "seats",
            md,
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("token_hash", sa.String(64), nullable=True),
            sa.Column("level", sa.String(16), nullable=True),
            sa.Column("host", sa.Boolean, nullable=False, server_default=sa.false()),
            sa.PrimaryKeyConstraint("table_id", "seat", name="seats_pk"),
        ),
        sa.Table(
            "games",
            md,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("key", sa.String(32), nullable=True),
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
            sa.Column("rules", sa.Text, nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("names", sa.Text, nullable=False),
            sa.Column("rolloff", sa.Text, nullable=False),
            sa.Column("started_at", sa.Float, nullable=False),
            sa.Column("finished_at", sa.Float, nullable=True),
            sa.Column("winner", sa.Integer, nullable=True),
            sa.Index("ix_games_table_id", "table_id"),
        ),
        sa.Table(
            "game_actions",
            md,
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("action", sa.String(200), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("fence", sa.BigInteger, nullable=True),
            sa.PrimaryKeyConstraint("game_id", "seq", name="game_actions_pk"),
        ),
        sa.Table(
            "chat_messages",
            md,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("text", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("fence", sa.BigInteger, nullable=True),
            sa.Index("ix_chat_messages_table_id", "table_id"),
        ),
    ]


def upgrade() -> None:
    conn = op.get_bind()
    found = sa.inspect(conn)
    existing = set(found.get_table_names())
    md = sa.MetaData()
    for table in _tables(md):
        if table.name not in existing:
            table.create(conn)
            continue
        have = {c["name"] for c in found.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                # Every column added since a table was first made is nullable or has a
                # server default, so SQLite's plain ADD COLUMN takes it.
                op.add_column(
                    table.name,
                    sa.Column(
                        column.name,
                        column.type,
                        nullable=column.nullable,
                        server_default=column.server_default,
                    ),
                )
    games = md.tables["games"]
    op.create_index("ix_games_key", "games", ["key"], unique=True, if_not_exists=True)
    missing = conn.execute(sa.select(games.c.id).where(games.c.key.is_(None))).all()
    for (game_id,) in missing:
        conn.execute(
            sa.update(games).where(games.c.id == game_id).values(key=secrets.token_urlsafe(12))
        )
