"""One process of several: which tables it drives, and how the others reach them.

The :class:`Node` holds this process's leases (:mod:`.lease`) and its link to the others
(:mod:`.bus`). A table is driven by its owner only, in the owner's memory, by the one action
path of :class:`~perudo.server.tables.LiveTable` (check, durable write, broadcast). Any process
accepts any table's socket (:meth:`Node.route`): for a table owned elsewhere the socket's
messages are forwarded to the owner, where a :class:`.remote.RemoteConnection` stands for the
socket at the table, and what the table sends it, drawn per seat by the presenter like for any
connection, comes back over the bus to that socket alone (:mod:`.remote`). Presence (a seat's
live sockets) is therefore counted at the owner over every process.

Every third of a lease the node renews its leases in one statement, and lets go of a table whose
lease was taken over (its sockets are closed with 1012: the clients reconnect, anywhere, and
resume by version); it then says it is alive, and puts its waiting tables' places among their
clients' counts back in Redis (:mod:`.limits`: rebuilt so after Redis restarts). Twice a
second or so it claims the tables whose owner died or let go (:meth:`.Leases.orphans`:
restored from the log like after a restart, a waiting one counted again for its client),
closes its sockets of a table whose owner changed, and drops the remote sockets of processes
that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..connection import Connection
from ..guard import Budgets
from ..store import Store
from ..tables import LiveTable
from .bus import Bus, BusDown
from .lease import Leases
from .limits import SharedLimits
from .remote import MOVED, Routes

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..settings import Settings

__all__ = ["MOVED", "Handler", "Node"]

Handler = Callable[[LiveTable, Connection, str, str, Budgets], Awaitable[None]]
"""How a table's owner handles one client message (:func:`perudo.server.routes.socket.handle`)."""

log = logging.getLogger("perudo.server")


ORPHANS_PER_SCAN = 50
"""Tables one process claims at most per scan (the others take the rest)."""


def node_id() -> str:
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(4)}"


