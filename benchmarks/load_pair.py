"""Two versions of the server measured side by side: ``perudo bench-load`` run twice at the same
moment, each with its own server and clients, one on each source tree, so that both see the
same minute of the machine (whose speed moves by a third from minute to minute here: runs one
after the other compare the machine as much as the code). Prints each pair's server CPU per
action and the second's difference from the first (docs/scaling.md).

    .venv/bin/python benchmarks/load_pair.py SRC_A SRC_B [--pairs 3] [--tables 50] [--seconds 30]

``SRC_A`` and ``SRC_B`` are ``src`` folders (of this checkout, of a ``git worktree`` of
another commit…), put first on ``PYTHONPATH`` of their run; the same virtual environment runs
both.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

_SERVER = re.compile(r"CPU per action: server ([0-9.]+) ms, clients ([0-9.]+) ms")
_RATE = re.compile(r"\(([0-9.]+) per second\)")


def _start(src: Path, tables: int, seconds: float) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "perudo",
            "bench-load",
            "--tables",
            str(tables),
            "--seconds",
            str(seconds),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _figures(output: str) -> tuple[float, float, float]:
    """Server and clients' CPU per action (ms) and actions per second of one run."""
    cpu = _SERVER.search(output)
    rate = _RATE.search(output)
    if cpu is None or rate is None:
        raise SystemExit(f"bench-load gave no figures:\n{output}")
    return float(cpu.group(1)), float(cpu.group(2)), float(rate.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="the first src folder")
    parser.add_argument("b", type=Path, help="the second src folder")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50, help="tables of each run")
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    for src in (args.a, args.b):
        if not (src / "perudo" / "__init__.py").is_file():
            raise SystemExit(f"{src}: not a src folder holding the perudo package")
    diffs = []
    for i in range(args.pairs):
        runs = [_start(src, args.tables, args.seconds) for src in (args.a, args.b)]
        (a_cpu, a_clients, a_rate), (b_cpu, b_clients, b_rate) = (
            _figures(run.communicate()[0]) for run in runs
        )
        diffs.append(b_cpu / a_cpu - 1)
        print(
            f"pair {i + 1}: A {a_cpu:.2f} ms (clients {a_clients:.2f}, {a_rate:.0f} actions/s), "
            f"B {b_cpu:.2f} ms (clients {b_clients:.2f}, {b_rate:.0f} actions/s): "
            f"B {diffs[-1]:+.1%}",
            flush=True,
        )
    print(f"B against A, server CPU per action: median {statistics.median(diffs):+.1%}")


if __name__ == "__main__":
    main()
