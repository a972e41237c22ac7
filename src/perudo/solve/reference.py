"""Best responses walked through the core's own game tree: the slow, independent check.

Nothing here uses the solver's tree, tables or arrays. Dice are every ordered roll
(``itertools.product``), states come from :func:`perudo.core.start_round` and
:func:`perudo.core.apply`, the legal actions from :func:`perudo.core.legal_actions`, what a
player knows from :func:`perudo.core.view`, and a challenge is settled by ``apply(…, Dudo())``
and scored by the same payoff function. The opponent's strategy is a *policy*: a function
from its view to action probabilities, exactly what a bot states.

Meant for small rounds (one or two dice of few faces): the walk visits every history once per
pair of hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from perudo.core import GameState, Phase, PlayerAction, PlayerView, RuleSet, apply, legal_actions
from perudo.core import view as view_of
from perudo.core.engine import start_round

from .game import Payoff, round_payoff

__all__ = ["Policy", "reference_best_response", "reference_value"]

Policy = Callable[[PlayerView], Mapping[PlayerAction, float]]
"""A player's action probabilities given its view (bots with ``policy(view)``)."""


def _rolls(faces: int, dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Every distinct sorted hand with its chance, counted over ordered rolls (P-3)."""
    counts = Counter(
        tuple(sorted(roll)) for roll in itertools.product(range(1, faces + 1), repeat=dice)
    )
    total = faces**dice
    return [(hand, n / total) for hand, n in sorted(counts.items())]


def _start(
    rules: RuleSet,
    hands: Sequence[tuple[int, ...]],
    palifico: bool,
    palifico_used: tuple[bool, bool],
) -> GameState:
    return start_round(
        rules,
        list(hands),
        opener=0,
        palifico=palifico,
        palifico_used=[s for s in (0, 1) if palifico_used[s]],
    )


def _round_over(state: GameState) -> bool:
    return state.phase is not Phase.BIDDING


def reference_best_response(
    rules: RuleSet,
    dice: tuple[int, int],
    responder: int,
    policy: Policy,
    *,
    palifico: bool = False,
    palifico_used: tuple[bool, bool] = (False, False),
    payoff: Payoff = round_payoff,
) -> float:
    """The best-response value of seat ``responder`` (0: the opener) against the other seat
    playing ``policy``, in ``responder``'s payoff units (the opener's payoff, negated for
    seat 1)."""
    other = 1 - responder
    sign = 1.0 if responder == 0 else -1.0
    mine = _rolls(rules.faces, dice[responder])
    theirs = _rolls(rules.faces, dice[other])

    def walk(states: list[GameState], reach: list[float]) -> float:
        first = states[0]
        if _round_over(first):
            return sign * sum(w * payoff(s) for s, w in zip(states, reach, strict=True) if w)
        actions = list(legal_actions(first))
        if first.to_act == responder:
            return max(walk([apply(s, a)[0] for s in states], reach) for a in actions)
        total = 0.0
        probs = [policy(view_of(s, other)) if w else {} for s, w in zip(states, reach, strict=True)]
        for a in actions:
            nxt = [w * pr.get(a, 0.0) for w, pr in zip(reach, probs, strict=True)]
            if any(nxt):
                total += walk([apply(s, a)[0] for s in states], nxt)
        return total

    value = 0.0
    for hand, chance in mine:
        states = []
        for their_hand, _ in theirs:
            pair = [hand, their_hand] if responder == 0 else [their_hand, hand]
            states.append(_start(rules, pair, palifico, palifico_used))
        value += chance * walk(states, [c for _, c in theirs])
    return value


def reference_value(
    rules: RuleSet,
    dice: tuple[int, int],
    policies: tuple[Policy, Policy],
    *,
    palifico: bool = False,
    palifico_used: tuple[bool, bool] = (False, False),
    payoff: Payoff = round_payoff,
) -> float:
    """The opener's expected payoff when seat ``s`` plays ``policies[s]``."""

    def walk(state: GameState) -> float:
        if _round_over(state):
            return payoff(state)
        seat = state.to_act
        assert seat is not None
        legal = set(legal_actions(state))
        total = 0.0
        for a, pr in policies[seat](view_of(state, seat)).items():
            if pr > 0.0:
                if a not in legal:
                    raise ValueError(f"policy of seat {seat} gives illegal {a} weight {pr}")
                total += pr * walk(apply(state, a)[0])
        return total

    value = 0.0
    for h0, c0 in _rolls(rules.faces, dice[0]):
        for h1, c1 in _rolls(rules.faces, dice[1]):
            value += c0 * c1 * walk(_start(rules, [h0, h1], palifico, palifico_used))
    return value
