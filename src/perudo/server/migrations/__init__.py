"""The database's schema, as Alembic revisions (``versions/``), applied by the store at start.

:func:`upgrade` brings the database on ``connection`` to the newest revision inside the
caller's transaction: the store calls it from :meth:`perudo.server.store.Store.open` (on
PostgreSQL under an advisory lock, so that several processes starting at once upgrade it
once). The first revision, ``0001``, is the schema the server made before it had revisions:
it makes the tables a new database lacks, and gives a database made by an older version the
columns and index it lacks, so a database from any earlier version upgrades in place.

A new revision: ``alembic -c src/perudo/server/migrations/alembic.ini revision -m "…"`` (from
the repository's root; docs/server.md), then write its ``upgrade`` by hand, in SQLAlchemy Core
operations that run on SQLite (batch mode for what SQLite's ``ALTER TABLE`` lacks) and on
PostgreSQL. ``tests/server/test_migrations.py`` checks that the revisions make exactly the
store's tables (:data:`perudo.server.store.metadata`).
"""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

__all__ = ["SCRIPT_LOCATION", "config", "current", "head", "upgrade"]

SCRIPT_LOCATION = "perudo.server:migrations"
"""Where Alembic finds ``env.py`` and ``versions/`` (inside the installed package)."""


def config(connection: Any = None) -> Config:
    """Alembic's configuration for this package; ``connection`` (a synchronous SQLAlchemy
    connection) is the one ``env.py`` migrates."""
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPT_LOCATION)
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(connection: Any) -> None:
    """Upgrade the database on ``connection`` (synchronous, in a transaction the caller
    commits) to the newest revision."""
    command.upgrade(config(connection), "head")


def current(connection: Any) -> str | None:
    """The revision the database on ``connection`` is at (``None``: none yet)."""
    rev: str | None = MigrationContext.configure(connection).get_current_revision()
    return rev


def head() -> str:
    """The newest revision."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None, "the package holds no revision"
    return found
