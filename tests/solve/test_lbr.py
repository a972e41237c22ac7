"""Local best response: a real strategy, so never more than the exact best response (checked
at one die each, where both are exact), and close to it against a deterministic bot."""

from __future__ import annotations

import pytest

from perudo import PERUDO
from perudo.registry import make_bot
from perudo.solve import RoundGame
from perudo.solve.exploit import exploit
from perudo.solve.lbr import LocalBestResponse, lbr_match
from perudo.solve.shipped import joker_rules, round_rules


@pytest.fixture(scope="module")
def joker11() -> RoundGame:
    return RoundGame(joker_rules(1), (1, 1))


@pytest.mark.parametrize("seat", [0, 1])
def test_lbr_never_beats_the_exact_best_response_at_1v1(joker11, seat):
    bot = make_bot("strong", seed=1)
    lbr = LocalBestResponse(joker11, bot.policy, 1 - seat, raises_per_face=0)
    got = lbr.value()
    best = exploit(joker11, bot.policy, seat).best_response
    assert got <= best + 1e-9
    # strong is deterministic and its bids show its hand: LBR finds most of the best response.
    assert got >= best - 0.2


def test_sampled_lbr_agrees_with_its_exact_value(joker11):
    bot = make_bot("strong", seed=1)
    exact = [LocalBestResponse(joker11, bot.policy, p).value() for p in (0, 1)]
    res = lbr_match(joker11, bot.policy, 600, seed=2)
    assert res.rounds == 600
    lo, hi = res.interval
    assert lo <= (exact[0] + exact[1]) / 2 <= hi


def test_a_heads_up_round_s_rules_by_name_are_the_joker_game_or_a_preset() -> None:
    """``round_rules``, which the benchmarks share: ``joker`` with the most dice of the two
    seats, a preset by name (any case), and a clear error for anything else."""
    assert round_rules("joker", (2, 1)) == joker_rules(2)
    assert round_rules(" Joker ", (1, 3)) == joker_rules(3)
    assert round_rules("Perudo", (1, 1)) == PERUDO
    with pytest.raises(ValueError, match="nope"):
        round_rules("nope", (1, 1))
