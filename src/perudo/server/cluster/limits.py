"""The per-client limits of :mod:`perudo.server.guard`, counted in Redis over every process.

With several processes behind a load balancer, one client's sockets land on different
processes; its budgets must be one budget. Each bucket (messages a second over all its sockets,
chat lines a second, tables created a minute) is a token bucket kept in Redis and taken in one
atomic script on Redis's clock (:data:`BUCKET_LUA`); the sockets one client holds open are
counted per process in a hash whose entries of dead processes are dropped
(:data:`CONNECTIONS_LUA`). When Redis cannot be reached, each process falls back on its own
buckets (the limits then hold per process) rather than refusing everyone.
"""

from __future__ import annotations

import logging
import time

from redis import asyncio as aioredis
from redis.exceptions import RedisError

from ..connection import TokenBucket
from .bus import alive_key

__all__ = ["SharedBucket", "SharedLimits"]

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

CONNECTIONS_LUA = """
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #counts, 2 do
  local node = counts[i]
  if node == ARGV[1] or redis.call('EXISTS', ARGV[3] .. node) == 1 then
    total = total + tonumber(counts[i + 1])
  else
    redis.call('HDEL', KEYS[1], node)
  end
end
if total >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], 86400)
return 1
"""


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
        self._warned = 0.0

    def down(self, err: Exception) -> None:
        now = time.monotonic()
        if now - self._warned > 10:
            self._warned = now
            log.warning("shared limits unavailable (this process counts alone): %s", err)

    async def open_connection(self, client: str, limit: int) -> bool | None:
        """Count a socket of ``client``; ``False`` over ``limit``; ``None``: Redis is away."""
        try:
            ok = await self.connections(
                keys=[f"perudo:conns:{client}"], args=[self.node, limit, alive_key("")]
            )
        except (RedisError, OSError) as err:
            self.down(err)
            return None
        return bool(ok)

    async def close_connection(self, client: str) -> None:
        try:
            await self.closing(keys=[f"perudo:conns:{client}"], args=[self.node])
        except (RedisError, OSError) as err:
            self.down(err)


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
        except (RedisError, OSError) as err:
            self.shared.down(err)
            return self.take()
        return bool(ok)
