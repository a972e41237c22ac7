"""``prob``: decides by the exact chances of :mod:`perudo.bots.probability`, nothing more.

From its own dice, the dice shown face up (V-9), the wild rule (P-15, V-2) and palifico
(P-31) it knows the exact chance that any bid is true, treating every unseen die as a fair
die (binomial); it does not read anything into the other players' bids. Each legal action
gets a *utility*, roughly its chance of not costing a die:

* a raise ``b``: the chance ``b`` is true (the risk if the next player calls dudo on it);
* dudo: the chance the standing bid is false (P-20), or that a pass is false (V-10);
* calza (V-7 ``to_act``): the chance the bid is exact (P-51), with a bonus when a die can be
  won back;
* a pass (V-10): near-certain when its dice are all different, small otherwise;
* setting aside (V-9): the best raise's chance once the dice that fit a face are shown and the
  rest re-rolled.

:meth:`ProbBot.policy` turns the utilities into probabilities with a softmax of temperature
``temperature`` (low: near-greedy), and :meth:`ProbBot.act` samples from it with the bot's
seeded generator, so a game replays exactly. Out of turn it calls calza (P-50) when the bid is
exact with chance at least ``calza_threshold`` and it can win a die back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from perudo.core import (
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    Pass,
    PlayerAction,
    PlayerView,
    SetAside,
    count_hand,
)

from .base import BotBase
from .probability import binomial_pmf, count_distribution, known_count, match_chance, tail_of

__all__ = ["ProbBot", "pass_truth_prior", "sample_policy", "softmax_rows"]

Matrix = npt.NDArray[np.float64]


def sample_index(weights: Iterable[float], u: float) -> int:
    """The index at cumulative weight ``u`` (``0 <= u < 1``); the last one if rounding leaves
    the sum under ``u``."""
    acc = 0.0
    i = -1
    for i, p in enumerate(weights):
        acc += float(p)
        if u < acc:
            return i
    if i < 0:
        raise ValueError("an empty policy has no action to sample")
    return i


def sample_policy(policy: Mapping[PlayerAction, float], u: float) -> PlayerAction:
    """The action at cumulative probability ``u`` (``0 <= u < 1``) in ``policy``'s order."""
    actions = list(policy)
    return actions[sample_index(policy.values(), u)]


def softmax(
    utilities: Mapping[PlayerAction, float], temperature: float
) -> dict[PlayerAction, float]:
    """Probabilities ``∝ exp(u / temperature)``; negligible ones (< 1e-9) dropped."""
    if not utilities:
        return {}
    top = max(utilities.values())
    if temperature <= 0:
        best = [a for a, u in utilities.items() if u == top]
        return {a: 1.0 / len(best) for a in best}
    weights = {a: math.exp((u - top) / temperature) for a, u in utilities.items()}
    total = sum(weights.values())
    kept = {a: w / total for a, w in weights.items() if w / total >= 1e-9}
    norm = sum(kept.values())
    return {a: w / norm for a, w in kept.items()}


def softmax_rows(utilities: Matrix, temperature: float) -> Matrix:
    """:func:`softmax` of each row (``temperature > 0``), negligible entries dropped alike."""
    top = utilities.max(axis=1, keepdims=True)
    weights = np.exp((utilities - top) / temperature)
    probs = weights / weights.sum(axis=1, keepdims=True)
    probs[probs < 1e-9] = 0.0
    out: Matrix = probs / probs.sum(axis=1, keepdims=True)
    return out


def pass_truth_prior(faces: int, hidden: int, shown: Sequence[int]) -> float:
    """Chance that a hand of ``hidden`` fair dice plus ``shown`` dice is all different (V-10)."""
    if len(set(shown)) != len(shown):
        return 0.0
    p = 1.0
    for i in range(hidden):
        p *= max(0, faces - len(shown) - i) / faces
    return p


