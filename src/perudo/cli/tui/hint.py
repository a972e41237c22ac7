"""The hint: the exact chance that a bid is true, given what the person knows (P-70).

The seeds' rule of thumb says about a third of the dice show any given face when aces are
wild (a sixth for aces, or in a palifico round). Made exact by
:mod:`perudo.bots.probability` (the unseen dice are independent fair dice, counted with the
core's :func:`~perudo.core.count_hand`): the chance that at least the bid's quantity is on the
table (a dudo would fail), that exactly that many are (a calza would win), and the expected
count.

>>> from perudo import find_ruleset, start_round, view, Bid
>>> v = view(start_round(find_ruleset("perudo"), [[1, 5], [2, 3]]), 0)
>>> odds = chance(v, Bid(3, 5))  # two 5s in my hand (the ace is wild); two dice unseen
>>> round(odds.at_least, 4), round(odds.exactly, 4), round(odds.expected, 4), odds.unseen
(0.5556, 0.4444, 2.6667, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from perudo.bots.probability import (
    bid_probability,
    count_distribution,
    exact_probability,
    known_count,
    unseen_dice,
)
from perudo.core import Bid, PlayerView

__all__ = ["Chance", "chance"]


@dataclass(frozen=True, slots=True)
class Chance:
    """What one seat can say about a bid from its own view."""

    at_least: float
    """Probability that at least the bid's quantity is on the table (dudo fails, P-20)."""
    exactly: float
    """Probability that exactly the quantity is on the table (calza wins, P-51)."""
    expected: float
    """Expected count toward the bid's face on the whole table."""
    mine: int
    """Dice the seat can see that count: its own and the dice shown face up (V-9)."""
    unseen: int
    """Dice the seat cannot see."""


def chance(view: PlayerView, bid: Bid) -> Chance:
    """The chance that ``bid`` is true (and exactly true), as the view's seat sees it."""
    dist = count_distribution(view, bid.face)
    return Chance(
        at_least=bid_probability(view, bid),
        exactly=exact_probability(view, bid),
        expected=math.fsum(k * p for k, p in enumerate(dist)),
        mine=known_count(view, bid.face),
        unseen=sum(unseen_dice(view)),
    )
