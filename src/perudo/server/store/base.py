"""What every part of the store shares: its engine (made and upgraded on :meth:`StoreBase.open`),
its one writer (:mod:`.writer`), its reads' connections, and the fencing token of a table's
writes in the multi-process mode."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from perudo.server import migrations

from .rows import StoreError
from .schema import SCHEMA_LOCK
from .writer import Op, Writer


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    db = parsed.database
    if not db or db == ":memory:":
        return None
    return Path(db)


def _no_fence(_table_id: str) -> int | None:
    return None


class StoreBase:
    """The database behind the server. ``await open()`` before use, ``await close()`` after."""

    def __init__(self, url: str, server_settings: dict[str, str] | None = None) -> None:
        self.url = url
        self.server_settings = server_settings
        """PostgreSQL settings for every connection of the store (multi-process mode sets
        ``idle_in_transaction_session_timeout``)."""
        self.engine: AsyncEngine | None = None
        self.writer: Writer | None = None
        """The group-commit writer (:mod:`perudo.server.store.writer`), once open."""
        self.fence_of: Callable[[str], int | None] = _no_fence
        """The fencing token under which this process writes a table's rows (multi-process
        mode sets it to its leases' tokens; with one process there is none)."""

    async def open(self) -> None:
        path = _sqlite_path(self.url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        sqlite = make_url(self.url).drivername.startswith("sqlite")
        # A database server may restart under the app: each connection taken from the pool is
        # tested first and replaced when the server dropped it (an SQLite file never does).
        extra: dict[str, Any] = {}
        if self.server_settings and make_url(self.url).get_backend_name() == "postgresql":
            extra["connect_args"] = {"server_settings": self.server_settings}
        engine = create_async_engine(self.url, pool_pre_ping=not sqlite, **extra)
        if engine.dialect.name == "sqlite":

            @event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                # WAL: readers never block the writer. synchronous=NORMAL keeps every commit
                # through a process crash (SIGKILL); only a power cut may lose the last ones.
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=10000")
                # Checkpoints run in the background (Writer._checkpoint_loop), never inside a
                # commit: a checkpoint syncs the database file, which can take a disk 100 ms.
                cur.execute("PRAGMA wal_autocheckpoint=0")
                cur.execute("PRAGMA journal_size_limit=16777216")  # the WAL file's size when reset
                cur.close()

        async with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                # Several processes may start at once on one database: one upgrades the schema.
                await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
            await conn.run_sync(migrations.upgrade)
        self.engine = engine
        self.writer = Writer(engine)
        await self.writer.start()

    async def close(self) -> None:
        if self.writer is not None:
            await self.writer.stop()
            self.writer = None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    async def drain(self) -> None:
        """Wait until every write queued so far has been committed (or refused)."""
        if self.writer is not None:
            await self.writer.drain()

    @property
    def commits(self) -> int:
        """Transactions committed by the writer (a figure for the load benchmark)."""
        return 0 if self.writer is None else self.writer.commits

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise StoreError("the store is not open")
        return self.engine

    async def _write(self, op: Op) -> Any:
        """Queue ``op`` for the writer and wait until it is committed."""
        if self.writer is None:
            raise StoreError("the store is not open")
        return await self.writer.write(op)

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        """A pooled connection for a read (tested first: ``pool_pre_ping``); a database that
        cannot be reached is a :class:`StoreError`, as a refused write is."""
        try:
            async with self._engine().connect() as conn:
                yield conn
        except (SQLAlchemyError, OSError) as err:
            raise StoreError(f"database read failed: {err}") from err
