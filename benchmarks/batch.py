"""Batch simulator throughput against OpenSpiel's C++ ``liars_dice``, in one process, one core.

    python benchmarks/batch.py [seconds]

Figures printed:

1. ``liars_dice_openspiel`` with one die each (exactly OpenSpiel's ``liars_dice``): random
   playouts per second of OpenSpiel's C++ game driven through ``pyspiel`` (a loop of
   ``state.apply_action(random legal action)``, chance included), and of
   :func:`perudo.sim.batch.play_random`; then the ratio.
2. ``perudo``, 2 players × 5 dice, whole games (every round to the winner): batch games per
   second, with the core's pure-Python playout kernel (:mod:`perudo.core.playout`) for scale.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time

import pyspiel

from perudo.core import find_ruleset
from perudo.core.playout import random_playout
from perudo.sim.batch import play_random


def openspiel_liars_dice(seconds: float) -> float:
    """Random playouts per second of C++ ``liars_dice`` through ``pyspiel``."""
    game = pyspiel.load_game("liars_dice")
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()  # chance outcomes too: uniform over the faces
                state.apply_action(legal[rng.randrange(len(legal))])
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def batch_games(rules_name: str, dice: int, players: int, seconds: float) -> float:
    """Whole random games per second of the batch simulator."""
    rules = dataclasses.replace(find_ruleset(rules_name), dice_per_player=dice)
    play_random(rules, players, 20_000, seed=0)  # build the tables, warm up
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    chunk = 100_000
    while True:
        games += int(play_random(rules, players, chunk, batch_size=16384, seed=games).sum())
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def kernel_games(rules_name: str, players: int, seconds: float) -> float:
    """Whole random games per second of the core's playout kernel (pure Python)."""
    rules = find_ruleset(rules_name)
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            random_playout(rules, players, rng)
        games += 50
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def main(seconds: float = 3.0) -> None:
    print(f"one core, {seconds:g} s per figure")
    spiel = openspiel_liars_dice(seconds)
    ours = batch_games("liars_dice_openspiel", 1, 2, seconds)
    print("liars_dice_openspiel, 2 players x 1 die (= OpenSpiel liars_dice):")
    print(f"  OpenSpiel C++ liars_dice via pyspiel  {spiel:>12,.0f} games/s")
    print(f"  perudo.sim.batch                      {ours:>12,.0f} games/s")
    print(f"  ratio batch / OpenSpiel               {ours / spiel:>12.1f} x")
    full = batch_games("perudo", 5, 2, seconds)
    kernel = kernel_games("perudo", 2, seconds)
    print("perudo, 2 players x 5 dice, whole games:")
    print(f"  perudo.sim.batch                      {full:>12,.0f} games/s")
    print(f"  perudo.core.playout (pure Python)     {kernel:>12,.0f} games/s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
