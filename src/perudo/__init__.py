"""perudo: Perudo (Dudo, Liar's Dice, Bluff) — rules engine, bots, terminal play, research tools.

The public rules API lives at the top of the package (re-exported from :mod:`perudo.core`)::

    >>> import random, perudo
    >>> game = perudo.new_game(perudo.find_ruleset("perudo"), 3, random.Random(1))
    >>> game, events = perudo.apply(game, perudo.Bid.parse("2x3"))
    >>> str(game.bid)
    '2x3'
"""

from __future__ import annotations

from .core import *  # noqa: F403
from .core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
