"""``random``: uniform over the legal actions (the reference random policy)."""

from __future__ import annotations

from perudo.core import PlayerAction, PlayerView

from .base import BotBase

__all__ = ["RandomBot"]


class RandomBot(BotBase):
    """Picks uniformly among ``view.legal``; calls calza out of turn with probability
    ``calza_rate`` when allowed."""

    name = "random"

    def __init__(self, seed: int | None = None, *, calza_rate: float = 0.05) -> None:
        super().__init__(seed)
        self.calza_rate = calza_rate

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """Every legal action, equally likely."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action now ({view.phase.value})")
        share = 1.0 / len(view.legal)
        return dict.fromkeys(view.legal, share)

    def act(self, view: PlayerView) -> PlayerAction:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action now ({view.phase.value})")
        return view.legal[self.rng.randrange(len(view.legal))]

    def call_calza(self, view: PlayerView) -> bool:
        return self.can_calza_out_of_turn(view) and self.rng.random() < self.calza_rate
