"""Arena throughput: games per second on this machine's processes and on Ray.

    python benchmarks/arena.py [--games 200] [--jobs 2] [--ray-address HEAD:6379]

The arena is ``perudo arena``'s default (``perudo_calza``, six players, ``strong,prob``).
Figures printed, each over the same seeded games:

1. ``process``: the multiprocessing backend with ``--jobs`` processes (pool start included:
   that is what ``perudo arena`` pays).
2. ``ray``: the Ray backend, on a Ray started here with ``--jobs`` CPUs (or on the cluster at
   ``--ray-address``); the time to start or reach Ray is printed apart, then the games on
   the running Ray.

and whether the two results are identical (they must be: ``run_arena``'s JSON, every game's
seats and places). Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import logging
import os
import time

from perudo.arena import run_arena
from perudo.core import find_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ray-address", default=None)
    parser.add_argument("--rules", default="perudo_calza")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--bots", default="strong,prob")
    args = parser.parse_args()
    rules = find_ruleset(args.rules)
    bots = args.bots.split(",")
    print(
        f"arena: {args.rules}, {args.players} players, {args.bots}, {args.games} games, "
        f"jobs {args.jobs}, {os.cpu_count()} cores"
    )

    start = time.perf_counter()
    local = run_arena(rules, args.players, bots, args.games, seed=1, jobs=args.jobs)
    took = time.perf_counter() - start
    print(f"process  {args.games / took:8.1f} games/s  ({took:.2f} s, {args.jobs} processes)")

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
        where = f"Ray started here, {args.jobs} CPUs"
    print(f"ray      start {time.perf_counter() - start:.2f} s ({where})")
    try:
        jobs = None if args.ray_address else args.jobs
        start = time.perf_counter()
        remote = run_arena(rules, args.players, bots, args.games, seed=1, jobs=jobs, backend="ray")
        took = time.perf_counter() - start
        cpus = int(ray.cluster_resources().get("CPU", 0))
        print(f"ray      {args.games / took:8.1f} games/s  ({took:.2f} s, {cpus} CPUs)")
    finally:
        ray.shutdown()
    same = remote.to_json() == local.to_json()
    print(f"identical results: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
