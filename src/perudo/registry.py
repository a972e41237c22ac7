"""Every bot by name and by user-facing level, the solver's ``expert`` included.

The registry sits above the bots and the solver (it imports both; neither imports it), so it
can name every level without a circle; the arena, the terminal, the server and the research
environments build their bots here.

``BOTS`` maps a name to a factory ``seed -> bot``; ``LEVELS`` maps a level to a bot name. Both
are plain dicts: add a bot with :func:`register_bot` (``level=`` also names a level for it), and
it appears in :func:`bot_names`, the arena and every ``--bot`` option.

Two more ways to name a bot, for bots that live outside this package:

- ``package.module:Name`` — the factory (a bot class taking a seed, or a function ``seed ->
  bot``) is imported from that module, as an entry point would be. Worker processes import it
  again from the same name, so it works with the arena's ``--jobs`` and ``--backend ray``.
- an entry point of the group :data:`ENTRY_POINT_GROUP` (``perudo.bots``) of an installed
  package: ``[project.entry-points."perudo.bots"] mybot = "mypackage.bots:MyBot"`` makes
  ``mybot`` a bot name everywhere.

>>> make_bot("medium", seed=1).name
'prob'
>>> {"random", "noisy", "prob", "strong"} <= set(BOTS)
True
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points

from perudo.bots import BalancedBot, Bot, ProbBot, RandomBot, StrongBot
from perudo.bots.learned_bot import LearnedBot
from perudo.solve.expert import AnchoredBot, ExpertBot
from perudo.solve.gate import GateSettings

__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "LEVELS",
    "BotFactory",
    "bot_names",
    "make_bot",
    "register_bot",
    "sendable_name",
]

ENTRY_POINT_GROUP = "perudo.bots"
"""The entry-point group in which installed packages name their bots."""

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
    # The expert: the solved equilibrium where the book holds the round, a heads-up table's
    # equilibrium until the opponent reads as a chance player (the gate), strong elsewhere (the
    # learned policy's shipped weights measured weaker than medium there: docs/bots.md).
    "exact": lambda seed: ExpertBot(seed, gate=GateSettings()),
}
"""Bot factories by name: ``BOTS[name](seed)``."""

LEVELS: dict[str, str] = {
    "easy": "noisy",
    "medium": "prob",
    "hard": "anchored",
    "expert": "exact",
}
"""User-facing levels and the bot each one plays (easiest first)."""

_BUILT_IN = frozenset(BOTS)


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
    """Every name :func:`make_bot` accepts by itself (levels first, then the bots, then the
    installed packages' entry points); ``module:Name`` is accepted too."""
    installed = [ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in BOTS]
    return [*LEVELS, *BOTS, *installed]


def _load(spec: str, value: str) -> BotFactory:
    """The factory ``value`` (``module:Name``) names, imported as an entry point is."""
    module, _, attr = value.partition(":")
    if (
        not module
        or not attr
        or not all(p.isidentifier() for p in (*module.split("."), *attr.split(".")))
    ):
        raise ValueError(f"bot {spec!r}: write it as package.module:Name (a class or function)")
    try:
        factory = EntryPoint(name=spec, value=value, group=ENTRY_POINT_GROUP).load()
    except (ImportError, AttributeError) as err:
        raise ValueError(f"bot {spec!r} cannot be loaded: {err}") from None
    if not callable(factory):
        raise ValueError(f"bot {spec!r} is not a class or function that makes a bot")
    return factory  # type: ignore[no-any-return]


def _factory(name: str) -> BotFactory:
    key = name.strip()
    if ":" in key:
        return _load(name, key)
    key = key.lower()
    key = LEVELS.get(key, key)
    factory = BOTS.get(key)
    if factory is not None:
        return factory
    for ep in entry_points(group=ENTRY_POINT_GROUP, name=key):
        return _load(name, ep.value)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``random``, ``noisy``, ``prob``, ``strong`` …), level (``easy``,
    ``medium``, ``hard``, ``expert``), installed entry point, or ``package.module:Name``.

    :raises ValueError: for an unknown name (listing the known ones), a module or name that
        cannot be imported, or a factory whose product is not a bot.
    """
    factory = _factory(name)
    if factory in BOTS.values():
        bot = factory(seed)
    else:  # someone else's factory, imported: a wrong signature is told in words
        try:
            bot = factory(seed)
        except TypeError as err:
            raise ValueError(f"bot {name!r} cannot be made from a seed: {err}") from None
    if not isinstance(bot, Bot):
        raise ValueError(
            f"bot {name!r} made {bot!r}, which is not a bot: a bot has a name, act(view) and "
            "call_calza(view) (perudo.bots.base.BotBase gives call_calza)"
        )
    return bot


def sendable_name(name: str) -> str:
    """The name under which a fresh worker process (which imports perudo anew and so knows
    only the built-in bots and the installed entry points) makes the bot ``name``: ``name``
    itself, or for a bot registered here with :func:`register_bot`, its factory's
    ``module:Name``.

    :raises ValueError: for a bot registered here whose factory has no importable name (a
        lambda, a function defined inside another), saying what to do instead.
    """
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    if ":" in name or key in _BUILT_IN or key not in BOTS:
        return name
    factory = BOTS[key]
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", "")
    if not module or not qualname or "<" in qualname:
        raise ValueError(
            f"bot {name!r} was registered in this process with a factory that worker processes "
            "cannot import (a lambda or a nested function): register a class or a module-level "
            "function, pass it as package.module:Name, or play with one job"
        )
    return f"{module}:{qualname}"
