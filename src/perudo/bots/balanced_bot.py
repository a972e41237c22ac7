"""``balanced``: the ``hard`` level — exact chances, a measured read of bids, and mixed play.

A deterministic bot that picks its best action shows its hand with every bid and answers each
bid the same way, so a player who learns its habits beats it (``strong``: a best response wins
about seven heads-up rounds in eight, ``benchmarks/levels.py``). ``balanced`` plays a *mixed*
strategy whose shape was fitted against exact best responses (``perudo.solve.exploit``) on
heads-up rounds of one die each:

* **Chances.** As ``prob`` (:mod:`perudo.bots.probability`: own dice, shown dice, wilds,
  palifico, straights), except that every other seat's latest bid this round *leans* its count
  of that bid's face by ``1 + lean · k`` (:func:`~perudo.bots.probability.lean_toward`): a bid
  says something about the bidder's hand, but only so much, since a bid is often a bluff.
* **Candidates.** Per face, the smallest legal quantity and ``jumps`` above it; dudo and the
  other legal actions (calza, pass, set aside, P-34 choice) as ``prob`` values them.
* **Mixing.** A softmax (``temperature``) over the utilities (a raise: its chance of being
  true; dudo: the chance the standing claim is false, plus ``dudo_bias``); then a share
  ``bluff`` of the raises' probability goes to a choice that does not depend on the hand at
  all (a softmax of each raise's chance as a stranger would compute it, every die unseen),
  so a bid does not give the hand away. Actions under ``floor`` are dropped.

Only the seat's :class:`~perudo.core.PlayerView` is read (P-70), the legal actions are the
core's (``view.legal``), and ``act`` samples :meth:`policy` with the bot's own generator.
Out-of-turn calza (P-50) is ``prob``'s rule on the leaned chances. A decision is a few dozen
small convolutions: well under a millisecond at every table size (``perudo bench-bots``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from perudo.core import Bid, Dudo, PlayerAction, PlayerView

from .prob_bot import Matrix, ProbBot, softmax, softmax_rows
from .probability import binomial_tail, count_distribution, match_chance

__all__ = ["BalancedBot", "BalancedSettings"]


@dataclass(frozen=True, slots=True)
class BalancedSettings:
    """The knobs of :class:`BalancedBot` (defaults: fitted, see ``docs/bots.md``)."""

    lean: float = 1.0
    """How much a seat's latest bid tilts its count of that face (0: bids say nothing)."""
    temperature: float = 0.05
    """Softmax temperature over the utilities."""
    bluff: float = 0.45
    """Share of the raises' probability given to a hand-independent choice."""
    bluff_decay: float = 2.0
    """The bluff share is ``bluff · (2 / dice in play) ** bluff_decay``: less bluffing where
    many dice make the counts harder to read."""
    dudo_bias: float = -0.1
    """Added to dudo's utility (negative: doubt a little less than the chances say)."""
    jumps: int = 1
    """Raises considered per face: the smallest legal quantity and this many above it."""
    floor: float = 1e-3
    """Actions less likely than this are dropped (and the rest renormalized)."""


