"""Batch simulator throughput against OpenSpiel's C++ ``liars_dice``, in one process, one core.

    python benchmarks/batch.py [seconds]

Figures printed:

1. ``liars_dice_openspiel`` with one die each (exactly OpenSpiel's ``liars_dice``): random
   playouts per second of OpenSpiel's C++ game driven through ``pyspiel`` (a loop of
   ``state.apply_action(random legal action)``, chance included), and of
   :func:`perudo.sim.batch.play_random`; then the ratio.
2. ``perudo``, 2 players × 5 dice, whole games (every round to the winner): batch games per
   second, with the core's pure-Python playout kernel (:mod:`perudo.sim.playout`) for scale.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from collections.abc import Callable

import pyspiel

from perudo.core import find_ruleset
from perudo.sim.batch import play_random
from perudo.sim.playout import random_playout


class _Spiel:
    """Random playouts of C++ ``liars_dice`` through ``pyspiel``, a chunk at a time."""

    def __init__(self) -> None:
        self.game = pyspiel.load_game("liars_dice")
        self.rng = random.Random(1)

    def __call__(self) -> int:
        game, rng = self.game, self.rng
        for _ in range(2000):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()  # chance outcomes too: uniform over the faces
                state.apply_action(legal[rng.randrange(len(legal))])
        return 2000


class _Batch:
    """Whole random games of the batch simulator, a chunk at a time."""

    def __init__(self, rules_name: str, dice: int, players: int, chunk: int) -> None:
        self.rules = dataclasses.replace(find_ruleset(rules_name), dice_per_player=dice)
        self.players = players
        self.chunk = chunk
        self.seed = 0
        play_random(self.rules, players, 20_000, seed=0)  # build the tables, warm up

    def __call__(self) -> int:
        self.seed += 1
        wins = play_random(self.rules, self.players, self.chunk, batch_size=8192, seed=self.seed)
        return int(wins.sum())


class _Kernel:
    """Whole random games of the core's pure-Python playout kernel."""

    def __init__(self, rules_name: str, players: int) -> None:
        self.rules = find_ruleset(rules_name)
        self.players = players
        self.rng = random.Random(1)

    def __call__(self) -> int:
        for _ in range(200):
            random_playout(self.rules, self.players, self.rng)
        return 200


def interleaved(runners: dict[str, Callable[[], int]], seconds: float) -> dict[str, float]:
    """Games per second of each runner, run in turns of short chunks so that a change in the
    machine's load (other processes) hits every runner alike."""
    games = dict.fromkeys(runners, 0)
    spent = dict.fromkeys(runners, 0.0)
    while min(spent.values()) < seconds:
        for name, run in runners.items():
            start = time.perf_counter()
            games[name] += run()
            spent[name] += time.perf_counter() - start
    return {name: games[name] / spent[name] for name in runners}


def main(seconds: float = 3.0) -> None:
    print(f"one core, about {seconds:g} s per figure, measured in alternating chunks")
    rates = interleaved(
        {"spiel": _Spiel(), "batch": _Batch("liars_dice_openspiel", 1, 2, 200_000)}, seconds
    )
    spiel, ours = rates["spiel"], rates["batch"]
    print("liars_dice_openspiel, 2 players x 1 die (= OpenSpiel liars_dice), random playouts:")
    print(f"  OpenSpiel C++ liars_dice via pyspiel  {spiel:>12,.0f} games/s")
    print(f"  perudo.sim.batch                      {ours:>12,.0f} games/s")
    print(f"  ratio batch / OpenSpiel               {ours / spiel:>12.1f} x")
    rates = interleaved(
        {"batch": _Batch("perudo", 5, 2, 50_000), "kernel": _Kernel("perudo", 2)}, seconds
    )
    print("perudo, 2 players x 5 dice, whole games (every round to the winner):")
    print(f"  perudo.sim.batch                      {rates['batch']:>12,.0f} games/s")
    print(f"  perudo.sim.playout (pure Python)     {rates['kernel']:>12,.0f} games/s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
