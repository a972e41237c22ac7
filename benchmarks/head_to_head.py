"""Head to head: one bot against copies of another, whole games, with a running tally.

Run (nicely, on a shared machine)::

    nice -n 10 .venv/bin/python benchmarks/head_to_head.py expert hard --rules perudo \
        --players 2 --games 2000 --seed 1
    nice -n 10 .venv/bin/python benchmarks/head_to_head.py expert hard --rules perudo_calza \
        --players 6 --games 2000 --seed 1 --minutes 30

The first bot takes one seat, the second every other seat; game ``g`` seats the first bot at
seat ``g mod players``, so over a multiple of ``players`` games it sits in every seat equally
often. Game ``g``'s dice and bot seeds come from ``(seed, g)`` only. Every ``--every`` games
(and at the end) it prints the first bot's wins, win rate and 95% Wilson interval, so a run
stopped by ``--minutes`` still reports every game it finished. ``perudo arena`` gives the
full table (places, ratings); this is the long-running, interruptible form of one line of it.
"""

from __future__ import annotations

import argparse
import random
import time

from perudo.arena.stats import wilson
from perudo.core import find_ruleset
from perudo.registry import make_bot
from perudo.sim.match import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("others")
    parser.add_argument("--rules", default="perudo")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=float("inf"))
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    rules = find_ruleset(args.rules)
    n = args.players
    wins = 0
    start = time.perf_counter()
    for g in range(args.games):
        rng = random.Random(f"h2h:{args.seed}:{g}")
        me = g % n
        bots = [
            make_bot(args.bot if s == me else args.others, rng.getrandbits(62)) for s in range(n)
        ]
        result = play_game(rules, bots, rng)
        wins += result.winner == me
        played = g + 1
        elapsed = time.perf_counter() - start
        if played % args.every == 0 or played == args.games or elapsed > args.minutes * 60:
            lo, hi = wilson(wins, played)
            print(
                f"{args.bot} vs {args.others} ({args.rules}, {n} seats): {wins}/{played} = "
                f"{wins / played:.1%} (95% CI {lo:.1%}–{hi:.1%}; fair share {1 / n:.1%}) "
                f"{elapsed:.0f}s",
                flush=True,
            )
        if elapsed > args.minutes * 60:
            break


if __name__ == "__main__":
    main()
