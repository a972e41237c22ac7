"""Estimated action values: the expert's rollouts under its beliefs.

Where no solved round covers a decision, each candidate action is valued by playing the round
out many times from the decision: the hidden hands of the other seats are drawn from the
``expert``'s beliefs given the bids so far (:class:`~perudo.bots.beliefs.Beliefs`, or, in a
heads-up round the book solves, the equilibrium's posterior: :func:`~.exact.opponent_posterior`),
the action is applied through the core, and every seat plays on as the ``expert`` would until
the round is settled (:func:`perudo.sim.driver.play_out_round`). A rollout scores 1 when the
analysed seat loses no die in the round.

Every candidate is played from the same drawn hands (common random numbers), so the loss of an
action against the expert's choice is the mean of paired differences, with a normal 95%
interval from their spread and the number of rollouts.

In the game's units, each rollout's outcome (the public position just after the round: who
lost or gained a die, who opens next) is valued by the analysed seat's chance to win the game
from it (:func:`.chances.seat_chance`: exact where the book's match values hold it, else the
dice-count model). The game loss is the mean of the paired differences of those chances, with
the same kind of interval.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from perudo.bots.base import Bot
from perudo.bots.beliefs import Beliefs, BidModel, hand_space
from perudo.bots.strong_bot import StrongBot
from perudo.core import (
    GameState,
    PlayerAction,
    PlayerView,
    apply,
    start_round,
    view,
)
from perudo.sim.driver import play_out_round
from perudo.solve.expert import ExpertBot, StrategyBook

from .chances import position_key, seat_chance
from .exact import opponent_posterior

__all__ = ["Estimate", "estimate_actions", "supported"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """The estimated loss of an action against a reference action, in chance of winning the
    round: its mean over paired rollouts and a 95% interval."""

    loss: float
    low: float
    high: float
    rollouts: int
    win: float
    """The action's own estimated chance of winning the round."""
    game_loss: float | None = None
    """The loss in chance of winning the game, where asked (:func:`.chances.seat_chance`)."""
    game_low: float | None = None
    game_high: float | None = None


def supported(v: PlayerView) -> bool:
    """Whether rollouts can start from ``v``: the seat's own turn with no dice set aside (V-9),
    whose hands are drawn afresh."""
    return (
        v.seat is not None
        and v.my_turn
        and v.phase.value == "bidding"
        and not any(v.shown)
        and not v.must_raise
    )


def _hands_of(counts: np.ndarray) -> list[tuple[int, ...]]:
    out = []
    for row in counts:
        hand: list[int] = []
        for f, c in enumerate(row):
            hand.extend([f + 1] * int(c))
        out.append(tuple(hand))
    return out


class _Sampler:
    """Draws every other seat's hidden hand given the view (P-70: from the view only)."""

    def __init__(self, v: PlayerView, book: StrategyBook) -> None:
        assert v.seat is not None
        self.view = v
        self.seats: list[tuple[int, list[tuple[int, ...]], np.ndarray]] = []
        post = opponent_posterior(v, book)
        if post is not None:
            game, probs = post
            other = next(s for s, c in enumerate(v.dice_counts) if c and s != v.seat)
            u = 0 if v.seat == v.opener else 1
            self.seats.append((other, list(game.hands[1 - u].hands), probs))
            return
        beliefs = Beliefs(v, BidModel())
        for s, b in beliefs.seats.items():
            space = hand_space(v.rules.faces, b.dice)
            self.seats.append((s, _hands_of(space.counts), b.weights()))

    def draw(self, rng: random.Random) -> list[tuple[int, ...]]:
        v = self.view
        hands: list[tuple[int, ...]] = [()] * v.num_players
        assert v.seat is not None
        hands[v.seat] = tuple(v.hand)
        for s, options, probs in self.seats:
            cum = np.cumsum(probs)
            i = int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))
            hands[s] = tuple(sorted(options[min(i, len(options) - 1)]))
        return hands


def state_of(v: PlayerView, hands: Sequence[Sequence[int]]) -> GameState:
    """The round of ``v`` with these hands, its actions so far replayed through the core."""
    state = start_round(
        v.rules,
        hands,
        opener=v.opener,
        palifico=v.palifico,
        palifico_used=[s for s, u in enumerate(v.palifico_used) if u],
        round=v.round,
    )
    for seat, action in v.actions:
        state, _ = apply(state, action, seat)
    return state


def estimate_actions(
    v: PlayerView,
    actions: Sequence[PlayerAction],
    reference: PlayerAction,
    *,
    rollouts: int,
    book: StrategyBook,
    seed: int = 0,
    fallback: Callable[[int], Bot] = StrongBot,
    game: bool = False,
) -> dict[PlayerAction, Estimate]:
    """Each action's estimated loss against ``reference`` (the expert's choice), from
    ``rollouts`` paired rollouts of the round (see the module docstring). The seats play as
    the ``expert`` does: the book where it holds the round, else ``fallback`` (by default
    ``strong``, the expert's own; the game analysis passes a faster one at larger tables).

    With ``game``, each estimate also carries the loss in chance of winning the game, each
    rollout's outcome valued by :func:`.chances.seat_chance`.

    :raises ValueError: where :func:`supported` says no.
    """
    if not supported(v):
        raise ValueError("rollouts start at a seat's own turn without dice set aside (V-9)")
    seat = v.seat
    assert seat is not None
    rng = random.Random(seed)
    sampler = _Sampler(v, book)
    cands = [reference, *[a for a in actions if a != reference]]
    wins = np.zeros((len(cands), rollouts))
    chances = np.zeros((len(cands), rollouts))
    known: dict[tuple[object, ...], float] = {}
    bots = [
        ExpertBot(seed + s, book=book, fallback=fallback(seed + s)) for s in range(v.num_players)
    ]

    def act(state: GameState, s: int) -> PlayerAction:
        return bots[s].act(view(state, s))

    def calza(state: GameState, s: int) -> bool:
        return bots[s].call_calza(view(state, s))

    for i in range(rollouts):
        start = state_of(v, sampler.draw(rng))
        before = start.dice_counts[seat]
        play_seed = rng.getrandbits(32)
        for j, a in enumerate(cands):
            for s, bot in enumerate(bots):
                bot.rng.seed(play_seed + s)
            after, _ = apply(start, a, seat)
            if after.round == start.round:
                after = play_out_round(after, random.Random(play_seed), act, calza)
            wins[j, i] = 1.0 if after.dice_counts[seat] >= before else 0.0
            if game:
                public = view(after, None)
                key = position_key(public)
                if key not in known:
                    known[key] = seat_chance(public, seat)[0]
                chances[j, i] = known[key]
    out: dict[PlayerAction, Estimate] = {}
    for j, a in enumerate(cands):
        mean, half = _paired(wins[0] - wins[j]) if rollouts else (0.0, math.inf)
        out[a] = Estimate(mean, mean - half, mean + half, rollouts, float(wins[j].mean()))
        if game and rollouts:
            g, g_half = _paired(chances[0] - chances[j])
            out[a] = dataclasses.replace(
                out[a], game_loss=g, game_low=g - g_half, game_high=g + g_half
            )
    return out


def _paired(diff: np.ndarray) -> tuple[float, float]:
    """The mean of paired differences and its 95% interval's half width."""
    n = len(diff)
    mean = float(diff.mean())
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    return mean, Z95 * sd / math.sqrt(n)
