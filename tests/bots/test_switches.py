"""Switch-bluff rates (perudo.bots.switches): a switch to the wild face (P-15) read with each
opponent's learned share of hand-blindness, the bound of that safe exploitation, and the rounds
it reads (P-21 reveals, P-30 palifico, V-9 set-asides, P-70 views)."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo.bots.beliefs import Beliefs, BidModel, is_switch
from perudo.bots.deviations import deviate
from perudo.bots.openings import OpeningTrust, finished_rounds
from perudo.bots.switches import SwitchReader, switch_chances, switch_evidence
from perudo.core import (
    PERUDO,
    Bid,
    Dudo,
    Reroll,
    RoundRecord,
    SetAside,
    apply,
    find_ruleset,
    start_round,
    view,
)
from perudo.registry import make_bot
from perudo.sim.match import play_game
from perudo.solve.expert import SWITCHES_MAX_SEATS, robust_strong

TRUST = OpeningTrust()
MODEL = BidModel()

unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_P15_a_switch_is_a_bid_on_the_wild_face_after_another_face() -> None:
    assert is_switch(PERUDO, Bid(3, 4), Bid(2, 1), False)
    assert not is_switch(PERUDO, Bid(2, 1), Bid(3, 1), False)  # aces raised on aces
    assert not is_switch(PERUDO, Bid(2, 1), Bid(5, 4), False)  # back from aces
    assert not is_switch(PERUDO, Bid(3, 4), Bid(2, 1), True)  # P-31: no wild face in palifico


@given(st.lists(st.tuples(unit, unit), max_size=40))
def test_the_switch_rate_never_leaves_prior_to_ceiling(obs: list[tuple[float, float]]) -> None:
    reader = SwitchReader(TRUST, MODEL)
    start = reader.rate(1)
    for honest, blind in obs:
        reader.add(1, honest, blind)
        assert TRUST.prior <= reader.rate(1) <= TRUST.ceiling
    assert reader.rate(2) == start


def test_P15_a_switch_from_a_hand_without_aces_says_the_switcher_is_blind_to_its_hand() -> None:
    """Four seats of five dice, eight fours bid: a switch to four aces is the honest bidder's
    likeliest raise from three aces, and unlikely from none."""
    rich = switch_chances(PERUDO, (1, 1, 1, 4, 5), 20, Bid(8, 4), Bid(4, 1), MODEL)
    bare = switch_chances(PERUDO, (2, 3, 4, 5, 6), 20, Bid(8, 4), Bid(4, 1), MODEL)
    assert rich[0] > rich[1]  # honest likelier than blind: the odds of the habit fall
    assert bare[0] < bare[1]  # and here they rise
    assert rich[1] == bare[1]  # the blind switcher's chance does not depend on the hand


def _finished(
    hands: list[tuple[int, ...]], actions: list[tuple[int, object]], *, viewer: int = 3
) -> tuple[RoundRecord, tuple[int, ...]]:
    """A round of ``hands`` played by the core to its call, as ``viewer``'s next view shows
    it: the record and the dice counts it opened with."""
    state = start_round(PERUDO, hands, opener=actions[0][0])
    for seat, action in actions:
        state, _ = apply(state, action, seat)  # type: ignore[arg-type]
    return finished_rounds(view(state, viewer))[0]


BARE = (2, 3, 4, 5, 6)
RICH = (1, 1, 1, 4, 5)


def test_P21_a_revealed_switch_is_evidence_and_a_hidden_one_is_not() -> None:
    """Seat 1 switches to aces and is doubted: the reveal order (P-21) lifts its hand, so its
    switch is read; the doubter's hand stays hidden."""
    hands = [BARE, RICH, (2, 2, 3, 3, 6), (4, 4, 5, 6, 6)]
    record, counts = _finished(hands, [(0, Bid(3, 4)), (1, Bid(2, 1)), (2, Dudo())])
    found = switch_evidence(PERUDO, record, counts, MODEL)
    assert found == [(1, *switch_chances(PERUDO, RICH, 20, Bid(3, 4), Bid(2, 1), MODEL))]
    honest, blind = found[0][1:]
    assert honest > blind
    bare = [BARE, BARE, (2, 2, 3, 3, 6), (4, 4, 5, 6, 6)]
    record, counts = _finished(bare, [(0, Bid(3, 4)), (1, Bid(2, 1)), (2, Dudo())])
    ((seat, honest, blind),) = switch_evidence(PERUDO, record, counts, MODEL)
    assert seat == 1 and honest < blind


def test_rounds_not_read_two_seats_and_only_the_first_switch_of_a_seat() -> None:
    hands = [BARE, RICH]
    record, counts = _finished(hands, [(0, Bid(3, 4)), (1, Bid(2, 1)), (0, Dudo())], viewer=0)
    assert switch_evidence(PERUDO, record, counts, MODEL) == []  # heads-up: the book's
    hands = [BARE, RICH, (2, 2, 3, 3, 6)]
    actions = [(0, Bid(3, 4)), (1, Bid(2, 1)), (2, Bid(5, 6)), (0, Bid(6, 6))]
    actions += [(1, Bid(4, 1)), (2, Bid(9, 6)), (0, Dudo())]
    record, counts = _finished(hands, actions, viewer=2)
    found = switch_evidence(PERUDO, record, counts, MODEL)
    assert [seat for seat, _, _ in found] == [1]  # its second switch is not read again
    assert found[0][1:] == switch_chances(PERUDO, RICH, 15, Bid(3, 4), Bid(2, 1), MODEL)


