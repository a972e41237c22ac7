"""The store: an append-only log of every game's actions, plus tables, seats and chat.

Tables (SQLAlchemy Core, one code path for SQLite and PostgreSQL):

* ``tables``: a table's name, settings (JSON), status and last persisted version;
* ``seats``: who sits where (a person with a hashed seat token, or a bot with its level);
* ``games``: one row per game started at a table (rules, players' names, the P-2 roll-off),
  with an unguessable ``key``: the only id of a game that leaves the server (URLs, messages);
* ``game_actions(game_id, seq, seat, action, at, version)``, UNIQUE(game_id, seq): every move
  of every game in order, chance moves (``Deal``, ``Reroll``) included, in the core's
  notation. A game's state is the fold of :func:`perudo.core.apply` over its actions, so a
  restart rebuilds every table exactly (:mod:`perudo.server.tables`);
* ``chat_messages``: each table's chat (the last ``chat_stored_per_table`` lines of each).

The schema is made and upgraded by the Alembic revisions of :mod:`perudo.server.migrations`,
applied by :meth:`Store.open` (a database made by any earlier version upgrades in place).

A table's ``status`` is ``open`` (waiting for players), ``playing``, ``finished``,
``closed`` (a waiting table that expired: never loaded again) or ``broken`` (multi-process
mode: its rows could not be restored; never claimed nor loaded again).

All writes go through one writer task that commits whatever is queued in one transaction
(group commit): a caller's ``await`` returns once its write is durable, so the table worker
can write an action before broadcasting it and many tables still share few commits.

On SQLite a commit of moves alone (the writes of play) is made on the event loop's own thread
(:func:`_append_on_sqlite`), straight from the caller when the writer is idle: the same rows
in the same transaction, committed before the caller goes on. In WAL mode with
``synchronous=NORMAL`` such a commit is one write into the log file (no sync: the checkpoints
that sync run from another connection, :meth:`Store._checkpoint_loop`), tens of microseconds,
where handing it to aiosqlite's thread and back cost more than the commit itself (docs/
scaling.md). Every other write (SQLAlchemy's) still goes to aiosqlite's thread through the
writer task, which runs one batch at a time, so the two never use the connection at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    case,
    delete,
    event,
    false,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from perudo.core import GameRecord
from perudo.core.record import RECORD_FORMAT, RECORD_VERSION
from perudo.ratings import Rating
from perudo.ratings import pool as ratings_pool
from perudo.ratings import update as rate_game
from perudo.server import migrations

__all__ = [
    "ChatRow",
    "GameRow",
    "PlayerRow",
    "SeatRow",
    "SessionRow",
    "Store",
    "StoreError",
    "TableRow",
    "TooManyTables",
    "metadata",
]

log = logging.getLogger("perudo.server")

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    # Multi-process mode: the fencing token of the table's lease an UPDATE carries;
    # PostgreSQL refuses a write whose token is not the lease's, and stores NULL (the token is
    # spent: a later UPDATE must name its own) (perudo.server.cluster.lease).
    Column("fence", BigInteger, nullable=True),
    # The client (its address, perudo.server.guard.client_key) the table counts against in
    # PERUDO_TABLES_PER_CLIENT while it waits for its first game; NULL from the game's start
    # (or the table's closing) on. A process restoring or taking the table over counts it again.
    Column("creator", Text, nullable=True),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("level", String(16), nullable=True),
    # The table's host (who starts the game, manages bots, removes an absent player): one seat.
    Column("host", Boolean, nullable=False, server_default=false()),
    # The signed-in player in a person's seat (NULL: a bot or a guest); revision 0004.
    Column("player_id", Integer, nullable=True),
    PrimaryKeyConstraint("table_id", "seat", name="seats_pk"),
)

games_t = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(32), nullable=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("rules", Text, nullable=False),
    Column("players", Integer, nullable=False),
    Column("names", Text, nullable=False),
    Column("rolloff", Text, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("winner", Integer, nullable=True),
    # A rated game (its table was made rated): its seats' players' ratings change at its end.
    Column("rated", Boolean, nullable=False, server_default=false()),
    # The table's preset (a profile's games and ratings are per variant); NULL for games
    # started before it was kept.
    Column("variant", String(40), nullable=True),
    Index("ix_games_key", "key", unique=True),
)

game_actions_t = Table(
    "game_actions",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("fence", BigInteger, nullable=True),
    # The primary key is the log's UNIQUE(game_id, seq): a move can never be written twice.
    PrimaryKeyConstraint("game_id", "seq", name="game_actions_pk"),
)

chat_t = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(40), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("fence", BigInteger, nullable=True),
)


# -- accounts (perudo.server.accounts) ------------------------------------------------------

players_t = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # The name as compared (perudo.server.accounts.names.name_key); NULL once deleted, so the
    # name is free again while the deleted player's games stay theirs.
    Column("name_key", String(80), nullable=True),
    Column("password_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),
    Index("ix_players_name_key", "name_key", unique=True),
)

sessions_t = Table(
    "sessions",
    metadata,
    # The SHA-256 of the cookie's token (the token itself is never stored).
    Column("id", String(64), primary_key=True),
    # What the account page names the session by (to revoke it), never the token.
    Column("public_id", String(24), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("agent", String(200), nullable=False),
    Index("ix_sessions_public_id", "public_id", unique=True),
    Index("ix_sessions_player_id", "player_id"),
)

passkeys_t = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(400), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_passkeys_player_id", "player_id"),
)

sign_in_failures_t = Table(
    "sign_in_failures",
    metadata,
    # ``name:<name key>`` or ``addr:<client>``: failed sign-ins counted since ``since``.
    Column("key", String(120), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("since", Float, nullable=False),
)


game_players_t = Table(
    "game_players",
    metadata,
    # The signed-in player in a seat of a game (seats of anonymous people and bots have none).
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="game_players_pk"),
    Index("ix_game_players_player_id", "player_id"),
)

ratings_t = Table(
    "ratings",
    metadata,
    # A player's rating in one variant (the table's preset) and pool (duel or table):
    # OpenSkill's mu and sigma (perudo.ratings).
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("pool", String(8), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "variant", "pool", name="ratings_pk"),
)

rating_changes_t = Table(
    "rating_changes",
    metadata,
    # One row per player of a rated game, written in the transaction that ends the game: its
    # primary key is what makes the update happen once.
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("pool", String(8), nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "player_id", name="rating_changes_pk"),
    Index("ix_rating_changes_player_id", "player_id"),
)

# -- friends and Web Push (perudo.server.social) --------------------------------------------

follows_t = Table(
    "follows",
    metadata,
    # ``player_id`` follows ``followed_id`` (one-way, as lichess's).
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("followed_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "followed_id", name="follows_pk"),
    Index("ix_follows_followed_id", "followed_id"),
)

blocks_t = Table(
    "blocks",
    metadata,
    # ``player_id`` blocks ``blocked_id``: no invitation from them, no seat at a table where
    # ``player_id`` sits, none of their chat or reactions on ``player_id``'s pages.
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("blocked_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "blocked_id", name="blocks_pk"),
    Index("ix_blocks_blocked_id", "blocked_id"),
)

invitations_t = Table(
    "invitations",
    metadata,
    # An invitation to a table, by name: ``pending`` until accepted, declined or expired.
    Column("id", String(32), primary_key=True),
    Column("from_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("to_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("table_name", String(80), nullable=False),
    Column("state", String(12), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_invitations_to_id", "to_id"),
)

push_subscriptions_t = Table(
    "push_subscriptions",
    metadata,
    # One device's Web Push subscription (its push service's endpoint and keys) for one
    # player, and the kinds of notice it opted into (comma-separated).
    Column("endpoint", String(1000), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("device", String(64), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("kinds", String(100), nullable=False),
    # The language its notices are written in (the page's, when it subscribed).
    Column("lang", String(8), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_push_subscriptions_player_id", "player_id"),
)

server_keys_t = Table(
    "server_keys",
    metadata,
    # Keys the server makes once and keeps (``vapid``: its Web Push signing key, PEM).
    Column("name", String(40), primary_key=True),
    Column("value", Text, nullable=False),
    Column("at", Float, nullable=False),
)


class StoreError(RuntimeError):
    """The database refused a write (the caller's change did not happen)."""


class Fenced(StoreError):
    """Multi-process mode: the database refused a write made under a table lease this
    process no longer holds (another process took the table over); nothing was written."""


class TooManyTables(StoreError):
    """A new table refused because the site already holds ``live`` tables waiting or
    playing, ``PERUDO_MAX_OPEN_TABLES`` (nothing was written)."""

    def __init__(self, live: int) -> None:
        super().__init__(f"the site holds {live} open tables, its limit")
        self.live = live


FENCED_MARK = "perudo_fenced"
"""What PostgreSQL's fencing trigger puts in its error (:mod:`perudo.server.cluster.lease`)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    """``human`` or ``bot``."""
    name: str
    token_hash: str | None
    level: str | None
    host: bool = False
    player_id: int | None = None
    """The signed-in player in a person's seat (``None``: a bot or a guest)."""


@dataclass(frozen=True, slots=True)
class ChatRow:
    seat: int | None
    name: str
    text: str
    at: float
    version: int


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    key: str
    """The game's unguessable id (its integer ``id`` never leaves the server)."""
    table_id: str
    rules: dict[str, Any]
    players: int
    names: list[str]
    rolloff: list[list[int]]
    started_at: float
    finished_at: float | None
    winner: int | None
    moves: list[tuple[int | None, str]] = field(default_factory=list)
    """The game's actions in ``seq`` order: (seat or ``None`` for chance, notation)."""
    last_version: int = 0
    private: bool = False
    """Whether the game's table is private (its replay then leaves the table's id out)."""

    def record(self) -> GameRecord:
        """The stored game as the core's record: ``record().replay()`` is its state after
        every stored move (how a table is rebuilt after a restart).

        :raises NotationError: for a stored move the core cannot read."""
        return GameRecord.from_json(
            {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "rules": self.rules,
                "players": self.players,
                "rolloff": self.rolloff,
                "moves": [{"seat": seat, "action": action} for seat, action in self.moves],
            }
        )


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    name: str
    config: dict[str, Any]
    status: str
    private: bool
    version: int
    created_at: float
    seats: list[SeatRow]
    game: GameRow | None
    chat: list[ChatRow]
    creator: str | None = None
    """The client this waiting table counts against (``tables.creator``)."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    name: str
    password_hash: str | None
    created_at: float
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class SessionRow:
    public_id: str
    player: PlayerRow
    csrf: str
    created_at: float
    seen_at: float
    expires_at: float
    agent: str


T = TypeVar("T")
_Op = Callable[[AsyncConnection], Awaitable[Any]] | list[dict[str, Any]]
"""A queued write: a function of the connection, or rows for ``game_actions`` (which the
writer merges into one multi-row insert per commit)."""


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    db = parsed.database
    if not db or db == ":memory:":
        return None
    return Path(db)


class Store:
    """The database behind the server. ``await open()`` before use, ``await close()`` after."""

    def __init__(self, url: str, server_settings: dict[str, str] | None = None) -> None:
        self.url = url
        self.server_settings = server_settings
        """PostgreSQL settings for every connection of the store (multi-process mode sets
        ``idle_in_transaction_session_timeout``)."""
        self.engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[tuple[_Op, asyncio.Future[Any]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._wconn: AsyncConnection | None = None
        self._wdriver: Any = None
        """SQLite: the writer connection's aiosqlite connection (:func:`_append_on_sqlite`);
        ``None`` on PostgreSQL, and until the first commit of moves alone."""
        self._batching = False
        """A batch is being written (by the writer task, or by a caller on SQLite)."""
        self._checkpointer: asyncio.Task[None] | None = None
        self.commits = 0
        """Transactions committed by the writer (a figure for the load benchmark)."""
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
                # Checkpoints run in the background (see _checkpoint_loop), never inside a
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
        # The writer keeps one connection for good: no pool checkout (and reset) per commit.
        self._wconn = await engine.connect()
        self._writer = asyncio.create_task(self._write_loop(), name="perudo-store-writer")
        if engine.dialect.name == "sqlite":
            self._checkpointer = asyncio.create_task(
                self._checkpoint_loop(), name="perudo-store-checkpoint"
            )

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._writer is not None:
            # Let queued writes finish: they were promised to callers.
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
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    async def drain(self) -> None:
        """Wait until every write queued so far has been committed (or refused)."""
        while not self._queue.empty():
            await asyncio.sleep(0.01)

        async def noop(_conn: AsyncConnection) -> None:
            return None

        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(StoreError):
                await self._write(noop)

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise StoreError("the store is not open")
        return self.engine

    # -- the writer -------------------------------------------------------------------------

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
                async with self._engine().connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as err:  # a failed checkpoint is retried; the WAL keeps the data
                log.warning("SQLite checkpoint failed (will retry): %s", err)

    async def _write(self, op: _Op) -> Any:
        """Queue ``op`` for the writer and wait until it is committed; on SQLite, commit moves
        alone here when the writer is idle (the module's docstring)."""
        if (
            isinstance(op, list)
            and self._wdriver is not None
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
            conn = self._wconn = await self._engine().connect()
        return conn

    async def _drop_writer_connection(self) -> None:
        conn, self._wconn = self._wconn, None
        self._wdriver = None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()

    async def _run_batch(self, ops: Sequence[_Op]) -> list[Any]:
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
        this thread (:func:`_append_on_sqlite`). The connection is between transactions
        here (one batch at a time, and SQLAlchemy's last one is committed or rolled back),
        so the rows are a transaction of their own."""
        if self._wdriver is None:
            self._wdriver = (await conn.get_raw_connection()).driver_connection
        driver: Any = self._wdriver
        try:
            # The sqlite3 connection aiosqlite opened (pinned in pyproject.toml), which
            # SQLAlchemy opens to any thread (check_same_thread=False); the store's tests run
            # this path on every commit of moves.
            _append_on_sqlite(driver, rows)
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

    # -- writes ---------------------------------------------------------------------------

    async def create_table(
        self,
        table_id: str,
        name: str,
        config: dict[str, Any],
        private: bool,
        seats: Sequence[SeatRow],
        version: int,
        creator: str | None = None,
        max_live: int | None = None,
    ) -> None:
        """A new waiting table (``creator``: the client it counts against, ``tables.creator``).

        ``max_live``: the site's limit of tables waiting or playing (the multi-process mode's
        ``PERUDO_MAX_OPEN_TABLES``), taken atomically: on PostgreSQL the count and the insert
        are one transaction under an advisory lock, so creations on several processes at once
        never pass the limit together.

        :raises TooManyTables: the limit is reached; nothing was written."""
        now = time.time()

        async def op(conn: AsyncConnection) -> int | None:
            if max_live is not None:
                if conn.dialect.name == "postgresql":
                    await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({TABLES_LOCK})")
                live = await _count_live(conn)
                if live >= max_live:
                    return live  # refused: nothing written, the batch's other writes go on
            await conn.execute(
                insert(tables_t).values(
                    id=table_id,
                    name=name,
                    config=json.dumps(config),
                    status="open",
                    private=private,
                    version=version,
                    created_at=now,
                    creator=creator,
                )
            )
            for s in seats:
                await conn.execute(insert(seats_t).values(table_id=table_id, **_seat_values(s)))
            return None

        refused_at = await self._write(op)
        if refused_at is not None:
            raise TooManyTables(refused_at)

    async def set_seats(
        self, table_id: str, seats: Sequence[SeatRow], version: int, status: str | None = None
    ) -> None:
        """Replace the table's seats (joins, bots added or removed, compaction at start)."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id))
            for s in seats:
                await conn.execute(insert(seats_t).values(table_id=table_id, **_seat_values(s)))
            values: dict[str, Any] = {"version": version, "fence": fence}
            if status is not None:
                values["status"] = status
            await conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

        await self._write(op)

    async def set_config(self, table_id: str, config: dict[str, Any], version: int) -> None:
        """Replace the table's settings (the host changed its options before a game)."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(config=json.dumps(config), version=version, fence=fence)
            )

        await self._write(op)

    async def set_status(self, table_id: str, status: str, version: int) -> None:
        """A waiting table closed (``status`` ``closed``): it no longer counts for its client."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=status, version=version, fence=fence, creator=None)
            )

        await self._write(op)

    async def start_game(
        self,
        table_id: str,
        rules: dict[str, Any],
        names: Sequence[str],
        rolloff: Sequence[Sequence[int]],
        seats: Sequence[SeatRow],
        version: int,
        players: Mapping[int, int] | None = None,
        rated: bool = False,
        variant: str | None = None,
    ) -> tuple[int, str]:
        """Start a game at a table (seats compacted, status ``playing``); returns its id and
        its key (:attr:`GameRow.key`). ``players``: the signed-in player of each seat that has
        one (seat → player id); ``rated``: the game is rated (:meth:`finish_game`);
        ``variant``: the table's preset."""
        now = time.time()

        game_key = new_game_key()
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> int:
            await conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id))
            for s in seats:
                await conn.execute(insert(seats_t).values(table_id=table_id, **_seat_values(s)))
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status="playing", version=version, fence=fence, creator=None)
            )
            result = await conn.execute(
                insert(games_t).values(
                    key=game_key,
                    table_id=table_id,
                    rules=json.dumps(rules),
                    players=len(names),
                    names=json.dumps(list(names)),
                    rolloff=json.dumps([list(t) for t in rolloff]),
                    started_at=now,
                    rated=rated,
                    variant=variant,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            new_id = int(key[0])
            for seat, player_id in sorted((players or {}).items()):
                await conn.execute(
                    insert(game_players_t).values(game_id=new_id, seat=seat, player_id=player_id)
                )
            return new_id

        game_id: int = await self._write(op)
        return game_id, game_key

    async def append_actions(
        self,
        game_id: int,
        first_seq: int,
        moves: Sequence[tuple[int | None, str]],
        version: int,
        table_id: str = "",
    ) -> None:
        """Append moves ``first_seq, first_seq + 1, …`` to a game's log (one transaction),
        under the fencing token held for ``table_id`` (multi-process mode)."""
        fence = self.fence_of(table_id)
        await self._write(_action_rows(game_id, first_seq, moves, version, time.time(), fence))

    async def finish_game(
        self,
        table_id: str,
        game_id: int,
        winner: int | None,
        version: int,
        moves: Sequence[tuple[int | None, str]] = (),
        first_seq: int = 0,
        places: Sequence[int] = (),
        variant: str = "",
    ) -> None:
        """Mark the game over and its table finished; ``moves`` (the game's last ones, from
        ``first_seq``) are appended in the same transaction, so a log never ends a game that
        is not marked finished, nor the other way round.

        A rated game's players' ratings in ``variant`` change in that same transaction, from
        ``places`` (each seat's finishing place, :func:`perudo.ratings.update`): a game's
        end and its rating update are one durable write, and a game already rated is never
        rated again (:func:`_rate`)."""
        now = time.time()
        fence = self.fence_of(table_id)
        rows = _action_rows(game_id, first_seq, moves, version, now, fence)

        async def op(conn: AsyncConnection) -> None:
            if rows:
                await conn.execute(insert(game_actions_t), rows)
            await conn.execute(
                update(games_t)
                .where(games_t.c.id == game_id)
                .values(finished_at=now, winner=winner)
            )
            if places:
                await _rate(conn, game_id, places, variant, now)
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status="finished", version=version, fence=fence)
            )

        await self._write(op)

    async def add_chat(self, table_id: str, row: ChatRow, keep: int = 500) -> None:
        """Add a chat line; only the table's last ``keep`` lines stay stored."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            result = await conn.execute(
                insert(chat_t).values(
                    table_id=table_id,
                    seat=row.seat,
                    name=row.name,
                    text=row.text,
                    at=row.at,
                    version=row.version,
                    fence=fence,
                )
            )
            key = result.inserted_primary_key
            if key is not None and int(key[0]) % 50 == 0:
                # Now and then (ids are shared by every table: about once per 50 lines) the
                # table's older lines go.
                oldest_kept = (
                    select(chat_t.c.id)
                    .where(chat_t.c.table_id == table_id)
                    .order_by(chat_t.c.id.desc())
                    .offset(keep - 1)
                    .limit(1)
                    .scalar_subquery()
                )
                await conn.execute(
                    delete(chat_t).where(chat_t.c.table_id == table_id, chat_t.c.id < oldest_kept)
                )

        await self._write(op)

    # -- reads ----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        """A pooled connection for a read (tested first: ``pool_pre_ping``); a database that
        cannot be reached is a :class:`StoreError`, as a refused write is."""
        try:
            async with self._engine().connect() as conn:
                yield conn
        except (SQLAlchemyError, OSError) as err:
            raise StoreError(f"database read failed: {err}") from err

    async def load_tables(self, finished_since: float) -> list[TableRow]:
        """Every table waiting or playing, and those finished after ``finished_since``."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(tables_t)
                    .where(tables_t.c.status.not_in(("closed", "broken")))
                    .order_by(tables_t.c.created_at)
                )
            ).all()
            out: list[TableRow] = []
            for t in rows:
                row = await self._table_row(conn, t, finished_since)
                if row is not None:
                    out.append(row)
            return out

    async def load_table(self, table_id: str) -> TableRow | None:
        """One table as :meth:`load_tables` gives it (``None``: unknown or closed)."""
        async with self._engine().connect() as conn:
            t = (
                await conn.execute(
                    select(tables_t).where(tables_t.c.id == table_id, tables_t.c.status != "closed")
                )
            ).first()
            return None if t is None else await self._table_row(conn, t, 0.0)

    async def _table_row(
        self, conn: AsyncConnection, t: Any, finished_since: float
    ) -> TableRow | None:
        game = await self._latest_game(conn, t.id)
        if t.status == "finished" and game is not None and (game.finished_at or 0) < finished_since:
            return None
        seats = [
            _seat_row(s)
            for s in (
                await conn.execute(
                    select(seats_t).where(seats_t.c.table_id == t.id).order_by(seats_t.c.seat)
                )
            ).all()
        ]
        chat = [
            ChatRow(c.seat, c.name, c.text, c.at, c.version)
            for c in reversed(
                (
                    await conn.execute(
                        select(chat_t)
                        .where(chat_t.c.table_id == t.id)
                        .order_by(chat_t.c.id.desc())
                        .limit(200)
                    )
                ).all()
            )
        ]
        version = max([t.version, game.last_version if game else 0] + [c.version for c in chat])
        return TableRow(
            id=t.id,
            name=t.name,
            config=json.loads(t.config),
            status=t.status,
            private=bool(t.private),
            version=version,
            created_at=t.created_at,
            seats=seats,
            game=game,
            chat=chat,
            creator=t.creator if t.status == "open" else None,
        )

    async def _latest_game(self, conn: AsyncConnection, table_id: str) -> GameRow | None:
        g = (
            await conn.execute(
                select(games_t)
                .where(games_t.c.table_id == table_id)
                .order_by(games_t.c.id.desc())
                .limit(1)
            )
        ).first()
        if g is None:
            return None
        return await self._game_with_moves(conn, g)

    async def _game_with_moves(self, conn: AsyncConnection, g: Any) -> GameRow:
        moves = (
            await conn.execute(
                select(game_actions_t.c.seat, game_actions_t.c.action, game_actions_t.c.version)
                .where(game_actions_t.c.game_id == g.id)
                .order_by(game_actions_t.c.seq)
            )
        ).all()
        private = (
            await conn.execute(select(tables_t.c.private).where(tables_t.c.id == g.table_id))
        ).scalar()
        return GameRow(
            id=g.id,
            key=g.key,
            table_id=g.table_id,
            rules=json.loads(g.rules),
            players=g.players,
            names=json.loads(g.names),
            rolloff=json.loads(g.rolloff),
            started_at=g.started_at,
            finished_at=g.finished_at,
            winner=g.winner,
            moves=[(m.seat, m.action) for m in moves],
            last_version=max((m.version for m in moves), default=0),
            private=bool(private),
        )

    async def game(self, key: str) -> GameRow | None:
        """One game by its key, with all its moves, or ``None``."""
        async with self._reading() as conn:
            g = (await conn.execute(select(games_t).where(games_t.c.key == key))).first()
            if g is None:
                return None
            return await self._game_with_moves(conn, g)

    async def finished_games(
        self, limit: int = 50, player_id: int | None = None
    ) -> list[dict[str, Any]]:
        """The most recent finished games of public tables (the replay list), newest first;
        ``player_id``: only those the signed-in player sat in (``game_players``)."""
        where = [games_t.c.finished_at.is_not(None), tables_t.c.private.is_(False)]
        if player_id is not None:
            where.append(
                games_t.c.id.in_(
                    select(game_players_t.c.game_id).where(game_players_t.c.player_id == player_id)
                )
            )
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(
                        games_t.c.key,
                        games_t.c.table_id,
                        games_t.c.names,
                        games_t.c.winner,
                        games_t.c.finished_at,
                        tables_t.c.name.label("table_name"),
                    )
                    .join(tables_t, tables_t.c.id == games_t.c.table_id)
                    # Private tables' games are left out here, before the LIMIT (else a run
                    # of private games would leave the public list short, or empty).
                    .where(*where)
                    .order_by(games_t.c.finished_at.desc())
                    .limit(limit)
                )
            ).all()
        return [
            {
                "id": r.key,
                "table_id": r.table_id,
                "table_name": r.table_name,
                "names": json.loads(r.names),
                "winner": r.winner,
                "finished_at": r.finished_at,
            }
            for r in rows
        ]

    async def count_live_tables(self) -> int:
        """Tables waiting for players or playing: with several processes, the site's count
        that ``PERUDO_MAX_OPEN_TABLES`` bounds.

        :raises StoreError: the database cannot be read."""
        async with self._reading() as conn:
            return await _count_live(conn)

    async def count_actions(self) -> int:
        async with self._reading() as conn:
            return int(
                (await conn.execute(select(func.count()).select_from(game_actions_t))).scalar_one()
            )

    # -- accounts (perudo.server.accounts) ------------------------------------------------

    async def create_player(
        self, name: str, name_key: str, password_hash: str | None
    ) -> int | None:
        """A new player under ``name`` (compared as ``name_key``); ``None`` when a live player
        has that key already (nothing written)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> int | None:
            taken = await conn.execute(
                select(players_t.c.id).where(players_t.c.name_key == name_key)
            )
            if taken.first() is not None:
                return None
            try:
                # Two sign-ups of one name at once on PostgreSQL: the unique index refuses the
                # second inside its savepoint, and the batch's other writes go on.
                async with conn.begin_nested():
                    result = await conn.execute(
                        insert(players_t).values(
                            name=name,
                            name_key=name_key,
                            password_hash=password_hash,
                            created_at=now,
                        )
                    )
            except IntegrityError:
                return None
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

        found: int | None = await self._write(op)
        return found

    async def player_by_key(self, name_key: str) -> PlayerRow | None:
        """The live player whose name compares as ``name_key``."""
        async with self._reading() as conn:
            row = (
                await conn.execute(select(players_t).where(players_t.c.name_key == name_key))
            ).first()
        return None if row is None else _player_row(row)

    async def create_session(
        self,
        token_hash: str,
        public_id: str,
        player_id: int,
        csrf: str,
        lifetime: float,
        agent: str,
        replacing: str | None = None,
    ) -> None:
        """A new sign-in session; the session ``replacing`` (the hash of the token the
        browser held, if any) is ended in the same transaction (no session fixation)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            if replacing is not None:
                await conn.execute(delete(sessions_t).where(sessions_t.c.id == replacing))
            await conn.execute(
                insert(sessions_t).values(
                    id=token_hash,
                    public_id=public_id,
                    player_id=player_id,
                    csrf=csrf,
                    created_at=now,
                    seen_at=now,
                    expires_at=now + lifetime,
                    agent=agent[:200],
                )
            )

        await self._write(op)

    async def session(self, token_hash: str) -> SessionRow | None:
        """The live session of a token's hash (``None``: unknown, ended, expired, or its
        player deleted)."""
        async with self._reading() as conn:
            row = (
                await conn.execute(
                    select(sessions_t, *_player_columns())
                    .join(players_t, players_t.c.id == sessions_t.c.player_id)
                    .where(
                        sessions_t.c.id == token_hash,
                        sessions_t.c.expires_at > time.time(),
                        players_t.c.deleted_at.is_(None),
                    )
                )
            ).first()
        return None if row is None else _session_row(row)

    async def touch_session(self, token_hash: str, seen_at: float) -> None:
        """Note when a session was last used (the account page shows it)."""

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(sessions_t).where(sessions_t.c.id == token_hash).values(seen_at=seen_at)
            )

        await self._write(op)

    async def sessions_of(self, player_id: int) -> list[SessionRow]:
        """A player's live sessions, the most recently used first."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(sessions_t, *_player_columns())
                    .join(players_t, players_t.c.id == sessions_t.c.player_id)
                    .where(
                        sessions_t.c.player_id == player_id,
                        sessions_t.c.expires_at > time.time(),
                    )
                    .order_by(sessions_t.c.seen_at.desc())
                )
            ).all()
        return [_session_row(r) for r in rows]

    async def end_sessions(
        self,
        player_id: int,
        *,
        token_hash: str | None = None,
        public_id: str | None = None,
        keeping: str | None = None,
    ) -> int:
        """End a player's session by its token's hash or its public id, or (neither given)
        every session of theirs but ``keeping``; returns how many ended."""

        async def op(conn: AsyncConnection) -> int:
            where = [sessions_t.c.player_id == player_id]
            if token_hash is not None:
                where.append(sessions_t.c.id == token_hash)
            elif public_id is not None:
                where.append(sessions_t.c.public_id == public_id)
            elif keeping is not None:
                where.append(sessions_t.c.id != keeping)
            result = await conn.execute(delete(sessions_t).where(*where))
            return int(result.rowcount)

        ended: int = await self._write(op)
        return ended

    async def set_password(self, player_id: int, password_hash: str, keeping: str) -> None:
        """A player's new password; every other session of theirs ends with the change."""

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(players_t)
                .where(players_t.c.id == player_id)
                .values(password_hash=password_hash)
            )
            await conn.execute(
                delete(sessions_t).where(
                    sessions_t.c.player_id == player_id, sessions_t.c.id != keeping
                )
            )

        await self._write(op)

    async def delete_player(self, player_id: int, shown_as: str) -> None:
        """Delete an account: its sessions and passkeys go, its name becomes ``shown_as``
        and is free again (its games stay, under its id)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(sessions_t).where(sessions_t.c.player_id == player_id))
            await conn.execute(delete(passkeys_t).where(passkeys_t.c.player_id == player_id))
            await conn.execute(
                update(players_t)
                .where(players_t.c.id == player_id)
                .values(name=shown_as, name_key=None, password_hash=None, deleted_at=now)
            )

        await self._write(op)

    async def sign_in_failures(self, keys: Sequence[str], since: float) -> dict[str, int]:
        """Failed sign-ins counted under each of ``keys`` in windows begun after ``since``."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(sign_in_failures_t).where(
                        sign_in_failures_t.c.key.in_(list(keys)),
                        sign_in_failures_t.c.since > since,
                    )
                )
            ).all()
        return {r.key: int(r.failures) for r in rows}

    async def note_sign_in_failure(self, keys: Sequence[str], window_from: float) -> None:
        """Count a failed sign-in under each of ``keys``: a count whose window began before
        ``window_from`` starts again at one."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            for key in keys:
                row = (
                    await conn.execute(
                        select(sign_in_failures_t).where(sign_in_failures_t.c.key == key)
                    )
                ).first()
                if row is None:
                    try:
                        async with conn.begin_nested():
                            await conn.execute(
                                insert(sign_in_failures_t).values(key=key, failures=1, since=now)
                            )
                        continue
                    except IntegrityError:
                        pass  # another process counted one first: count on top of it
                counted = update(sign_in_failures_t).where(sign_in_failures_t.c.key == key)
                if row is not None and row.since <= window_from:
                    await conn.execute(counted.values(failures=1, since=now))
                else:
                    await conn.execute(counted.values(failures=sign_in_failures_t.c.failures + 1))

        await self._write(op)

    async def clear_sign_in_failures(self, key: str) -> None:
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(sign_in_failures_t).where(sign_in_failures_t.c.key == key))

        await self._write(op)

    async def rating_changes(self, game_id: int) -> list[dict[str, Any]]:
        """A rated game's changes, by seat: ``{seat, player, place, before, after}`` with
        ratings as :class:`perudo.ratings.Rating` (empty: not rated, or not over)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(rating_changes_t, players_t.c.name)
                    .join(players_t, players_t.c.id == rating_changes_t.c.player_id)
                    .where(rating_changes_t.c.game_id == game_id)
                    .order_by(rating_changes_t.c.seat)
                )
            ).all()
        return [
            {
                "seat": r.seat,
                "player": r.name,
                "place": r.place,
                "before": Rating(r.mu_before, r.sigma_before),
                "after": Rating(r.mu_after, r.sigma_after),
            }
            for r in rows
        ]

    async def ratings_of(self, player_id: int) -> dict[tuple[str, str], tuple[Rating, int]]:
        """A player's ratings: (variant, pool) → (rating, games rated)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(select(ratings_t).where(ratings_t.c.player_id == player_id))
            ).all()
        return {(r.variant, r.pool): (Rating(r.mu, r.sigma), int(r.games)) for r in rows}

    async def player_by_name(self, name: str) -> PlayerRow | None:
        """A live player by their name as written (``/@/<name>``), compared exactly."""
        async with self._reading() as conn:
            row = (
                await conn.execute(
                    select(players_t).where(
                        players_t.c.name == name, players_t.c.deleted_at.is_(None)
                    )
                )
            ).first()
        return None if row is None else _player_row(row)

    async def player_games(
        self,
        player_id: int,
        variant: str | None,
        offset: int,
        limit: int,
        private_too: bool = False,
    ) -> tuple[int, list[dict[str, Any]]]:
        """A player's finished games of public tables (``private_too``: of private ones too,
        for their own export; of ``variant``, or all), newest first: how many in all, and
        those from ``offset`` (``{id, variant, rated, names, seat, winner, won,
        finished_at}``, ``id`` the game's key)."""
        where = [game_players_t.c.player_id == player_id, games_t.c.finished_at.is_not(None)]
        if not private_too:
            where.append(tables_t.c.private.is_(False))
        if variant is not None:
            where.append(games_t.c.variant == variant)
        joined = game_players_t.join(games_t, games_t.c.id == game_players_t.c.game_id).join(
            tables_t, tables_t.c.id == games_t.c.table_id
        )
        async with self._reading() as conn:
            total = (
                await conn.execute(select(func.count()).select_from(joined).where(*where))
            ).scalar_one()
            rows = (
                await conn.execute(
                    select(
                        games_t.c.key,
                        games_t.c.variant,
                        games_t.c.rated,
                        games_t.c.names,
                        games_t.c.winner,
                        games_t.c.finished_at,
                        game_players_t.c.seat,
                    )
                    .select_from(joined)
                    .where(*where)
                    .order_by(games_t.c.finished_at.desc(), games_t.c.id.desc())
                    .offset(offset)
                    .limit(limit)
                )
            ).all()
        return int(total), [
            {
                "id": r.key,
                "variant": r.variant,
                "rated": bool(r.rated),
                "names": json.loads(r.names),
                "seat": r.seat,
                "winner": r.winner,
                "won": r.winner == r.seat,
                "finished_at": r.finished_at,
            }
            for r in rows
        ]

    async def player_tally(self, player_id: int) -> dict[str, tuple[int, int]]:
        """A player's finished games of public tables per variant: (played, won)."""
        won = func.sum(case((games_t.c.winner == game_players_t.c.seat, 1), else_=0))
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(games_t.c.variant, func.count(), won)
                    .select_from(
                        game_players_t.join(games_t, games_t.c.id == game_players_t.c.game_id).join(
                            tables_t, tables_t.c.id == games_t.c.table_id
                        )
                    )
                    .where(
                        game_players_t.c.player_id == player_id,
                        games_t.c.finished_at.is_not(None),
                        tables_t.c.private.is_(False),
                    )
                    .group_by(games_t.c.variant)
                )
            ).all()
        return {(r[0] or ""): (int(r[1]), int(r[2] or 0)) for r in rows}

    async def rating_history(
        self, player_id: int
    ) -> dict[tuple[str, str], list[tuple[float, Rating]]]:
        """A player's rating after each rated game: (variant, pool) → [(at, rating)]."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(rating_changes_t)
                    .where(rating_changes_t.c.player_id == player_id)
                    .order_by(rating_changes_t.c.at, rating_changes_t.c.game_id)
                )
            ).all()
        out: dict[tuple[str, str], list[tuple[float, Rating]]] = {}
        for r in rows:
            out.setdefault((r.variant, r.pool), []).append(
                (r.at, Rating(r.mu_after, r.sigma_after))
            )
        return out

    async def leaderboard(
        self, variant: str, kind: str, active_since: float, most_sigma: float, limit: int
    ) -> list[tuple[str, Rating, int]]:
        """The best ``limit`` live players of a variant and pool whose rating is established
        (``sigma`` at most ``most_sigma``) and changed after ``active_since``: (name, rating,
        games rated), best ``mu`` first."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(players_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
                    .join(players_t, players_t.c.id == ratings_t.c.player_id)
                    .where(
                        ratings_t.c.variant == variant,
                        ratings_t.c.pool == kind,
                        ratings_t.c.sigma <= most_sigma,
                        ratings_t.c.updated_at > active_since,
                        players_t.c.deleted_at.is_(None),
                    )
                    .order_by(ratings_t.c.mu.desc(), players_t.c.name)
                    .limit(limit)
                )
            ).all()
        return [(r.name, Rating(r.mu, r.sigma), int(r.games)) for r in rows]


