"""Local best response (LBR) against the bot levels in heads-up rounds too big for exact best
responses: a sound lower bound on each level's exploitability.

Run (on a shared machine, nicely)::

    nice -n 10 .venv/bin/python benchmarks/lbr.py --dice 3,3 --levels expert,hard,medium,strong
    nice -n 10 .venv/bin/python benchmarks/lbr.py --dice 2,2 4,4 --games joker --rounds 400

For each game (``perudo``: a normal round of Perudo; ``joker``: issue 17's game,
``perudo.solve.shipped.joker_rules``), dice and level, LBR (``perudo.solve.lbr``) plays
``--rounds`` sampled rounds against ``make_bot(level)``'s ``policy``, opening every other one,
or as many as ``--seconds`` allow per cell. Printed: LBR's mean payoff a round (±1 a round; a
lower bound on the exploitability in OpenSpiel's convention, ``(br0 + br1) / 2``) with its 95%
interval, the means as opener and as responder, the views the level was asked about, time.
"""

from __future__ import annotations

import argparse
import time

from perudo.registry import make_bot
from perudo.solve import RoundGame
from perudo.solve.lbr import lbr_match
from perudo.solve.shipped import round_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dice", nargs="+", default=["3,3"], help="A,B: opener's, other's")
    parser.add_argument("--games", default="perudo,joker")
    parser.add_argument("--levels", default="expert,hard,medium,strong")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=None, help="per cell, at most")
    parser.add_argument("--raises-per-face", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(
        f"LBR lower bounds (mean payoff a round, ±1 a round; 95% interval), "
        f"{args.rounds} rounds a cell at most"
        + (f" or {args.seconds:.0f} s" if args.seconds else "")
    )
    print(
        f"{'game':<7} {'dice':<5} {'level':<8} {'rounds':>6}  {'LBR mean':>9}  {'95% CI':<17} "
        f"{'as opener':>9} {'as resp.':>9} {'views':>7} {'s':>6}"
    )
    for text in args.dice:
        a, b = (int(x) for x in text.replace("v", ",").split(","))
        for game in args.games.split(","):
            rules = round_rules(game, (a, b))
            round_game = RoundGame(rules, (a, b), max_bids=999)
            for level in args.levels.split(","):
                bot = make_bot(level, seed=args.seed)
                t0 = time.perf_counter()
                res = lbr_match(
                    round_game,
                    bot.policy,  # type: ignore[attr-defined]
                    args.rounds,
                    seed=args.seed,
                    raises_per_face=args.raises_per_face,
                    seconds=args.seconds,
                )
                lo, hi = res.interval
                print(
                    f"{game:<7} {a}v{b:<3} {level:<8} {res.rounds:>6}  {res.mean:>+9.4f}  "
                    f"[{lo:+.3f}, {hi:+.3f}]  {res.seat_means[0]:>+9.4f} "
                    f"{res.seat_means[1]:>+9.4f} {res.calls:>7} {time.perf_counter() - t0:>6.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
