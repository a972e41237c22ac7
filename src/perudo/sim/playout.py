"""Random playouts at speed: a whole game in plain integers, for the throughput benchmarks.

:func:`~perudo.core.apply` builds a new immutable state and its events for every action, which
is right for play and costs about 2 µs an action. The benchmarks (``perudo bench``,
``benchmarks/batch.py``) also measure how fast a game can go when nothing of that is needed:
:func:`random_playout` plays a game with mutable lists, drawing the legal bids from the same
tables as the engine (:func:`~perudo.core.bidding.raises_after`) and counting with the same
:func:`~perudo.core.bidding.count_hand`. Nothing else uses it: the bots, the arena and the
research code play through the core.

The policy is the reference random policy: every decision takes
``legal[rng.randrange(len(legal))]`` where ``legal`` is :func:`~perudo.core.legal_actions` for
the seat to act (no out-of-turn calza), and dice come from
:func:`~perudo.core.chance_action`. With the same generator a playout therefore makes exactly
the moves :func:`engine_playout` makes through the engine, move for move (tests/sim/
test_playout.py checks that on every rule set it supports). What it supports is the explicit
list :data:`SUPPORTS`; a rule set outside it — a set-aside (V-9), passing (V-10), or a
:class:`~perudo.core.RuleSet` field added after this module was written — is played through
the engine (:func:`engine_playout`) instead.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from perudo.core import (
    Bid,
    ChoosePalifico,
    GameState,
    PlayerAction,
    RuleSet,
    legal_actions,
    new_game,
    unsupported,
)
from perudo.core.actions import CALZA, DUDO
from perudo.core.bidding import bid_table, count_hand, raises_after
from perudo.core.rules import PLAIN_PLAY

from .driver import run

__all__ = ["SUPPORTS", "Playout", "engine_playout", "random_playout", "supports"]

# The random policy never calls calza out of turn (P-50); to_act is one of its actions.
SUPPORTS: Final[Mapping[str, object]] = PLAIN_PLAY
"""Every :class:`~perudo.core.RuleSet` field :func:`random_playout` plays, with the values it
plays (``...``: any); see :func:`perudo.core.unsupported`."""


@functools.cache
def supports(rules: RuleSet) -> bool:
    """Whether :func:`random_playout` plays ``rules`` itself (else it uses the engine)."""
    return not unsupported(rules, SUPPORTS)


@dataclass(frozen=True, slots=True)
class Playout:
    """The result of a random playout."""

    winner: int
    rounds: int
    decisions: int
    """Player actions taken (bids, challenges, choices)."""
    actions: tuple[tuple[int, PlayerAction], ...] | None = None
    """Every player action in order, when asked for."""


def engine_playout(
    rules: RuleSet,
    num_players: int,
    rng: random.Random,
    *,
    keep: bool = False,
    asking: bool = False,
) -> Playout:
    """A random playout through :func:`apply`, driven by :func:`perudo.sim.driver.run` as any
    simulation is (the reference for :func:`random_playout`). The reference random policy never
    calls calza out of turn (P-50), so the driver is told that nobody does (``calza=None``)
    and opens no window. With ``asking`` every window is opened and each seat in it declines:
    the same games move for move, at the cost that a simulation whose players may call calza
    pays for the windows (the ``windows`` figure of ``perudo bench``)."""
    actions: list[tuple[int, PlayerAction]] = []
    decisions = 0

    def act(state: GameState, seat: int) -> PlayerAction:
        nonlocal decisions
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        if keep:
            actions.append((seat, action))
        decisions += 1
        return action

    state = run(new_game(rules, num_players, rng), rng, act, _never if asking else None)
    assert state.winner is not None
    return Playout(state.winner, state.round - 1, decisions, tuple(actions) if keep else None)


def _never(state: GameState, seat: int) -> bool:
    return False  # the reference random policy never calls calza out of turn (P-50)


def random_playout(
    rules: RuleSet, num_players: int, rng: random.Random, *, keep: bool = False
) -> Playout:
    """Play one game with the reference random policy, fast; same moves as the engine
    (through the engine itself for a rule set outside :data:`SUPPORTS`).

    :raises ValueError: on a bad player count.
    """
    if not supports(rules):
        return engine_playout(rules, num_players, rng, keep=keep)
    if not rules.min_players <= num_players <= rules.max_players:
        raise ValueError(
            f"{num_players} players: these rules take {rules.min_players}–{rules.max_players}"
        )
    n = num_players
    dpp = rules.dice_per_player
    choices = rng.choices
    randrange = rng.randrange
    face_range = range(1, rules.faces + 1)
    log: list[tuple[int, PlayerAction]] | None = [] if keep else None
    append: Callable[[tuple[int, PlayerAction]], None] | None = (
        log.append if log is not None else None
    )

    while True:  # P-2 roll-off
        throw = choices(face_range, k=n)
        top = max(throw)
        if throw.count(top) == 1:
            opener = throw.index(top)
            break
    counts = [dpp] * n
    used = [False] * n
    n_in = n
    palifico = False
    rounds = 0
    decisions = 0
    calza_to_act = rules.calza == "to_act"
    calza_min = rules.calza_min_players
    one_loss = rules.loss == "one"
    loser_opens = rules.next_opener == "loser"
    palifico_rule = rules.palifico

    while True:
        rounds += 1
        hands = [choices(face_range, k=c) for c in counts]
        total = sum(counts)
        table = bid_table(rules, total, palifico)
        seat = opener
        seq: Sequence[Bid] = table.openings
        start = 0
        bid = None
        bidder = -1
        extra_calza = calza_to_act and n_in >= calza_min
        while True:
            n_bids = len(seq) - start
            k = randrange(n_bids) if bid is None else randrange(n_bids + 1 + extra_calza)
            decisions += 1
            if k < n_bids:
                bid = seq[start + k]
                if append is not None:
                    append((seat, bid))
                bidder = seat
                seat = (seat + 1) % n
                while counts[seat] == 0:
                    seat = (seat + 1) % n
                if table.rank_order and not palifico:
                    seq, start = table.bids, table.ranks[bid] + 1
                else:
                    seq, start = raises_after(
                        rules, bid, total, palifico=palifico, one_die=counts[seat] == 1
                    )
                continue
            break
        assert bid is not None
        q, face = bid.quantity, bid.face
        count = 0
        for h in hands:
            if h:
                count += count_hand(rules, h, face, palifico)
        if k == n_bids:  # dudo
            if append is not None:
                append((seat, DUDO))
            caller = seat
            if one_loss:
                if count >= q:
                    loser, winner = caller, bidder
                else:
                    loser, winner = bidder, caller
                counts[loser] -= 1
            elif count < q:
                loser, winner = bidder, caller
                counts[bidder] = max(0, counts[bidder] + count - q)
            elif count > q:
                loser, winner = caller, bidder
                counts[caller] = max(0, counts[caller] + q - count)
            else:
                loser, winner = caller, bidder
                for s in range(n):
                    if s != bidder and counts[s]:
                        counts[s] -= 1
            opener = loser if loser_opens else winner
        else:  # calza by the seat to act (V-7 to_act)
            if append is not None:
                append((seat, CALZA))
            if count == q:
                if counts[seat] < dpp:
                    counts[seat] += 1
            else:
                counts[seat] -= 1
            opener = seat
        n_in = sum(1 for c in counts if c)
        if n_in == 1:
            winner_seat = next(s for s in range(n) if counts[s])
            return Playout(winner_seat, rounds, decisions, tuple(log) if log is not None else None)
        while counts[opener] == 0:
            opener = (opener + 1) % n
        palifico = False
        if palifico_rule != "off" and counts[opener] == 1 and dpp > 1 and not used[opener]:
            if n_in == 2:
                if palifico_rule == "on":
                    used[opener] = True
                    decisions += 1
                    palifico = randrange(2) == 0
                    if append is not None:
                        append((opener, ChoosePalifico(palifico)))
            else:
                used[opener] = True
                palifico = True
