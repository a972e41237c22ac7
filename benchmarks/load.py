"""Load benchmark for the web app: ``python benchmarks/load.py [--tables 100] [--seconds 20]
[--think 0.5] [--url http://127.0.0.1:8000]`` (same as ``perudo bench-load``).

Many 6-seat tables of bots, each seat a real WebSocket client on loopback acting from its
view's ``legal`` list; prints actions per second and the p50/p90/p99 latency from an action
sent to its event received. Starts its own server on a free port unless ``--url`` is given.
"""

import argparse

from perudo.server.loadbench import main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--url", default=None)
    args = parser.parse_args()
    main(tables=args.tables, seconds=args.seconds, think=args.think, url=args.url)
