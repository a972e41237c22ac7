"""The arena's figures: Wilson intervals and per-bot tallies with OpenSkill ratings.

Ratings are updated game by game in game order, so they depend only on the games, never on
how the games were spread over processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from perudo.ratings import Rating, update

__all__ = ["BotFigures", "GameOutcome", "tally", "wilson"]


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials (95% by default).

    >>> tuple(round(x, 4) for x in wilson(30, 100))
    (0.2189, 0.3958)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One arena game: which bot sat where, and every seat's finishing place."""

    index: int
    seats: tuple[str, ...]
    """The bot name in each seat."""
    places: tuple[int, ...]
    """Finishing place per seat (1 = winner)."""
    rounds: int


@dataclass(frozen=True, slots=True)
class BotFigures:
    """One bot's results over the arena (counted per seat it held in a game)."""

    bot: str
    seats_per_game: int
    games: int
    """Seat-games: games times the seats this bot held in each."""
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    fair_share: float
    """The win rate of a bot no better than the others: 1 / players."""
    mean_place: float
    mu: float
    sigma: float
    ordinal: float
    """OpenSkill's conservative rating, ``mu - 3 sigma``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seats_per_game": self.seats_per_game,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [self.ci_low, self.ci_high],
            "fair_share": self.fair_share,
            "mean_place": self.mean_place,
            "openskill": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
        }


def tally(lineup: Sequence[str], outcomes: Sequence[GameOutcome]) -> list[BotFigures]:
    """Per distinct bot of ``lineup`` (in order of first appearance): wins, places, ratings.

    OpenSkill (Plackett–Luce) rates each game's full placement, seats knocked out together
    tied. A bot holding several seats of a game is rated as one copy per seat and takes the
    mean of the copies' new ratings.
    """
    names = list(dict.fromkeys(lineup))
    ratings = {name: Rating() for name in names}
    games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    place_sum = dict.fromkeys(names, 0)
    for outcome in sorted(outcomes, key=lambda o: o.index):
        rated = update([ratings[b] for b in outcome.seats], outcome.places)
        new: dict[str, list[tuple[float, float]]] = {}
        for bot, after, place in zip(outcome.seats, rated, outcome.places, strict=True):
            new.setdefault(bot, []).append((after.mu, after.sigma))
            games[bot] += 1
            wins[bot] += place == 1
            place_sum[bot] += place
        for bot, values in new.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            ratings[bot] = Rating(mu, sigma)
    players = len(lineup)
    out = []
    for name in names:
        n = games[name]
        lo, hi = wilson(wins[name], n)
        r = ratings[name]
        out.append(
            BotFigures(
                bot=name,
                seats_per_game=lineup.count(name),
                games=n,
                wins=wins[name],
                win_rate=wins[name] / n if n else 0.0,
                ci_low=lo,
                ci_high=hi,
                fair_share=1.0 / players,
                mean_place=place_sum[name] / n if n else 0.0,
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.mu - 3 * r.sigma,
            )
        )
    return out
