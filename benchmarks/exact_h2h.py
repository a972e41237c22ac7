"""Head to head, exactly: what one level wins against another in a heads-up round, with no
sampling, where the round is small enough to tabulate both (1v1, 2v1, 1v2).

Run (on a shared machine, nicely)::

    nice -n 10 .venv/bin/python benchmarks/exact_h2h.py expert hard                 # 1v1, 2v1, 1v2
    nice -n 10 .venv/bin/python benchmarks/exact_h2h.py expert medium --dice 1,1 --games perudo

Each level (``make_bot(level)``, as the app builds it) is tabulated in each seat through the
core (:func:`perudo.solve.exploit.tabulate`: every view it can meet, as in play, P-70), and
the two profiles (the first level opening, then the other) are valued exactly
(:func:`perudo.solve.exploit.versus`). The figure is the first level's share of rounds won
with the seats alternated: what ``benchmarks/head_to_head.py A B --round D1,D2 --seat-dice``
converges to as its rounds grow (the dice stay with the seat: the opener holds ``D1``). Games
and dice as in ``benchmarks/levels.py``: ``joker`` is issue 17's joker game
(:func:`perudo.solve.shipped.round_rules`), ``perudo`` (or any preset) a normal round.

A level that puts weight on every action (``easy``) is asked about every view: seconds at 1v1,
minutes at 2v1 and 1v2.
"""

from __future__ import annotations

import argparse
import time

from perudo.registry import make_bot
from perudo.solve import RoundGame
from perudo.solve.exploit import policy_of, versus
from perudo.solve.shipped import round_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--dice", default="1,1;2,1;1,2", help="D1,D2 rounds, ';' between them")
    parser.add_argument("--games", default="joker", help="joker, perudo or both (comma)")
    parser.add_argument("--seed", type=int, default=1, help="the bots' seed")
    args = parser.parse_args()
    first = policy_of(make_bot(args.first, seed=args.seed))
    second = policy_of(make_bot(args.second, seed=args.seed + 1))
    for game_name in args.games.split(","):
        for cell in args.dice.split(";"):
            a, b = (int(x) for x in cell.split(","))
            game = RoundGame(round_rules(game_name, (a, b)), (a, b))
            start = time.perf_counter()
            result = versus(game, first, second)
            took = time.perf_counter() - start
            print(
                f"{args.first} vs {args.second}, {game_name} {a}v{b} round (opener holds {a}): "
                f"{100 * result.win_rate:.2f}% of rounds exactly (payoff opening "
                f"{result.opening:+.4f}, responding {result.responding:+.4f}; "
                f"{result.calls} views, {took:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
