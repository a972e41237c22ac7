"""The bus between the processes: Redis pub/sub, one channel per process.

Each process listens on ``perudo:node:<its id>``. What travels (JSON, ``op`` names the kind):

* ``msg`` (socket process → owner): a client message of a socket held elsewhere, already
  read under that process's connection limits: ``{table, conn, text, base, client}``
  (``client``: its address; the owner, which knows the socket's seat, applies its sender's
  budgets: :class:`perudo.server.guard.Budgets`);
* ``gone`` (socket process → owner): that socket closed;
* ``out`` (owner → socket process): messages for its sockets, ``[[conn, text]…]`` (``text``
  ``null``: close it, with ``code``), batched per turn of the owner's event loop;
* ``call`` / ``reply``: a request to a table's owner (the HTTP routes: a table's information,
  joining it) and its answer.

Redis keeps the order of the messages one connection publishes, so the bus publishes on one
connection (``single_connection_client``). Each process also keeps ``perudo:alive:<id>``
alive (expiring after a lease) so that an owner can tell a socket process is gone, and the
lobby's public tables live in the hash ``perudo:lobby``. Redis going away is not fatal: a
publish raises :class:`BusDown` (the caller refuses what it was asked, in words), the listener
reconnects by itself and tells :attr:`Bus.on_reconnect` (messages published meanwhile are
lost: the processes then reconnect their sockets, which resume by version). A publish that no
process received (Redis counts the receivers: the process listening there died) raises
:class:`NoListener`, so that nothing sent is lost without a word: the caller refuses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from redis import asyncio as aioredis

__all__ = ["Bus", "BusDown", "NoListener"]

log = logging.getLogger("perudo.server")

LOBBY = "perudo:lobby"

ABSENT_FOR = 86400
"""Seconds a table's record of absent people (:meth:`Bus.put_absent`) outlives its last
change (a table driven on keeps it current; one closed lets it expire)."""


class BusDown(RuntimeError):
    """Redis cannot be reached now: what needed it was not done."""


class NoListener(BusDown):
    """Redis took the message but no process listens on its channel (the process died, and
    Redis dropped its subscription with its connection): nobody will act on it."""


def down(err: Exception) -> BusDown:
    """Any failure of a Redis command as :class:`BusDown`: not only ``RedisError`` and
    ``OSError``, for while Redis restarts redis-py can fail inside a connection closed under
    it (an ``AttributeError`` on its missing reader escaped ``send`` to a socket's handler and
    dropped the socket)."""
    return BusDown(str(err) or type(err).__name__)


def channel(node: str) -> str:
    return f"perudo:node:{node}"


def alive_key(node: str) -> str:
    return f"perudo:alive:{node}"


def absent_key(table_id: str) -> str:
    return f"perudo:absent:{table_id}"


class Bus:
    """This process's connection to the others (``node``: its id)."""

    def __init__(
        self,
        url: str,
        node: str,
        on_message: Callable[[dict[str, Any]], Awaitable[None]],
        on_reconnect: Callable[[], Awaitable[None]],
    ) -> None:
        self.node = node
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )
        self.publisher: aioredis.Redis = aioredis.Redis.from_url(
            url, single_connection_client=True, socket_connect_timeout=2, socket_timeout=5
        )
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.up = False
        """Whether the listener is subscribed now."""
        self._listener: asyncio.Task[None] | None = None
        self._calls: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._subscribed = asyncio.Event()

    async def open(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="perudo-bus-listener")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), 10)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        with contextlib.suppress(Exception):
            await self.redis.delete(alive_key(self.node))
        await self.publisher.aclose()
        await self.redis.aclose()

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node))
                self.up = True
                self._subscribed.set()
                if not first:
                    log.warning("Redis is back: reconnecting this process's remote sockets")
                    await self._fresh_connections()
                    await self.on_reconnect()
                first = False
                while True:
                    m = await pubsub.get_message(timeout=1.0)
                    if m is None or m.get("type") != "message":
                        continue
                    try:
                        data = json.loads(m["data"])
                    except ValueError:
                        continue
                    if data.get("op") == "reply":
                        future = self._calls.pop(int(data.get("id", 0)), None)
                        if future is not None and not future.done():
                            future.set_result(data)
                        continue
                    try:
                        await self.on_message(data)
                    except Exception:
                        log.exception("bus message %s failed", data.get("op"))
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as err:  # any failure of redis-py: see down()
                if self.up:
                    log.warning("lost Redis (%s): reconnecting", err)
                self.up = False
                for future in self._calls.values():
                    if not future.done():
                        future.set_exception(BusDown(str(err)))
                self._calls.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                await asyncio.sleep(0.2)

    async def _fresh_connections(self) -> None:
        """Redis is back after an outage: close the connections opened before it (the
        publisher's, the idle ones of the pool), which a restarted Redis has closed, so that
        the next command opens a new one instead of failing on the old one (the first message
        published after the outage, a socket's snapshot, was lost so)."""
        with contextlib.suppress(Exception):
            if self.publisher.connection is not None:
                await self.publisher.connection.disconnect(nowait=True)
            await self.redis.connection_pool.disconnect(inuse_connections=False)

    async def send(self, node: str, data: dict[str, Any]) -> None:
        """Publish ``data`` to ``node``'s channel.

        :raises NoListener: no process received it (``node`` is gone).
        :raises BusDown: Redis cannot be reached (nothing was sent).
        """
        text = json.dumps(data)
        try:
            receivers = await self.publisher.publish(channel(node), text)
        except Exception as err:
            raise down(err) from None
        if not receivers:
            raise NoListener(f"no process listens on {channel(node)} (it is gone)")

    async def call(self, node: str, data: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a ``call`` to ``node`` and wait for its ``reply``.

        :raises BusDown: Redis is down, or no answer came within ``timeout``.
        """
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[ident] = future
        try:
            await self.send(node, {**data, "op": "call", "id": ident, "from": self.node})
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise BusDown(
                f"the process holding the table did not answer in {timeout:g} s"
            ) from None
        finally:
            self._calls.pop(ident, None)

    async def reply(self, node: str, ident: int, data: dict[str, Any]) -> None:
        with contextlib.suppress(BusDown):
            await self.send(node, {**data, "op": "reply", "id": ident})

    # -- liveness and the lobby ----------------------------------------------------------

    async def beat(self, seconds: float) -> None:
        """Say this process is alive for ``seconds``."""
        try:
            await self.redis.set(alive_key(self.node), "1", px=max(1, int(seconds * 1000)))
        except Exception as err:
            raise down(err) from None

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        """Which of ``nodes`` said they were alive within a lease."""
        names = list(nodes)
        if not names:
            return set()
        try:
            found = await self.redis.mget([alive_key(n) for n in names])
        except Exception as err:
            raise down(err) from None
        return {n for n, v in zip(names, found, strict=True) if v is not None}

    async def publish_lobby(self, table_id: str, entry: dict[str, Any] | None) -> None:
        """Put a public table's lobby entry in the shared lobby (``None``: take it out)."""
        try:
            if entry is None:
                await self.redis.hdel(LOBBY, table_id)  # type: ignore[misc]
            else:
                await self.redis.hset(LOBBY, table_id, json.dumps(entry))  # type: ignore[misc]
        except Exception as err:
            log.warning("lobby entry of %s not published: %s", table_id, err)

    async def put_absent(self, table_id: str, absent: dict[int, float | None]) -> None:
        """Record who has no live connection at ``table_id`` (seat → ``None``: away, else
        when its drop grace began; :meth:`perudo.server.tables.schedule.Scheduler.absent`),
        for the process that takes the table over if this one dies.

        :raises BusDown: Redis cannot be reached."""
        key = absent_key(table_id)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.delete(key)
                if absent:
                    fields = {str(s): "away" if t is None else repr(t) for s, t in absent.items()}
                    pipe.hset(key, mapping=fields)
                    pipe.expire(key, ABSENT_FOR)
                await pipe.execute()
        except Exception as err:
            raise down(err) from None

    async def absent(self, table_id: str) -> dict[int, float | None]:
        """What :meth:`put_absent` recorded for ``table_id`` (empty: nothing, or unreadable).

        :raises BusDown: Redis cannot be reached."""
        try:
            raw = await self.redis.hgetall(absent_key(table_id))  # type: ignore[misc]
        except Exception as err:
            raise down(err) from None
        out: dict[int, float | None] = {}
        for seat, value in raw.items():
            try:
                out[int(seat)] = None if value == b"away" else float(value)
            except ValueError:
                continue
        return out

    async def lobby(self) -> list[dict[str, Any]]:
        try:
            raw = await self.redis.hvals(LOBBY)  # type: ignore[misc]
        except Exception as err:
            raise down(err) from None
        return [json.loads(v) for v in raw]
