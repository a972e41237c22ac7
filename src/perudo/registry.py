"""Every bot by name and by user-facing level, the solver's ``expert`` included.

The registry sits above the bots and the solver (it imports both; neither imports it), so it
can name every level without a circle; the arena, the terminal, the server and the research
environments build their bots here.

``BOTS`` maps a name to a factory ``seed -> bot``; ``LEVELS`` maps a level to a bot name. Both
are plain dicts: add a bot with :func:`register_bot` (``level=`` also names a level for it), and
it appears in :func:`bot_names`, the arena and every ``--bot`` option.

>>> make_bot("medium", seed=1).name
'prob'
>>> {"random", "noisy", "prob", "strong"} <= set(BOTS)
True
"""

from __future__ import annotations

from collections.abc import Callable

from perudo.bots import BalancedBot, Bot, ProbBot, RandomBot, StrongBot
from perudo.bots.learned_bot import LearnedBot
from perudo.solve.expert import AnchoredBot, ExpertBot

__all__ = ["BOTS", "LEVELS", "BotFactory", "bot_names", "make_bot", "register_bot"]

BotFactory = Callable[[int | None], Bot]


def _noisy(seed: int | None) -> Bot:
    # The easy level: prob's reasoning with a hot softmax (it often takes a worse bid) and a
    # timid calza.
    return ProbBot(seed, temperature=0.1, calza_threshold=0.6, name="noisy")


BOTS: dict[str, BotFactory] = {
    "random": lambda seed: RandomBot(seed),
    "noisy": _noisy,
    "prob": lambda seed: ProbBot(seed),
    "strong": lambda seed: StrongBot(seed),
    "balanced": lambda seed: BalancedBot(seed),
    "anchored": lambda seed: AnchoredBot(seed),
    "learned": lambda seed: LearnedBot(seed),
    # The expert: the solved equilibrium where the book holds the round, strong elsewhere (the
    # learned policy's shipped weights measured weaker than medium there: docs/bots.md).
    "exact": lambda seed: ExpertBot(seed),
}
"""Bot factories by name: ``BOTS[name](seed)``."""

LEVELS: dict[str, str] = {
    "easy": "noisy",
    "medium": "prob",
    "hard": "anchored",
    "expert": "exact",
}
"""User-facing levels and the bot each one plays (easiest first)."""


def register_bot(name: str, factory: BotFactory, *, level: str | None = None) -> None:
    """Add (or replace) the bot ``name``; ``level`` also makes it that level's bot.

    :raises ValueError: for a name that is already a level, or a level that is a bot name.
    """
    key = name.strip().lower()
    if not key or key in LEVELS:
        raise ValueError(f"{name!r} cannot name a bot: it is empty or a level")
    BOTS[key] = factory
    if level is not None:
        lvl = level.strip().lower()
        if lvl in BOTS:
            raise ValueError(f"{level!r} cannot name a level: it is a bot's name")
        LEVELS[lvl] = key


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts (levels first)."""
    return [*LEVELS, *BOTS]


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``random``, ``noisy``, ``prob``, ``strong`` …) or level (``easy``,
    ``medium``, ``hard``).

    :raises ValueError: for an unknown name, listing the known ones.
    """
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    factory = BOTS.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    return factory(seed)
