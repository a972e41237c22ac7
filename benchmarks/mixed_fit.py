"""Re-fit ``expert``'s mixed play from three seats up (:mod:`perudo.bots.mixing`) by fictitious
play in self-play (:func:`perudo.train.mixing.fit_mixed_play`), and write the shipped file.

Run (nicely, on a shared machine; an iteration of 30 four-seat games with its forks takes a few
minutes of one core)::

    nice -n 19 .venv/bin/python benchmarks/mixed_fit.py --iterations 6 --games 30 --seed 1 --write

Prints each iteration's measurements (the opening bluff's mean gain over the chosen opening
with its standard error, the call forks' indifference point and mixing temperature, the
population's revealed openings' maximum-likelihood bluff rate) and the average mixture after
it. ``--write`` stores
the final average in ``src/perudo/bots/weights/mixed-play.json`` with its SHA-256 manifest
(``--out`` elsewhere).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from perudo.bots.mixing import MIXED_PATH, save_mixed_play
from perudo.core import find_ruleset
from perudo.train.mixing import FitStep, fit_mixed_play


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="perudo")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--games", type=int, default=30, help="self-play games an iteration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", type=float, default=0.25, help="call forks: |Δ| under this")
    parser.add_argument("--write", action="store_true", help="store the fit (default: print)")
    parser.add_argument("--out", type=Path, default=MIXED_PATH)
    args = parser.parse_args(argv)
    rules = find_ruleset(args.rules)
    start = time.monotonic()

    def show(step: FitStep) -> None:
        p = step.play
        print(
            f"iteration {step.iteration}: {step.openings} opening forks, bluff gain "
            f"{step.bluff_gain:+.3f} ± {step.bluff_gain_se:.3f}; {step.calls} call forks, "
            f"c {step.call_shift:+.3f}, τ {step.call_temperature:.4f}; "
            f"{step.revealed} revealed openings, rate "
            f"{step.reading_rate:.3f} → average bluff {p.opening_bluff:.3f}, τ "
            f"{p.call_temperature:.4f}, c {p.call_shift:+.3f}, prior {p.reading_prior:.3f} "
            f"[{time.monotonic() - start:.0f} s]",
            flush=True,
        )

    play, _ = fit_mixed_play(
        rules,
        players=args.players,
        iterations=args.iterations,
        games=args.games,
        seed=args.seed,
        window=args.window,
        progress=show,
    )
    print(play)
    if args.write:
        command = (
            f"benchmarks/mixed_fit.py --rules {args.rules} --players {args.players} "
            f"--iterations {args.iterations} --games {args.games} --seed {args.seed} "
            f"--window {args.window} --write"
        )
        digest = save_mixed_play(play, args.out, {"command": command})
        print(f"wrote {args.out} (sha256 {digest[:16]}…)")


if __name__ == "__main__":
    main()
