"""The store's one writer: every write goes through it, and it commits whatever is queued in one
transaction (group commit). A caller's ``await`` returns once its write is durable, so the
table worker can write an action before broadcasting it and many tables still share few
commits.

On SQLite a commit of moves alone (the writes of play) is made on the event loop's own thread
(:func:`append_on_sqlite`), straight from the caller when the writer is idle: the same rows
in the same transaction, committed before the caller goes on. In WAL mode with
``synchronous=NORMAL`` such a commit is one write into the log file (no sync: the checkpoints
that sync run from another connection, :meth:`Writer._checkpoint_loop`), tens of microseconds,
where handing it to aiosqlite's thread and back cost more than the commit itself (docs/
scaling.md). Every other write (SQLAlchemy's) still goes to aiosqlite's thread through the
writer task, which runs one batch at a time, so the two never use the connection at once.

One bad write never sinks the others of its batch (the batch is retried one write at a
time), and a write that fails because the database went away drops the writer's connection:
the next write opens a new one, so writes resume by themselves once the server is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .rows import FENCED_MARK, Fenced, StoreError
from .schema import game_actions_t

__all__ = ["Op", "Writer", "action_rows", "append_on_sqlite"]

log = logging.getLogger("perudo.server")

Op = Callable[[AsyncConnection], Awaitable[Any]] | list[dict[str, Any]]
"""A queued write: a function of the connection, or rows for ``game_actions`` (which the
writer merges into one multi-row insert per commit)."""


class Writer:
    """The group-commit writer of one engine: :meth:`start` it once the schema is made,
    :meth:`write` through it, :meth:`stop` it before the engine is disposed."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._queue: asyncio.Queue[tuple[Op, asyncio.Future[Any]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._wconn: AsyncConnection | None = None
        self.sqlite_driver: Any = None
        """SQLite: the writer connection's aiosqlite connection (:func:`append_on_sqlite`);
        ``None`` on PostgreSQL, and until the first commit of moves alone."""
        self._batching = False
        """A batch is being written (by the writer task, or by a caller on SQLite)."""
        self._checkpointer: asyncio.Task[None] | None = None
        self.commits = 0
        """Transactions committed by the writer (a figure for the load benchmark)."""

    async def start(self) -> None:
        # The writer keeps one connection for good: no pool checkout (and reset) per commit.
        self._wconn = await self._engine.connect()
        self._writer = asyncio.create_task(self._write_loop(), name="perudo-store-writer")
        if self._engine.dialect.name == "sqlite":
            self._checkpointer = asyncio.create_task(
                self._checkpoint_loop(), name="perudo-store-checkpoint"
            )

    async def stop(self) -> None:
        """Finish the writes queued (they were promised to callers), then stop."""
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._writer is not None:
            while not self._queue.empty():
                await asyncio.sleep(0.01)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._wconn is not None:
            with contextlib.suppress(Exception):  # a connection the server already dropped
                await self._wconn.close()
            self._wconn = None

    async def drain(self) -> None:
        """Wait until every write queued so far has been committed (or refused)."""
        while not self._queue.empty():
            await asyncio.sleep(0.01)

        async def noop(_conn: AsyncConnection) -> None:
            return None

        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(StoreError):
                await self.write(noop)

    async def _checkpoint_loop(self, every: float = 1.0) -> None:
        """SQLite: copy the write-ahead log into the database file from a connection of its
        own, once a second when something was written. A passive checkpoint never blocks the
        writer, so no commit waits for the file to be synced."""
        done = 0
        while True:
            await asyncio.sleep(every)
            if self.commits == done:
                continue
            done = self.commits
            try:
                async with self._engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as err:  # a failed checkpoint is retried; the WAL keeps the data
                log.warning("SQLite checkpoint failed (will retry): %s", err)

    async def write(self, op: Op) -> Any:
        """Queue ``op`` for the writer and wait until it is committed; on SQLite, commit moves
        alone here when the writer is idle (this module's docstring)."""
        if (
            isinstance(op, list)
            and self.sqlite_driver is not None
            and not self._batching
            and self._queue.empty()
        ):
            await self._append_here(op)
            return None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((op, future))
        return await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 500:
                batch.append(self._queue.get_nowait())
            self._batching = True
            try:
                results = await self._run_batch([op for op, _ in batch])
            except Exception:
                # One bad write must not sink the others queued with it: retry one by one.
                for op, future in batch:
                    try:
                        result = (await self._run_batch([op]))[0]
                    except Exception as err:
                        kind = Fenced if FENCED_MARK in str(err) else StoreError
                        if kind is Fenced:
                            log.warning("a write refused by the lease's fencing token: %s", err)
                        if not future.done():
                            future.set_exception(kind(f"database write failed: {err}"))
                    else:
                        if not future.done():
                            future.set_result(result)
                continue
            finally:
                self._batching = False
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)

    async def _writer_connection(self) -> AsyncConnection:
        """The writer's connection, opened again when the last one was dropped (the database
        server restarted): writes resume by themselves once the server is back. While it is
        down, this raises and the writes waiting fail (their callers refuse the change)."""
        conn = self._wconn
        if conn is None:
            if self._writer is None:
                raise StoreError("the store is not open")
            conn = self._wconn = await self._engine.connect()
        return conn

    async def _drop_writer_connection(self) -> None:
        conn, self._wconn = self._wconn, None
        self.sqlite_driver = None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()

    async def _run_batch(self, ops: Sequence[Op]) -> list[Any]:
        """Run ``ops`` in one transaction. Queued writes come from different tables (each
        table awaits its own writes one at a time), so they are independent of each other and
        the action rows can go first, as one multi-row insert."""
        conn = await self._writer_connection()
        rows = [row for op in ops if isinstance(op, list) for row in op]
        if conn.dialect.driver == "aiosqlite" and all(isinstance(op, list) for op in ops):
            await self._append_rows_on_sqlite(conn, rows)
            return [None] * len(ops)
        try:
            async with conn.begin():
                if conn.dialect.name == "sqlite":
                    # The write lock from the start: a transaction that read first (under a
                    # SAVEPOINT, which opens it) and meanwhile saw another process commit
                    # could not write at all ("database is locked", whatever the busy
                    # timeout). Taken here, a second process waits its turn instead.
                    await conn.exec_driver_sql("BEGIN IMMEDIATE")
                if rows:
                    await conn.execute(insert(game_actions_t), rows)
                results = [None if isinstance(op, list) else await op(conn) for op in ops]
        except IntegrityError:
            raise  # a refused row (a move written twice): the connection itself is fine
        except Exception:
            # The connection may be the cause (the server went away): the next write opens a
            # new one rather than failing on a dead connection forever.
            await self._drop_writer_connection()
            raise
        self.commits += 1
        return results

    async def _append_rows_on_sqlite(
        self, conn: AsyncConnection, rows: list[dict[str, Any]]
    ) -> None:
        """Insert ``game_actions`` rows and commit, on the writer's SQLite connection, from
        this thread (:func:`append_on_sqlite`). The connection is between transactions
        here (one batch at a time, and SQLAlchemy's last one is committed or rolled back),
        so the rows are a transaction of their own."""
        if self.sqlite_driver is None:
            self.sqlite_driver = (await conn.get_raw_connection()).driver_connection
        driver: Any = self.sqlite_driver
        try:
            # The sqlite3 connection aiosqlite opened (pinned in pyproject.toml), which
            # SQLAlchemy opens to any thread (check_same_thread=False); the store's tests run
            # this path on every commit of moves.
            append_on_sqlite(driver, rows)
        except sqlite3.IntegrityError:
            raise  # a refused row (a move written twice): the connection itself is fine
        except Exception:
            await self._drop_writer_connection()
            raise
        self.commits += 1

    async def _append_here(self, rows: list[dict[str, Any]]) -> None:
        """A caller's own commit of moves on SQLite while the writer is idle: the writer's
        errors (:class:`StoreError`), without its queue."""
        conn = self._wconn
        if conn is None:
            raise StoreError("the store is not open")
        self._batching = True  # a write queued meanwhile waits for the writer, after this one
        try:
            await self._append_rows_on_sqlite(conn, rows)
        except Exception as err:
            raise StoreError(f"database write failed: {err}") from err
        finally:
            self._batching = False


