"""Bidding: P-10…P-16 (with the worked examples of both seed texts) and switches V-1…V-3."""

from __future__ import annotations

import dataclasses

import pytest
from tests.core.script import play, resolved

from perudo.core import (
    BLUFF,
    LIARS_DICE_OPENSPIEL,
    PERUDO,
    Bid,
    Dudo,
    GameState,
    IllegalActionError,
    NotationError,
    RuleSet,
    apply,
    is_legal,
    legal_actions,
    ordered_bids,
    raise_error,
    raises_after,
    start_round,
)

# Six players, thirty dice in play: the Italian text's example table.
SIX_HANDS = [
    [1, 4, 4, 5, 2],
    [3, 3, 6, 2, 1],
    [5, 5, 5, 6, 6],
    [2, 2, 3, 4, 4],
    [6, 1, 1, 3, 5],
    [2, 3, 4, 5, 6],
]


def table(rules: RuleSet = PERUDO, hands: list[list[int]] | None = None) -> GameState:
    return start_round(rules, hands if hands is not None else SIX_HANDS)


def after(*bids: str, rules: RuleSet = PERUDO) -> GameState:
    """A six-player round after these bids, in turn from seat 0."""
    return play(table(rules), *bids)


def legal_bids(state: GameState) -> set[Bid]:
    return set(legal_actions(state).bids)


def bids(*texts: str) -> set[Bid]:
    return {Bid.parse(t) for t in texts}


# --- P-10: the opening bid ----------------------------------------------------------------


def test_p10_opener_bids_any_quantity_of_any_face_but_aces() -> None:
    state = table()
    assert legal_bids(state) == {Bid(q, f) for q in range(1, 31) for f in range(2, 7)}
    assert list(legal_actions(state)) == list(legal_actions(state).bids)  # no dudo yet (P-11)


def test_p10_opening_on_aces_is_refused() -> None:
    state = table()
    with pytest.raises(IllegalActionError, match=r"may not open on aces \(P-10\)"):
        apply(state, Bid(3, 1))
    assert raise_error(PERUDO, None, Bid(1, 1), 30) == "a round may not open on aces (P-10)"


def test_p10_a_bid_has_a_quantity_of_at_least_one() -> None:
    with pytest.raises(NotationError, match="quantity must be a positive integer"):
        Bid(0, 3)
    with pytest.raises(NotationError, match="face must be a positive integer"):
        Bid(3, 0)


def test_p10_no_dudo_before_the_opening_bid() -> None:
    with pytest.raises(IllegalActionError, match=r"no bid to challenge yet.*\(P-10\)"):
        apply(table(), Dudo())


# --- P-11: turn order ---------------------------------------------------------------------


def test_p11_turn_passes_clockwise_and_the_next_raises_or_calls_dudo() -> None:
    state = after("3x4")
    assert state.to_act == 1 and state.bid == Bid(3, 4) and state.bidder == 0
    legal = list(legal_actions(state))
    assert legal[-1] == Dudo()
    assert all(isinstance(a, Bid) for a in legal[:-1])
    assert legal_actions(state).bids[0] == Bid(3, 5)  # lowest first
    assert Bid(2, 1) in legal_actions(state)  # two aces (P-13) rank after four 6s
    state = play(state, "3x5", "4x2", "4x3", "4x4", "4x5")
    assert state.to_act == 0  # after seat 5, back to seat 0


def test_p11_turn_skips_seats_that_are_out() -> None:
    state = start_round(PERUDO, [[2, 3], [], [4], [5, 5]], opener=0)
    state = play(state, "1x2")
    assert state.to_act == 2
    state = play(state, "1x3", "1x4")
    assert state.to_act == 0


def test_p11_only_the_seat_to_act_may_bid() -> None:
    state = after("3x4")
    with pytest.raises(IllegalActionError, match=r"seat 1's turn, not seat 2's \(P-11\)"):
        apply(state, Bid(5, 5), 2)


# --- P-12: non-ace to non-ace -------------------------------------------------------------


