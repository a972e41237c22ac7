"""Decision time of each bot at 6 players x 5 dice (perudo_calza): p50, p95 and max.

Run: ``.venv/bin/python benchmarks/bots.py [games] [players] [bots]`` (or ``perudo
bench-bots``); ``bots`` is a comma-separated list (default: every bot). Every seat of each
game is the bot timed, so every decision of a whole game is measured, out-of-turn calza
answers (P-50) listed apart. Targets: ``anchored`` (``hard``) p95 at most 100 ms, ``exact``
(``expert``) and ``learned`` at most 1 s.
"""

from __future__ import annotations

import sys

from perudo.arena.timing import time_bot
from perudo.core import find_ruleset

BOTS = ("random", "noisy", "prob", "strong", "balanced", "anchored", "learned", "exact")


def main(games: int = 4, players: int = 6, bots: tuple[str, ...] = BOTS) -> None:
    rules = find_ruleset("perudo_calza")
    print(
        f"decision time, perudo_calza, {players} players x {rules.dice_per_player} dice, "
        f"{games} games"
    )
    print(f"{'bot':8} {'call':6} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name in bots:
        times = time_bot(name, rules, players, games, seed=1)
        for which in ("act", "calza"):
            calls, p50, p95, top = times.summary(which)
            print(
                f"{name:8} {which:6} {calls:6d} {p50 * 1e3:8.2f} {p95 * 1e3:8.2f} {top * 1e3:8.2f}"
            )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 4,
        int(sys.argv[2]) if len(sys.argv) > 2 else 6,
        tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else BOTS,
    )
