"""The lobby: every live table by id; creating, joining, restoring them from the store, and
letting them go (finished tables nobody watches, waiting tables nobody attends).

In multi-process mode (:mod:`perudo.server.cluster`) it holds the tables this process drives;
it asks the :class:`~perudo.server.cluster.Node` for the others (their owner answers a table's
information and joins), and the list of public tables is the one every process shares."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from .cluster.bus import BusDown, NoListener
from .guard import ClientLimits, Guard, client_key
from .settings import Settings
from .store import Store, StoreError, TooManyTables
from .tables import LiveTable, Seat, TableConfig, TableError, hash_token
from .tables.config import server_texts, store_refused
from .tables.live import DESERTED
from .tables.text import clean_name

if TYPE_CHECKING:
    from .cluster import Node
    from .social.hub import Social

__all__ = ["Lobby"]

log = logging.getLogger("perudo.server")

RESTORE_FINISHED_FOR = 24 * 3600.0
"""Finished tables younger than this come back after a restart (their game-over screen)."""
KEEP_FINISHED_FOR = 3600.0
"""A finished table nobody is connected to leaves memory after this long (its games stay in
the store, with their replays)."""
SWEEP_EVERY = 300.0
"""Seconds between sweeps at most (less when waiting tables expire sooner)."""
TABLE_ID_BYTES = 12
"""Random bytes in a table id (its invite): 96 bits, not found by guessing."""


class Lobby:
    """All live tables. ``await open()`` restores them from the store."""

    def __init__(self, store: Store, settings: Settings, node: Node | None = None) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self.guard: Guard = Guard(settings, None if node is None else node.shared)
        self.node = node
        """This process among several (``None``: the only one)."""
        self.arrivals = asyncio.Semaphore(settings.arrivals_at_once)
        """WebSockets being set up at once (:mod:`perudo.server.routes.socket`): a crowd
        arriving together is let in a few at a time, the players' moves going on between."""
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._creating: dict[str, str] = {}
        """Tables being created (id → client), their places held already."""
        self.social: Social | None = None
        """Friends and notices (the app sets it): what a table says goes to it."""

    def notice(self, table: LiveTable, kind: str) -> None:
        """A table's notice (``turn``, ``start``: :attr:`LiveTable.notice`)."""
        if self.social is not None:
            self.social.table_notice(table, kind)

    async def open(self) -> None:
        if self.node is not None:
            # Several processes: each drives the tables it claims (at once those nobody holds).
            await self.node.open(self)
            try:
                await self.node.scan()
            except Exception as err:
                log.warning("claiming tables at start failed (will retry): %s", err)
        else:
            await self._restore_all()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="perudo-lobby-sweeper")

    async def _restore_all(self) -> None:
        rows = await self.store.load_tables(time.time() - RESTORE_FINISHED_FOR)
        for row in rows:
            try:
                table = LiveTable.restore(row, self.store, self.settings)
            except (ValueError, KeyError, TypeError) as err:
                log.error("table %s could not be restored from its log: %s", row.id, err)
                continue
            table.notice = self.notice
            self.tables[table.id] = table
        await self.keep_waiting()
        for table in self.tables.values():
            await table.resume()
        if rows:
            log.info("restored %d tables from the store", len(self.tables))

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in self.tables.values():
            await table.close()
        if self.node is not None:
            await self.node.close()

    def changed(self, table: LiveTable) -> None:
        """A table changed: once it no longer waits for its first game (started, closed) its
        place among its client's waiting tables is released; in multi-process mode its entry
        in the shared lobby follows its changes."""
        if table.creator is not None and (table.status != "open" or table.closed):
            creator, table.creator = table.creator, None
            self._spawn(self.guard.waiting.release(creator, table.id))
        if table.status == "open" and not table.closed and deserted(table):
            # The last person left a table that waits for players: nobody can start it, so
            # it leaves the lobby now, not when it would expire.
            self._spawn(self._close(table, deserted, deserted=True))
        if self.node is None:
            return
        public = not table.private and not table.closed and table.status != "finished"
        entry = {**table.lobby_entry(), "at": table.created_at} if public else None
        self._spawn(self.node.bus.publish_lobby(table.id, entry))
        self.node.note_absent(table)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def sweep(self, now: float) -> int:
        """Drop finished tables that nobody has watched for :data:`KEEP_FINISHED_FOR`."""
        gone = [
            t
            for t in self.tables.values()
            if t.status == "finished"
            and not t.conns
            and t.finished_at is not None
            and now - t.finished_at > KEEP_FINISHED_FOR
        ]
        for t in gone:
            del self.tables[t.id]
            t.closed = True
        if self.node is not None and gone:
            for t in gone:
                self.node.owned.pop(t.id, None)
            self._spawn(self.node.leases.release([t.id for t in gone]))
        return len(gone)

    async def expire(self, now: float) -> int:
        """Close the waiting tables no seated person has attended for
        ``waiting_table_seconds``: they leave the lobby and the store marks them ``closed``
        (never restored). Their spectators are told and disconnected."""
        limit = self.settings.waiting_table_seconds

        def stale(t: LiveTable) -> bool:
            return t.unattended_since is not None and now - t.unattended_since > limit

        closed = [t for t in list(self.tables.values()) if stale(t) and await self._close(t, stale)]
        self.guard.sweep(now)
        await self.keep_waiting()
        return len(closed)

    async def _close(
        self, t: LiveTable, still: Callable[[LiveTable], bool], deserted: bool = False
    ) -> bool:
        """Close the waiting table ``t`` if it ``still`` should be, under its lock (its
        spectators told it waited too long, or, ``deserted``, that everyone left): whether it
        was."""
        async with t.lock:
            if t.status != "open" or t.closed or not still(t):
                return False
            try:
                await self.store.set_status(t.id, "closed", t.version + 1)
            except StoreError as err:
                log.warning("table %s could not be closed (will retry): %s", t.id, err)
                return False
            self.tables.pop(t.id, None)
            if deserted:
                t.expire("table_deserted", DESERTED)
            else:
                t.expire()
            self.changed(t)
            if self.node is not None:  # its lease goes with it
                self.node.owned.pop(t.id, None)
                try:
                    await self.node.leases.forget(t.id)
                except Exception as err:
                    log.warning("table %s: lease not deleted: %s", t.id, err)
        return True

    async def keep_waiting(self) -> None:
        """Tell the count of waiting tables (:class:`~perudo.server.guard.WaitingTables`)
        which tables this process drives that count for their client: after a restore, every
        sweep, and in multi-process mode every third of a lease (which puts the counts back
        after Redis restarts)."""
        waiting = {
            t.id: t.creator
            for t in self.tables.values()
            if t.creator is not None and t.status == "open" and not t.closed
        }
        await self.guard.waiting.keep({**waiting, **self._creating})

    async def count_waiting(self, table: LiveTable) -> None:
        """A table taken over from another process: it still counts for its client."""
        if table.creator is not None and table.status == "open":
            await self.guard.waiting.hold(table.creator, table.id, None)

    async def _sweep_forever(self) -> None:
        every = max(0.2, min(SWEEP_EVERY, self.settings.waiting_table_seconds / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            self.sweep(now)
            try:
                await self.expire(now)
            except Exception:  # the sweeper must live on; the next sweep retries
                log.exception("expiring waiting tables failed")

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_table", f"there is no table {table_id[:40]!r}")
        return table

    async def open_tables(self) -> list[dict[str, Any]]:
        """The lobby: public tables waiting for players or playing, newest first (of every
        process in multi-process mode).

        :raises TableError: ``unavailable`` when the shared lobby cannot be read.
        """
        if self.node is not None:
            try:
                entries = await self.node.bus.lobby()
            except BusDown as err:
                raise TableError("unavailable", f"the lobby cannot be read now: {err}") from None
            entries.sort(key=lambda e: -float(e.pop("at", 0.0)))
            return entries
        live = [t for t in self.tables.values() if not t.private and t.status != "finished"]
        return [t.lobby_entry() for t in reversed(live)]

    async def info(self, table_id: str) -> dict[str, Any]:
        """A table's public information (from its owner in multi-process mode).

        :raises TableError: ``no_table``, or ``unavailable`` when its owner cannot be reached.
        """
        table = self.tables.get(table_id)
        if table is not None or self.node is None:
            return self.get(table_id).info()
        result: dict[str, Any] | None = await self._call(table_id, {"what": "info"})
        return self.get(table_id).info() if result is None else result

    async def seated(self, table_id: str, player_id: int) -> tuple[str, str, bool]:
        """A table's name and status, and whether ``player_id`` holds a seat at it (from its
        owner in multi-process mode): who may invite to it (:mod:`perudo.server.social`).

        :raises TableError: ``no_table`` (a closed one too), or ``unavailable``.
        """
        table = self.tables.get(table_id)
        if table is None and self.node is not None:
            answer = await self._call(table_id, {"what": "seated", "player_id": player_id})
            if answer is not None:
                return str(answer["name"]), str(answer["status"]), bool(answer["seated"])
            table = self.tables.get(table_id)
        if table is None or table.closed:
            raise TableError("no_table", f"there is no table {table_id[:40]!r}")
        return table.name, table.status, table.holds(player_id)

    async def _call(self, table_id: str, data: dict[str, Any]) -> Any:
        """Ask the table's owner (another process) ``data``; its answer, or its refusal."""
        assert self.node is not None
        try:
            where = await self.node.route(table_id)
        except SQLAlchemyError as err:
            raise TableError("unavailable", f"the database cannot be reached: {err}") from None
        if where is None:
            raise TableError("no_table", f"there is no table {table_id[:40]!r}")
        if isinstance(where, LiveTable):
            return None
        try:
            answer = await self.node.bus.call(where, {**data, "table": table_id}, 5.0)
        except NoListener:
            raise TableError(
                "moved", "the table is moving to another process; try again in a moment"
            ) from None
        except BusDown as err:
            raise TableError("unavailable", f"the table cannot be reached now: {err}") from None
        if not answer.get("ok"):
            raise TableError(str(answer.get("code")), str(answer.get("message")))
        return answer["result"]

    async def create(
        self,
        *,
        name: str,
        player: str,
        config: TableConfig,
        private: bool,
        client: str = "local",
        player_id: int | None = None,
        bot_account: bool = False,
    ) -> tuple[LiveTable, int, str]:
        """A new table with its creator in seat 0 (``player_id``: their account, when signed
        in, or the bot account's: ``bot_account``; a rated table's creator must be one);
        returns (table, seat, token).

        ``client`` (its address) may have ``tables_per_client`` tables waiting for players
        and create ``creates_per_minute``.
        """
        # A first look, before any place is taken (the multi-process mode's count is taken
        # again, atomically, with the table's row: Store.create_table).
        self._check_open_tables(await self._live_tables())
        client = client_key(client)
        limits = self.guard.of(client)
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        most = self.settings.tables_per_client
        try:
            had = await self.guard.waiting.hold(client, table_id, most)
        except BusDown:
            raise TableError(
                "unavailable", "new tables cannot be made now; try again in a moment"
            ) from None
        if had >= most:
            raise TableError(
                "client_limit",
                f"you have {had} tables waiting for players, the most one may have; "
                "start a game at one of them, or wait until they expire",
                texts=server_texts("waiting_tables", n=had),
            )
        if self.node is None:
            # One process holds every table: counted with those being made, with no await
            # between the count and taking the place, so simultaneous creations never pass
            # the limit together.
            try:
                self._check_open_tables(await self._live_tables())
            except TableError:
                await self.guard.waiting.release(client, table_id)
                raise
        self._creating[table_id] = client
        try:
            return await self._create(
                table_id, name, player, config, private, client, limits, player_id, bot_account
            )
        except BaseException:
            await self.guard.waiting.release(client, table_id)
            raise
        finally:
            del self._creating[table_id]

    async def _live_tables(self) -> int:
        """Tables waiting or playing, which ``max_open_tables`` bounds: this process's (it
        holds them all when it is the only one), or the site's, from the database.

        :raises TableError: ``unavailable`` when the database cannot be read."""
        if self.node is None:
            made = sum(1 for t in self.tables.values() if t.status != "finished")
            return made + len(self._creating)
        try:
            return await self.store.count_live_tables()
        except StoreError as err:
            log.warning("tables not counted: %s", err)
            raise TableError(
                "unavailable", "the server cannot count its tables now; try again soon"
            ) from None

    def _check_open_tables(self, live: int) -> None:
        """:raises TableError: ``too_many_tables`` when ``live`` tables reach the limit."""
        if live >= self.settings.max_open_tables:
            raise TableError(
                "too_many_tables", f"the server holds {live} open tables, its limit; try later"
            )

    async def _create(
        self,
        table_id: str,
        name: str,
        player: str,
        config: TableConfig,
        private: bool,
        client: str,
        limits: ClientLimits,
        player_id: int | None,
        bot_account: bool = False,
    ) -> tuple[LiveTable, int, str]:
        """:meth:`create`, its place among the client's waiting tables held."""
        if not await limits.creates.acquire():
            raise TableError(
                "client_limit",
                f"at most {self.settings.creates_per_minute:g} new tables a minute; "
                "try again in a moment",
            )
        table = LiveTable(
            table_id,
            clean_name(name, "the table's name", 60),
            config,
            private,
            self.store,
            self.settings,
            self.changed,
        )
        table.check_rated_seat(player_id, bot_account)
        table.notice = self.notice
        token = secrets.token_urlsafe(24)
        table.seats[0] = Seat(
            "human",
            clean_name(player, "your name", 24),
            hash_token(token),
            host=True,
            player_id=player_id,
            bot_account=bot_account,
        )
        table.version = table.state_version = table.backlog.floor = 1
        if self.node is not None:
            try:
                await self.node.claim_new(table_id)
            except SQLAlchemyError as err:
                raise store_refused(err, f"the new table {table_id}'s claim") from None
        try:
            await self.store.create_table(
                table_id,
                table.name,
                config.to_dict(),
                private,
                [s.row(i) for i, s in enumerate(table.seats) if s is not None],
                table.version,
                creator=client,
                max_live=None if self.node is None else self.settings.max_open_tables,
            )
        except Exception as err:
            if self.node is not None:
                self.node.owned.pop(table_id, None)
                self._spawn(self.node.leases.release([table_id]))
            if isinstance(err, TooManyTables):
                self._check_open_tables(err.live)
            raise
        self.tables[table_id] = table
        table.creator = client
        self.changed(table)
        return table, 0, token

    async def join(
        self,
        table_id: str,
        player: str,
        client: str | None = None,
        player_id: int | None = None,
        bot_account: bool = False,
    ) -> tuple[int, str]:
        """Seat ``player`` (``player_id``: their account, when signed in) at the table;
        ``client`` (its address) takes
        ``joins_per_minute`` seats at most (a refused join takes nothing). ``None``: counted
        already (a join another process forwards to this table's owner)."""
        if client is not None and not await self.guard.of(client).joins.acquire():
            raise TableError(
                "client_limit",
                f"at most {self.settings.joins_per_minute:g} seats taken a minute from one "
                "address; try again in a moment",
            )
        if table_id not in self.tables and self.node is not None:
            result = await self._call(
                table_id,
                {"what": "join", "name": player, "player_id": player_id, "bot": bot_account},
            )
            if result is not None:
                return int(result["seat"]), str(result["token"])
        table = self.get(table_id)
        blocked_by: frozenset[int] = frozenset()
        if player_id is not None:
            try:
                blocked_by = await self.store.blockers_of(player_id)
            except StoreError as err:
                raise store_refused(err, "a join's blocks") from None
        return await table.join(
            clean_name(player, "your name", 24), player_id, bot_account, blocked_by
        )


def deserted(table: LiveTable) -> bool:
    """Whether no person (nor bot account) sits at ``table``: bots of the house alone, or
    nobody."""
    return not any(s is not None and s.kind == "human" for s in table.seats)
