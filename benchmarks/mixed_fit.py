"""Re-fit ``expert``'s mixed play from three seats up (:mod:`perudo.bots.mixing`) by fictitious
play in self-play (:func:`perudo.train.mixing.fit_mixed_play`), and write the shipped file.

Run (nicely, on a shared machine; an iteration of 30 four-seat games with its forks takes a few
minutes of one core)::

    nice -n 19 .venv/bin/python benchmarks/mixed_fit.py --iterations 4 --games 12 --seed 1 --write

Prints each iteration's measurements per table (the population's own, and one of ``--against``
levels: the opening bluff's mean gain over the chosen opening with its standard error, the call
forks' mixing temperature), the call forks' indifference point, the
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
    parser.add_argument(
        "--against", default="hard", help="levels whose tables a response must hold at too"
    )
    parser.add_argument("--write", action="store_true", help="store the fit (default: print)")
    parser.add_argument("--out", type=Path, default=MIXED_PATH)
    args = parser.parse_args(argv)
    rules = find_ruleset(args.rules)
    start = time.monotonic()

    def show(step: FitStep) -> None:
        p = step.play
        tables = "; ".join(
            f"{t}: {n} opening forks, bluff gain {g:+.3f} ± {se:.3f}, {step.calls[t]} call "
            f"forks, τ {step.call_temperatures[t]:.4f}"
            for t, (g, se, n) in step.gains.items()
        )
        print(
            f"iteration {step.iteration}: {tables}; c {step.call_shift:+.3f}; "
            f"{step.revealed} revealed openings, rate {step.reading_rate:.3f} → average bluff "
            f"{p.opening_bluff:.3f}, τ {p.call_temperature:.4f}, c {p.call_shift:+.3f}, prior "
            f"{p.reading_prior:.3f} [{time.monotonic() - start:.0f} s]",
            flush=True,
        )

    play, _ = fit_mixed_play(
        rules,
        players=args.players,
        iterations=args.iterations,
        games=args.games,
        seed=args.seed,
        window=args.window,
        against=tuple(a for a in args.against.split(",") if a),
        progress=show,
    )
    print(play)
    if args.write:
        command = (
            f"benchmarks/mixed_fit.py --rules {args.rules} --players {args.players} "
            f"--iterations {args.iterations} --games {args.games} --seed {args.seed} "
            f"--window {args.window} --against {args.against} --write"
        )
        digest = save_mixed_play(play, args.out, {"command": command})
        print(f"wrote {args.out} (sha256 {digest[:16]}…)")


if __name__ == "__main__":
    main()