_INSERT_ACTIONS = "INSERT INTO {} ({}) VALUES ({})".format(
    game_actions_t.name,
    ", ".join(c.name for c in game_actions_t.columns),
    ", ".join(f":{c.name}" for c in game_actions_t.columns),
)
"""The multi-row insert of :func:`action_rows`' rows in SQLite's named parameters (the
columns of ``game_actions_t``, as SQLAlchemy's ``insert(game_actions_t)`` writes them)."""


def append_on_sqlite(driver: Any, rows: list[dict[str, Any]]) -> None:
    """On the event loop's thread: insert ``rows`` on the writer's sqlite3 connection and commit,
    or roll back and raise (nothing half-written)."""
    db: sqlite3.Connection = driver._conn
    try:
        db.executemany(_INSERT_ACTIONS, rows)
        db.commit()
    except BaseException:
        db.rollback()
        raise


def action_rows(
    game_id: int,
    first_seq: int,
    moves: Sequence[tuple[int | None, str]],
    version: int,
    now: float,
    fence: int | None = None,
) -> list[dict[str, Any]]:
    """The ``game_actions`` rows of ``moves``, numbered from ``first_seq``."""
    return [
        {
            "game_id": game_id,
            "seq": first_seq + i,
            "seat": seat,
            "action": action,
            "at": now,
            "version": version,
            "fence": fence,
        }
        for i, (seat, action) in enumerate(moves)
    ]