def test_V9_a_switch_after_dice_set_aside_is_not_read() -> None:
    """Bluff (V-9 set-asides, the six wild): seat 1 shows a six and re-rolls the rest, then
    switches to sixes; its revealed hand is not the hand it bid from, so nothing is read."""
    rules = find_ruleset("bluff")
    assert rules.set_aside and rules.wild_face == 6
    hands = [(1, 2, 3, 4, 5), (6, 6, 1, 2, 3), (2, 2, 3, 3, 5)]
    state = start_round(rules, hands, opener=0)
    state, _ = apply(state, Bid(3, 4), 0)
    state, _ = apply(state, SetAside((6,)), 1)
    state, _ = apply(state, Reroll((6, 1, 1, 2)))  # V-9: the rest re-rolled
    switch = min(
        (a for a in view(state, 1).legal if isinstance(a, Bid) and a.face == 6),
        key=lambda b: b.quantity,
    )
    state, _ = apply(state, switch, 1)
    state, _ = apply(state, Dudo(), 2)
    record, counts = finished_rounds(view(state, 0))[0]
    assert is_switch(rules, Bid(3, 4), switch, False)
    assert switch_evidence(rules, record, counts, MODEL) == []


def _switchers_aces(b: Beliefs) -> float:
    """The mean count of aces among seat 1's five dice under ``b``."""
    d = b.seat_distribution(1, 1)
    return float(d @ np.arange(len(d)))


def test_P15_a_switch_read_with_doubt_says_less_of_the_switchers_aces() -> None:
    hands = [BARE, RICH, (2, 2, 3, 3, 6), (4, 4, 5, 6, 6)]
    state = start_round(PERUDO, hands, opener=0)
    for seat, action in [(0, Bid(8, 4)), (1, Bid(4, 1))]:
        state, _ = apply(state, action, seat)
    v = view(state, 3)
    prior = 5 / 6  # five dice no bid has said anything about
    plain = _switchers_aces(Beliefs(v, MODEL))
    doubted = _switchers_aces(Beliefs(v, MODEL, switch_rates={1: 0.8}))
    blind = _switchers_aces(Beliefs(v, MODEL, switch_rates={1: 1.0}))
    assert prior < doubted < plain
    assert abs(blind - prior) < 1e-9  # a wholly blind switch moves nothing
    assert _switchers_aces(Beliefs(v, MODEL, switch_rates={2: 0.8})) == plain  # only its own


def test_the_raises_aces_habit_is_read_and_honest_hard_switches_are_not() -> None:
    """Over four four-seat games, ``expert`` (seat 1) learns that the ``raises-aces``
    deviant's switches (seat 0) do not follow its aces: the log odds of the habit climb by
    some 30 nats in all (4 to 11 a game), its rate ends each game near the ceiling; ``hard``'s
    switches (seats 2, 3) follow their aces, and their odds end where they began, give or take
    (about 0 in all; from −3.6 to +3.6 a game)."""
    deviant: list[float] = []
    honest: list[float] = []
    for seed in range(4):
        bots = [deviate(make_bot("expert", 1), "raises-aces"), make_bot("expert", 2)]
        bots += [make_bot("hard", 3), make_bot("hard", 4)]
        play_game(PERUDO, bots, random.Random(seed))
        reader = bots[1].fallback._switches  # type: ignore[attr-defined]
        deviant.append(reader._log_odds[0])
        honest += [reader._log_odds.get(s, 0.0) for s in (2, 3)]
        assert reader.rate(0) > 0.75
    assert sum(deviant) > 20.0 and min(deviant) > 2.0
    assert sum(honest) < 5.0


def test_expert_reads_switches_up_to_four_seats_and_strong_does_not() -> None:
    assert robust_strong(1).settings.switches == OpeningTrust(max_seats=SWITCHES_MAX_SEATS)
    assert SWITCHES_MAX_SEATS == 4
    assert make_bot("strong", 1).settings.switches is None  # type: ignore[attr-defined]


def test_the_fit_benchmark_reads_switches_against_a_table_of_hard(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "openings_fit.py"
    spec = importlib.util.spec_from_file_location("openings_fit", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--tell", "switches", "--deviation", "raises-aces", "--others", "hard", "--games", "2"]
    module.main(argv)
    hard, deviant = capsys.readouterr().out.splitlines()
    assert hard.startswith("hard ") and " switches " in hard and hard.endswith(" a switch")
    assert deviant.startswith("raises-aces ")
    plain, habit = module.openings("perudo", 4, "raises-aces", 1, 0, "switches", "hard")
    assert habit and all(0.0 < h <= 1.0 and 0.0 < b <= 1.0 for h, b in plain + habit)


def test_a_table_larger_than_max_seats_reads_switches_as_strong_does() -> None:
    """``OpeningTrust.max_seats`` is the table's size, not the seats left with dice: a
    six-seat game reads no switch with doubt even when only four seats are left in it."""
    hands = [BARE, BARE, (2, 2, 3, 3, 6), (4, 4, 5, 6, 6), BARE, RICH]
    state = start_round(PERUDO, hands, opener=0)
    for seat, action in [(0, Bid(3, 4)), (1, Bid(4, 1)), (2, Dudo())]:
        state, _ = apply(state, action, seat)  # type: ignore[arg-type]
    v = view(state, 5)  # four aces are not there: every hand is lifted (P-21)
    assert SwitchReader(OpeningTrust(max_seats=4), MODEL).rates(v) is None
    assert SwitchReader(OpeningTrust(max_seats=6), MODEL).rates(v) is not None
    late = dataclasses.replace(v, dice_counts=(0, 0, 5, 5, 5, 5))
    assert SwitchReader(OpeningTrust(max_seats=4), MODEL).rates(late) is None
    with pytest.raises(ValueError, match="min_seats <= max_seats"):
        OpeningTrust(max_seats=2)
