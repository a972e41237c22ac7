"""Random-playout throughput on one core, through the engine and through the playout kernel.

Two figures per configuration:

* ``engine``: whole games through the public API (``new_game``, ``legal_actions``, ``apply``
  with its immutable states and events, ``chance_action``), as a simulation would play them;
* ``kernel``: :func:`perudo.sim.playout.random_playout`, the same games move for move
  (the test suite checks that) in plain integers; only these benchmarks use it;
* ``windows`` (where calza is played out of turn, P-50): the ``engine`` games with every calza
  window opened and offered to its seats, who decline (``engine_playout(asking=True)``), as a
  simulation whose players may call calza plays them. Its distance to ``engine`` is what the
  windows cost (the figure that showed issue 9's slowdown: 6 seats, 40 %).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from perudo.core import find_ruleset
from perudo.core.rules import RuleSet
from perudo.sim.playout import Playout, engine_playout, random_playout

__all__ = ["CONFIGS", "Config", "Figure", "measure", "run"]


@dataclass(frozen=True)
class Config:
    label: str
    rules: RuleSet
    players: int


CONFIGS: tuple[Config, ...] = (
    Config(
        "liars_dice_openspiel, 2 players x 1 die",
        dataclasses.replace(find_ruleset("liars_dice_openspiel"), dice_per_player=1),
        2,
    ),
    Config("perudo, 2 players x 5 dice", find_ruleset("perudo"), 2),
    Config("perudo_calza, 6 players x 5 dice", find_ruleset("perudo_calza"), 6),
)


@dataclass(frozen=True)
class Figure:
    config: str
    path: str
    games: int
    seconds: float
    decisions: int

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


def measure(
    config: Config,
    path: str,
    seconds: float,
    seed: int = 1,
) -> Figure:
    """Play games with one path for about ``seconds`` and count them."""
    play: Callable[[RuleSet, int, random.Random], Playout] = (
        functools.partial(engine_playout, asking=True)
        if path == "windows"
        else engine_playout
        if path == "engine"
        else random_playout
    )
    rng = random.Random(seed)
    play(config.rules, config.players, rng)  # warm the bid tables
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            decisions += play(config.rules, config.players, rng).decisions
        games += 20
        now = time.perf_counter()
        if now >= deadline:
            return Figure(config.label, path, games, now - start, decisions)


def run(seconds: float = 2.0, print_fn: Callable[[str], None] = print) -> list[Figure]:
    """Measure every configuration on each path and print a table."""
    figures: list[Figure] = []
    print_fn(f"{'configuration':<42} {'path':<7} {'games/s':>10} {'actions/s':>11}")
    for config in CONFIGS:
        paths = (
            ("engine", "kernel", "windows") if config.rules.calza == "on" else ("engine", "kernel")
        )
        for path in paths:
            fig = measure(config, path, seconds)
            figures.append(fig)
            print_fn(
                f"{config.label:<42} {path:<7} {fig.games_per_s:>10,.0f} "
                f"{fig.decisions_per_s:>11,.0f}"
            )
    return figures
