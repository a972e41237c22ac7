"""The bot protocol.

A bot is a name plus ``act(view) -> action``. It sees only a seat's
:class:`~perudo.core.PlayerView` (docs/rules.md P-70), never a game state, so the same bot plays in
a simulation, in the terminal and in a server seat unchanged. Its randomness is a seeded
:class:`random.Random` given at construction.

Out-of-turn calza (P-50): a driver asks the seats that may call it, in the order of
:func:`perudo.core.calza_callers` (P-53: left of the bidder first), with
``call_calza(view)``; the first that says yes calls it. ``act`` is only asked of the seat to act.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from perudo.core import Calza, PlayerAction, PlayerView

__all__ = ["Bot", "BotBase", "PolicyBot"]


@runtime_checkable
class Bot(Protocol):
    """What every bot provides."""

    name: str

    def act(self, view: PlayerView) -> PlayerAction:
        """The action for the seat to act; one of ``view.legal``."""
        ...

    def call_calza(self, view: PlayerView) -> bool:
        """Out of turn, with ``Calza()`` in ``view.legal``: call calza now? (P-50)"""
        ...


@runtime_checkable
class PolicyBot(Bot, Protocol):
    """A bot that can state the probability of each action it may take (``random``,
    ``prob``, ``strong``): what an exact solver needs to compute a best response to it."""

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """For the seat to act: each action it may take, with its probability (sum 1)."""
        ...


class BotBase:
    """Common base: a name and a seeded generator; never calls calza out of turn."""

    name = "bot"

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def act(self, view: PlayerView) -> PlayerAction:
        raise TypeError(f"{type(self).__name__} must define act()")

    def call_calza(self, view: PlayerView) -> bool:
        return False

    @staticmethod
    def can_calza_out_of_turn(view: PlayerView) -> bool:
        return not view.my_turn and Calza() in view.legal

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
