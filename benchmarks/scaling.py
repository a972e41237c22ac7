"""The two shared services' ceilings, measured here for docs/scaling.md:
``python benchmarks/scaling.py [--seconds 5]``.

* **PostgreSQL's write rate through the store**: Debian's PostgreSQL on loopback with its own
  defaults (every commit flushed to disk), and :class:`perudo.server.store.Store` appending one
  move at a time per table, as a table does (each table awaits its write before the next), for
  1, 50 and 500 tables at once. The store's writer commits whatever is queued in one
  transaction, so the figure is moves per second and commits per second.
* **Redis fan-out**: one publisher sending a table event's size (600 bytes) to a channel as
  fast as it can (pipelined), with 1 and 3 subscribers (the processes holding a socket of the
  table); delivered messages per second.

Both run on this machine's loopback and share its cores with the clients: a dedicated database
or Redis machine does better. Figures and their use: docs/scaling.md.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.services import PostgresServer, RedisServer

from perudo.server.store import SeatRow, Store


async def store_writes(url: str, tables: int, seconds: float) -> tuple[float, float]:
    """Moves and commits per second with ``tables`` tables writing one move at a time."""
    store = Store(url)
    await store.open()
    try:
        seats = [SeatRow(0, "human", "A", "h" * 64, None), SeatRow(1, "bot", "B", None, "easy")]
        games = []
        for i in range(tables):
            tid = f"w{tables}-{i}"
            await store.create_table(tid, "t", {"preset": "perudo"}, False, seats, 1)
            games.append(await store.start_game(tid, {}, ["A", "B"], [[6, 2]], seats, 2))
        moves = 0
        deadline = 0.0

        async def table(game_id: int) -> None:
            nonlocal moves
            seq = 0
            while time.perf_counter() < deadline:
                await store.append_actions(game_id, seq, [(0, "1x2")], seq + 3)
                seq += 1
                moves += 1

        commits0 = store.commits
        start = time.perf_counter()
        deadline = start + seconds
        await asyncio.gather(*(table(gid) for gid, _ in games))
        spent = time.perf_counter() - start
        return moves / spent, (store.commits - commits0) / spent
    finally:
        await store.close()


async def fan_out(url: str, subscribers: int, seconds: float) -> tuple[float, float]:
    """Published and delivered messages per second (each delivered to every subscriber)."""
    import redis.asyncio as aioredis

    payload = "x" * 600
    pub = aioredis.from_url(url)
    subs = [aioredis.from_url(url).pubsub() for _ in range(subscribers)]
    for s in subs:
        await s.subscribe("table:bench")
    received = 0
    stop = asyncio.Event()

    async def listen(ps: object) -> None:
        nonlocal received
        async for message in ps.listen():  # type: ignore[attr-defined]
            if message["type"] == "message":
                received += 1
            if stop.is_set():
                return

    listeners = [asyncio.create_task(listen(s)) for s in subs]
    sent = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        async with pub.pipeline(transaction=False) as pipe:
            for _ in range(100):
                pipe.publish("table:bench", payload)
            await pipe.execute()
        sent += 100
        await asyncio.sleep(0)
    spent = time.perf_counter() - start
    # What is still in flight arrives; then the count stops.
    await asyncio.sleep(0.5)
    delivered = received
    stop.set()
    await pub.publish("table:bench", "end")
    await asyncio.wait(listeners, timeout=2)
    for s in subs:
        await s.aclose()
    await pub.aclose()
    return sent / spent, delivered / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    pg = PostgresServer(durable=True).start()
    try:
        print("PostgreSQL (durable commits) through the store's writer:")
        for tables in (1, 50, 500):
            moves, commits = asyncio.run(
                store_writes(pg.database_url(pg.create_database()), tables, args.seconds)
            )
            print(
                f"  {tables:4d} tables writing: {moves:8.0f} moves/s in {commits:6.0f} commits/s "
                f"({moves / commits if commits else 0:.1f} moves per commit)",
                flush=True,
            )
    finally:
        pg.close()
    redis = RedisServer().start()
    try:
        print("Redis pub/sub, 600-byte messages, one publisher:")
        for subscribers in (1, 3):
            sent, delivered = asyncio.run(fan_out(redis.url, subscribers, args.seconds))
            print(
                f"  {subscribers} subscriber(s): published {sent:8.0f}/s, "
                f"delivered {delivered:8.0f}/s in all",
                flush=True,
            )
    finally:
        redis.close()


if __name__ == "__main__":
    main()
