"""``perudo bench-load`` against 1, 2 and 3 ``perudo serve`` processes in the multi-process mode:
``python benchmarks/cluster_load.py [--processes 1 2 3] [--tables 100] [--seconds 20]
[--think 0.5] [--database-url URL] [--redis-url URL] [--ports P …] [--balancer-ports HTTP
HTTPS]``.

For each count it starts Debian's PostgreSQL (its own defaults: every commit flushed) and Redis
on loopback (tests/server/services.py), that many processes sharing them
(``PERUDO_DATABASE_URL`` on a fresh database, ``PERUDO_REDIS_URL``), and nginx with
``deploy/nginx/cluster.conf`` in front (tests/server/nginx.py, HTTPS with a certificate made
for the run). ``--database-url`` and ``--redis-url`` use running PostgreSQL and Redis instead
(the database as it is, Redis's database flushed before each count; their CPU is then not
measured); ``--ports`` gives the processes fixed ports (process *i* of every count on the
*i*-th), ``--balancer-ports`` nginx's. The clients reach the tables only through nginx. It
prints the load benchmark's figures for each: actions per second, the latency p50/p90/p99,
and CPU per action of the processes together, of PostgreSQL (with its backends), of Redis and
of nginx.

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
    pg: PostgresServer | str,
    redis: RedisServer | str,
    work: Path,
    ports: list[int] | None = None,
    balancer_ports: list[int] | None = None,
) -> LoadResult:
    """``pg``, ``redis``: the servers started here, or the URLs of running ones."""
    if isinstance(redis, RedisServer):
        redis.flush()
    else:
        import redis as redis_py

        redis_py.Redis.from_url(redis).flushdb()
    env = {
        **ONE_ADDRESS_MANY_PEOPLE,
        "PERUDO_DATABASE_URL": (
            pg.database_url(pg.create_database()) if isinstance(pg, PostgresServer) else pg
        ),
        "PERUDO_REDIS_URL": redis.url if isinstance(redis, RedisServer) else redis,
        "PERUDO_TRUSTED_PROXIES": "127.0.0.1",
    }
    servers = []
    balancer: NginxBalancer | None = None
    try:
        for i in range(processes):
            folder = work / f"n{processes}-p{i}"
            folder.mkdir()
            fixed = {} if ports is None else {"PERUDO_PORT": str(ports[i])}
            servers.append(start_server(folder, **env, **fixed))
        upstream = [int(url.rsplit(":", 1)[1]) for _, url in servers]
        (work / f"n{processes}-lb").mkdir()
        balancer = NginxBalancer(work / f"n{processes}-lb", upstream)
        if balancer_ports is not None:
            balancer.http_port, balancer.https_port = balancer_ports
        balancer.worker_connections = 4 * 6 * tables + 256
        balancer.start()
        assert balancer.proc is not None
        services = {"nginx": balancer.proc.pid}
        for name, service in (("postgres", pg), ("redis", redis)):
            proc = getattr(service, "proc", None)
            if proc is not None:
                services[name] = proc.pid
        return asyncio.run(
            run_load(
                balancer.url,
                tables,
                seconds,
                think,
                server_pids=[proc.pid for proc, _ in servers],
                services=services,
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
    parser.add_argument("--database-url", help="a running PostgreSQL (its database as it is)")
    parser.add_argument("--redis-url", help="a running Redis (its database is flushed)")
    parser.add_argument("--ports", type=int, nargs="+", help="the processes' fixed ports")
    parser.add_argument(
        "--balancer-ports", type=int, nargs=2, metavar=("HTTP", "HTTPS"), help="nginx's ports"
    )
    args = parser.parse_args()
    if args.ports is not None and len(args.ports) < max(args.processes):
        parser.error(f"--ports names {len(args.ports)} ports for {max(args.processes)} processes")
    pg = args.database_url or PostgresServer(durable=True).start()
    redis = args.redis_url or RedisServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="perudo-cluster-load-") as tmp:
            for n in args.processes:
                result = measure(
                    n, args.tables, args.seconds, args.think, pg, redis, Path(tmp),
                    args.ports, args.balancer_ports,
                )  # fmt: skip
                print(f"{n} process{'es' if n > 1 else ''} behind nginx, PostgreSQL + Redis:")
                print(result.report(), flush=True)
    finally:
        if isinstance(redis, RedisServer):
            redis.close()
        if isinstance(pg, PostgresServer):
            pg.close()


if __name__ == "__main__":
    main()
