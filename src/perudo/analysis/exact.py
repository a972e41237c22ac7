"""Exact action values where the shipped book solves the round (heads-up, up to three dice).

For a turn of a round the :class:`~perudo.solve.expert.StrategyBook` holds, the value of each
legal action for the seat to act is its expected payoff against the other player's
equilibrium strategy, given the seat's own hand and the bids so far only: the other player's
hands are weighed by their chance and by the probability the equilibrium gave each of its bids
(its *reach*). After the action the seat is assumed to play its best reply (a best-response
pass of :class:`~perudo.solve.vector.Kernel`, the solver's own), so every action has a value
even where the equilibrium never takes it; at an equilibrium the actions it mixes have the same
value, the best one.

The book's rounds are solved with the match's payoffs, ``2·W − 1`` with ``W`` the opener's
chance to win the game (:mod:`perudo.solve.match`), so a difference of action values halved is
a difference of chances to win the game. A round has two outcomes (one player or the other
loses a die), so its payoff is ``a·u + b`` of the ±1 payoff ``u`` of the round: dividing by
``2·a`` gives the difference of chances to win the round.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from perudo.core import Bid, Dudo, PlayerAction, PlayerView
from perudo.solve.expert import StrategyBook
from perudo.solve.game import RoundGame
from perudo.solve.packed import PackedRound
from perudo.solve.solution import PlayedRound, Solution
from perudo.solve.vector import Array, Kernel, Profile

__all__ = ["ExactValues", "exact_values", "opponent_posterior"]


@dataclass(frozen=True)
class ExactValues:
    """Each legal action's value at one turn of a solved round, for the seat to act."""

    values: dict[PlayerAction, float]
    """Expected payoff in the round's units (match rounds: ``2·W − 1`` of the game)."""
    policy: dict[PlayerAction, float]
    """The equilibrium's mixed strategy at this turn."""
    round_scale: float
    """``a``: the payoff of winning the round less that of losing it, halved."""

    def game_loss(self, action: PlayerAction) -> float:
        """The chance of winning the game given up by ``action`` against the best action."""
        return (max(self.values.values()) - self.values[action]) / 2.0

    def round_loss(self, action: PlayerAction) -> float:
        """The chance of winning the round given up by ``action`` against the best action."""
        return (max(self.values.values()) - self.values[action]) / (2.0 * self.round_scale)

    @property
    def best(self) -> PlayerAction:
        """The expert's choice: its most likely action (every action it mixes is worth the
        most, up to the solve's precision)."""
        if self.policy:
            return max(self.policy, key=lambda a: self.policy[a])
        return max(self.values, key=lambda a: self.values[a])


@dataclass(frozen=True)
class _Tables:
    """A round's figures for one player ``u`` against the other's equilibrium."""

    dudo: Array
    """``u``'s counterfactual value of calling dudo at each of its nodes, per hand."""
    child: Array
    """``u``'s counterfactual value at each of the other player's nodes (after ``u`` raised),
    with ``u`` playing its best reply from there on."""
    norm: Array
    """The other player's reach at each of ``u``'s nodes, summed over its hands."""
    reach: Array
    """The other player's reach at each of ``u``'s nodes, per hand of the other player."""


_CACHE: OrderedDict[tuple[int, int], _Tables] = OrderedDict()
_CACHE_SIZE = 4
_LOCK = threading.Lock()


def _profile(sol: PlayedRound) -> Profile:
    if isinstance(sol, Solution):
        return sol.profile
    assert isinstance(sol, PackedRound)
    return sol.profile()


def _tables(sol: PlayedRound, u: int) -> _Tables:
    key = (id(sol), u)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    k = Kernel(sol.game)
    prof = _profile(sol)
    q = 1 - u
    reach_q = k.reach(q, prof.raises[q])
    values = k.terminal(u, reach_q, prof.dudo[q], k.stacked(u))
    dudo = values[u].copy()
    _, values = k.best_response(u, reach_q, prof.dudo[q], values)
    tables = _Tables(dudo, values[q], reach_q[u].sum(axis=1), reach_q[u])
    with _LOCK:
        _CACHE[key] = tables
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return tables


def _locate(game: RoundGame, view: PlayerView) -> tuple[int, int, int]:
    """``(player, node, hand)`` of a turn of ``game``'s round."""
    player = 0 if view.seat == view.opener else 1
    ranks = [game.ranks[a] for _, a in view.actions if isinstance(a, Bid)]
    p, node = game.node_of(ranks)
    if p != player:
        raise ValueError("the view's history does not put this seat to act")
    return player, node, game.hands[p].index[tuple(sorted(view.hand))]


def exact_values(view: PlayerView, book: StrategyBook) -> ExactValues | None:
    """The exact values at ``view`` (the seat to act's own view, P-70), or ``None`` where the
    book does not hold the round or the other player's bids are ones its equilibrium never
    makes (its reach there is zero: no posterior to weigh its hands by)."""
    if view.seat is None or not view.my_turn:
        return None
    sol = book.find(view)
    if sol is None:
        return None
    game = sol.game
    u, node, hand = _locate(game, view)
    t = _tables(sol, u)
    norm = float(t.norm[node])
    if not norm > 1e-12:
        return None
    values: dict[PlayerAction, float] = {}
    lr = game.raise_legal[u]
    top = int(game.top[u][node])
    if u == 0 and node == 0 and lr[0]:
        values[game.bids[0]] = float(t.child[0, hand]) / norm
    for r in range(max(top, 0) + 1, game.num_bids):
        e = game.edge_of(node, r)
        if lr[e]:
            values[game.bids[r]] = float(t.child[e, hand]) / norm
    if game.dudo_legal[u][node]:
        values[Dudo()] = float(t.dudo[node, hand]) / norm
    scale = float(np.max(game.utility) - np.min(game.utility)) / 2.0
    return ExactValues(values, sol.policy(view), scale if scale > 0.0 else 1.0)


def opponent_posterior(view: PlayerView, book: StrategyBook) -> tuple[RoundGame, Array] | None:
    """At a turn of a solved round: the round and the chance of each of the other player's
    hands given the bids (its equilibrium reach, normalized), or ``None`` as
    :func:`exact_values` would be."""
    if view.seat is None or not view.my_turn:
        return None
    sol = book.find(view)
    if sol is None:
        return None
    u, node, _ = _locate(sol.game, view)
    t = _tables(sol, u)
    norm = float(t.norm[node])
    if not norm > 1e-12:
        return None
    return sol.game, t.reach[node] / norm
