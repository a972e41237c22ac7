"""Fit the opening-bluff rates ``expert`` reads openings with (:mod:`perudo.bots.openings`).

Run (nicely, on a shared machine; a four-seat game of ``expert`` takes about 1 s of one core)::

    nice -n 19 .venv/bin/python benchmarks/openings_fit.py --games 200 --seed 1

Plays ``--games`` games of ``--players`` seats of ``--rules`` in which one seat (game ``g``: seat
``g mod players``) plays ``expert`` with the deviation ``--deviation`` (:mod:`perudo.bots.
deviations`) and the others plain ``expert``, and reads every opening whose hand was revealed at
the call (:func:`~perudo.bots.openings.opening_evidence`). For the plain ``expert`` openers and
the deviant's it prints the maximum-likelihood opening-bluff rate (the fixed point of the
estimate, :func:`~perudo.bots.openings.fixed_point`), the openings it rests on, and the mean
evidence one of them gives that its opener is a bluffer (:func:`~perudo.bots.openings.log_odds`
under the shipped :class:`~perudo.bots.openings.OpeningTrust`). The plain openers' rate is the
equilibrium-like rate, shipped as :attr:`OpeningTrust.prior
<perudo.bots.openings.OpeningTrust.prior>`; the ceiling is the stated bound, not fitted.
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
from perudo.core import GameState, PlayerAction, PlayerView, find_ruleset, view
from perudo.registry import make_bot
from perudo.sim.match import play_game


def openings(
    rules_name: str, players: int, deviation: str, seed: int, index: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Game ``index``'s revealed openings: (plain ``expert``'s, the deviant's), each as
    ``(honest, blind)`` chances."""
    rules = find_ruleset(rules_name)
    rng = random.Random(seed * 1_000_003 + index)
    deviant = index % players
    bots: list[Bot] = [make_bot("expert", rng.getrandbits(62)) for _ in range(players)]
    bots[deviant] = deviate(bots[deviant], deviation)
    last: list[GameState] = []

    def ask(state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> PlayerAction:
        last[:] = [state]
        return bot.act(seat_view)

    play_game(rules, bots, rng, ask=ask)
    plain: list[tuple[float, float]] = []
    deviants: list[tuple[float, float]] = []
    temperature = BidModel().temperature
    for record, counts in finished_rounds(view(last[0], None)):
        got = opening_evidence(rules, record, counts, temperature)
        if got is not None:
            opener, honest, blind = got
            (deviants if opener == deviant else plain).append((honest, blind))
    return plain, deviants


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="perudo")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deviation", default="weakest-face-opening", choices=sorted(DEVIATIONS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    plain: list[tuple[float, float]] = []
    deviants: list[tuple[float, float]] = []
    for g in range(args.games):
        p, d = openings(args.rules, args.players, args.deviation, args.seed, g)
        plain += p
        deviants += d
    trust = OpeningTrust()
    for who, pairs in (("expert", plain), (args.deviation, deviants)):
        evidence = [log_odds(trust, h, b) for h, b in pairs]
        print(
            f"{who:<22} openings {len(pairs):>5}  rate {fixed_point(pairs):.4f}  "
            f"log odds of a bluffer, mean {sum(evidence) / len(evidence):+.3f} an opening"
        )


if __name__ == "__main__":
    main()