SCHEMA_LOCK = 0x70657275646F
"""PostgreSQL advisory lock held while a process makes or upgrades the schema."""

TABLES_LOCK = SCHEMA_LOCK + 1
"""PostgreSQL advisory lock held while a new table is counted against the site's limit and
written (:meth:`Store.create_table`)."""


async def _count_live(conn: AsyncConnection) -> int:
    """Tables waiting for players or playing."""
    found = await conn.execute(
        select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(("open", "playing")))
    )
    return int(found.scalar_one())


def _no_fence(_table_id: str) -> int | None:
    return None


def new_game_key() -> str:
    """An unguessable game id (96 random bits)."""
    return secrets.token_urlsafe(12)


async def _rate(
    conn: AsyncConnection, game_id: int, places: Sequence[int], variant: str, now: float
) -> None:
    """Apply a rated game's rating update, once: nothing when the game is not rated, has
    fewer than two signed-in players, or has its changes written already (the primary key
    of ``rating_changes`` would refuse them again anyway). On PostgreSQL the players'
    rating rows are locked while they are read and written, so two games of one player
    ending at once on two processes do not lose either update."""
    rated = (await conn.execute(select(games_t.c.rated).where(games_t.c.id == game_id))).scalar()
    if not rated:
        return
    done = await conn.execute(
        select(rating_changes_t.c.game_id).where(rating_changes_t.c.game_id == game_id).limit(1)
    )
    if done.first() is not None:
        return
    seated = (
        await conn.execute(
            select(game_players_t.c.seat, game_players_t.c.player_id)
            .where(game_players_t.c.game_id == game_id)
            .order_by(game_players_t.c.seat)
        )
    ).all()
    if len(seated) < 2:
        return
    kind = ratings_pool(len(places))
    ids = [r.player_id for r in seated]
    found = select(ratings_t).where(
        ratings_t.c.player_id.in_(ids), ratings_t.c.variant == variant, ratings_t.c.pool == kind
    )
    if conn.dialect.name == "postgresql":
        found = found.with_for_update()
    held = {r.player_id: r for r in (await conn.execute(found)).all()}
    before = [Rating(held[p].mu, held[p].sigma) if p in held else Rating() for p in ids]
    seat_places = [places[r.seat] for r in seated]
    after = rate_game(before, seat_places)
    for (seat, player_id), old, new, place in zip(seated, before, after, seat_places, strict=True):
        values = {"mu": new.mu, "sigma": new.sigma, "updated_at": now}
        if player_id in held:
            await conn.execute(
                update(ratings_t)
                .where(
                    ratings_t.c.player_id == player_id,
                    ratings_t.c.variant == variant,
                    ratings_t.c.pool == kind,
                )
                .values(games=ratings_t.c.games + 1, **values)
            )
        else:
            await conn.execute(
                insert(ratings_t).values(
                    player_id=player_id, variant=variant, pool=kind, games=1, **values
                )
            )
        await conn.execute(
            insert(rating_changes_t).values(
                game_id=game_id,
                player_id=player_id,
                seat=seat,
                variant=variant,
                pool=kind,
                place=place,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                at=now,
            )
        )


