"""The lobby: every live table by id; creating, joining, restoring them from the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from .settings import Settings
from .store import Store
from .tables import LiveTable, Seat, TableConfig, TableError, hash_token

__all__ = ["Lobby", "clean_name"]

log = logging.getLogger("perudo.server")

RESTORE_FINISHED_FOR = 24 * 3600.0
"""Finished tables younger than this come back after a restart (their game-over screen)."""
KEEP_FINISHED_FOR = 3600.0
"""A finished table nobody is connected to leaves memory after this long (its games stay in
the store, with their replays)."""
SWEEP_EVERY = 300.0


def clean_name(text: str, what: str, limit: int) -> str:
    """A display name: whitespace collapsed, no control characters, 1..``limit`` characters.

    :raises TableError: naming what is wrong.
    """
    name = " ".join("".join(ch for ch in text if ch.isprintable()).split())
    if not name:
        raise TableError("bad_name", f"{what} must not be empty")
    if len(name) > limit:
        raise TableError("bad_name", f"{what} must be at most {limit} characters")
    return name


class Lobby:
    """All live tables. ``await open()`` restores them from the store."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self._sweeper: asyncio.Task[None] | None = None

    async def open(self) -> None:
        rows = await self.store.load_tables(time.time() - RESTORE_FINISHED_FOR)
        for row in rows:
            try:
                table = LiveTable.restore(row, self.store, self.settings)
            except (ValueError, KeyError, TypeError) as err:
                log.error("table %s could not be restored from its log: %s", row.id, err)
                continue
            self.tables[table.id] = table
        for table in self.tables.values():
            await table.resume()
        if rows:
            log.info("restored %d tables from the store", len(self.tables))
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="perudo-lobby-sweeper")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in self.tables.values():
            await table.close()

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
        return len(gone)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            self.sweep(time.monotonic())

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_table", f"there is no table {table_id!r}")
        return table

    def open_tables(self) -> list[dict[str, Any]]:
        """The lobby: public tables waiting for players or playing, newest first."""
        live = [t for t in self.tables.values() if not t.private and t.status != "finished"]
        return [t.lobby_entry() for t in reversed(live)]

    async def create(
        self,
        *,
        name: str,
        player: str,
        config: TableConfig,
        private: bool,
    ) -> tuple[LiveTable, int, str]:
        """A new table with its creator in seat 0; returns (table, seat, token)."""
        live = sum(1 for t in self.tables.values() if t.status != "finished")
        if live >= self.settings.max_open_tables:
            raise TableError(
                "too_many_tables", f"the server holds {live} open tables, its limit; try later"
            )
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(6)
        table = LiveTable(
            table_id,
            clean_name(name, "the table's name", 60),
            config,
            private,
            self.store,
            self.settings,
        )
        token = secrets.token_urlsafe(24)
        table.seats[0] = Seat(
            "human", clean_name(player, "your name", 24), hash_token(token), host=True
        )
        table.version = table.state_version = table.backlog.floor = 1
        await self.store.create_table(
            table_id,
            table.name,
            config.to_dict(),
            private,
            [s.row(i) for i, s in enumerate(table.seats) if s is not None],
            table.version,
        )
        self.tables[table_id] = table
        return table, 0, token

    async def join(self, table_id: str, player: str) -> tuple[int, str]:
        table = self.get(table_id)
        return await table.join(clean_name(player, "your name", 24))
