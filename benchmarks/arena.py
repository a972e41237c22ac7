"""Arena throughput: games per second on this machine's processes and on Ray.

    python benchmarks/arena.py [--games 40] [--rounds 2] [--jobs 2] [--ray-address HEAD:6379]

The arena is ``perudo arena``'s default (``perudo_calza``, six players, ``strong,prob``).
Each round plays the same seeded ``--games`` games twice:

1. ``process``: the multiprocessing backend with ``--jobs`` processes (the pool's start
   included: that is what ``perudo arena`` pays);
2. ``ray``: the Ray backend, on a Ray started here with ``--jobs`` CPUs (or on the cluster at
   ``--ray-address``), started once before the rounds (its start time is printed apart).

The backends alternate round by round, so that load from other work on the machine hits both
alike; the best round of each is printed, and whether every result was identical (it must
be: ``run_arena``'s JSON, every game's seats and places). Speed is measured here, never
asserted in tests.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import Any

from perudo.arena import run_arena
from perudo.core import find_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ray-address", default=None)
    parser.add_argument("--rules", default="perudo_calza")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--bots", default="strong,prob")
    args = parser.parse_args()
    rules = find_ruleset(args.rules)
    bots = args.bots.split(",")
    print(
        f"arena: {args.rules}, {args.players} players, {args.bots}, {args.games} games a "
        f"round, {args.rounds} rounds, jobs {args.jobs}, {os.cpu_count()} cores"
    )

    import ray

    start = time.perf_counter()
    if args.ray_address:
        ray.init(address=args.ray_address, logging_level=logging.WARNING)
        where = f"the cluster at {args.ray_address}"
    else:
        ray.init(
            num_cpus=args.jobs,
            include_dashboard=False,
            object_store_memory=128 * 1024 * 1024,
            logging_level=logging.WARNING,
        )
        where = f"started here with {args.jobs} CPUs"
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"ray start: {time.perf_counter() - start:.2f} s ({where}, {cpus} CPUs)")
    best: dict[str, float] = {}
    results: list[dict[str, Any]] = []
    try:
        for r in range(1, args.rounds + 1):
            for backend in ("process", "ray"):
                jobs = None if backend == "ray" and args.ray_address else args.jobs
                start = time.perf_counter()
                result = run_arena(
                    rules, args.players, bots, args.games, seed=1, jobs=jobs, backend=backend
                )
                took = time.perf_counter() - start
                rate = args.games / took
                best[backend] = max(best.get(backend, 0.0), rate)
                results.append(result.to_json())
                print(f"round {r}  {backend:8} {rate:7.2f} games/s  ({took:.1f} s)")
    finally:
        ray.shutdown()
    for backend, rate in best.items():
        print(f"best     {backend:8} {rate:7.2f} games/s")
    print(f"ray / process: {best['ray'] / best['process']:.2f}")
    same = all(r == results[0] for r in results)
    print(f"identical results: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