def _player_columns() -> list[Any]:
    """The player's columns beside a session's (labelled: both tables have ``created_at``)."""
    return [
        players_t.c.name.label("p_name"),
        players_t.c.password_hash.label("p_password_hash"),
        players_t.c.created_at.label("p_created_at"),
        players_t.c.deleted_at.label("p_deleted_at"),
    ]


def _player_row(r: Any) -> PlayerRow:
    return PlayerRow(r.id, r.name, r.password_hash, r.created_at, r.deleted_at is not None)


def _session_row(r: Any) -> SessionRow:
    player = PlayerRow(
        r.player_id, r.p_name, r.p_password_hash, r.p_created_at, r.p_deleted_at is not None
    )
    return SessionRow(r.public_id, player, r.csrf, r.created_at, r.seen_at, r.expires_at, r.agent)


def _seat_values(s: SeatRow) -> dict[str, Any]:
    return {
        "seat": s.seat,
        "kind": s.kind,
        "name": s.name,
        "token_hash": s.token_hash,
        "level": s.level,
        "host": s.host,
        "player_id": s.player_id,
    }


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.name, r.token_hash, r.level, bool(r.host), r.player_id)


_INSERT_ACTIONS = "INSERT INTO {} ({}) VALUES ({})".format(
    game_actions_t.name,
    ", ".join(c.name for c in game_actions_t.columns),
    ", ".join(f":{c.name}" for c in game_actions_t.columns),
)
"""The multi-row insert of :func:`_action_rows`' rows in SQLite's named parameters (the
columns of ``game_actions_t``, as SQLAlchemy's ``insert(game_actions_t)`` writes them)."""


def _append_on_sqlite(driver: Any, rows: list[dict[str, Any]]) -> None:
    """On the event loop's thread: insert ``rows`` on the writer's sqlite3 connection and commit,
    or roll back and raise (nothing half-written)."""
    db: sqlite3.Connection = driver._conn
    try:
        db.executemany(_INSERT_ACTIONS, rows)
        db.commit()
    except BaseException:
        db.rollback()
        raise


def _action_rows(
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
