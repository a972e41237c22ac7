"""Random playouts at speed: a whole game in plain integers, for benchmarks and rollouts.

:func:`apply` builds a new immutable state and its events for every action, which is right
for play and costs about 2 µs an action. Monte Carlo rollouts (bots) and throughput
benchmarks need whole games in a few microseconds, so this module plays a game with mutable
lists, drawing the legal bids from the same tables as the engine
(:func:`~perudo.core.bidding.raises_after`) and counting with the same
:func:`~perudo.core.bidding.count_hand`.

The policy is the reference random policy: every decision takes
``legal[rng.randrange(len(legal))]`` where ``legal`` is :func:`legal_actions` for the seat to
act, and dice come from :func:`~perudo.core.chance.chance_action`. With the same generator a
playout therefore makes exactly the moves the engine would make, move for move; the test suite
checks that on every preset it supports. Rule sets with set-aside (V-9) or passing (V-10) are
played through the engine itself (:func:`engine_playout`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import CALZA, DUDO, Bid, ChoosePalifico, PlayerAction
from .bidding import bid_table, count_hand, raises_after
from .chance import chance_action, new_game
from .engine import apply, legal_actions
from .rules import RuleSet

__all__ = ["Playout", "engine_playout", "random_playout"]


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
    rules: RuleSet, num_players: int, rng: random.Random, *, keep: bool = False
) -> Playout:
    """A random playout through :func:`apply` (the reference for :func:`random_playout`)."""
    state = new_game(rules, num_players, rng)
    actions: list[tuple[int, PlayerAction]] = []
    decisions = 0
    while state.winner is None:
        seat = state.to_act
        if seat is None:
            state = apply(state, chance_action(state, rng))[0]
            continue
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        if keep:
            actions.append((seat, action))
        decisions += 1
        state = apply(state, action)[0]
    return Playout(state.winner, state.round - 1, decisions, tuple(actions) if keep else None)


def random_playout(
    rules: RuleSet, num_players: int, rng: random.Random, *, keep: bool = False
) -> Playout:
    """Play one game with the reference random policy, fast; same moves as the engine.

    :raises ValueError: on a bad player count.
    """
    if rules.set_aside or rules.passing:
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
