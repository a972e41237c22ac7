"""Fitting expert's mixed play by fictitious play (perudo.train.mixing) on a tiny budget: the
fit is a valid mixture, replays from its seed, and the call fit finds a known indifference point;
a fork values a round from the deciding seat's side (P-20 dice lost, P-70 views)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perudo.bots.mixing import MixedPlay
from perudo.core import PERUDO, Bid, Dudo, apply, start_round
from perudo.train.mixing import branch_value, call_fit, fit_mixed_play

SMALL = dataclasses.replace(PERUDO, dice_per_player=2)


def test_a_tiny_fit_gives_a_valid_mixture_and_replays() -> None:
    seen = []
    play, steps = fit_mixed_play(
        SMALL, players=3, iterations=2, games=1, seed=2, progress=seen.append
    )
    assert seen == steps and len(steps) == 2
    assert set(steps[0].gains) == {"expert", "hard"}  # every fork at both tables
    assert steps[-1].play == play
    assert 0.0 <= play.opening_bluff <= 1.0 and play.call_temperature >= 0.0
    # fictitious play: the average moves by 1/(k + 2) towards each pure opening response
    assert play.opening_bluff in {0.0, 1 / 3, 0.5, 2 / 3}
    again, _ = fit_mixed_play(SMALL, players=3, iterations=2, games=1, seed=2)
    assert again == play


def test_the_call_fit_finds_the_indifference_point_and_mixes_only_as_the_data_allows() -> None:
    rng = np.random.default_rng(1)
    d = rng.uniform(-0.25, 0.25, 4000)
    clean = [(x, 4.0 * (x - 0.05)) for x in d]  # dudo better exactly when Δ > 0.05
    shift, tau = call_fit(clean, MixedPlay())
    assert shift == pytest.approx(0.05, abs=1e-6)
    assert tau < 0.01  # no noise: mixing only loses
    noisy = [(x, float(rng.normal(0.0, 1.0))) for x in d]  # Δ tells nothing
    _, wide = call_fit(noisy, MixedPlay())
    assert wide > 0.5
    assert call_fit(clean[:3], MixedPlay(call_temperature=0.3)) == (0.0, 0.3)


def test_a_fork_is_valued_from_the_deciding_seat() -> None:
    state = start_round(PERUDO, [[2, 2, 2], [3, 4, 5], [3, 4, 6]])
    state, _ = apply(state, Bid(8, 6))  # seat 0 bids eight 6s: false (one 6, one ace… none)
    # seat 1 doubts: the bidder loses a die, shared gain for seat 1 is 1/2
    assert branch_value(state, 1, Dudo(), MixedPlay(), 1) == pytest.approx(0.5)
    assert branch_value(state, 1, Dudo(), MixedPlay(), 1, "hard") == pytest.approx(0.5)
