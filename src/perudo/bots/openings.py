"""How far to trust an opening bid: each opponent's opening-bluff rate, learned online from the
hands revealed at calls (safe exploitation, issue "An expert no one can read", points 1 and 3).

:class:`~perudo.bots.beliefs.Beliefs` reads an opening bid as the choice of a player who bids by
the exact chances its hand gives it (:class:`~perudo.bots.beliefs.BidModel`), so an opening on
a face says the opener holds that face. A player who opens at the same quantity on a face it does
*not* hold (the ``weakest-face-opening`` deviation, :mod:`perudo.bots.deviations`) is then read
wrong by the whole table. Here an opening's likelihood is a mixture of two players:

* the *honest* opener of the bid model: ``P(q, f | hand)``, the softmax of the bids' chances;
* a *face-blind* opener: the quantity as the honest opener would choose it, the face at random
  among the legal bids of that quantity: ``P(q | hand) / n_q``
  (:func:`~perudo.bots.beliefs.opening_choice`).

The share of the face-blind opener is the opponent's **opening-bluff rate** ``β``. Each opponent
is one of two types: *honest*, opening at the rate :attr:`OpeningTrust.prior` (``expert``'s is
fitted by self-play with its mixed play, :mod:`perudo.bots.mixing`: the maximum-likelihood rate
of the fitted population's own openings; the default 0 reads an opening as the honest opener's,
as ``strong`` reads them), or
a *bluffer*, opening at the rate :attr:`OpeningTrust.ceiling`; a bluffer is a priori
:attr:`OpeningTrust.bluffers` of the players. Each opening whose hand was revealed at the call
that ended the round (P-21) multiplies the odds of the bluffer by the ratio of the two types'
chances of it, ``(c·blind + (1 − c)·honest) / (p·blind + (1 − p)·honest)``; the rate the
opponent's openings are read with is the posterior mean

    β = prior + (ceiling − prior) · P(bluffer | its revealed openings)

An opening the honest and the face-blind opener make alike (a low bid every face makes likely)
leaves the odds as they were; an opening on a face the hand holds well lowers them; an opening
on a face the hand lacks raises them.

**The bound, and how it is kept.** ``β`` lies in ``[prior, ceiling]`` by construction (a
mixture of the two types' rates), whatever an opponent shows: against a player who is not what
it looks like, ``expert`` can at worst read that player's openings with the ceiling's share of
face-blindness (flatter beliefs, never sharper than the model's own, and the bids after the
opening read as before), and it starts every game reading every opponent's openings at the
prior odds of a bluffer, even odds: a bluff in a game's first rounds, before any hand of the
bluffer was lifted, is then read with doubt already. Against a player who opens as the
model's honest opener does, or as ``expert`` does, the evidence lowers the odds, slowly (an
honest opening says little: about −0.3 nats on average), so the rate falls from half the
ceiling toward the prior over the game (``tests/bots/test_openings.py`` checks both sides);
against the weakest-face opener it climbs to the ceiling within a few revealed openings.

The learning is :class:`TellReader`'s, which :mod:`perudo.bots.switches` shares for the
switch-bluff rate (a switch to the wild face read as blind to the switcher's hand).

Only what the seat's view shows is read (P-70): the opener's first action, its whole hand from
the round's reveals (``RoundRecord.result.reveals``), the dice counts at the round's start
(walked back from the current counts through each round's ``changes``). Rounds with dice set
aside (V-9: the revealed hand is not the hand that opened), palifico rounds (P-30) and rounds of
two seats are not read. Everything is deterministic: no generator is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from perudo.core import Bid, PlayerView, RoundRecord, RuleSet, SetAside, count_hand

from .beliefs import _raise_arrays, naive_tails, opening_choice, same_quantity

__all__ = [
    "Evidence",
    "GameWatch",
    "OpeningReader",
    "OpeningTrust",
    "TellReader",
    "blind_share",
    "finished_rounds",
    "fixed_point",
    "log_odds",
    "opening_chances",
    "opening_evidence",
]

_TINY = 1e-300
"""Chances below this count as this (the log of a ratio stays finite)."""


@dataclass(frozen=True, slots=True)
class OpeningTrust:
    """The prior, weight and bound of the opening-bluff rates (see the module docstring)."""

    prior: float = 0.0
    """The rate every opponent starts at, and the floor of the estimate (``expert``'s:
    :attr:`perudo.bots.mixing.MixedPlay.reading_prior`, fitted by self-play; 0 reads openings
    as ``strong`` does)."""
    ceiling: float = 0.8
    """The bluffer's rate: the most face-blindness any opponent's openings are read with."""
    bluffers: float = 0.5
    """The prior chance that an opponent is a bluffer: even, so a stranger's openings are read
    with half the ceiling's face-blindness until its revealed hands say which it is (at 0.05
    the weakest-face opener took 29.8% of 4,000 four-seat games, docs/bots.md)."""
    min_seats: int = 3
    """Seats with dice from which openings are tempered and read (heads-up: the book's)."""
    max_seats: int | None = None
    """The largest table (seats dealt in, with dice or not) at which the rates are used
    (``None``: at every table): a game of more seats reads as ``strong`` does from its first
    round to its last."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.prior <= self.ceiling < 1.0 or not 0.0 < self.bluffers < 1.0:
            raise ValueError(
                f"opening trust needs 0 <= prior <= ceiling < 1 and 0 < bluffers < 1, not {self}"
            )
        if self.max_seats is not None and self.max_seats < self.min_seats:
            raise ValueError(f"opening trust needs min_seats <= max_seats, not {self}")


class GameWatch:
    """Tells whether a bot's views still belong to the game (and the seat) of the views
    before: what a bot keeps from the finished rounds it read (opening-bluff rates here, the
    gate's evidence in :mod:`perudo.solve.gate`) must start afresh in another game, and a
    rematch at the same table keeps the bot.

    A view is of another game when its seat differs, when its round is earlier than one seen
    before, or when its first finished round differs from the one seen before (the second
    game's first turn may come at a later round than the first game's last one: a bot that
    was not asked in a round, or that went out early). Two games whose first rounds were the
    same hands and the same actions are told apart by the round number only; that is all a
    view can tell (P-70). A memory-mode display's view (P-40) holds only the latest finished
    round, so there the round number alone tells."""

    __slots__ = ("_first", "_round", "seat")

    def __init__(self) -> None:
        self.seat: int | None = None
        self._round = 0
        self._first: RoundRecord | None = None

    def new_game(self, view: PlayerView) -> bool:
        """Whether ``view`` begins another game or seat than the views before it (the first
        view is one); remembers ``view`` for the next call."""
        first = view.past[0] if view.past and not view.memory else None
        fresh = (
            self.seat != view.seat
            or view.round < self._round
            or (first is not None and self._first is not None and first != self._first)
        )
        if fresh:
            self._first = None
        self.seat = view.seat
        self._round = view.round
        if first is not None:
            self._first = first
        return fresh


Evidence: TypeAlias = Callable[
    [RuleSet, RoundRecord, tuple[int, ...]], Sequence[tuple[int, float, float]]
]
"""What one finished round (with the dice counts it started with) shows of a habit:
``(seat, honest, blind)`` per revealed choice read, the honest and the habitual player's chance
of it given the hand revealed."""


class TellReader:
    """Each opponent's rate of one habit (a face-blind opening here; a switch to the wild face
    in :mod:`perudo.bots.switches`), learned from a seat's views as rounds end: the posterior
    mean of a two-type mixture (see the module docstring), from the ``evidence`` each finished
    round gives."""

    __slots__ = ("_evidence", "_log_odds", "_read", "_watch", "seat", "trust")

    def __init__(self, trust: OpeningTrust, evidence: Evidence) -> None:
        self.trust = trust
        self._evidence = evidence
        self.seat: int | None = None
        self._read: set[int] = set()
        """Round numbers already read."""
        self._watch = GameWatch()
        self._log_odds: dict[int, float] = {}
        """Per seat: the log of the likelihood ratio, habitual to honest, of its choices."""

    def rate(self, seat: int) -> float:
        """``seat``'s rate now (within ``[prior, ceiling]``)."""
        t = self.trust
        x = math.log(t.bluffers / (1.0 - t.bluffers)) + self._log_odds.get(seat, 0.0)
        bluffer = 1.0 / (1.0 + math.exp(-x)) if x > -700.0 else 0.0
        return t.prior + (t.ceiling - t.prior) * bluffer

    def rates(self, view: PlayerView) -> Mapping[int, float] | None:
        """Read ``view``'s finished rounds; the rate of every other seat with dice, or ``None``
        where the habit is not read (fewer than :attr:`OpeningTrust.min_seats` seats with
        dice, or a table of more than :attr:`OpeningTrust.max_seats` seats)."""
        top = self.trust.max_seats
        if top is not None and len(view.dice_counts) > top:
            return None
        self.observe(view)
        if sum(1 for c in view.dice_counts if c) < self.trust.min_seats:
            return None
        return {s: self.rate(s) for s, c in enumerate(view.dice_counts) if c and s != view.seat}

    def observe(self, view: PlayerView) -> None:
        """Fold in every finished round of ``view`` not read yet (a new game starts afresh)."""
        if view.seat is None:
            return
        if self._watch.new_game(view):
            self.seat = view.seat
            self._read.clear()
            self._log_odds.clear()
        for record, start in finished_rounds(view):
            if record.round in self._read:
                continue
            self._read.add(record.round)
            for seat, honest, blind in self._evidence(view.rules, record, start):
                if seat != self.seat:
                    self.add(seat, honest, blind)

    def add(self, seat: int, honest: float, blind: float) -> None:
        """Take one revealed choice of ``seat``: the honest and the habitual player's chance
        of it given the hand revealed."""
        gain = log_odds(self.trust, honest, blind)
        self._log_odds[seat] = self._log_odds.get(seat, 0.0) + gain


class OpeningReader(TellReader):
    """Each opponent's opening-bluff rate, updated from a seat's views as rounds end."""

    __slots__ = ()

    def __init__(self, trust: OpeningTrust, temperature: float) -> None:
        def evidence(
            rules: RuleSet, record: RoundRecord, counts: tuple[int, ...]
        ) -> Sequence[tuple[int, float, float]]:
            found = opening_evidence(rules, record, counts, temperature, trust.min_seats)
            return () if found is None else (found,)

        super().__init__(trust, evidence)


def finished_rounds(view: PlayerView) -> list[tuple[RoundRecord, tuple[int, ...]]]:
    """``view``'s finished rounds, latest first, each with the dice counts it started with
    (walked back from the current counts through each round's changes)."""
    counts = list(view.dice_counts)
    out: list[tuple[RoundRecord, tuple[int, ...]]] = []
    for record in reversed(view.past):
        for s, change in record.result.changes:
            counts[s] -= change
        out.append((record, tuple(counts)))
    return out


def log_odds(trust: OpeningTrust, honest: float, blind: float) -> float:
    """What one revealed opening adds to the log odds that its opener is a bluffer: the log
    of the ratio of the bluffer's chance of it to the honest type's."""
    bluffer = trust.ceiling * blind + (1.0 - trust.ceiling) * honest
    plain = trust.prior * blind + (1.0 - trust.prior) * honest
    return math.log(max(bluffer, _TINY)) - math.log(max(plain, _TINY))


def blind_share(beta: float, honest: float, blind: float) -> float:
    """The posterior chance that the face-blind opener made an opening, at rate ``beta``, from
    the honest and face-blind chances of it given the revealed hand."""
    mixed = beta * blind + (1.0 - beta) * honest
    return beta * blind / mixed if mixed > 0.0 else beta


def opening_evidence(
    rules: RuleSet,
    record: RoundRecord,
    counts: tuple[int, ...],
    temperature: float,
    min_seats: int = 3,
) -> tuple[int, float, float] | None:
    """``(opener, honest, blind)`` for a finished round that opened with ``counts`` dice per
    seat: the honest and the face-blind opener's chance of its opening bid, given the opener's
    hand revealed at the call (P-21); ``None`` for a round not read (see the module docstring:
    no reveal of the opener, dice set aside, palifico, fewer than ``min_seats`` seats)."""
    opener = record.opener
    if record.palifico or not record.actions or sum(1 for c in counts if c) < min_seats:
        return None
    seat, first = record.actions[0]
    if seat != opener or not isinstance(first, Bid):
        return None
    if any(s == opener and isinstance(a, SetAside) for s, a in record.actions):
        return None
    hand = next((r.hand for r in record.result.reveals if r.seat == opener), None)
    if hand is None or len(hand) != counts[opener]:
        return None
    return opener, *opening_chances(rules, hand, sum(counts), first, temperature)


def opening_chances(
    rules: RuleSet, hand: tuple[int, ...], total: int, bid: Bid, temperature: float
) -> tuple[float, float]:
    """The honest and the face-blind opener's chance of opening ``bid`` from ``hand`` with
    ``total`` dice in play (not a palifico round), as :class:`~perudo.bots.beliefs.Beliefs`
    reads an opening."""
    q, f, index = _raise_arrays(rules, None, total, False, len(hand) == 1)
    i = index.get(bid)
    if i is None:
        raise ValueError(f"{bid} is not a legal opening with {total} dice in play")
    unseen = total - len(hand)
    tails = naive_tails(rules, unseen, False)
    m = np.array([count_hand(rules, hand, face, False) for face in range(1, rules.faces + 1)])
    need = np.clip(q - m[f], 0, unseen + 1)
    honest, blind = opening_choice(tails[f, need][None, :], temperature, i, same_quantity(q, i))
    return float(honest[0]), float(blind[0])


def fixed_point(pairs: Sequence[tuple[float, float]], *, start: float = 0.5) -> float:
    """The rate ``β`` at which the mean posterior face-blind share of the openings ``pairs``
    (``(honest, blind)`` each) equals ``β``: the maximum-likelihood opening-bluff rate of the
    player who made them (expectation-maximisation to convergence)."""
    if not pairs:
        raise ValueError("no openings to fit a rate to")
    beta = start
    for _ in range(10_000):
        new = sum(blind_share(beta, h, b) for h, b in pairs) / len(pairs)
        if abs(new - beta) < 1e-9:
            return new
        beta = new
    return beta
