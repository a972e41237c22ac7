"""Bid order and dice counting: P-10…P-16, P-31…P-33 and switches V-1, V-2, V-3, V-11.

One predicate, :func:`bid_refusal` (:func:`raise_error` gives its English message), decides
whether a bid may follow another and says why not; :func:`allows` is its decision alone, without
building the words (the tables below filter many bids with it).
The legal raises are tables derived from it, computed once per rule set and dice total
(python-chess's import-time tables, here cached on first use):

* with the ``perudo`` raise order (V-1) every legal raise is simply a later bid in one total
  order, so the raises after a bid are a slice of :func:`ordered_bids` and its *rank* is an
  integer index (the aces sit after the bids they beat: ``n`` aces right after ``2n`` of the
  highest face under the Perudo conversion, right after ``2n − 1`` under Bluff's);
* with the ``monotone`` order, or in a palifico round for a player holding more than one die,
  the raises are filtered once from the same predicate and cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Final

from .actions import Bid
from .errors import Refusal
from .rules import RuleSet

__all__ = [
    "BidTable",
    "allows",
    "bid_refusal",
    "bid_table",
    "count_bid",
    "count_hand",
    "is_raise",
    "opening_bids",
    "ordered_bids",
    "raise_error",
    "raises_after",
    "wild_active",
]

_TOP: Final = 1 << 20  # sorts a wild bid after every ordinary face of its quantity


def wild_active(rules: RuleSet, palifico: bool) -> int | None:
    """The face that counts as any other face this round, or ``None`` (P-15, P-31, V-2)."""
    return None if palifico else rules.wild_face


def _to_wild(rules: RuleSet, quantity: int) -> int:
    """Fewest wild dice that beat ``quantity`` of an ordinary face (P-13, V-3)."""
    if rules.wild_conversion == "bluff":
        return quantity // 2 + 1
    return (quantity + 1) // 2


def _from_wild(rules: RuleSet, quantity: int) -> int:
    """Fewest dice of an ordinary face that beat ``quantity`` wild dice (P-14, V-3)."""
    if rules.wild_conversion == "bluff":
        return 2 * quantity
    return 2 * quantity + 1


def _converts(rules: RuleSet, palifico: bool) -> bool:
    """Whether bids on the wild face follow their own conversion (V-3 ``perudo``/``bluff``)."""
    return not palifico and rules.wild_face is not None and rules.wild_conversion != "none"


def raise_error(
    rules: RuleSet,
    prev: Bid | None,
    bid: Bid,
    total: int,
    *,
    palifico: bool = False,
    one_die: bool = False,
) -> str | None:
    """Why ``bid`` may not follow ``prev`` (``None``: the opening bid), or ``None`` if it may.

    Args:
        rules: the rule set.
        prev: the standing bid, or ``None`` when ``bid`` opens the round.
        bid: the bid to check.
        total: dice in play (P-16).
        palifico: whether this is a palifico round (P-31…P-33).
        one_die: whether the bidder holds exactly one die (P-33).

    The English message of :func:`bid_refusal` (which also gives a code and parameters).

    >>> from perudo.core.rules import PERUDO
    >>> raise_error(PERUDO, Bid(9, 4), Bid(4, 1), 30)
    'after 9x4 a bid on aces needs at least 5 of them (P-13)'
    >>> raise_error(PERUDO, Bid(4, 1), Bid(9, 2), 30) is None
    True
    """
    refusal = bid_refusal(rules, prev, bid, total, palifico=palifico, one_die=one_die)
    return None if refusal is None else refusal.message


def bid_refusal(
    rules: RuleSet,
    prev: Bid | None,
    bid: Bid,
    total: int,
    *,
    palifico: bool = False,
    one_die: bool = False,
) -> Refusal | None:
    """Why ``bid`` may not follow ``prev``, as a :class:`~perudo.core.errors.Refusal` (code,
    JSON-able parameters, English message), or ``None`` if it may (see :func:`raise_error`);
    :func:`allows` is the same decision without the words.

    >>> from perudo.core.rules import PERUDO
    >>> r = bid_refusal(PERUDO, Bid(9, 4), Bid(4, 1), 30)
    >>> r.code, r.params
    ('bid.to_wild', {'bid': [4, 1], 'prev': [9, 4], 'need': 5, 'wild': 1})
    """
    return _refusal(rules, prev, bid, total, palifico, one_die, True)


def allows(
    rules: RuleSet,
    prev: Bid | None,
    bid: Bid,
    total: int,
    *,
    palifico: bool = False,
    one_die: bool = False,
) -> bool:
    """Whether ``bid`` may follow ``prev``: :func:`bid_refusal` is ``None``, decided by the same
    code without building the refusal's words (the raise tables filter many bids with it).

    >>> from perudo.core.rules import PERUDO
    >>> allows(PERUDO, Bid(9, 4), Bid(4, 1), 30), allows(PERUDO, Bid(9, 4), Bid(5, 1), 30)
    (False, True)
    """
    return _refusal(rules, prev, bid, total, palifico, one_die, False) is None


_REFUSED: Final = Refusal("bid.refused", "refused (the words were not asked for)")
"""What :func:`_refusal` returns for a refused bid when its words are not asked for."""


def _refusal(
    rules: RuleSet,
    prev: Bid | None,
    bid: Bid,
    total: int,
    palifico: bool,
    one_die: bool,
    explain: bool,
) -> Refusal | None:
    """:func:`bid_refusal`; when not ``explain``, :data:`_REFUSED` for every refusal."""
    q, f = bid.quantity, bid.face
    wild = rules.wild_face
    if f > rules.faces:
        if not explain:
            return _REFUSED
        return Refusal(
            "bid.no_face",
            f"there is no face {f} on a {rules.faces}-faced die (V-12)",
            {"face": f, "faces": rules.faces},
        )
    if q > total:
        if not explain:
            return _REFUSED
        return Refusal(
            "bid.too_many",
            f"{bid} claims more dice than the {total} in play (P-16)",
            {"bid": [q, f], "total": total, "wild": wild},
        )
    if prev is None:
        if not palifico and wild is not None and f == wild and rules.wild_conversion == "perudo":
            if not explain:
                return _REFUSED
            return Refusal(
                "bid.open_on_wild",
                f"a round may not open on {_face_name(rules, wild)} (P-10)",
                {"wild": wild},
            )
        return None
    pq, pf = prev.quantity, prev.face
    if palifico:
        if not one_die:
            if f != pf:
                if not explain:
                    return _REFUSED
                return Refusal(
                    "bid.palifico_face",
                    f"in a palifico round the face stays {pf}: bid more {pf}s, or dudo; only a "
                    "player holding one die may change it (P-32, P-33)",
                    {"bid": [q, f], "prev": [pq, pf], "face": pf, "wild": wild},
                )
            if q <= pq:
                if not explain:
                    return _REFUSED
                return Refusal(
                    "bid.more_than",
                    f"after {prev} bid more than {pq} (P-32)",
                    {"bid": [q, f], "prev": [pq, pf], "quantity": pq, "wild": wild},
                )
            return None
        return _plain_refusal(rules, prev, bid, "P-33", explain)
    if _converts(rules, palifico) and (f == wild or pf == wild):
        if f == wild and pf == wild:
            if q > pq:
                return None
            if not explain:
                return _REFUSED
            return Refusal(
                "bid.more_than",
                f"after {prev} bid more than {pq} {_face_name(rules, wild)} (P-14)",
                {"bid": [q, f], "prev": [pq, pf], "quantity": pq, "wild": wild},
            )
        if f == wild:
            need = _to_wild(rules, pq)
            if q >= need:
                return None
            if not explain:
                return _REFUSED
            rule = "P-13" if rules.wild_conversion == "perudo" else "V-3"
            name = _face_name(rules, wild)
            return Refusal(
                "bid.to_wild",
                f"after {prev} a bid on {name} needs at least {need} of them ({rule})",
                {"bid": [q, f], "prev": [pq, pf], "need": need, "wild": wild},
            )
        need = _from_wild(rules, pq)
        if q >= need:
            return None
        if not explain:
            return _REFUSED
        rule = "P-14" if rules.wild_conversion == "perudo" else "V-3"
        return Refusal(
            "bid.from_wild",
            f"after {prev} a bid on another face needs at least {need} dice ({rule})",
            {"bid": [q, f], "prev": [pq, pf], "need": need, "wild": wild},
        )
    return _plain_refusal(rules, prev, bid, "P-12", explain)


def _plain_refusal(rules: RuleSet, prev: Bid, bid: Bid, rule: str, explain: bool) -> Refusal | None:
    q, f, pq, pf = bid.quantity, bid.face, prev.quantity, prev.face
    if rules.raise_order == "monotone":
        if q >= pq and f >= pf and (q, f) != (pq, pf):
            return None
        if not explain:
            return _REFUSED
        return Refusal(
            "bid.monotone",
            f"{bid} does not raise {prev}: neither quantity nor face may go down and one "
            "must go up (V-1)",
            {"bid": [q, f], "prev": [pq, pf], "wild": rules.wild_face},
        )
    if q > pq or (q == pq and f > pf):
        return None
    if not explain:
        return _REFUSED
    return Refusal(
        "bid.not_raise",
        f"{bid} does not raise {prev}: bid more dice, or as many of a higher face ({rule})",
        {"bid": [q, f], "prev": [pq, pf], "wild": rules.wild_face},
    )


def _face_name(rules: RuleSet, face: int) -> str:
    return "aces" if face == 1 else f"{face}s"


class BidTable:
    """The bids of one rule set, dice total and round kind, lowest first, with their ranks.

    Built once per ``(rules, total, palifico)`` (see :func:`bid_table`) and shared.
    """

    __slots__ = ("bids", "opening_set", "openings", "rank_order", "ranks")

    def __init__(self, rules: RuleSet, total: int, palifico: bool) -> None:
        converts = _converts(rules, palifico)
        wild = rules.wild_face
        keyed: list[tuple[tuple[int, int], Bid]] = []
        for q in range(1, total + 1):
            for f in range(1, rules.faces + 1):
                # n wild dice beat exactly the bids of fewer than _from_wild(n) dice.
                key = (_from_wild(rules, q) - 1, _TOP) if converts and f == wild else (q, f)
                keyed.append((key, Bid(q, f)))
        keyed.sort(key=lambda kb: kb[0])
        self.bids: tuple[Bid, ...] = tuple(b for _, b in keyed)
        """Every bid of at most ``total`` dice, lowest first."""
        self.ranks: dict[Bid, int] = {b: i for i, b in enumerate(self.bids)}
        """Index of each bid in :attr:`bids`."""
        self.openings: tuple[Bid, ...] = tuple(
            b for b in self.bids if allows(rules, None, b, total, palifico=palifico)
        )
        """The bids that may open the round (P-10; any face in a palifico round, P-32)."""
        self.opening_set: frozenset[Bid] = frozenset(self.openings)
        self.rank_order: bool = rules.raise_order == "perudo"
        """Whether every later bid in :attr:`bids` is a legal raise (V-1 ``perudo``)."""


@cache
def bid_table(rules: RuleSet, total: int, palifico: bool = False) -> BidTable:
    """The shared :class:`BidTable` for ``rules`` with ``total`` dice in play."""
    return BidTable(rules, total, palifico)


def ordered_bids(rules: RuleSet, total: int, palifico: bool = False) -> tuple[Bid, ...]:
    """Every bid of at most ``total`` dice, lowest first, in the round's order.

    With the ``perudo`` raise order a bid's index here is its *rank*: the legal raises after
    a bid are exactly the bids of higher rank. In a palifico round aces rank as the lowest
    ordinary face (P-33).
    """
    return bid_table(rules, total, palifico).bids


def opening_bids(rules: RuleSet, total: int, palifico: bool = False) -> tuple[Bid, ...]:
    """The bids that may open a round (P-10; in a palifico round any face, P-32)."""
    return bid_table(rules, total, palifico).openings


@lru_cache(maxsize=65536)
def _filtered_raises(
    rules: RuleSet, prev: Bid, total: int, palifico: bool, one_die: bool
) -> tuple[Bid, ...]:
    return tuple(
        b
        for b in ordered_bids(rules, total, palifico)
        if allows(rules, prev, b, total, palifico=palifico, one_die=one_die)
    )


def raises_after(
    rules: RuleSet, prev: Bid | None, total: int, *, palifico: bool = False, one_die: bool = False
) -> tuple[Sequence[Bid], int]:
    """The legal bids after ``prev`` as ``(bids, start)``: the legal bids are ``bids[start:]``.

    Returned as a slice position rather than a copy so that hot loops pay nothing for it.
    """
    table = bid_table(rules, total, palifico)
    if prev is None:
        return table.openings, 0
    if table.rank_order and (not palifico or one_die):
        rank = table.ranks.get(prev)
        if rank is not None:
            return table.bids, rank + 1
    return _filtered_raises(rules, prev, total, palifico, one_die), 0


def is_raise(
    rules: RuleSet, prev: Bid | None, bid: Bid, total: int, *, palifico: bool, one_die: bool
) -> bool:
    """Whether ``bid`` may follow ``prev``: :func:`raise_error` is ``None``, by table lookup."""
    table = bid_table(rules, total, palifico)
    if prev is None:
        return bid in table.opening_set
    if table.rank_order and (not palifico or one_die):
        rank = table.ranks.get(bid)
        prev_rank = table.ranks.get(prev)
        if rank is not None and prev_rank is not None:
            return rank > prev_rank
    return allows(rules, prev, bid, total, palifico=palifico, one_die=one_die)


def count_hand(rules: RuleSet, hand: Sequence[int], face: int, palifico: bool) -> int:
    """Dice of ``hand`` that count toward a bid on ``face`` (P-15, P-31, V-11)."""
    if rules.straight_counts_nothing and len(hand) == 5 and len(set(hand)) == 5:
        return 0
    wild = wild_active(rules, palifico)
    if wild is None or face == wild:
        return hand.count(face)
    return hand.count(face) + hand.count(wild)


def count_bid(rules: RuleSet, hands: Sequence[Sequence[int]], face: int, palifico: bool) -> int:
    """Dice on the whole table that count toward a bid on ``face`` (P-20)."""
    return sum(count_hand(rules, h, face, palifico) for h in hands)
