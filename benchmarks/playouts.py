"""Random-playout throughput: ``python benchmarks/playouts.py [seconds]`` (same as
``perudo bench``)."""

import sys

from perudo.bench.playouts import run

if __name__ == "__main__":
    run(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
