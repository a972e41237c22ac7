"""The per-client limits of :mod:`perudo.server.guard`, counted in Redis over every process.

With several processes behind a load balancer, one client's sockets land on different
processes; its budgets must be one budget. Each bucket (messages a second over all its sockets,
chat lines a second, tables created a minute) is a token bucket kept in Redis and taken in one
atomic script on Redis's clock (:data:`BUCKET_LUA`); the sockets one client holds open are
counted per process in a hash whose entries of dead processes are dropped
(:data:`CONNECTIONS_LUA`). When Redis cannot be reached, each process falls back on its own
buckets (the limits then hold per process) rather than refusing everyone.

The tables a client has waiting for players (:class:`SharedWaitingTables`) are the hash
``perudo:waiting:<client>``, table id → the process driving it, counted and added in one
script (:data:`HOLD_LUA`): entries of a process that is no longer alive do not count (and are
dropped), so a place is never lost with a process that dies. The process that takes a waiting
table over counts it again under its own name (the table's client is stored with it), and every
process puts its waiting tables back (:data:`PLACES_LUA`) every third of a lease, which rebuilds
the counts after Redis restarts. While Redis cannot be reached, new tables are refused
(``unavailable``): a place that cannot be counted is not given.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from redis import asyncio as aioredis

from ..connection import TokenBucket
from ..guard import WaitingTables
from .bus import BusDown, alive_key

__all__ = ["SharedBucket", "SharedLimits", "SharedWaitingTables"]

log = logging.getLogger("perudo.server")

BUCKET_LUA = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(v[1]) or burst
local ts = tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return ok
"""

LIVE_LUA = """
local function alive(node)
  return node == ARGV[1] or redis.call('EXISTS', ARGV[3] .. node) == 1
end
local function live_sum(key, node_at, weight)
  local entries = redis.call('HGETALL', key)
  local total = 0
  for i = 1, #entries, 2 do
    local field, value = entries[i], entries[i + 1]
    if alive(node_at(field, value)) then
      total = total + weight(value)
    else
      redis.call('HDEL', key, field)
    end
  end
  return total
end
"""
"""What counts in a hash of per-process entries: ``live_sum(key, node_at, weight)`` adds up
``weight(value)`` over the entries whose process (``node_at(field, value)``) is alive, this
one (``ARGV[1]``) or one whose liveness key (``ARGV[3]`` and its id: :func:`.bus.alive_key`)
has not expired, and drops the others."""

CONNECTIONS_LUA = (
    LIVE_LUA
    + """
local total = live_sum(KEYS[1], function(field, value) return field end, tonumber)
if total >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], 86400)
return 1
"""
)
"""A client's open sockets (``KEYS[1]``: process → count): one more counted under this
process (``ARGV[1]``) unless the live processes hold ``ARGV[2]`` already."""

HOLD_LUA = (
    LIVE_LUA
    + """
local count = live_sum(
  KEYS[1], function(field, value) return value end, function(value) return 1 end
)
local most = tonumber(ARGV[2])
if most >= 0 and count >= most then
  return count
end
redis.call('HSET', KEYS[1], ARGV[4], ARGV[1])
redis.call('EXPIRE', KEYS[1], 86400)
return count
"""
)
"""A client's waiting tables (``KEYS[1]``: table id → process): the number held by live
processes; table ``ARGV[4]`` added under this process (``ARGV[1]``) when it is below
``ARGV[2]`` (negative: no limit)."""

PLACES_LUA = """
local puts = tonumber(ARGV[2])
for i = 1, #KEYS do
  if i <= puts then
    redis.call('HSET', KEYS[i], ARGV[2 + i], ARGV[1])
    redis.call('EXPIRE', KEYS[i], 86400)
  elseif redis.call('HGET', KEYS[i], ARGV[2 + i]) == ARGV[1] then
    redis.call('HDEL', KEYS[i], ARGV[2 + i])
  end
end
return #KEYS
"""
"""Places of this process (``ARGV[1]``): the first ``ARGV[2]`` (client key, table id) pairs
put (again) under its name, the others released where it still holds them (a table taken
over by another process since is that process's place)."""


CLOSE_LUA = """
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
redis.call('EXPIRE', KEYS[1], 86400)
return left
"""


