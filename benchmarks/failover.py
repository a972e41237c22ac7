"""Failover benchmark for the multi-process mode: ``python benchmarks/failover.py [--kills 5]
[--tables 6] [--processes 3] [--lease 3]``.

Starts Debian's PostgreSQL and Redis on loopback and ``--processes`` ``perudo serve``
processes in multi-process mode (tests/server/services.py, tests/server/cluster.py), with
``--tables`` tables of bots playing (six seats, ten dice each, bots acting every 0.3 s). Then,
``--kills`` times: ``kill -9`` the process that owns the most tables, and measure, for each of
its tables, the time until another process holds its lease (**takeover**) and until the next
move of that table is in the log (**resumed**: bots and timers carry on); the killed process
is started again before the next kill. Prints every kill and the min / median / max.
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


async def run(kills: int, tables: int, processes: int, lease: float) -> None:
    pg = PostgresServer().start()
    redis = RedisServer().start()
    workdir = Path(tempfile.mkdtemp(prefix="perudo-failover-"))
    procs = Processes(
        workdir,
        pg.url,
        redis.url,
        processes,
        PERUDO_LEASE_SECONDS=str(lease),
        PERUDO_BOT_DELAY="0.3",
        PERUDO_DROP_GRACE="0.2",
        PERUDO_TURN_SECONDS="0",
        PERUDO_LOG_LEVEL="warning",
    )
    dsn = plain_dsn(pg.url)
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
            await host.close()  # a stand-in bot plays the host's seat from now on
            ids.append(t["table_id"])
        await asyncio.sleep(2 * lease)
        print(
            f"{processes} processes, {tables} tables of bots, lease {lease:g} s "
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
        redis.close()
        pg.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--lease", type=float, default=3.0)
    args = parser.parse_args()
    asyncio.run(run(args.kills, args.tables, args.processes, args.lease))
