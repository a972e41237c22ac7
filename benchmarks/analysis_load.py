"""The players' latency in ``perudo bench-load``, alone and with game analyses running.

Starts one server (``python -m perudo serve``, the load benchmark's settings), plays a few
finished heads-up games of Perudo over its WebSocket API, then runs the load benchmark twice
against it: once alone, once while a thread asks for every one of those games' analyses (the
public one and each seat's own, ``GET /api/games/{id}/analysis``), which the server computes in
its worker processes. Prints the actions, p50 and p99 of each run and how many analyses
finished during the second. docs/analysis.md quotes its figures.

    PYTHONPATH=src .venv/bin/python benchmarks/analysis_load.py --games 4 --tables 40 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.harness import ServerProcess, heads_up, play_until_over

from perudo.server.loadbench import ONE_ADDRESS_MANY_PEOPLE, LoadResult, run_load


async def _games(srv: ServerProcess, n: int) -> list[tuple[str, dict[int, str]]]:
    out = []
    for k in range(n):
        a, b = await heads_up(srv, dice=5, turn_seconds=0)
        await play_until_over([a, b], random.Random(k), timeout=120)
        for c in (a, b):
            await c.until(lambda c=c: c.table is not None and c.table["status"] == "finished")  # type: ignore[misc]
        assert a.table is not None
        out.append((a.table["game_id"], {c.seat or 0: c.token or "" for c in (a, b)}))
        for c in (a, b):
            await c.close()
    return out


def _figures(r: LoadResult) -> str:
    lat = sorted(r.latencies)
    p50 = lat[len(lat) // 2] * 1000
    p99 = lat[int(len(lat) * 0.99)] * 1000
    return f"actions {r.actions}, p50 {p50:.1f} ms, p99 {p99:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=15.0)
    args = ap.parse_args()
    srv = ServerProcess(Path(tempfile.mkdtemp()), **ONE_ADDRESS_MANY_PEOPLE).start()
    try:
        finished = asyncio.run(_games(srv, args.games))
        alone = asyncio.run(run_load(srv.url, args.tables, args.seconds, 0.5))
        print("alone:         ", _figures(alone), flush=True)
        stop = threading.Event()
        done = [0]

        def ask() -> None:
            for game_id, tokens in finished:
                for seat in (None, 0, 1):
                    path = f"/api/games/{game_id}/analysis" + (
                        "" if seat is None else f"?seat={seat}"
                    )
                    headers: dict[str, Any] = (
                        {} if seat is None else {"authorization": f"Bearer {tokens[seat]}"}
                    )
                    while not stop.is_set():
                        req = urllib.request.Request(srv.url + path, headers=headers)
                        with urllib.request.urlopen(req, timeout=60) as resp:
                            if resp.status == 200:
                                done[0] += 1
                                break

        thread = threading.Thread(target=ask, daemon=True)
        thread.start()
        busy = asyncio.run(run_load(srv.url, args.tables, args.seconds, 0.5))
        stop.set()
        print("with analyses: ", _figures(busy), f"({done[0]} analyses finished meanwhile)")
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
