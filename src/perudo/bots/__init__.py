"""Bots: players that see exactly what a human sees (a :class:`~perudo.core.PlayerView`).

The bots by name and by user-facing level (``make_bot``) are in :mod:`perudo.registry`, above
both this package and the solver (the ``expert`` level is the solver's bot). Exact bid
probabilities for hints live in :mod:`perudo.bots.probability`.
"""

from __future__ import annotations

from .balanced_bot import BalancedBot, BalancedSettings
from .base import Bot, BotBase, PolicyBot
from .prob_bot import ProbBot
from .random_bot import RandomBot
from .strong_bot import StrongBot

__all__ = [
    "BalancedBot",
    "BalancedSettings",
    "Bot",
    "BotBase",
    "PolicyBot",
    "ProbBot",
    "RandomBot",
    "StrongBot",
]