def test_p12_after_eight_3s_nine_of_any_face_or_eight_4s_5s_6s() -> None:
    """The Italian example: after eight 3s, nine or more of any face, or eight of a higher face."""
    state = after("8x3")
    non_aces = {b for b in legal_bids(state) if b.face != 1}
    assert non_aces == bids("8x4", "8x5", "8x6") | {
        Bid(q, f) for q in range(9, 31) for f in range(2, 7)
    }
    for refused in ("8x2", "8x3", "7x6", "1x6"):
        assert not is_legal(state, Bid.parse(refused))
        with pytest.raises(IllegalActionError, match=r"does not raise 8x3.*\(P-12\)"):
            apply(state, Bid.parse(refused))


def test_p12_after_eight_4s_nine_4s_or_eight_5s() -> None:
    """The Korean example: 'eight 4s!' → 'eight 5s! (eight 6s too, or nine 4s)'."""
    state = after("8x4")
    for ok in ("9x4", "8x5", "8x6", "9x2"):
        assert is_legal(state, Bid.parse(ok)), ok
    assert not is_legal(state, Bid(8, 3))
    assert not is_legal(state, Bid(8, 4))


# --- P-13: to aces ------------------------------------------------------------------------


def test_p13_after_nine_4s_five_aces_or_more() -> None:
    """The Italian example: after nine 4s, five or more aces; four aces are refused."""
    state = after("9x4")
    assert {b.quantity for b in legal_bids(state) if b.face == 1} == set(range(5, 31))
    with pytest.raises(IllegalActionError, match=r"at least 5 of them \(P-13\)"):
        apply(state, Bid(4, 1))
    state = play(state, "5x1")
    assert state.bid == Bid(5, 1)


@pytest.mark.parametrize(("quantity", "aces"), [(1, 1), (2, 1), (5, 3), (7, 4), (8, 4), (9, 5)])
def test_p13_aces_bid_needs_half_rounded_up(quantity: int, aces: int) -> None:
    """Half the quantity rounded up: the Korean text's 5 → 3, and 7x5 → 4 aces."""
    state = after(f"{quantity}x5")
    assert min(b.quantity for b in legal_bids(state) if b.face == 1) == aces
    assert is_legal(state, Bid(aces, 1))
    assert not is_legal(state, Bid(aces - 1, 1)) if aces > 1 else True


def test_p13_korean_example_eight_5s_to_four_aces() -> None:
    state = after("8x4", "8x5")
    assert is_legal(state, Bid(4, 1))
    assert not is_legal(state, Bid(3, 1))


# --- P-14: from aces ----------------------------------------------------------------------


def test_p14_after_four_aces_five_aces_or_nine_of_any_face() -> None:
    """The Italian example: after four aces, five or more aces, or nine or more of a face."""
    state = after("8x3", "4x1")
    assert legal_bids(state) == {Bid(q, 1) for q in range(5, 31)} | {
        Bid(q, f) for q in range(9, 31) for f in range(2, 7)
    }
    for refused in ("8x6", "8x2", "4x1", "3x1"):
        assert not is_legal(state, Bid.parse(refused)), refused
    with pytest.raises(IllegalActionError, match=r"at least 9 dice \(P-14\)"):
        apply(state, Bid(8, 6))
    with pytest.raises(IllegalActionError, match=r"more than 4 aces \(P-14\)"):
        apply(state, Bid(4, 1))


def test_p14_korean_sequence_eight_4s_eight_5s_four_aces_nine_3s() -> None:
    """'4가 8개' → '5가 8개' → '1이 4개' → '3이 9개' (aces ×2 + 1), then dudo."""
    state = after("8x4", "8x5", "4x1", "9x3")
    assert state.bid == Bid(9, 3) and state.to_act == 4
    assert Dudo() in legal_actions(state)


# --- P-15: aces are wild ------------------------------------------------------------------


def korean_count_table(threes: int, aces: int) -> GameState:
    """Six hands holding exactly ``threes`` 3s and ``aces`` aces (the rest 2s, 4s, 5s, 6s)."""
    dice = [3] * threes + [1] * aces
    filler = [2, 4, 5, 6] * 8
    dice += filler[: 30 - len(dice)]
    hands = [dice[i : i + 5] for i in range(0, 30, 5)]
    return start_round(PERUDO, hands)