class ProbBot(BotBase):
    """Bids, doubts and calls calza by exact probabilities; see the module docstring."""

    name = "prob"

    def __init__(
        self,
        seed: int | None = None,
        *,
        temperature: float = 0.02,
        calza_threshold: float = 0.42,
        pass_bluff_rate: float = 0.3,
        name: str | None = None,
    ) -> None:
        super().__init__(seed)
        self.temperature = temperature
        self.calza_threshold = calza_threshold
        self.pass_bluff_rate = pass_bluff_rate
        if name is not None:
            self.name = name

    # -- the policy ---------------------------------------------------------------------

    def count_pmf(self, view: PlayerView, face: int) -> Sequence[float]:
        """``P(count = c)`` of the dice counting toward ``face``, as this bot estimates it: the
        exact chances of its own view (:func:`~perudo.bots.probability.count_distribution`)."""
        return count_distribution(view, face)

    def utilities(self, view: PlayerView) -> dict[PlayerAction, float]:
        """Each legal action's utility (about: its chance of not costing this seat a die)."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action now ({view.phase.value})")
        rules = view.rules
        seat = view.seat
        assert seat is not None
        total = view.total_dice
        tails: dict[int, tuple[float, ...]] = {}

        def chance(bid: Bid) -> float:
            tail = tails.get(bid.face)
            if tail is None:
                tail = tails[bid.face] = tail_of(self.count_pmf(view, bid.face))
            return tail[bid.quantity] if bid.quantity <= total else 0.0

        out: dict[PlayerAction, float] = {}
        asides: list[SetAside] = []
        for action in view.legal:
            if isinstance(action, Bid):
                out[action] = chance(action)
            elif isinstance(action, Dudo):
                out[action] = 1.0 - self._standing_chance(view, chance)
            elif isinstance(action, Calza):
                assert view.bid is not None
                exact = self.count_pmf(view, view.bid.face)[view.bid.quantity]
                gain = view.dice_counts[seat] < rules.dice_per_player
                out[action] = exact * (1.5 if gain else 1.0)
            elif isinstance(action, Pass):
                full = view.hand + view.shown[seat]
                out[action] = 0.97 if len(set(full)) == len(full) else 0.15
            elif isinstance(action, ChoosePalifico):
                # P-34: a palifico round (aces not wild, face locked) suits the lone die.
                out[action] = 0.6 if action.palifico else 0.5
            elif isinstance(action, SetAside):
                asides.append(action)
        if asides:
            out.update(self._aside_utilities(view, asides))
        return out

    def utility_rows(self, view: PlayerView, hands: Sequence[Sequence[int]]) -> Matrix:
        """:meth:`utilities` for every hand at once: row ``i`` is what they are where the
        view's seat holds ``hands[i]`` instead of its own, columns in the order of
        ``view.legal``. The chances of the unseen dice do not depend on the hand held, so
        they are worked out once and each hand shifts them by the dice it holds that count
        toward the face (P-15, P-31, V-11).

        :raises ValueError: if the seat may do more than bid or doubt a bid (P-20), or dice
            are shown (V-9): those are valued per hand by :meth:`utilities`.
        """
        seat = view.seat
        if seat is None or not view.legal:
            raise ValueError("utility rows need a seat to act")
        if view.passer is not None or any(view.shown):
            raise ValueError(
                "utility rows value bids and dudo on a bid, with no dice shown (P-20, V-9)"
            )
        rules, total = view.rules, view.total_dice
        tails: dict[int, tuple[Matrix, npt.NDArray[np.intp]]] = {}

        def chance(bid: Bid) -> Matrix:
            found = tails.get(bid.face)
            if found is None:
                pmf = self.count_pmf(view, bid.face)
                unseen = pmf[known_count(view, bid.face) :]
                held = np.array(
                    [count_hand(rules, tuple(h), bid.face, view.palifico) for h in hands],
                    dtype=np.intp,
                )
                found = tails[bid.face] = (np.array(tail_of(unseen), dtype=np.float64), held)
            tail, held = found
            if bid.quantity > total:
                return np.zeros(len(hands))
            at: Matrix = tail[np.clip(bid.quantity - held, 0, len(tail) - 1)]
            return at

        columns: list[Matrix] = []
        for action in view.legal:
            if isinstance(action, Bid):
                columns.append(chance(action))
            elif isinstance(action, Dudo) and view.bid is not None:
                columns.append(1.0 - chance(view.bid))
            else:
                raise ValueError(f"utility rows value bids and dudo only, not {action!r}")
        return np.stack(columns, axis=1)

    def policy_rows(self, view: PlayerView, hands: Sequence[Sequence[int]]) -> Matrix:
        """:meth:`policy` for every hand at once (rows: ``hands``; columns: ``view.legal``;
        see :meth:`utility_rows`)."""
        return softmax_rows(self.utility_rows(view, hands), self.temperature)

    def _standing_chance(self, view: PlayerView, chance: Callable[[Bid], float]) -> float:
        """Chance the claim being doubted holds: the bid (P-20) or a pass (V-10)."""
        if view.passer is not None:
            passer = view.passer
            shown = view.shown[passer]
            hidden = view.dice_counts[passer] - len(shown)
            prior = pass_truth_prior(view.rules.faces, hidden, shown)
            # A pass that is false is a bluff; players mostly pass when it is true.
            return prior / (prior + (1.0 - prior) * self.pass_bluff_rate) if prior else 0.0
        assert view.bid is not None
        return chance(view.bid)

    def _aside_utilities(
        self, view: PlayerView, asides: Sequence[SetAside]
    ) -> dict[PlayerAction, float]:
        """V-9: show the dice that fit a face, re-roll the rest, then raise on that face."""
        rules = view.rules
        legal_set = set(asides)
        lowest: dict[int, int] = {}
        for action in view.legal:
            if isinstance(action, Bid) and action.face not in lowest:
                lowest[action.face] = action.quantity
        wild = None if view.palifico else rules.wild_face
        out: dict[PlayerAction, float] = {}
        for face, quantity in lowest.items():
            fits = tuple(d for d in view.hand if d == face or (wild is not None and d == wild))
            aside = SetAside(fits) if fits else None
            if aside is None or aside not in legal_set:
                continue
            rerolled = len(view.hand) - len(fits)
            dist = self.count_pmf(view, face)
            extra = binomial_pmf(rerolled, match_chance(rules, face, view.palifico))
            merged = [0.0] * (len(dist) + rerolled)
            for i, x in enumerate(dist):
                for j, y in enumerate(extra):
                    merged[i + j] += x * y
            tail = tail_of(merged)
            # Showing dice tells the table what you hold: a small price.
            out[aside] = (tail[quantity] if quantity < len(tail) else 0.0) - 0.03
        return out

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The probability of each legal action for the seat to act (the ones it may take)."""
        return softmax(self.utilities(view), self.temperature)

    # -- the Bot protocol ---------------------------------------------------------------

    def act(self, view: PlayerView) -> PlayerAction:
        return sample_policy(self.policy(view), self.rng.random())

    def calza_chance(self, view: PlayerView) -> float:
        """Chance the standing bid is exact, as this seat knows it (P-51)."""
        if view.bid is None:
            return 0.0
        return self.count_pmf(view, view.bid.face)[view.bid.quantity]

    def call_calza(self, view: PlayerView) -> bool:
        """Out of turn (P-50): call when exact with chance ``calza_threshold`` and a die can
        be won back (P-51 caps a hand at the starting number)."""
        if not self.can_calza_out_of_turn(view) or view.seat is None:
            return False
        if view.dice_counts[view.seat] >= view.rules.dice_per_player:
            return False
        return self.calza_chance(view) >= self.calza_threshold
