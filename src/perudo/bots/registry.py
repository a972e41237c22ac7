"""Bots by name and by user-facing level."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .base import Bot
from .random_bot import RandomBot

__all__ = ["BOTS", "LEVELS", "bot_names", "make_bot"]

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": lambda seed: RandomBot(seed),
}
"""Bot factories by name: ``BOTS[name](seed)``."""

LEVELS: Mapping[str, str] = {
    "easy": "random",
    "medium": "random",
    "hard": "random",
}
"""User-facing levels and the bot each one plays."""


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts (levels first)."""
    return [*LEVELS, *BOTS]


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``random`` …) or level (``easy``, ``medium``, ``hard``).

    :raises ValueError: for an unknown name, listing the known ones.
    """
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    factory = BOTS.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    return factory(seed)
