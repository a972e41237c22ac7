"""Opening-bluff rates (perudo.bots.openings): the bound of the safe exploitation, the
tempered reading of an opening, and expert's determinism with it (P-21 reveals, P-70 views)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perudo.bots.beliefs import Beliefs, BidModel
from perudo.bots.deviations import deviate
from perudo.bots.openings import OpeningReader, OpeningTrust, opening_chances
from perudo.core import PERUDO, Bid, apply, start_round, view
from perudo.registry import make_bot
from perudo.sim.match import play_game

TRUST = OpeningTrust()
TEMPERATURE = BidModel().temperature

unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@given(st.lists(st.tuples(unit, unit), max_size=40))
def test_the_rate_never_leaves_prior_to_ceiling(obs):
    reader = OpeningReader(TRUST, TEMPERATURE)
    start = reader.rate(1)
    for honest, blind in obs:
        reader.add(1, honest, blind)
        assert TRUST.prior <= reader.rate(1) <= TRUST.ceiling
    assert reader.rate(2) == start  # a seat with no revealed opening: the prior odds
    assert start <= TRUST.prior + (TRUST.ceiling - TRUST.prior) * TRUST.bluffers + 1e-12


@given(st.lists(unit, max_size=20))
def test_an_opening_both_openers_make_alike_tells_nothing(chances):
    reader = OpeningReader(TRUST, TEMPERATURE)
    start = reader.rate(1)
    for c in chances:
        reader.add(1, c, c)
    assert abs(reader.rate(1) - start) < 1e-9


def _openings(style: str, count: int, seed: int) -> OpeningReader:
    """``count`` revealed openings at four seats of five dice by a player who opens as the bid
    model's honest opener does (``honest``: softmax of its chances) or face-blind (the honest
    quantity, a face at random among that quantity's bids)."""
    rng = np.random.default_rng(seed)
    reader = OpeningReader(TRUST, TEMPERATURE)
    total = 20
    openings = [Bid(q, f) for q in range(1, total + 1) for f in range(1, 7)]
    for _ in range(count):
        hand = tuple(sorted(int(d) for d in rng.integers(1, 7, size=5)))
        chances = {}
        for bid in openings:
            try:
                chances[bid] = opening_chances(PERUDO, hand, total, bid, TEMPERATURE)
            except ValueError:  # not a legal opening (aces at a quantity above the cap)
                continue
        bids = list(chances)
        honest = np.array([chances[b][0] for b in bids])
        pick = bids[int(rng.choice(len(bids), p=honest / honest.sum()))]
        if style == "blind":
            same = [b for b in bids if b.quantity == pick.quantity]
            pick = same[int(rng.integers(len(same)))]
        reader.add(1, *chances[pick])
    return reader


def test_against_the_models_honest_opener_the_rate_stays_near_the_prior():
    """The safe side of the bound: a player who opens like the equilibrium-like model is read
    (nearly) as before, and never beyond the ceiling."""
    for seed in range(3):
        rate = _openings("honest", 30, seed).rate(1)
        assert TRUST.prior <= rate <= TRUST.prior + 0.15


def test_against_a_face_blind_opener_the_rate_climbs():
    assert _openings("blind", 30, 0).rate(1) >= 0.3


def test_a_tempered_opening_says_less_about_the_openers_face():
    state = start_round(PERUDO, [(2, 3, 4, 5, 6), (6, 6, 6, 2, 3), (1, 2, 2, 4, 5)], opener=1)
    state, _ = apply(state, Bid(4, 6), 1)
    v = view(state, 0)
    plain = Beliefs(v, BidModel())
    tempered = Beliefs(v, BidModel(), {1: 0.8})
    sixes = 1 + np.arange(6)  # 0..5 of the opener's dice count toward sixes

    def mean(b: Beliefs) -> float:
        d = b.seat_distribution(1, 6)
        return float(d @ sixes[: len(d)] - 1.0)

    prior = 5 / 3  # sixes with aces wild
    assert prior < mean(tempered) < mean(plain)


def test_expert_with_learned_opening_rates_replays_under_a_seed():
    def game() -> tuple[object, float]:
        rng = random.Random(7)
        bots = [make_bot("expert", rng.getrandbits(62)) for _ in range(4)]
        bots[0] = deviate(bots[0], "weakest-face-opening")
        result = play_game(PERUDO, bots, rng)
        reader = bots[1].fallback._openings  # type: ignore[attr-defined]
        return result.record, reader.rate(0)

    first, rate = game()
    again, rate_again = game()
    assert first == again and rate == rate_again
    assert TRUST.prior <= rate <= TRUST.ceiling