class BalancedBot(ProbBot):
    """Mixed play from leaned exact chances; see the module docstring."""

    name = "balanced"

    def __init__(
        self,
        seed: int | None = None,
        *,
        settings: BalancedSettings | None = None,
        name: str | None = None,
    ) -> None:
        self.settings = settings if settings is not None else BalancedSettings()
        super().__init__(seed, temperature=self.settings.temperature, name=name)

    def count_pmf(self, view: PlayerView, face: int) -> Sequence[float]:
        """The table's count of ``face``, each other seat's latest bid on ``face`` leaning
        that seat's dice toward it."""
        lean: dict[int, float] = {}
        if self.settings.lean:
            latest: dict[int, Bid] = {}
            for seat, action in view.actions:
                if isinstance(action, Bid) and seat != view.seat:
                    latest[seat] = action
            lean = {s: self.settings.lean for s, b in latest.items() if b.face == face}
        return count_distribution(view, face, lean)

    def _lowest(self, view: PlayerView) -> dict[int, int]:
        """Per face, the smallest quantity a raise may name."""
        lowest: dict[int, int] = {}
        for action in view.legal:
            if isinstance(action, Bid) and action.quantity < lowest.get(action.face, 1 << 30):
                lowest[action.face] = action.quantity
        return lowest

    def _bluff_share(self, view: PlayerView) -> float:
        """The share of the raises given to the hand-independent choice."""
        s = self.settings
        return float(s.bluff * (2.0 / max(2, view.total_dice)) ** s.bluff_decay)

    def _blind(self, view: PlayerView, raises: Sequence[Bid]) -> dict[PlayerAction, float]:
        """The hand-independent choice among ``raises``: a stranger's chances, every die
        unseen."""
        total = view.total_dice
        stranger: dict[PlayerAction, float] = {
            b: binomial_tail(total, match_chance(view.rules, b.face, view.palifico))[b.quantity]
            if b.quantity <= total
            else 0.0
            for b in raises
        }
        return softmax(stranger, self.settings.temperature)

    def policy_rows(self, view: PlayerView, hands: Sequence[Sequence[int]]) -> Matrix:
        """:meth:`policy` for every hand at once (rows: ``hands``; columns: ``view.legal``;
        see :meth:`~perudo.bots.prob_bot.ProbBot.utility_rows`)."""
        s = self.settings
        utilities = self.utility_rows(view, hands)
        lowest = self._lowest(view)
        considered: list[int] = []
        raises: list[int] = []
        for i, action in enumerate(view.legal):
            if isinstance(action, Bid):
                if action.quantity - lowest[action.face] > s.jumps:
                    continue
                raises.append(i)
            elif isinstance(action, Dudo):
                utilities[:, i] += s.dudo_bias
            considered.append(i)
        probs = np.zeros_like(utilities)
        probs[:, considered] = softmax_rows(utilities[:, considered], s.temperature)
        bluff = self._bluff_share(view)
        if raises and bluff:
            mass = probs[:, raises].sum(axis=1)
            blind = self._blind(view, [view.legal[i] for i in raises])  # type: ignore[misc]
            for i in raises:
                share = blind.get(view.legal[i], 0.0)
                probs[:, i] = (1.0 - bluff) * probs[:, i] + bluff * mass * share
        kept = np.where(probs >= s.floor, probs, 0.0)
        empty = kept.sum(axis=1) == 0.0  # every action below the floor: keep the likeliest
        kept[empty, probs[empty].argmax(axis=1)] = 1.0
        out: Matrix = kept / kept.sum(axis=1, keepdims=True)
        return out

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The probability of each action it may take (see the module docstring)."""
        s = self.settings
        utilities = self.utilities(view)
        lowest = self._lowest(view)
        considered: dict[PlayerAction, float] = {}
        raises: list[Bid] = []
        for action, u in utilities.items():
            if isinstance(action, Bid):
                if action.quantity - lowest[action.face] > s.jumps:
                    continue
                raises.append(action)
            elif isinstance(action, Dudo):
                u += s.dudo_bias
            considered[action] = u
        probs = softmax(considered, s.temperature)
        bluff = self._bluff_share(view)
        if raises and bluff:
            mass = sum(probs.get(b, 0.0) for b in raises)
            blind = self._blind(view, raises)
            for b in raises:
                probs[b] = (1.0 - bluff) * probs.get(b, 0.0) + bluff * mass * blind.get(b, 0.0)
        kept = {a: p for a, p in probs.items() if p >= s.floor}
        if not kept:  # every action below the floor: keep the likeliest
            best = max(probs, key=lambda a: probs[a])
            kept = {best: 1.0}
        norm = math.fsum(kept.values())
        return {a: p / norm for a, p in kept.items()}
