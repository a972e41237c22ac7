"""How far to trust a switch to the wild face: each opponent's switch-bluff rate, learned
online from the hands revealed at calls (safe exploitation, issue "An expert no one can read",
points 1 and 3).

:class:`~perudo.bots.beliefs.Beliefs` reads every bid as the choice of a player who bids by the
exact chances its hand gives it (:class:`~perudo.bots.beliefs.BidModel`). A switch from an
ordinary face to the wild one (P-15's conversion to aces) is then read as a hand rich in aces:
only such a hand makes the aces bid the likeliest raise. A player who switches to aces whenever
the aces bid is merely plausible (the ``raises-aces`` deviation, :mod:`perudo.bots.deviations`)
is read wrong by the whole table: the seats after it believe the aces are there and climb,
and the switcher calls them later. That habit took 31.1% of 1,000 four-seat games from three
``expert``s reading every switch as honest (fair 25%, docs/bots.md).

Here a switch's likelihood is a mixture of two players:

* the *honest* bidder of the bid model: its chance of the switch from each hand;
* a *hand-blind* switcher: the same overall chance of the switch, whatever the hand holds
  (the honest chance averaged over the hands the switcher may hold): the switch says nothing.

The share of the hand-blind switcher is the opponent's **switch-bluff rate** ``β``, learned as
:mod:`perudo.bots.openings` learns the opening-bluff rate (the same two types, honest and
habitual, the same :class:`~perudo.bots.openings.OpeningTrust` prior, ceiling and bound,
:class:`~perudo.bots.openings.TellReader`): each revealed switch multiplies the odds of the
habitual type by the ratio of the two types' chances of it given the hand revealed. A switch
from a hand with the aces that make it likely lowers the odds; a switch from a hand without
them raises them.

**The evidence, and its approximations.** For a switch revealed at the call that ended its
round (P-21), the honest chance is the model's naive bidder's (its own hand and the dice it
cannot see, binomial; the raises after the standing bid and the call, softmax at the model's
temperature, the model's share of uniform choices), from the revealed hand; the blind chance
is the same averaged over the chance of rolling each hand. The earlier bids of the round, which
also said something of the hand, are not weighed here: an honest switcher's evidence is then a
little weaker than it could be, never stronger. Only each seat's first switch of a round is
read; rounds with a pass (V-10) or dice set aside (V-9) before the switch, palifico rounds
(P-30: no face is wild, P-31) and rounds of fewer than
:attr:`~perudo.bots.openings.OpeningTrust.min_seats` seats are not read. Only what the
seat's view shows is read (P-70); no generator is drawn.

**The bound.** ``β`` lies in ``[prior, ceiling]`` whatever an opponent shows, as the opening
rate does: at worst ``expert`` reads every switch of a player with the ceiling's share of
blindness (a switch then sharpens the belief in that seat's aces less, never more than the
model's), and the other bids are read as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from perudo.core import Bid, Pass, RoundRecord, RuleSet, SetAside, count_hand

from .beliefs import (
    BidModel,
    FloatArray,
    IntArray,
    _raise_arrays,
    hand_space,
    is_switch,
    matching_counts,
    naive_tails,
    raise_choice,
)
from .openings import OpeningTrust, TellReader

__all__ = ["SwitchReader", "switch_chances", "switch_evidence"]


class SwitchReader(TellReader):
    """Each opponent's switch-bluff rate, updated from a seat's views as rounds end."""

    __slots__ = ()

    def __init__(self, trust: OpeningTrust, model: BidModel) -> None:
        def evidence(
            rules: RuleSet, record: RoundRecord, counts: tuple[int, ...]
        ) -> Sequence[tuple[int, float, float]]:
            return switch_evidence(rules, record, counts, model, trust.min_seats)

        super().__init__(trust, evidence)


def switch_evidence(
    rules: RuleSet,
    record: RoundRecord,
    counts: tuple[int, ...],
    model: BidModel,
    min_seats: int = 3,
) -> list[tuple[int, float, float]]:
    """``(seat, honest, blind)`` for each seat's first switch to the wild face in a finished
    round that opened with ``counts`` dice per seat, where the seat's hand was revealed at the
    call (P-21): the honest and the hand-blind switcher's chance of it (see the module
    docstring for the rounds not read)."""
    if record.palifico or sum(1 for c in counts if c) < min_seats:
        return []
    hands = {r.seat: r.hand for r in record.result.reveals}
    total = sum(counts)
    out: list[tuple[int, float, float]] = []
    read: set[int] = set()
    prev: Bid | None = None
    plain = True  # no pass or dice set aside since the standing bid
    for seat, action in record.actions:
        if isinstance(action, Bid):
            if (
                prev is not None
                and plain
                and seat not in read
                and is_switch(rules, prev, action, False)
            ):
                read.add(seat)
                hand = hands.get(seat)
                if hand is not None and len(hand) == counts[seat]:
                    out.append((seat, *switch_chances(rules, hand, total, prev, action, model)))
            prev = action
            plain = True
        elif isinstance(action, Pass | SetAside):
            plain = False
            if isinstance(action, SetAside):
                read.add(seat)
    return out


def switch_chances(
    rules: RuleSet, hand: tuple[int, ...], total: int, prev: Bid, bid: Bid, model: BidModel
) -> tuple[float, float]:
    """The honest and the hand-blind switcher's chance of raising ``prev`` to ``bid`` from
    ``hand`` with ``total`` dice in play (not a palifico round), as the model's naive bidder
    weighs it (see the module docstring)."""
    dice = len(hand)
    q, f, index = _raise_arrays(rules, prev, total, False, dice == 1)
    i = index.get(bid)
    if i is None:
        raise ValueError(f"{bid} is not a legal raise of {prev} with {total} dice in play")
    unseen = total - dice
    tails = naive_tails(rules, unseen, False)

    def chances(m: IntArray) -> FloatArray:
        need = np.clip(q[None, :] - m[:, f], 0, unseen + 1)
        doubt = np.clip(prev.quantity - m[:, prev.face - 1], 0, unseen + 1)
        chosen = raise_choice(
            tails[f[None, :], need], 1.0 - tails[prev.face - 1, doubt], model.temperature, i
        )
        out: FloatArray = model.bluff / (len(q) + 1) + (1.0 - model.bluff) * chosen
        return out

    own = np.array([[count_hand(rules, hand, face, False) for face in range(1, rules.faces + 1)]])
    honest = float(chances(own)[0])
    every = matching_counts(rules, dice, (), False)
    blind = float(hand_space(rules.faces, dice).prior @ chances(every))
    return honest, blind
