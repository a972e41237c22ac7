"""A bot that is made without fault and raises in play: the error a worker process (or a
Ray worker) raises mid-game, for the tests of how it reaches the caller. The arena's workers
import it by its ``module:Name`` (:func:`perudo.registry.sendable_name`)."""

from __future__ import annotations

from perudo.bots.base import BotBase
from perudo.core import PlayerAction, PlayerView


class RaisingBot(BotBase):
    name = "raising"

    def act(self, view: PlayerView) -> PlayerAction:
        raise ValueError(f"this bot raises on purpose, in round {view.round}")
