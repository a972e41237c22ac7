"""Exact bid probabilities against brute-force enumeration of every unseen die (P-20, P-51)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import pytest

from perudo import (
    BLUFF,
    LIARS_DICE_OPENSPIEL,
    PERUDO,
    Bid,
    RuleSet,
    count_hand,
    start_round,
    view,
)
from perudo.bots.probability import (
    bid_probability,
    binomial_tail,
    count_distribution,
    exact_probability,
    match_chance,
    unseen_dice,
)

NO_WILDS = dataclasses.replace(PERUDO, wild_face=None, palifico="off")
STRAIGHTS = dataclasses.replace(PERUDO, straight_counts_nothing=True)
FOUR_FACES = dataclasses.replace(PERUDO, faces=4)


def brute_force(
    rules: RuleSet,
    hands: Sequence[Sequence[int]],
    shown: Sequence[Sequence[int]],
    seat: int | None,
    palifico: bool,
) -> dict[int, list[Fraction]]:
    """Per face, ``P(count = c)`` by enumerating every face of every die ``seat`` can't see."""
    others = [s for s in range(len(hands)) if s != seat]
    slots = [(s, i) for s in others for i in range(len(hands[s]))]
    total = sum(len(h) + len(sh) for h, sh in zip(hands, shown, strict=True))
    tallies = {f: [0] * (total + 1) for f in range(1, rules.faces + 1)}
    worlds = 0
    for faces in itertools.product(range(1, rules.faces + 1), repeat=len(slots)):
        world = [list(h) for h in hands]
        for (s, i), f in zip(slots, faces, strict=True):
            world[s][i] = f
        full = [tuple(world[s]) + tuple(shown[s]) for s in range(len(hands))]
        worlds += 1
        for face, tally in tallies.items():
            tally[sum(count_hand(rules, h, face, palifico) for h in full)] += 1
    return {f: [Fraction(t, worlds) for t in tally] for f, tally in tallies.items()}


CASES = [
    # (name, rules, hands, shown, palifico)
    ("aces wild P-15", PERUDO, [[1, 3, 5], [2, 2], [4, 6, 6]], None, False),
    ("palifico aces not wild P-31", PERUDO, [[1], [3, 3], [1, 5]], None, True),
    ("wild 6 V-2", BLUFF, [[6, 2, 2], [1, 3], [5, 4]], None, False),
    ("wild 6 no conversion V-3", LIARS_DICE_OPENSPIEL, [[6, 2], [1, 3, 4]], None, False),
    ("no wilds V-2", NO_WILDS, [[1, 2, 2], [3, 4], [5, 5]], None, False),
    ("four faces V-12", FOUR_FACES, [[1, 2], [3, 4, 4], [2]], None, False),
    ("shown dice V-9", BLUFF, [[2, 3], [1, 4], [5, 5]], [[6], [], [6, 2]], False),
    ("straights V-11", STRAIGHTS, [[1, 2, 3, 4, 5], [2, 3], [6]], [[], [5, 6, 1], []], False),
    ("straights, own straight V-11", STRAIGHTS, [[2, 3, 4, 5, 6], [1, 1, 3, 5, 6]], None, False),
]


# Every seat's view (and the spectators') whose unseen dice are few enough to enumerate fast.
PARAMS = [
    pytest.param(*case, seat, id=f"{case[0]}-seat{seat}")
    for case in CASES
    for seat in (0, 1, 2, None)
    if (seat is None or seat < len(case[2]))
    and sum(len(h) for s, h in enumerate(case[2]) if s != seat) <= 5
]


@pytest.mark.parametrize(("name", "rules", "hands", "shown", "palifico", "seat"), PARAMS)
def test_bid_and_exact_probability_match_enumeration(
    name: str,
    rules: RuleSet,
    hands: list[list[int]],
    shown: list[list[int]] | None,
    palifico: bool,
    seat: int | None,
) -> None:
    shown_t = shown if shown is not None else [[] for _ in hands]
    opener = (
        next(s for s, h in enumerate(hands) if len(h) + len(shown_t[s]) == 1) if palifico else 0
    )
    state = start_round(rules, hands, shown=shown_t, palifico=palifico, opener=opener)
    v = view(state, seat)
    total = v.total_dice
    exact = brute_force(rules, hands, shown_t, seat, palifico)
    for face in range(1, rules.faces + 1):
        dist = count_distribution(v, face)
        assert len(dist) == total + 1
        assert math.isclose(sum(dist), 1.0, abs_tol=1e-12)
        for q in range(1, total + 1):
            bid = Bid(q, face)
            p_true = float(sum(exact[face][q:]))
            p_exact = float(exact[face][q])
            assert math.isclose(bid_probability(v, bid), p_true, abs_tol=1e-12), (name, bid)
            assert math.isclose(exact_probability(v, bid), p_exact, abs_tol=1e-12), (name, bid)


def test_standing_bid_is_the_default() -> None:
    state = start_round(PERUDO, [[1, 4, 4], [2, 3]])
    from perudo import apply

    state, _ = apply(state, Bid(3, 4))
    v = view(state, 1)
    assert bid_probability(v) == bid_probability(v, Bid(3, 4))
    assert exact_probability(v) == exact_probability(v, Bid(3, 4))


def test_no_bid_standing_is_a_clear_error_P10() -> None:
    v = view(start_round(PERUDO, [[1, 4], [2, 3]]), 0)
    with pytest.raises(ValueError, match="no bid stands"):
        bid_probability(v)
    with pytest.raises(ValueError, match="no face 7"):
        exact_probability(v, Bid(1, 7))


def test_a_bid_above_the_dice_in_play_is_never_true_P16() -> None:
    v = view(start_round(PERUDO, [[1, 4], [2, 3]]), 0)
    assert bid_probability(v, Bid(5, 4)) == 0.0
    assert exact_probability(v, Bid(5, 4)) == 0.0


def test_helpers() -> None:
    assert match_chance(PERUDO, 1, False) == pytest.approx(1 / 6)
    assert match_chance(PERUDO, 3, False) == pytest.approx(1 / 3)
    assert match_chance(NO_WILDS, 3, False) == pytest.approx(1 / 6)
    tail = binomial_tail(3, 0.5)
    assert tail == pytest.approx((1.0, 7 / 8, 4 / 8, 1 / 8, 0.0))
    v = view(start_round(BLUFF, [[2, 3], [1, 4], [5, 5]], shown=[[6], [], [6, 2]]), 0)
    assert unseen_dice(v) == (0, 2, 2)