@pytest.mark.parametrize(
    ("threes", "aces", "holds"),
    [(5, 4, True), (9, 0, True), (0, 9, True), (6, 2, False), (7, 3, True), (3, 5, False)],
)
def test_p15_korean_example_counting_3s_with_aces_after_nine_3s(
    threes: int, aces: int, holds: bool
) -> None:
    """After nine 3s and dudo, the 3s are counted with the aces (조커): nine or more → the
    challenger loses a die; fewer → the bidder loses one (P-15, P-20)."""
    state = play(korean_count_table(threes, aces), "8x4", "8x5", "4x1", "9x3")
    result, events = apply(state, Dudo())
    resolution = resolved(events)
    assert resolution.holds is holds
    if holds:
        assert 9 <= resolution.count <= threes + aces  # revealing stops once proven (P-21)
    else:
        assert resolution.count == threes + aces
    loser = 4 if holds else 3  # seat 4 called dudo on seat 3's nine 3s
    assert result.dice_counts[loser] == 4
    assert sum(result.dice_counts) == 29


def test_p15_a_bid_on_aces_counts_only_aces() -> None:
    state = start_round(PERUDO, [[1, 1, 3, 3, 3], [1, 3, 3, 6, 6]])
    state = play(state, "2x3", "3x1")
    _, events = apply(state, Dudo())
    assert resolved(events).count == 3 and resolved(events).holds


# --- P-16: at most the dice in play -------------------------------------------------------


def test_p16_no_bid_claims_more_dice_than_are_in_play() -> None:
    state = start_round(PERUDO, [[2, 2, 3, 4, 5], [1, 3, 3, 6, 6]])
    assert max(b.quantity for b in legal_bids(state)) == 10
    with pytest.raises(IllegalActionError, match=r"than the 10 in play \(P-16\)"):
        apply(state, Bid(11, 3))
    state = play(state, "10x6")
    assert legal_bids(state) == {Bid(5, 1), Bid(6, 1), Bid(7, 1), Bid(8, 1), Bid(9, 1), Bid(10, 1)}
    state = play(state, "10x1")
    assert list(legal_actions(state)) == [Dudo()]  # nothing left to raise to


# --- V-1: raise order ---------------------------------------------------------------------

MONOTONE = dataclasses.replace(PERUDO, raise_order="monotone")


def test_v1_monotone_neither_quantity_nor_face_may_go_down() -> None:
    """The Korean text's base wording; 'five 3s → six 2s' is the house rule (perudo order)."""
    state = after("5x3", rules=MONOTONE)
    assert not is_legal(state, Bid(6, 2))
    with pytest.raises(IllegalActionError, match=r"neither quantity nor face may go down.*V-1"):
        apply(state, Bid(6, 2))
    for ok in ("6x3", "5x4", "6x4", "9x6"):
        assert is_legal(state, Bid.parse(ok)), ok
    assert not is_legal(state, Bid(5, 3))
    assert is_legal(after("5x3"), Bid(6, 2))  # the perudo order (P-12) allows it


def test_v1_monotone_keeps_the_ace_conversion() -> None:
    state = after("5x3", rules=MONOTONE)
    assert is_legal(state, Bid(3, 1)) and not is_legal(state, Bid(2, 1))
    state = play(state, "3x1")
    assert is_legal(state, Bid(7, 2)) and not is_legal(state, Bid(6, 6))


# --- V-2: the wild face -------------------------------------------------------------------


def test_v2_wild_six_counts_as_any_face_and_aces_are_plain() -> None:
    rules = dataclasses.replace(PERUDO, wild_face=6)
    state = start_round(rules, [[1, 6, 6, 3, 2], [6, 3, 4, 4, 1]])
    # Opening on the wild face is refused (P-10), opening on aces is allowed.
    assert not is_legal(state, Bid(1, 6)) and is_legal(state, Bid(1, 1))
    state = play(state, "5x3")
    assert is_legal(state, Bid(3, 6)) and not is_legal(state, Bid(2, 6))  # P-13 on 6s
    _, events = apply(state, Dudo())
    assert resolved(events).count == 5 and resolved(events).holds  # two 3s and three 6s
    state = play(start_round(rules, [[1, 6, 6, 3, 2], [6, 3, 4, 4, 1]]), "2x1")
    _, events = apply(state, Dudo())
    # A bid on aces (a plain face here) counts aces and the wild 6s: seat 0 alone proves it.
    assert resolved(events).reveals[0].count == 3 and resolved(events).holds


