"""The arena: many seeded games between named bots, with win rates and ratings.

``perudo arena --rules perudo_calza --players 6 --bots strong,prob --games 600 --jobs 2``
(:mod:`perudo.cli.arena`), or :func:`run_arena` from code.
"""

from __future__ import annotations

from .runner import ArenaResult, game_rng, lineup_for, play_arena_game, run_arena
from .stats import BotFigures, GameOutcome, tally, wilson

__all__ = [
    "ArenaResult",
    "BotFigures",
    "GameOutcome",
    "game_rng",
    "lineup_for",
    "play_arena_game",
    "run_arena",
    "tally",
    "wilson",
]
