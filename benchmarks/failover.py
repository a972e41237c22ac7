"""Failover benchmark for the multi-process mode: ``python benchmarks/failover.py [--kills 5]
[--tables 6] [--processes 3] [--lease 3] [--drop-grace 8] [--database-url URL]
[--redis-url URL] [--ports P …]``.

Starts Debian's PostgreSQL and Redis on loopback (or uses running ones: ``--database-url``, a
PostgreSQL database of its own for the run, and ``--redis-url``, flushed first) and
``--processes`` ``perudo serve`` processes in multi-process mode (tests/server/services.py,
tests/server/cluster.py; on free loopback ports, or on ``--ports``), with ``--tables``
tables of bots playing (six seats, ten dice each, bots acting every 0.3 s). Each table's host
closes their page once the game starts: after the drop grace (``--drop-grace``, the server's
own 8 s by default) a stand-in plays their seat, so every table has an away person in it.
Then, ``--kills`` times: ``kill -9`` the process that owns the most tables, and measure, for
each of its tables, the time until another process holds its lease (**takeover**) and until
the next move of that table is in the log (**resumed**: bots, stand-ins and timers carry on);
the killed process is started again before the next kill. Prints the conditions, every kill
and the min / median / max.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
from tests.server.cluster import STARTUP, Endpoint, Player, Processes, plain_dsn  # noqa: E402
from tests.server.services import PostgresServer, RedisServer  # noqa: E402


async def _last_moves(dsn: str, tables: list[str]) -> dict[str, int]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT g.table_id, max(a.version) AS v FROM games g "
            "JOIN game_actions a ON a.game_id = g.id WHERE g.table_id = ANY($1) "
            "GROUP BY g.table_id",
            tables,
        )
    finally:
        await conn.close()
    return {r["table_id"]: int(r["v"]) for r in rows}


async def _owners(dsn: str, tables: list[str]) -> dict[str, str | None]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT table_id, owner, expires_at >= extract(epoch from clock_timestamp()) AS live "
            "FROM table_leases WHERE table_id = ANY($1)",
            tables,
        )
    finally:
        await conn.close()
    return {r["table_id"]: (r["owner"] if r["live"] else None) for r in rows}


async def run(
    kills: int,
    tables: int,
    processes: int,
    lease: float,
    drop_grace: float,
    database_url: str | None,
    redis_url: str | None,
    ports: list[int] | None,
) -> None:
    if ports is not None and len(ports) != processes:
        raise SystemExit(f"--ports names {len(ports)} ports for {processes} processes")
    pg: PostgresServer | None = None
    redis: RedisServer | None = None
    if database_url is None:
        pg = PostgresServer().start()
        database_url = pg.url
    if redis_url is None:
        redis = RedisServer().start()
        redis_url = redis.url
    else:
        import redis as redis_py

        redis_py.Redis.from_url(redis_url).flushdb()  # a running Redis: its db of this run
    workdir = Path(tempfile.mkdtemp(prefix="perudo-failover-"))
    procs = Processes(
        workdir,
        database_url,
        redis_url,
        processes,
        PERUDO_LEASE_SECONDS=str(lease),
        PERUDO_BOT_DELAY="0.3",
        PERUDO_DROP_GRACE=str(drop_grace),
        PERUDO_TURN_SECONDS="0",
        PERUDO_LOG_LEVEL="warning",
    )
    for srv, port in zip(procs.servers, ports or [], strict=False):
        srv.port = port
        srv.env["PERUDO_PORT"] = str(port)
    dsn = plain_dsn(database_url)
    takeovers: list[float] = []
    resumes: list[float] = []
    try:
        procs.start()
        ids: list[str] = []
        for i in range(tables):
            srv = procs.servers[i % processes]
            t = srv.create_table(seats=6, dice=10)
            host = await Player(Endpoint(srv.ws_url), t["table_id"], t["token"]).connect()
            await host.send({"type": "fill_bots", "level": "easy"})
            await host.send({"type": "start"})
            await host.until(lambda h=host: h.view is not None)  # type: ignore[misc]
            await host.close()  # a stand-in bot plays the host's seat after the drop grace
            ids.append(t["table_id"])
        await asyncio.sleep(2 * lease + drop_grace)  # every host away
        print(
            f"{processes} processes, {tables} tables of five bots and an away person each "
            f"(a stand-in plays for them), drop grace {drop_grace:g} s, lease {lease:g} s "
            f"(renewed every {lease / 3:.2f} s); kill -9 of the busiest owner, {kills} times"
        )
        for k in range(kills):
            owners = await _owners(dsn, ids)
            by_node: dict[str, list[str]] = {}
            for table_id, node in owners.items():
                if node is not None:
                    by_node.setdefault(node, []).append(table_id)
            node, moved = max(by_node.items(), key=lambda kv: len(kv[1]))
            victim = procs.index_of(node)
            assert victim is not None
            before = await _last_moves(dsn, moved)
            killed = time.monotonic()
            procs.servers[victim].kill()
            taken: dict[str, float] = {}
            resumed: dict[str, float] = {}
            while (len(taken) < len(moved) or len(resumed) < len(moved)) and (
                time.monotonic() - killed < 30
            ):
                now_owners = await _owners(dsn, moved)
                moves = await _last_moves(dsn, moved)
                now = time.monotonic() - killed
                for table_id in moved:
                    owner = now_owners.get(table_id)
                    if table_id not in taken and owner is not None and owner != node:
                        taken[table_id] = now
                    if table_id not in resumed and moves.get(table_id, 0) > before.get(table_id, 0):
                        resumed[table_id] = now
                await asyncio.sleep(0.05)
            takeover, resume = max(taken.values()), max(resumed.values())
            takeovers.append(takeover)
            resumes.append(resume)
            print(
                f"kill {k + 1}: {len(moved)} tables moved; all taken over after {takeover:.2f} s, "
                f"all playing again after {resume:.2f} s"
            )
            await asyncio.to_thread(procs.servers[victim].start, STARTUP)
        for name, values in (("taken over", takeovers), ("playing again", resumes)):
            print(
                f"{name}: min {min(values):.2f} s, median {statistics.median(values):.2f} s, "
                f"max {max(values):.2f} s"
            )
    finally:
        procs.stop()
        if redis is not None:
            redis.close()
        if pg is not None:
            pg.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--lease", type=float, default=3.0)
    parser.add_argument(
        "--drop-grace", type=float, default=8.0, help="PERUDO_DROP_GRACE (the server's 8 s)"
    )
    parser.add_argument("--database-url", help="a running PostgreSQL (its database for this run)")
    parser.add_argument("--redis-url", help="a running Redis (its database is flushed)")
    parser.add_argument("--ports", type=int, nargs="+", help="the processes' ports (fixed)")
    args = parser.parse_args()
    asyncio.run(
        run(
            args.kills,
            args.tables,
            args.processes,
            args.lease,
            args.drop_grace,
            args.database_url,
            args.redis_url,
            args.ports,
        )
    )