class Node:
    """This process in multi-process mode (``settings.redis_url`` set)."""

    def __init__(self, settings: Settings, store: Store, handle: Handler) -> None:
        """``handle``: how the owner handles a client message forwarded from another process,
        the same function as for its own sockets' messages (the app passes
        :func:`perudo.server.routes.socket.handle`; the cluster never imports the routes
        above it)."""
        self.settings = settings
        self.store = store
        self.id = node_id()
        assert store.engine is not None
        self.leases = Leases(store.engine, self.id, settings.lease_seconds)
        assert settings.redis_url is not None
        self.bus = Bus(settings.redis_url, self.id, self._on_message, self._on_reconnect)
        self.shared = SharedLimits(self.bus.redis, self.id)
        """The per-client limits, over every process."""
        self.owned: dict[str, int] = {}
        """Tables this process drives, with the fencing token of each lease."""
        self.lobby: Lobby | None = None
        self.routes = Routes(self)
        self._adopting: dict[str, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._writes: set[asyncio.Task[None]] = set()
        self._renewed = time.monotonic()
        self._absent: dict[str, dict[int, float | None]] = {}
        """What Redis was last told of each table's absent people (:meth:`note_absent`)."""
        self.handle = handle

    # -- life -------------------------------------------------------------------------------

    async def open(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.store.fence_of = self.owned.get
        await self.leases.install()
        await self.bus.open()
        with contextlib.suppress(BusDown):
            await self.bus.beat(self.settings.lease_seconds)
        self._tasks = [
            asyncio.create_task(self._renew_forever(), name="perudo-lease-renew"),
            asyncio.create_task(self._scan_forever(), name="perudo-lease-scan"),
        ]
        log.info("multi-process mode: this process is %s", self.id)

    async def close(self) -> None:
        """Stop, and let every lease go once the store has written what it was given, so that
        the other processes take the tables over at once (a rolling restart)."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.store.drain()
        with contextlib.suppress(Exception):
            await self.leases.release()
        self.owned.clear()
        self.routes.close_all()
        await self.bus.close()

    # -- which process drives a table -----------------------------------------------------

    async def route(self, table_id: str) -> LiveTable | str | None:
        """The table if this process drives it (claiming it when nobody does), else the id of
        the process that does, or ``None`` for no such table.

        :raises sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
        """
        assert self.lobby is not None
        table = self.lobby.tables.get(table_id)
        if table is not None:
            return table
        owner = (await self.leases.owners([table_id]))[table_id]
        if owner is None or owner == self.id:
            table = await self.adopt(table_id)
            if table is not None:
                return table
            owner = (await self.leases.owners([table_id]))[table_id]
            if owner == self.id:
                return self.lobby.tables.get(table_id)
        return owner

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Claim ``table_id`` and restore it from the store (its log folded again, its bots
        and timers started); ``None`` when another process holds it or it does not exist."""
        assert self.lobby is not None
        lock = self._adopting.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.lobby.tables.get(table_id)
            if table is not None:
                return table
            if not await self.leases.exists(table_id):
                return None
            token = await self.leases.claim(table_id)
            if token is None:
                return None
            self.owned[table_id] = token
            try:
                row = await self.store.load_table(table_id)
                if row is None:
                    raise LookupError(f"table {table_id} is gone")
                table = LiveTable.restore(row, self.store, self.settings, self.lobby.changed)
                table.notice = self.lobby.notice
            except Exception as err:
                # Marked broken: no process claims it again (it would fail the same way).
                log.error("table %s could not be taken over, marked broken: %s", table_id, err)
                self.owned.pop(table_id, None)
                with contextlib.suppress(Exception):
                    await self.leases.mark_broken(table_id, token)
                return None
            self.lobby.tables[table_id] = table
            await self.lobby.count_waiting(table)
            try:
                absent = await self.bus.absent(table_id)
            except BusDown:
                absent = {}  # Redis away: every person's grace starts now
            if absent:
                self._absent[table_id] = absent
            await table.resume(absent)
            self.lobby.changed(table)
            log.info("took table %s over (fencing token %d)", table_id, token)
            return table

    async def claim_new(self, table_id: str) -> None:
        """The lease of a table this process is creating (before it is stored)."""
        token = await self.leases.claim(table_id)
        if token is None:
            raise RuntimeError(f"table id {table_id} is already leased")
        self.owned[table_id] = token

    async def drop(self, table_id: str) -> None:
        """This process no longer drives ``table_id`` (its lease was taken over, or could not
        be renewed): forget it; its sockets, here and elsewhere, are closed to reconnect."""
        assert self.lobby is not None
        self.owned.pop(table_id, None)
        self._absent.pop(table_id, None)
        table = self.lobby.tables.pop(table_id, None)
        if table is None:
            return
        log.warning("table %s: lease lost; handing it over", table_id)
        for conn in list(table.conns):
            conn.send_close(MOVED)
        self.routes.forget_table(table_id)
        await table.close()

    # -- the loops --------------------------------------------------------------------------

    async def _renew_forever(self) -> None:
        every = self.settings.lease_seconds / 3
        while True:
            await asyncio.sleep(every)
            try:
                held = await self.leases.renew()
            except Exception as err:
                log.warning("leases not renewed: %s", err)
                if time.monotonic() - self._renewed > self.settings.lease_seconds:
                    # Our leases have run out: another process may hold them now.
                    for table_id in list(self.owned):
                        await self.drop(table_id)
                continue
            self._renewed = time.monotonic()
            for table_id, token in list(self.owned.items()):
                if held.get(table_id) != token:
                    await self.drop(table_id)
            with contextlib.suppress(BusDown):
                await self.bus.beat(self.settings.lease_seconds)
            # After the beat (a place counts while its process is alive): this process's
            # waiting tables counted again for their clients, the counts rebuilt after Redis
            # restarted, places released while Redis was away released there.
            assert self.lobby is not None
            try:
                await self.lobby.keep_waiting()
            except Exception:  # the renewals must live on; the next one tries again
                log.exception("waiting tables not counted again")

    async def _scan_forever(self) -> None:
        every = min(0.5, self.settings.lease_seconds / 3)
        while True:
            await asyncio.sleep(every)
            try:
                await self.scan()
            except Exception as err:
                log.warning("lease scan failed (will retry): %s", err)

    async def scan(self) -> None:
        """Claim orphaned tables; close this process's sockets of tables that changed owner;
        drop the remote sockets of processes that are gone."""
        for table_id in await self.leases.orphans(ORPHANS_PER_SCAN):
            await self.adopt(table_id)
        linked = self.routes.linked_tables()
        if linked:
            owners = await self.leases.owners(linked)
            for table_id, owner in owners.items():
                if owner != linked[table_id]:
                    self.routes.close_table(table_id)
        nodes = self.routes.remote_nodes()
        if nodes:
            try:
                alive = await self.bus.alive(nodes)
            except BusDown:
                return
            for node in nodes - alive:
                await self.routes.node_gone(node)

    # -- the bus ----------------------------------------------------------------------------

    async def _on_message(self, data: dict[str, Any]) -> None:
        if data.get("op") == "notice":
            # A notice for a person with a notice socket here (perudo.server.social.shared).
            social = self.lobby.social if self.lobby is not None else None
            if social is not None:
                social.presence.notify(int(data["account"]), dict(data["data"]))
            return
        await self.routes.on_message(data)

    async def _on_reconnect(self) -> None:
        """Redis came back: what was published meanwhile is lost, so every socket linked
        through it reconnects (and resumes by version), here and at the owners."""
        await self.routes.reset()

    def note_absent(self, table: LiveTable) -> None:
        """The table changed: when who has no live connection there changed, tell Redis (for
        the process that takes the table over if this one dies: it goes on with the away
        people away and the dropped ones' grace running, not started again)."""
        if table.id not in self.owned:
            return
        absent = table.schedule.absent()
        if self._absent.get(table.id, {}) == absent:
            return
        if absent:
            self._absent[table.id] = absent
        else:
            self._absent.pop(table.id, None)
        task = asyncio.ensure_future(self._put_absent(table.id, absent))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _put_absent(self, table_id: str, absent: dict[int, float | None]) -> None:
        try:
            await self.bus.put_absent(table_id, absent)
        except BusDown as err:
            self._absent.pop(table_id, None)  # told again at its next change
            log.warning("table %s: who is away not recorded: %s", table_id, err)

    def local(self, table_id: str) -> LiveTable | None:
        assert self.lobby is not None
        return self.lobby.tables.get(table_id)
