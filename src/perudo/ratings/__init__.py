"""Players' ratings: OpenSkill's Plackett–Luce model over a game's finishing places, the one
update the arena (:mod:`perudo.arena.stats`) and the server's rated tables both apply
(docs/ratings.md).

A rating is ``(mu, sigma)``: the skill OpenSkill believes in and its uncertainty. A new
player starts at OpenSkill's defaults (25, 25/3). :func:`update` rates one game from each
seat's finishing place (1 = the winner; seats knocked out in the same round share a place;
a seat that left or timed out of a rated game is placed last among those still in, by the
caller). It is a pure function: the same ratings and places give the same result.

The number shown to players is :func:`display`, on an Elo-like scale: 1500 for a new player,
and a difference of 400 between two settled players meaning odds of about 10 to 1 that the
higher finishes ahead of the lower heads-up. A rating is provisional while its uncertainty is
above :data:`PROVISIONAL_SIGMA`.

>>> new = Rating()
>>> display(new), new.provisional
(1500, True)
>>> winner, loser = update([new, new], [1, 2])
>>> display(winner) > 1500 > display(loser)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

__all__ = [
    "MU",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "SIGMA",
    "Rating",
    "display",
    "model",
    "pool",
    "update",
]

_MODEL: Final = PlackettLuce()
MU: Final[float] = _MODEL.mu
SIGMA: Final[float] = _MODEL.sigma
PROVISIONAL_SIGMA: Final = 6.0
"""A rating whose ``sigma`` is above this is provisional (a new player's is 25/3 ≈ 8.33;
about 12 heads-up games bring it under 6, fewer at bigger tables)."""
SCALE: Final[float] = 400 / math.log(10) / (math.sqrt(2) * _MODEL.beta)
"""Display points per unit of ``mu``: Plackett–Luce puts the chance that a settled player
finishes ahead of another at ``1 / (1 + exp(-Δmu / c))`` with ``c = √2·β`` (β = 25/6), Elo at
``1 / (1 + 10^(-Δ/400))``; equal chances when ``Δ = Δmu · 400 / (ln 10 · c)`` (≈ 29.5)."""


def model() -> PlackettLuce:
    """The OpenSkill model every rating here is made with."""
    return _MODEL


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def display(rating: Rating) -> int:
    """The number players see: ``round(1500 + SCALE · (mu − 25))``."""
    return round(1500 + SCALE * (rating.mu - MU))


def pool(players: int) -> str:
    """Which rating a game counts for: ``duel`` (heads-up) or ``table`` (three or more)."""
    return "duel" if players == 2 else "table"


def update(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Every seat's rating after a game in which seat ``i`` (rated ``ratings[i]``) finished
    in place ``places[i]`` (1 = the winner; equal places are a tie).

    :raises ValueError: the two lengths differ, fewer than two seats, or a place below 1."""
    if len(ratings) != len(places) or len(ratings) < 2 or min(places) < 1:
        raise ValueError(f"a game rates two or more seats with places from 1, got {places!r}")
    m = _MODEL
    teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = m.rate(teams, ranks=[float(p) for p in places])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]
