"""``perudo bench-load`` against 1, 2 and 3 ``perudo serve`` processes in the multi-process mode:
``python benchmarks/cluster_load.py [--processes 1 2 3] [--tables 100] [--seconds 20]
[--think 0.5]``.

For each count it starts Debian's PostgreSQL (its own defaults: every commit flushed) and Redis
on loopback (tests/server/services.py), that many processes sharing them
(``PERUDO_DATABASE_URL`` on a fresh database, ``PERUDO_REDIS_URL``), and nginx with
``deploy/nginx/cluster.conf`` in front (tests/server/nginx.py, HTTPS with a certificate made
for the run). The clients reach the tables only through nginx. It prints the load
benchmark's figures for each: actions per second, the latency p50/p90/p99, and CPU per
action of the processes together, of PostgreSQL (with its backends), of Redis and of nginx.

Everything runs on this one machine: the figures show what the extra processes cost and where
the CPU goes, not what more machines would hold (docs/scaling.md projects that).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.harness import stop_process
from tests.server.nginx import NginxBalancer
from tests.server.services import PostgresServer, RedisServer

from perudo.server.loadbench import (
    ONE_ADDRESS_MANY_PEOPLE,
    LoadResult,
    run_load,
    start_server,
)


def measure(
    processes: int,
    tables: int,
    seconds: float,
    think: float,
    pg: PostgresServer,
    redis: RedisServer,
    work: Path,
) -> LoadResult:
    database = pg.create_database()
    redis.flush()
    env = {
        **ONE_ADDRESS_MANY_PEOPLE,
        "PERUDO_DATABASE_URL": pg.database_url(database),
        "PERUDO_REDIS_URL": redis.url,
        "PERUDO_TRUSTED_PROXIES": "127.0.0.1",
    }
    servers = []
    balancer: NginxBalancer | None = None
    try:
        for i in range(processes):
            folder = work / f"n{processes}-p{i}"
            folder.mkdir()
            servers.append(start_server(folder, **env))
        ports = [int(url.rsplit(":", 1)[1]) for _, url in servers]
        (work / f"n{processes}-lb").mkdir()
        balancer = NginxBalancer(work / f"n{processes}-lb", ports)
        balancer.worker_connections = 4 * 6 * tables + 256
        balancer.start()
        assert pg.proc is not None and redis.proc is not None and balancer.proc is not None
        return asyncio.run(
            run_load(
                balancer.url,
                tables,
                seconds,
                think,
                server_pids=[proc.pid for proc, _ in servers],
                services={
                    "postgres": pg.proc.pid,
                    "redis": redis.proc.pid,
                    "nginx": balancer.proc.pid,
                },
                tls=balancer.tls(),
            )
        )
    finally:
        if balancer is not None:
            balancer.stop()
        for proc, _ in servers:
            stop_process(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5)
    args = parser.parse_args()
    pg = PostgresServer(durable=True).start()
    redis = RedisServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="perudo-cluster-load-") as tmp:
            for n in args.processes:
                result = measure(n, args.tables, args.seconds, args.think, pg, redis, Path(tmp))
                print(f"{n} process{'es' if n > 1 else ''} behind nginx, PostgreSQL + Redis:")
                print(result.report(), flush=True)
    finally:
        redis.close()
        pg.close()


if __name__ == "__main__":
    main()
