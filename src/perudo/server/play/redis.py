"""Play now's pools in Redis, shared by every process (multi-process mode).

A pool is one hash (``perudo:pool:{key}``: ticket → :class:`~.match.Entry` as JSON) and its
leases another (``…:until``: ticket → wall-clock expiry, renewed by the process holding the
socket without touching the entries). Each :meth:`RedisPoolStore.change` is an optimistic
transaction: ``WATCH`` the entries, read them and the leases, compute the step (the same pure
Python as in one process: :func:`~.match.plan` among it), and ``MULTI``/``EXEC`` the changes;
if any other process changed the pool meanwhile, ``EXEC`` fails and the step runs again on
what is there now. Two processes can therefore never both claim one entrant: one of their
transactions is refused and recomputed without that entrant.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from ..cluster.bus import down
from .match import Entry, PoolKey
from .pool import Changes

__all__ = ["KEYS", "RedisPoolStore"]

KEYS = "perudo:pool:keys"
"""The set of pools with anyone in them."""
TRIES = 50
"""Attempts of one step against other processes' changes before it gives up for this pass."""


def entries_key(key: PoolKey) -> str:
    return f"perudo:pool:{key.text()}"


def leases_key(key: PoolKey) -> str:
    return f"perudo:pool:{key.text()}:until"


class RedisPoolStore:
    """:class:`~.pool.PoolStore` on the processes' shared Redis."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis

    async def change(self, key: PoolKey, step: Callable[[dict[str, Entry]], Changes]) -> Changes:
        """:raises BusDown: Redis cannot be reached, or the pool kept changing under us."""
        ek, lk = entries_key(key), leases_key(key)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                for _ in range(TRIES):
                    try:
                        await pipe.watch(ek)
                        pool = _read(
                            await pipe.hgetall(ek),  # type: ignore[misc]
                            await pipe.hgetall(lk),  # type: ignore[misc]
                        )
                        changes = step(dict(pool))
                        if not changes:
                            await pipe.unwatch()  # type: ignore[no-untyped-call]
                            return {}
                        pipe.multi()  # type: ignore[no-untyped-call]
                        for ticket, entry in changes.items():
                            if entry is None:
                                pipe.hdel(ek, ticket)
                                pipe.hdel(lk, ticket)
                            else:
                                pipe.hset(ek, ticket, entry.to_json())
                                if ticket not in pool or entry.until > pool[ticket].until:
                                    pipe.hset(lk, ticket, repr(entry.until))
                        pipe.sadd(KEYS, key.text())
                        await pipe.execute()
                        return changes
                    except WatchError:
                        continue
        except Exception as err:
            raise down(err) from None
        raise down(RuntimeError(f"the pool {key.text()} kept changing: step not applied"))

    async def entries(self, key: PoolKey) -> dict[str, Entry]:
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hgetall(entries_key(key))
                pipe.hgetall(leases_key(key))
                raw, leases = await pipe.execute()
        except Exception as err:
            raise down(err) from None
        return _read(raw, leases)

    async def keys(self) -> set[PoolKey]:
        try:
            names = await self.redis.smembers(KEYS)  # type: ignore[misc]
        except Exception as err:
            raise down(err) from None
        out: set[PoolKey] = set()
        for name in names:
            try:
                out.add(PoolKey.parse(name.decode()))
            except ValueError:
                continue
        return out

    async def renew(self, key: PoolKey, tickets: Sequence[str], until: float) -> None:
        if not tickets:
            return
        try:
            await self.redis.hset(  # type: ignore[misc]
                leases_key(key), mapping={t: repr(until) for t in tickets}
            )
        except Exception as err:
            raise down(err) from None


def _read(raw: dict[bytes, bytes], leases: dict[bytes, bytes]) -> dict[str, Entry]:
    """The pool's entries, each with its lease (a lease renewed since the entry was written
    is the later one)."""
    out: dict[str, Entry] = {}
    for ticket, text in raw.items():
        try:
            entry = Entry.from_json(text)
        except (ValueError, TypeError, KeyError):
            continue
        until = leases.get(ticket)
        if until is not None:
            with contextlib.suppress(ValueError):
                entry = entry.but(until=max(entry.until, float(until)))
        out[ticket.decode()] = entry
    return out
