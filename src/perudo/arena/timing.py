"""Decision time of bots: p50, p95 and max of every ``act`` and ``call_calza`` call.

Each bot plays whole seeded games in every seat of the table (``players`` copies of itself),
and every call is timed with :func:`time.perf_counter`. Printed by ``perudo bench-bots`` and
``benchmarks/bots.py``; never asserted in tests (figures depend on the machine).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from perudo.bots.base import Bot
from perudo.core import GameState, PlayerAction, PlayerView, RuleSet
from perudo.registry import make_bot
from perudo.sim.match import play_game

__all__ = ["DecisionTimes", "percentile", "time_bot"]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0–1) of sorted values, nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5)
    2.0
    """
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, int(-(-q * len(sorted_values) // 1)) - 1))
    return sorted_values[k]


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """One bot's decision times, in seconds."""

    bot: str
    games: int
    act: tuple[float, ...]
    calza: tuple[float, ...]

    def summary(self, which: str = "act") -> tuple[int, float, float, float]:
        """(calls, p50, p95, max) of ``act`` or ``calza`` times."""
        values = sorted(self.act if which == "act" else self.calza)
        if not values:
            return (0, 0.0, 0.0, 0.0)
        return (len(values), percentile(values, 0.5), percentile(values, 0.95), values[-1])


def time_bot(name: str, rules: RuleSet, players: int, games: int, seed: int = 0) -> DecisionTimes:
    """Play ``games`` games of ``players`` copies of bot ``name``, timing every decision."""
    act_times: list[float] = []
    calza_times: list[float] = []
    clock = time.perf_counter

    def ask(state: GameState, seat: int, bot: Bot, view: PlayerView) -> PlayerAction:
        start = clock()
        action = bot.act(view)
        act_times.append(clock() - start)
        return action

    def ask_calza(state: GameState, seat: int, bot: Bot, view: PlayerView) -> bool:
        start = clock()
        says = bot.call_calza(view)
        calza_times.append(clock() - start)
        return says

    for g in range(games):
        rng = random.Random(f"bench-bots:{seed}:{g}")
        bots = [make_bot(name, rng.getrandbits(62)) for _ in range(players)]
        play_game(rules, bots, rng, ask=ask, ask_calza=ask_calza)
    return DecisionTimes(name, games, tuple(act_times), tuple(calza_times))