class SharedLimits:
    """The scripts, on this process's Redis client (``node``: its id)."""

    def __init__(self, redis: aioredis.Redis, node: str) -> None:
        self.redis = redis
        self.node = node
        self.bucket = redis.register_script(BUCKET_LUA)
        self.connections = redis.register_script(CONNECTIONS_LUA)
        self.closing = redis.register_script(CLOSE_LUA)
        self.holding = redis.register_script(HOLD_LUA)
        self.placing = redis.register_script(PLACES_LUA)
        self._warned = 0.0

    def down(self, err: Exception) -> None:
        now = time.monotonic()
        if now - self._warned > 10:
            self._warned = now
            log.warning(
                "shared limits unavailable (this process counts alone; new tables are "
                "refused): %s",
                err,
            )

    async def open_connection(self, client: str, limit: int) -> bool | None:
        """Count a socket of ``client``; ``False`` over ``limit``; ``None``: Redis is away."""
        try:
            ok = await self.connections(
                keys=[f"perudo:conns:{client}"], args=[self.node, limit, alive_key("")]
            )
        except Exception as err:  # any failure of redis-py (bus.down)
            self.down(err)
            return None
        return bool(ok)

    async def close_connection(self, client: str) -> None:
        try:
            await self.closing(keys=[f"perudo:conns:{client}"], args=[self.node])
        except Exception as err:  # any failure of redis-py (bus.down)
            self.down(err)

    async def hold_table(self, client: str, table_id: str, most: int | None) -> int:
        """:meth:`SharedWaitingTables.hold` in Redis.

        :raises Exception: Redis cannot be reached (whatever redis-py raises then)."""
        had = await self.holding(
            keys=[waiting_key(client)],
            args=[self.node, -1 if most is None else most, alive_key(""), table_id],
        )
        return int(had)

    async def place_tables(self, put: Mapping[str, str], release: Mapping[str, str]) -> None:
        """Put the places ``put`` (table id → client) under this process's name, release
        those of ``release`` it still holds.

        :raises Exception: Redis cannot be reached (whatever redis-py raises then)."""
        pairs = [*put.items(), *release.items()]
        if pairs:
            await self.placing(
                keys=[waiting_key(client) for _, client in pairs],
                args=[self.node, len(put), *(table_id for table_id, _ in pairs)],
            )


def waiting_key(client: str) -> str:
    return f"perudo:waiting:{client}"


class SharedWaitingTables(WaitingTables):
    """The clients' waiting tables counted in Redis over every process (module docstring);
    the base class's memory keeps the places this process holds there, and those it
    released while Redis was away (:attr:`unsent`), put right by the next :meth:`keep`."""

    def __init__(self, shared: SharedLimits) -> None:
        super().__init__()
        self.shared = shared
        self.unsent: dict[str, str] = {}
        """Places released here that Redis has not been told of yet (table id → client)."""

    async def hold(self, client: str, table_id: str, most: int | None) -> int:
        try:
            had = await self.shared.hold_table(client, table_id, most)
        except Exception as err:  # any failure of redis-py (bus.down)
            self.shared.down(err)
            if most is not None:
                raise BusDown(str(err)) from None
            had = 0  # counted again by the next keep()
        if most is None or had < most:
            await super().hold(client, table_id, None)
            self.unsent.pop(table_id, None)
        return had

    async def release(self, client: str, table_id: str) -> None:
        await super().release(client, table_id)
        try:
            await self.shared.place_tables({}, {table_id: client})
        except Exception as err:  # any failure of redis-py (bus.down)
            self.shared.down(err)
            self.unsent[table_id] = client

    async def keep(self, tables: Mapping[str, str]) -> None:
        for client, ids in self.held.items():
            for table_id in ids:
                if tables.get(table_id) != client:
                    self.unsent[table_id] = client
        for table_id in tables:
            self.unsent.pop(table_id, None)
        await super().keep(tables)
        try:
            await self.shared.place_tables(tables, self.unsent)
        except Exception as err:  # any failure of redis-py (bus.down)
            self.shared.down(err)
            return
        self.unsent.clear()


class SharedBucket(TokenBucket):
    """A client's token bucket (``kind``: what it limits) kept in Redis; this process's own
    bucket (its base class) stands in while Redis is away."""

    def __init__(self, shared: SharedLimits, key: str, rate: float, burst: int) -> None:
        super().__init__(rate, burst)
        self.shared = shared
        self.key = key

    async def acquire(self) -> bool:
        try:
            ok = await self.shared.bucket(keys=[self.key], args=[self.rate, self.burst])
        except Exception as err:  # any failure of redis-py (bus.down)
            self.shared.down(err)
            return self.take()
        return bool(ok)
