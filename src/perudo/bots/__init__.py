"""Bots: players that see exactly what a human sees (a :class:`~perudo.core.PlayerView`).

``make_bot(name_or_level, seed=…)`` builds one by name (``random``, …) or by user-facing level
(``easy``, ``medium``, ``hard``).
"""

from __future__ import annotations

from .base import Bot, BotBase
from .random_bot import RandomBot
from .registry import BOTS, LEVELS, bot_names, make_bot

__all__ = ["BOTS", "LEVELS", "Bot", "BotBase", "RandomBot", "bot_names", "make_bot"]
