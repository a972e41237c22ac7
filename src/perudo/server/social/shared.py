"""Presence and notices over several processes (``PERUDO_REDIS_URL``,
:mod:`perudo.server.cluster`).

Each process keeps, per signed-in person with pages open on it, one field of the Redis hash
``perudo:presence:<account>``: its node's id → ``{at, tables, front, notices}`` (the tables
their pages show, the devices where one is in front, how many notice sockets). A field is
written when the person's pages here change and again every :data:`EVERY` seconds; one older
than :data:`FRESH` (its process died) is not believed. A notice for a person goes to their
notice sockets here, and through the bus (``op: notice``) to each other process that says it
holds some.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any, Final

from ..cluster.bus import BusDown
from .presence import Presence

if TYPE_CHECKING:
    from ..cluster import Node

__all__ = ["EVERY", "FRESH", "SharedPresence"]

log = logging.getLogger("perudo.server")

EVERY: Final = 10.0
FRESH: Final = 30.0
KEEP: Final = 120
"""Seconds a person's hash outlives its last write (then Redis drops it)."""


def key(account: int) -> str:
    return f"perudo:presence:{account}"


class SharedPresence:
    """This process's presence, told to the others through Redis."""

    def __init__(self, node: Node, presence: Presence) -> None:
        self.node = node
        self.presence = presence
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.Task[None] | None = None
        presence.on_change = self.changed

    def start(self) -> None:
        self._loop = asyncio.create_task(self._refresh_forever(), name="perudo-presence")

    async def close(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        for task in list(self._tasks):
            task.cancel()

    def changed(self, account: int) -> None:
        task = asyncio.ensure_future(self.publish(account))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, account: int) -> None:
        redis = self.node.bus.redis
        pages = self.presence.pages.get(account)
        try:
            if not pages:
                await redis.hdel(key(account), self.node.id)  # type: ignore[misc]
                return
            entry = {
                "at": time.time(),
                "tables": sorted(self.presence.tables(account)),
                "front": sorted(self.presence.in_front(account)),
                "notices": sum(1 for p in pages if p.send is not None),
            }
            await redis.hset(key(account), self.node.id, json.dumps(entry))  # type: ignore[misc]
            await redis.expire(key(account), KEEP)
        except Exception as err:  # Redis away: told again at the next refresh
            log.info("presence of a player not shared: %s", err)

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            for account in list(self.presence.pages):
                await self.publish(account)

    async def others(self, account: int) -> dict[str, dict[str, Any]]:
        """What the other processes say of ``account``'s pages (fresh entries only)."""
        try:
            found = await self.node.bus.redis.hgetall(key(account))  # type: ignore[misc]
        except Exception as err:
            log.info("presence of a player not read: %s", err)
            return {}
        now = time.time()
        out: dict[str, dict[str, Any]] = {}
        for node, raw in found.items():
            name = node.decode() if isinstance(node, bytes) else str(node)
            if name == self.node.id:
                continue
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            if isinstance(entry, dict) and now - float(entry.get("at", 0)) < FRESH:
                out[name] = entry
        return out

    async def notify(self, account: int, data: dict[str, Any]) -> int:
        """Send ``data`` to ``account``'s notice sockets on the other processes; how many
        there are."""
        n = 0
        for node, entry in (await self.others(account)).items():
            count = int(entry.get("notices", 0))
            if not count:
                continue
            try:
                await self.node.bus.send(node, {"op": "notice", "account": account, "data": data})
            except BusDown as err:
                log.info("a notice not sent to %s: %s", node, err)
                continue
            n += count
        return n
