"""The store's cost per move on SQLite: ``python benchmarks/store_writes.py [--tables 20]
[--moves 200]``.

``tables`` tables each append ``moves`` moves one at a time, awaiting each commit before the
next (as a table does: the move is durable before it is broadcast), all at once through one
store (its writer commits whatever is queued together). Prints the moves per second, the
commits, and this process's CPU per move (its event loop and SQLite's thread together: both
are the server's), fastest of three runs.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from pathlib import Path

from perudo.server.store import SeatRow, Store


async def run(path: Path, tables: int, moves: int) -> tuple[float, float, int]:
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.open()
    try:
        seats = [SeatRow(0, "human", "Ann", "h" * 64, None), SeatRow(1, "bot", "B", None, None)]
        games = []
        for _ in range(tables):
            tid = uuid.uuid4().hex[:12]
            await store.create_table(tid, "t", {"preset": "perudo"}, False, seats, 1)
            gid, _ = await store.start_game(tid, {}, ["Ann", "B"], [[6, 2]], seats, 2)
            games.append(gid)

        async def play(gid: int) -> None:
            for seq in range(moves):
                await store.append_actions(gid, seq, [(seq % 2, f"{seq + 1}x3")], seq + 3)

        commits = store.commits
        wall, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(g) for g in games))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        return wall, cpu, store.commits - commits
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    best: tuple[float, float, int] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(3):
            result = asyncio.run(run(Path(tmp) / f"s{i}.db", args.tables, args.moves))
            if best is None or result[1] < best[1]:
                best = result
    assert best is not None
    wall, cpu, commits = best
    n = args.tables * args.moves
    print(
        f"store on SQLite: {args.tables} tables × {args.moves} moves, each awaited: "
        f"{n / wall:.0f} moves/s in {commits} commits ({n / commits:.1f} moves per commit), "
        f"CPU {cpu / n * 1e6:.0f} µs per move (fastest of 3)"
    )


if __name__ == "__main__":
    main()
