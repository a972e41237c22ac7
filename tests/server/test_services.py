"""The test servers themselves (tests/server/services.py): PostgreSQL and Redis start on
loopback, keep their port across a restart, and PostgreSQL keeps its data through one."""

from __future__ import annotations

import asyncio

import asyncpg
from tests.server.services import PostgresServer, RedisServer


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


def test_postgres_gives_each_test_a_fresh_database_that_survives_a_restart(
    pg_server: PostgresServer, postgres_url: str
) -> None:
    async def write() -> None:
        conn = await asyncpg.connect(_plain(postgres_url))
        try:
            assert (
                await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname='public'") == []
            )
            await conn.execute("CREATE TABLE t (x int); INSERT INTO t VALUES (7)")
        finally:
            await conn.close()

    async def read() -> int:
        conn = await asyncpg.connect(_plain(postgres_url))
        try:
            return int(await conn.fetchval("SELECT x FROM t"))
        finally:
            await conn.close()

    asyncio.run(write())
    port = pg_server.port
    pg_server.restart()
    assert pg_server.port == port and pg_server.running
    assert asyncio.run(read()) == 7


def test_redis_answers_and_comes_back_after_a_restart(
    redis_server: RedisServer, redis_url: str
) -> None:
    assert redis_url == redis_server.url and redis_url.startswith("redis://127.0.0.1:")
    assert redis_server.command("SET", "k", "v") == "+OK"
    redis_server.stop()
    assert redis_server.command("PING") == ""
    redis_server.start()
    assert redis_server.command("PING") == "+PONG"
    # No persistence: Redis holds nothing the app cannot rebuild.
    assert redis_server.command("EXISTS", "k") == ":0"
