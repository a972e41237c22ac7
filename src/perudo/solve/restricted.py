"""Restricted Nash responses on the abstraction: tables that take more from a modelled player
while losing at most a bounded amount to anyone.

An equilibrium table takes only what an opponent's mistakes hand it. A *restricted Nash
response* (Johanson, Zinkevich and Bowling, "Computing robust counter-strategies", 2008) is
solved in a game where, before the round and unseen by anyone, the other player is dealt the
fixed *model* with probability ``share`` and plays freely otherwise. The responder's strategy
then maximises ``share · (value against the model) + (1 − share) · (value against its best
response)``: at ``share`` 0 it is the equilibrium, at 1 a best response to the model, and in
between each point is the most the model can be beaten for a given worst case (the curve is
traced by ``share``).

Here the model is any player that states its action probabilities (``policy(view)``, views
built by the core, P-70): :func:`tabulate_model` asks it, for each abstract state and each of
its hands, at the view of a shortest history reaching that state. A player that reads no
more of the history than the abstraction keeps — ``balanced`` (``hard`` from 2v2 up) reads
its hand, the bid to answer and the other seat's latest bid, which is that bid — is tabulated
exactly. :func:`restricted_response` solves one response per seat and puts each seat's
strategy in one :class:`~perudo.solve.abstract.AbstractStrategy`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from perudo.core import Bid, Dudo
from perudo.core import view as view_of

from .abstract import AbstractCFR, AbstractStrategy, Method
from .game import RoundGame
from .reference import Policy
from .vector import Array

__all__ = ["combine", "responder", "restricted_response", "tabulate_model", "value_against"]


def tabulate_model(cfr: AbstractCFR, policy: Policy, player: int) -> tuple[Array, Array]:
    """``player``'s strategy on ``cfr``'s graph as ``policy`` states it: ``(raises, dudo)``,
    per edge and per state of ``player`` (the shapes :meth:`AbstractCFR.restrict` takes).

    Each state is asked at the view of the shortest history reaching it
    (:attr:`AbstractCFR.paths`), with every hand of ``player``; the other hand (never shown,
    P-70) is any.

    :raises ValueError: if the policy gives weight to an action the round does not have there.
    """
    g = cfr.game
    edges = cfr.edges[player]
    slot = {(int(cfr.src[e]), int(cfr.rank[e])): i for i, e in enumerate(edges)}
    hands = g.hands[player].hands
    filler = g.hands[1 - player].hands[0]
    raises = np.zeros((len(edges), len(hands)))
    dudo = np.zeros((len(cfr.nodes[player]), len(hands)))
    for local, s in enumerate(cfr.nodes[player]):
        history = cfr.paths[int(s)]
        rows = cfr.local_src[player] == local
        said = ", ".join(str(g.bids[r]) for r in history) or "no bid yet"
        for i, hand in enumerate(hands):
            pair = (hand, filler) if player == 0 else (filler, hand)
            state = g.play(pair[0], pair[1], history)
            probs = policy(view_of(state, player))
            total = 0.0
            for action, pr in probs.items():
                if pr <= 0.0:
                    continue
                if isinstance(action, Dudo) and cfr.dudo_ok[player][local]:
                    dudo[local, i] += pr
                elif isinstance(action, Bid) and (int(s), g.ranks.get(action, -1)) in slot:
                    raises[slot[(int(s), g.ranks[action])], i] += pr
                else:
                    raise ValueError(
                        f"the model plays {action} after {said}, which the round does not "
                        "allow there"
                    )
                total += pr
            if total <= 0.0:
                raise ValueError(f"the model states no action after {said}")
            dudo[local, i] /= total
            raises[rows, i] /= total
    return raises, dudo


def combine(first: AbstractStrategy, second: AbstractStrategy) -> AbstractStrategy:
    """The opener's strategy of ``first`` with the responder's of ``second`` (same round and
    abstraction), with ``first``'s info."""
    if first.states != second.states or first.fingerprint != second.fingerprint:
        raise ValueError("the two strategies are not of the same round and abstraction")
    return AbstractStrategy(
        first.game,
        first.memory,
        first.states,
        [first.edge_src[0], second.edge_src[1]],
        [first.edge_rank[0], second.edge_rank[1]],
        [first.raises[0], second.raises[1]],
        [first.dudo[0], second.dudo[1]],
        dict(first.info),
    )


def responder(
    game: RoundGame, memory: int, policy: Policy, seat: int, share: float, *, method: Method
) -> AbstractCFR:
    """A solver (before its first iteration) of ``seat``'s restricted Nash response to
    ``policy`` playing the other seat, at weight ``share``."""
    cfr = AbstractCFR(game, memory, method=method)
    other = 1 - seat
    cfr.restrict(other, share, *tabulate_model(cfr, policy, other))
    return cfr


def restricted_response(
    game: RoundGame,
    memory: int,
    policy: Policy,
    share: float,
    *,
    method: Method = "dcfr",
    drive: Callable[[AbstractCFR, int], None],
) -> tuple[AbstractStrategy, list[int]]:
    """Each seat's restricted Nash response to ``policy`` in the other seat, at weight
    ``share``, as one strategy: the opener's strategy from the solve in which the second seat
    is modelled, the second seat's from the solve in which the opener is; and each solve's
    iterations.

    ``drive(cfr, seat)`` runs a solve's iterations (as many, and reported, as the caller
    wants).
    """
    solved: list[AbstractStrategy] = []
    done: list[int] = []
    for seat in (0, 1):
        cfr = responder(game, memory, policy, seat, share, method=method)
        drive(cfr, seat)
        solved.append(AbstractStrategy.from_cfr(cfr))
        done.append(cfr.iterations)
    return combine(solved[0], solved[1]), done


def value_against(strategy: AbstractStrategy, policy: Policy) -> tuple[float, float]:
    """What ``strategy`` wins a round against ``policy`` in the other seat, exactly (both are
    strategies of the abstraction's states: the policy as :func:`tabulate_model` states it):
    ``(as the opener, as the responder)``."""
    cfr = AbstractCFR(strategy.game, strategy.memory)
    same = cfr.states == strategy.states and all(
        np.array_equal(cfr.src[cfr.edges[p]], strategy.edge_src[p])
        and np.array_equal(cfr.rank[cfr.edges[p]], strategy.edge_rank[p])
        for p in (0, 1)
    )
    if not same:
        raise ValueError("the strategy is not on this round's abstract graph")
    mine_r = [strategy.raises[p].astype(np.float64) for p in (0, 1)]
    mine_d = [strategy.dudo[p][cfr.nodes[p]].astype(np.float64) for p in (0, 1)]
    model = [tabulate_model(cfr, policy, p) for p in (0, 1)]
    as_opener = cfr.value([mine_r[0], model[1][0]], [mine_d[0], model[1][1]])
    as_responder = -cfr.value([model[0][0], mine_r[1]], [model[0][1], mine_d[1]])
    return as_opener, as_responder
