"""Exact bid probabilities from one seat's view (P-70): what a careful player can compute.

Everything here reads a :class:`~perudo.core.PlayerView` only: the seat's own dice, the dice
every seat has set aside face up (V-9) and the dice counts. The dice nobody at the table can
see (*unseen* dice) are independent fair dice, so the number of them that match a bid is
binomial: a die matches a bid on face ``f`` with chance ``2/faces`` while a wild face is active
and ``f`` is not the wild face (P-15), and ``1/faces`` otherwise (a bid on the wild face, no
wilds (V-2), or a palifico round, where aces are not wild: P-31).

V-11 (a hand of five dice all different counts nothing) breaks independence within a hand, so
when it is on, each seat whose whole hand (hidden and shown) has five dice gets its own exact
count distribution, enumerated over its hidden dice, and the distributions are convolved.

>>> from perudo import start_round, find_ruleset, view, Bid
>>> state = start_round(find_ruleset("perudo"), [[1, 3, 3], [2, 5]])
>>> v = view(state, 0)
>>> round(bid_probability(v, Bid(3, 3)), 4)  # holds three 3s already (aces wild)
1.0
>>> round(bid_probability(v, Bid(4, 3)), 4)  # one of two unseen dice must be a 3 or an ace
0.5556
>>> round(exact_probability(v, Bid(4, 3)), 4)
0.4444

These functions are the hint a terminal shows, and the basis of the ``prob`` bot.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from perudo.core import Bid, PlayerView, RuleSet, count_hand
from perudo.core.bidding import wild_active

__all__ = [
    "bid_probability",
    "binomial_pmf",
    "binomial_tail",
    "count_distribution",
    "exact_probability",
    "known_count",
    "lean_toward",
    "match_chance",
    "tail_of",
    "unseen_dice",
]


def match_chance(rules: RuleSet, face: int, palifico: bool) -> float:
    """Chance that one unseen die counts toward a bid on ``face`` (P-15, P-31, V-2).

    >>> from perudo import PERUDO
    >>> match_chance(PERUDO, 4, False), match_chance(PERUDO, 1, False)
    (0.3333333333333333, 0.16666666666666666)
    >>> match_chance(PERUDO, 4, palifico=True)
    0.16666666666666666
    """
    wild = wild_active(rules, palifico)
    if wild is None or face == wild:
        return 1.0 / rules.faces
    return 2.0 / rules.faces


@lru_cache(maxsize=4096)
def binomial_pmf(n: int, p: float) -> tuple[float, ...]:
    """``P(X = k)`` for ``k = 0…n``, ``X ~ Binomial(n, p)`` (cached)."""
    q = 1.0 - p
    return tuple(math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=4096)
def binomial_tail(n: int, p: float) -> tuple[float, ...]:
    """``P(X >= k)`` for ``k = 0…n+1``, ``X ~ Binomial(n, p)`` (cached)."""
    return tail_of(binomial_pmf(n, p))


def tail_of(pmf: Sequence[float]) -> tuple[float, ...]:
    """The upper tail ``P(X >= k)`` for ``k = 0…len(pmf)`` of a distribution on ``0…len-1``."""
    out = [0.0] * (len(pmf) + 1)
    acc = 0.0
    for k in range(len(pmf) - 1, -1, -1):
        acc += pmf[k]
        out[k] = min(1.0, acc)
    return tuple(out)


def unseen_dice(view: PlayerView) -> tuple[int, ...]:
    """Per seat, the dice this seat cannot see: hidden dice of the others (P-70).

    The viewer's own hidden dice are seen (0 here); dice set aside face up are seen by all.
    For a spectator (``view.seat is None``) every hidden die is unseen.
    """
    return tuple(
        0 if s == view.seat else max(0, count - len(view.shown[s]))
        for s, count in enumerate(view.dice_counts)
    )


def _straight_possible(rules: RuleSet, size: int) -> bool:
    return rules.straight_counts_nothing and size == 5


def known_count(view: PlayerView, face: int) -> int:
    """Dice this seat can see that count toward a bid on ``face``: its own whole hand (hidden
    and shown) and the dice others have set aside (V-9), except where V-11 may still void a
    hand (those are in :func:`count_distribution`'s per-hand part)."""
    rules, pal = view.rules, view.palifico
    total = 0
    for s, shown in enumerate(view.shown):
        if s == view.seat:
            total += count_hand(rules, tuple(view.hand) + tuple(shown), face, pal)
        elif shown and not _straight_possible(rules, view.dice_counts[s]):
            total += count_hand(rules, shown, face, pal)
    return total


@lru_cache(maxsize=8192)
def _hand_distribution(
    rules: RuleSet, face: int, palifico: bool, shown: tuple[int, ...], hidden: int
) -> tuple[float, ...]:
    """Exact count distribution of one hand: ``shown`` face up plus ``hidden`` fair dice.

    Enumerates the hidden dice as sorted multisets weighted by their multinomial counts, and
    counts each whole hand with :func:`~perudo.core.count_hand` (so V-11 applies exactly).
    """
    faces = rules.faces
    size = len(shown) + hidden
    dist = [0.0] * (size + 1)
    denom = faces**hidden
    for combo in itertools.combinations_with_replacement(range(1, faces + 1), hidden):
        ways = math.factorial(hidden)
        for f in set(combo):
            ways //= math.factorial(combo.count(f))
        dist[count_hand(rules, shown + combo, face, palifico)] += ways / denom
    return tuple(dist)


def _convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def lean_toward(pmf: Sequence[float], lean: float) -> tuple[float, ...]:
    """``pmf`` (of a count ``k``) reweighted by ``1 + lean * k`` and normalized: a seat
    believed to hold more of a face than chance says (``lean = 0``: unchanged)."""
    w = [x * (1.0 + lean * k) for k, x in enumerate(pmf)]
    z = sum(w)
    return tuple(x / z for x in w) if z > 0 else tuple(pmf)


def count_distribution(
    view: PlayerView, face: int, lean: Mapping[int, float] | None = None
) -> tuple[float, ...]:
    """``P(count = c)`` for ``c = 0…total dice``: the number of dice on the whole table that
    count toward a bid on ``face`` (P-20), as this seat can know it.

    Own dice and shown dice are fixed; the unseen dice are binomial (P-15, P-31); with V-11
    on, each other hand of five dice gets its exact distribution. ``lean`` (seat → weight)
    tilts those seats' counts by :func:`lean_toward` (what a bid on ``face`` suggests).
    """
    rules, pal = view.rules, view.palifico
    known = known_count(view, face)
    pool = 0
    parts: list[Sequence[float]] = []
    for s, count in enumerate(view.dice_counts):
        if s == view.seat or count == 0:
            continue
        hidden = max(0, count - len(view.shown[s]))
        tilt = lean.get(s, 0.0) if lean else 0.0
        if _straight_possible(rules, count):
            part: Sequence[float] = _hand_distribution(
                rules, face, pal, tuple(view.shown[s]), hidden
            )
            parts.append(lean_toward(part, tilt) if tilt else part)
        elif tilt:
            parts.append(lean_toward(binomial_pmf(hidden, match_chance(rules, face, pal)), tilt))
        else:
            pool += hidden
    dist: Sequence[float] = binomial_pmf(pool, match_chance(rules, face, pal))
    for part in parts:
        dist = _convolve(dist, part)
    total = view.total_dice
    out = [0.0] * (total + 1)
    for k, x in enumerate(dist):
        if known + k <= total:
            out[known + k] += x
    return tuple(out)


def _the_bid(view: PlayerView, bid: Bid | None) -> Bid:
    if bid is None:
        if view.bid is None:
            raise ValueError("no bid stands yet and none was given (P-10)")
        return view.bid
    if not isinstance(bid, Bid):
        raise ValueError(f"{bid!r} is not a bid")
    if bid.face > view.rules.faces:
        raise ValueError(f"there is no face {bid.face} on a {view.rules.faces}-faced die (V-12)")
    return bid


def bid_probability(view: PlayerView, bid: Bid | None = None) -> float:
    """Chance that ``bid`` (default: the standing bid) is true: at least ``bid.quantity``
    dice on the table count toward its face (P-20), given what ``view``'s seat knows (P-70).

    Takes the seat's own dice, dice set aside face up (V-9), the wild rules (P-15, V-2), a
    palifico round's aces (not wild, P-31) and V-11 straights into account.

    :raises ValueError: when no bid stands and none is given, or the face does not exist.
    """
    b = _the_bid(view, bid)
    dist = count_distribution(view, b.face)
    if b.quantity >= len(dist):
        return 0.0
    return min(1.0, math.fsum(dist[b.quantity :]))


def exact_probability(view: PlayerView, bid: Bid | None = None) -> float:
    """Chance that exactly ``bid.quantity`` dice count toward ``bid``'s face: a calza would
    succeed (P-51). Same knowledge as :func:`bid_probability`.

    :raises ValueError: when no bid stands and none is given, or the face does not exist.
    """
    b = _the_bid(view, bid)
    dist = count_distribution(view, b.face)
    return dist[b.quantity] if b.quantity < len(dist) else 0.0
