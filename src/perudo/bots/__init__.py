"""Bots: players that see exactly what a human sees (a :class:`~perudo.core.PlayerView`).

``make_bot(name_or_level, seed=…)`` builds one by name (``random``, ``noisy``, ``prob``,
``strong``) or by user-facing level (``easy``, ``medium``, ``hard``). Exact bid probabilities
for hints live in :mod:`perudo.bots.probability`.
"""

from __future__ import annotations

from .base import Bot, BotBase, PolicyBot
from .prob_bot import ProbBot
from .random_bot import RandomBot
from .registry import BOTS, LEVELS, bot_names, make_bot, register_bot
from .strong_bot import StrongBot

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotBase",
    "PolicyBot",
    "ProbBot",
    "RandomBot",
    "StrongBot",
    "bot_names",
    "make_bot",
    "register_bot",
]
