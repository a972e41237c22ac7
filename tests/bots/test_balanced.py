"""``balanced`` (the ``hard`` level): leaned chances, mixed play, measured exploitability."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo import PERUDO, Bid, apply, start_round, view
from perudo.bots import BalancedBot, StrongBot
from perudo.bots.probability import count_distribution, lean_toward
from perudo.core import count_hand
from perudo.solve import RoundGame
from perudo.solve.exploit import exploit

from .test_bots import play_duel

PERUDO_1V1_VALUE = -1 / 18
"""The opener's equilibrium value of a Perudo round of one die each (tests/solve)."""
HARD_BOUND = 0.25
"""Most a best response may win per round against ``hard`` beyond the equilibrium, per seat
(measured: 0.114 as opener, 0.235 as responder; ``strong``: 0.667 and 0.556)."""


def _gains(bot_factory: type[StrongBot] | type[BalancedBot]) -> list[float]:
    game = RoundGame(PERUDO, (1, 1))
    return [
        exploit(game, bot_factory(0).policy, seat, game_value=PERUDO_1V1_VALUE).gain
        for seat in (0, 1)
    ]


def test_hard_is_not_trivially_exploitable_heads_up_exactly() -> None:
    """Exact best responses at Perudo 1v1: ``balanced`` within the bound in both seats, where
    the deterministic ``strong`` (the old ``hard``) gives away more than twice as much."""
    gains = _gains(BalancedBot)
    assert all(0.0 < g <= HARD_BOUND for g in gains), gains
    old = _gains(StrongBot)
    assert all(g > 2 * HARD_BOUND for g in old), old


def test_lean_toward_tilts_a_count_and_keeps_a_distribution() -> None:
    pmf = (0.2, 0.5, 0.3)
    assert lean_toward(pmf, 0.0) == pytest.approx(pmf)
    leaned = lean_toward(pmf, 1.0)  # weights 1, 2, 3
    z = 0.2 + 1.0 + 0.9
    assert leaned == pytest.approx((0.2 / z, 1.0 / z, 0.9 / z))
    assert math.fsum(leaned) == pytest.approx(1.0)


def test_leaned_count_distribution_is_the_weighted_enumeration() -> None:
    """Seat 1's latest bid leans its count: the distribution equals the brute-force enumeration
    of every hidden hand weighted by ``1 + lean · k`` (k: seat 1's dice counting, P-15)."""
    state = start_round(PERUDO, [[2, 5], [3, 1], [6]], opener=0)
    state, _ = apply(state, Bid(1, 3))
    state, _ = apply(state, Bid(2, 3))
    v = view(state, 0)
    lean = 0.8
    got = count_distribution(v, 3, {1: lean})
    want = [0.0] * (v.total_dice + 1)
    own = count_hand(PERUDO, v.hand, 3, False)
    for h1 in itertools.product(range(1, 7), repeat=2):
        for h2 in itertools.product(range(1, 7), repeat=1):
            k1 = count_hand(PERUDO, h1, 3, False)
            k2 = count_hand(PERUDO, h2, 3, False)
            want[own + k1 + k2] += (1 + lean * k1) / 36 / 6
    norm = math.fsum(want)
    assert got == pytest.approx([w / norm for w in want])
    assert count_distribution(v, 3, {}) == count_distribution(v, 3)


def test_balanced_bids_do_not_give_the_hand_away() -> None:
    """Opening a heads-up round of one die each, every hand has at least three bids it makes
    with a real chance (``strong`` opens on the face it holds, every time)."""
    for die in range(1, 7):
        state = start_round(PERUDO, [[die], [4]], opener=0)
        policy = BalancedBot(0).policy(view(state, 0))
        assert sum(1 for a, p in policy.items() if isinstance(a, Bid) and p >= 0.05) >= 3, die


def test_hard_beats_medium_heads_up() -> None:
    assert play_duel("balanced", "prob", 40) >= 22


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(["perudo", "perudo_calza", "liars_dice", "joker"]),
    dice=st.tuples(st.integers(1, 5), st.integers(1, 5)),
    palifico=st.booleans(),
    raises=st.lists(st.integers(0, 11), max_size=6),
    seed=st.integers(0, 2**16),
)
def test_policy_rows_are_each_hands_policy(
    rules: str, dice: tuple[int, int], palifico: bool, raises: list[int], seed: int
) -> None:
    """``policy_rows`` (every hand the seat may hold at once: the gate's sum over a hand kept
    down, P-21) is, row by row, the policy of the view with that hand, for ``prob`` and
    ``balanced`` at each of the gate's temperatures: one policy, valued two ways."""
    from perudo.bots import ProbBot
    from perudo.bots.balanced_bot import BalancedSettings
    from perudo.core import find_ruleset
    from perudo.solve.shipped import joker_rules

    rs = joker_rules(5) if rules == "joker" else find_ruleset(rules)
    rng = random.Random(seed)
    hands = [tuple(rng.randint(1, rs.faces) for _ in range(n)) for n in dice]
    pal = palifico and rs.palifico != "off" and dice[0] == 1  # P-30: the opener holds one
    state = start_round(rs, hands, opener=0, palifico=pal)
    seat = 0
    for pick in raises:
        bids = [a for a in view(state, seat).legal if isinstance(a, Bid)]
        if not bids:
            break
        state, _ = apply(state, bids[min(pick, len(bids) - 1)], seat)
        seat = 1 - seat
    v = view(state, seat)
    candidates = list(itertools.combinations_with_replacement(range(1, rs.faces + 1), dice[seat]))
    for t in (0.02, 0.05, 0.1):
        for bot in (
            ProbBot(None, temperature=t),
            BalancedBot(None, settings=BalancedSettings(temperature=t)),
        ):
            rows = bot.policy_rows(v, candidates)
            for hand, row in zip(candidates, rows, strict=True):
                one = bot.policy(dataclasses.replace(v, hand=hand))
                assert row == pytest.approx([one.get(a, 0.0) for a in v.legal], abs=1e-12)


def test_policy_rows_refuse_a_view_with_dice_shown() -> None:
    """V-9: dice set aside face up count for every hand alike; the rows value bids and dudo on
    a bid with nothing shown, and say so rather than shift the counts wrongly."""
    from perudo.bots import ProbBot

    state, _ = apply(start_round(PERUDO, [(3, 3), (1, 2)], opener=0), Bid(2, 3), 0)
    v = dataclasses.replace(view(state, 1), shown=((3, 3), ()))
    with pytest.raises(ValueError, match="V-9"):
        ProbBot(None).policy_rows(v, [(1, 2)])
