"""Opening-bluff rates (perudo.bots.openings): the bound of the safe exploitation, the
tempered reading of an opening, and expert's determinism with it (P-21 reveals, P-70 views)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perudo.bots.beliefs import Beliefs, BidModel
from perudo.bots.deviations import deviate
from perudo.bots.openings import GameWatch, OpeningReader, OpeningTrust, opening_chances
from perudo.core import PERUDO, Bid, GameState, PlayerAction, PlayerView, apply, start_round, view
from perudo.registry import make_bot
from perudo.sim.driver import run
from perudo.sim.match import play_game
from perudo.solve.expert import MIXED_BLUFFERS, robust_strong, shipped_mixed_play

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


def test_against_the_models_honest_opener_the_rate_falls_from_the_even_odds():
    """The safe side of the bound: a player who opens like the equilibrium-like model is read
    ever more as honest (from the start's 0.4, the even odds of a bluffer, to under 0.3 after
    30 revealed openings), and never beyond the ceiling."""
    start = OpeningReader(TRUST, TEMPERATURE).rate(1)
    assert abs(start - (TRUST.ceiling - TRUST.prior) * TRUST.bluffers - TRUST.prior) < 1e-12
    for seed in range(3):
        rate = _openings("honest", 30, seed).rate(1)
        assert TRUST.prior <= rate < start - 0.1


def test_against_a_face_blind_opener_the_rate_climbs():
    start = OpeningReader(TRUST, TEMPERATURE).rate(1)
    assert _openings("blind", 30, 0).rate(1) >= start + 0.2


NO_INFORMATION_SIXES = 5 / 3
"""The mean count of sixes (aces wild) in five dice no bid has said anything about."""


def _openers_sixes(b: Beliefs) -> float:
    """The mean count toward sixes of seat 1's five dice (the opener's) under ``b``."""
    d = b.seat_distribution(1, 6)
    return float(d @ np.arange(len(d)))


def test_a_tempered_opening_says_less_about_the_openers_face():
    state = start_round(PERUDO, [(2, 3, 4, 5, 6), (6, 6, 6, 2, 3), (1, 2, 2, 4, 5)], opener=1)
    state, _ = apply(state, Bid(4, 6), 1)
    v = view(state, 0)
    plain = Beliefs(v, BidModel())
    tempered = Beliefs(v, BidModel(), {1: 0.8})
    assert NO_INFORMATION_SIXES < _openers_sixes(tempered) < _openers_sixes(plain)


def test_a_strangers_first_opening_is_read_with_doubt():
    """Before any hand of an opener was lifted (P-21), ``expert`` reads its opening at even
    odds of an honest opener and a bluffer (``OpeningTrust.bluffers``): a game's first bluff
    on a weak face does not pass for a strong hand. At odds of 1 to 19 it did, almost fully,
    and the weakest-face opener took 29.8% of 4,000 four-seat games (fair 25%)."""
    hands = [(2, 3, 4, 5, 6), (6, 6, 6, 2, 3), (1, 2, 2, 4, 5), (2, 3, 4, 5, 5)]
    state, _ = apply(start_round(PERUDO, hands, opener=1), Bid(4, 6), 1)
    v = view(state, 0)
    rates = OpeningReader(OpeningTrust(), TEMPERATURE).rates(v)
    assert rates is not None and set(rates) == {1, 2, 3}
    believed = _openers_sixes(Beliefs(v, BidModel())) - NO_INFORMATION_SIXES
    read = _openers_sixes(Beliefs(v, BidModel(), rates)) - NO_INFORMATION_SIXES
    assert 0.0 < read < 0.75 * believed


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


def _four_seat_views(seed: int, rounds: int, *, memory: bool = False) -> list[PlayerView]:
    """Seat 1's view at the start of each of the first ``rounds`` rounds of a four-seat game
    whose seat 0 opens on its weakest face, the others ``medium`` (``memory``: the views a
    memory-mode display shows, P-40)."""
    rng = random.Random(seed)
    bots = [deviate(make_bot("expert", 1), "weakest-face-opening")]
    bots += [make_bot("medium", k) for k in (2, 3, 4)]
    hands = [[rng.randint(1, 6) for _ in range(5)] for _ in range(4)]
    state = start_round(PERUDO, hands, opener=0)
    seen: list[PlayerView] = []

    def act(s: GameState, seat: int) -> PlayerAction:
        if len(seen) < s.round:
            seen.append(view(s, 1, memory=memory))
        return bots[seat].act(view(s, seat))

    run(state, rng, act, None, until=lambda s: s.round > rounds)
    return seen


def test_a_rematch_reads_the_new_game_alone_even_when_its_first_view_comes_later() -> None:
    """A rematch keeps the bot, and its first view of the second game may come at a later
    round than the last one it read of the first (it was not asked in the rounds between, or
    went out early): the rates are then read from the second game alone (P-21 reveals of that
    game only)."""
    first = _four_seat_views(11, 3)
    second = _four_seat_views(12, 9)
    reader = OpeningReader(TRUST, TEMPERATURE)
    for v in first:
        reader.observe(v)
    assert reader._log_odds  # the first game's openings were read
    late = second[-1]
    assert late.round > first[-1].round and late.past[0] != first[-1].past[0]
    fresh = OpeningReader(TRUST, TEMPERATURE)
    fresh.observe(late)
    reader.observe(late)
    assert reader.rate(0) == fresh.rate(0)
    assert reader._log_odds == fresh._log_odds


def test_P40_memory_mode_views_of_one_game_are_one_game() -> None:
    """A memory-mode display's view holds only the latest finished round (P-40), so its first
    finished round changes every round: that is not a new game; a rematch still is."""
    views = _four_seat_views(11, 6, memory=True)
    assert views[-1].past[0].round == views[-1].round - 1 > 1
    watch = GameWatch()
    assert [watch.new_game(v) for v in views] == [True] + [False] * (len(views) - 1)
    assert watch.new_game(_four_seat_views(12, 1, memory=True)[0])


def test_expert_reads_strangers_at_even_odds_and_the_mixed_play_at_its_fits_odds() -> None:
    """``expert``'s fallback reads every stranger's openings at even odds of a bluffer; the
    opt-in mixed play keeps the odds its shipped fit was made and measured with."""
    plain = robust_strong(1).settings.openings
    mixed = robust_strong(1, mixing="shipped").settings.openings
    assert plain == OpeningTrust() and plain.bluffers == 0.5
    assert mixed is not None and mixed.bluffers == MIXED_BLUFFERS == 0.05
    assert mixed.prior == shipped_mixed_play().reading_prior