def test_v2_no_wild_face_means_no_wilds_and_no_conversion() -> None:
    rules = dataclasses.replace(PERUDO, wild_face=None)
    state = start_round(rules, [[1, 1, 3, 3, 2], [6, 3, 4, 4, 1]])
    assert is_legal(state, Bid(1, 1))  # aces are an ordinary face, the lowest
    state = play(state, "5x3")
    assert not is_legal(state, Bid(3, 1)) and is_legal(state, Bid(6, 1))
    assert not is_legal(state, Bid(5, 2)) and is_legal(state, Bid(5, 4))
    _, events = apply(state, Dudo())
    assert resolved(events).count == 3 and not resolved(events).holds  # aces do not count as 3s


# --- V-3: wild conversion -----------------------------------------------------------------


def test_v3_bluff_n_stars_beat_2n_minus_1_and_lose_to_2n() -> None:
    state = after("7x3", rules=BLUFF)
    assert min(b.quantity for b in legal_bids(state) if b.face == 6) == 4  # floor(7/2) + 1
    with pytest.raises(IllegalActionError, match=r"at least 4 of them \(V-3\)"):
        apply(state, Bid(3, 6))
    state = after("8x3", rules=BLUFF)
    assert min(b.quantity for b in legal_bids(state) if b.face == 6) == 5
    state = after("7x3", "4x6", rules=BLUFF)
    assert min(b.quantity for b in legal_bids(state) if b.face != 6) == 8  # 2n
    with pytest.raises(IllegalActionError, match=r"at least 8 dice \(V-3\)"):
        apply(state, Bid(7, 5))


def test_v3_bluff_allows_opening_on_the_wild_face() -> None:
    state = table(BLUFF)
    assert is_legal(state, Bid(1, 6)) and is_legal(state, Bid(1, 1))


def test_v3_perudo_conversion_with_wild_six() -> None:
    rules = dataclasses.replace(PERUDO, wild_face=6)
    state = after("9x4", rules=rules)
    assert is_legal(state, Bid(5, 6)) and not is_legal(state, Bid(4, 6))
    state = play(state, "5x6")
    assert is_legal(state, Bid(11, 1)) and not is_legal(state, Bid(10, 5))


def test_v3_none_ranks_the_wild_face_as_an_ordinary_face_but_it_stays_wild() -> None:
    """OpenSpiel's liars_dice: 6 is wild when counting, and ranked as an ordinary face."""
    rules = dataclasses.replace(LIARS_DICE_OPENSPIEL, max_players=10)
    state = after("3x5", rules=rules)
    assert is_legal(state, Bid(3, 6)) and is_legal(state, Bid(4, 1))
    assert not is_legal(state, Bid(2, 6)) and not is_legal(state, Bid(3, 4))
    assert is_legal(table(rules), Bid(1, 6))  # opening on the wild face
    state = play(start_round(rules, [[6, 2, 3, 4, 5], [6, 6, 1, 2, 3]]), "4x2")
    _, events = apply(state, Dudo())
    assert resolved(events).count == 5  # two 2s and three 6s


# --- the bid tables -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [PERUDO, BLUFF, LIARS_DICE_OPENSPIEL], ids=str)
def test_ordered_bids_rank_every_legal_raise_after_its_bid(rules: RuleSet) -> None:
    """With the perudo order a raise is legal iff it comes later in ordered_bids (P-12…P-14)."""
    order = ordered_bids(rules, 8)
    assert len(order) == 8 * rules.faces
    for i, prev in enumerate(order):
        seq, start = raises_after(rules, prev, 8)
        assert list(seq[start:]) == list(order[i + 1 :])
        for later in order[i + 1 :]:
            assert raise_error(rules, prev, later, 8) is None
        for earlier in order[: i + 1]:
            assert raise_error(rules, prev, earlier, 8) is not None
