"""Fit the opening-bluff rates ``expert`` reads openings with (:mod:`perudo.bots.openings`), and
its switch-bluff rates (:mod:`perudo.bots.switches`).

Run (nicely, on a shared machine; a four-seat game of ``expert`` takes about 1 s of one core)::

    nice -n 19 .venv/bin/python benchmarks/openings_fit.py --games 200 --seed 1
    nice -n 19 .venv/bin/python benchmarks/openings_fit.py --tell switches \
        --deviation raises-aces --games 300 --seed 1
    nice -n 19 .venv/bin/python benchmarks/openings_fit.py --tell switches \
        --deviation raises-aces --others hard --games 300 --seed 1

Plays ``--games`` games of ``--players`` seats of ``--rules`` in which one seat (game ``g``: seat
``g mod players``) plays ``expert`` with the deviation ``--deviation`` (:mod:`perudo.bots.
deviations`) and the others plain ``expert``, and reads every opening whose hand was revealed at
the call (:func:`~perudo.bots.openings.opening_evidence`). For the plain ``expert`` openers
(``--others``: another bot in the other seats) and the deviant's it prints the
maximum-likelihood opening-bluff rate (the fixed point of the
estimate, :func:`~perudo.bots.openings.fixed_point`), the openings it rests on, and the mean
evidence one of them gives that its opener is a bluffer (:func:`~perudo.bots.openings.log_odds`
under the shipped :class:`~perudo.bots.openings.OpeningTrust`). The plain openers' rate is the
equilibrium-like rate, shipped as :attr:`OpeningTrust.prior
<perudo.bots.openings.OpeningTrust.prior>`; the ceiling is the stated bound, not fitted.
``--tell switches`` reads each seat's first switch to the wild face of a round instead
(:func:`~perudo.bots.switches.switch_evidence`): the rate is then the share of the switches
read as blind to the switcher's hand.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from perudo.bots.base import Bot
from perudo.bots.beliefs import BidModel
from perudo.bots.deviations import DEVIATIONS, deviate
from perudo.bots.openings import (
    OpeningTrust,
    finished_rounds,
    fixed_point,
    log_odds,
    opening_evidence,
)
from perudo.bots.switches import switch_evidence
from perudo.core import GameState, PlayerAction, PlayerView, find_ruleset, view
from perudo.registry import make_bot
from perudo.sim.match import play_game

TELLS = ("openings", "switches")


def openings(
    rules_name: str,
    players: int,
    deviation: str,
    seed: int,
    index: int,
    tell: str = "openings",
    others: str = "expert",
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Game ``index``'s revealed openings (``tell``: or switches): (the ``others``' , the
    deviant's), each as ``(honest, blind)`` chances."""
    rules = find_ruleset(rules_name)
    rng = random.Random(seed * 1_000_003 + index)
    deviant = index % players
    bots: list[Bot] = [
        make_bot("expert" if s == deviant else others, rng.getrandbits(62)) for s in range(players)
    ]
    bots[deviant] = deviate(bots[deviant], deviation)
    last: list[GameState] = []

    def ask(state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> PlayerAction:
        last[:] = [state]
        return bot.act(seat_view)

    play_game(rules, bots, rng, ask=ask)
    plain: list[tuple[float, float]] = []
    deviants: list[tuple[float, float]] = []
    model = BidModel()
    for record, counts in finished_rounds(view(last[0], None)):
        if tell == "switches":
            found = switch_evidence(rules, record, counts, model)
        else:
            got = opening_evidence(rules, record, counts, model.temperature)
            found = [] if got is None else [got]
        for seat, honest, blind in found:
            (deviants if seat == deviant else plain).append((honest, blind))
    return plain, deviants


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="perudo")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deviation", default="weakest-face-opening", choices=sorted(DEVIATIONS))
    parser.add_argument("--tell", default="openings", choices=TELLS, help="what is read")
    parser.add_argument("--others", default="expert", help="the bot in the other seats")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    plain: list[tuple[float, float]] = []
    deviants: list[tuple[float, float]] = []
    for g in range(args.games):
        p, d = openings(
            args.rules, args.players, args.deviation, args.seed, g, args.tell, args.others
        )
        plain += p
        deviants += d
    trust = OpeningTrust()
    what = {"openings": "an opening", "switches": "a switch"}[args.tell]
    for who, pairs in ((args.others, plain), (args.deviation, deviants)):
        evidence = [log_odds(trust, h, b) for h, b in pairs]
        print(
            f"{who:<22} {args.tell} {len(pairs):>5}  rate {fixed_point(pairs):.4f}  "
            f"log odds of a bluffer, mean {sum(evidence) / len(evidence):+.3f} {what}"
        )


if __name__ == "__main__":
    main()
