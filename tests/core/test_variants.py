"""The house variants of the Korean text: set aside and re-roll (V-9) and pass (V-10)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tests.core.script import play, play_events, resolved

from perudo.core import (
    BLUFF,
    PERUDO,
    ActionTaken,
    Bid,
    Deal,
    DiceRerolled,
    Dudo,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    Reroll,
    Reveal,
    SetAside,
    apply,
    chance_action,
    is_legal,
    legal_actions,
    start_round,
    view,
)

# --- V-9: set aside and re-roll -----------------------------------------------------------

BLUFF_HANDS = [[2, 2, 3, 4, 5], [2, 3, 3, 4, 6], [1, 1, 5, 5, 6]]


def bluff_after_opening() -> GameState:
    return play(start_round(BLUFF, BLUFF_HANDS), "3x2")


def test_v9_before_raising_a_player_may_set_dice_aside() -> None:
    state = bluff_after_opening()
    asides = [a for a in legal_actions(state) if isinstance(a, SetAside)]
    # Every non-empty part of 2 3 3 4 6 that leaves a die hidden: 2·3·2·2 − 2 = 22.
    assert len(asides) == len(set(asides)) == 22
    assert SetAside((3, 3)) in asides and SetAside((2, 3, 3, 4)) in asides
    assert SetAside((2, 3, 3, 4, 6)) not in asides


def test_v9_shown_dice_stay_face_up_and_the_rest_are_rerolled() -> None:
    state = bluff_after_opening()
    state, events = apply(state, SetAside((3, 3)))
    assert events == (ActionTaken(1, SetAside((3, 3))),)
    assert events[0].audience is None  # the dice set aside are public
    assert state.phase is Phase.REROLL and state.to_act is None
    assert state.shown[1] == (3, 3) and state.hands[1] == (2, 4, 6)
    assert state.dice_counts[1] == 5
    for seat in range(3):
        assert list(legal_actions(state, seat)) == []
        assert view(state, seat).shown[1] == (3, 3)
    reroll = chance_action(state, random.Random(1))
    assert isinstance(reroll, Reroll) and len(reroll.dice) == 3
    state, events = apply(state, Reroll((6, 1, 1)))
    assert events == (DiceRerolled(1, (1, 1, 6)),)
    assert events[0].audience == 1
    assert state.hands[1] == (1, 1, 6) and state.shown[1] == (3, 3)
    assert state.phase is Phase.BIDDING and state.to_act == 1 and state.must_raise


def test_v9_after_setting_aside_the_player_must_raise() -> None:
    state = play(bluff_after_opening(), "aside 33", "reroll 116")
    legal = list(legal_actions(state))
    assert legal and all(isinstance(a, Bid) for a in legal)
    for action in (Dudo(), Pass(), SetAside((1,))):
        with pytest.raises(IllegalActionError, match=r"must now raise \(V-9\)"):
            apply(state, action)
    state = play(state, "4x3")
    assert not state.must_raise and state.to_act == 2


def test_v9_shown_dice_count_for_the_round() -> None:
    state = play(bluff_after_opening(), "aside 33", "reroll 116", "4x3")
    after, events = apply(state, Dudo())
    result = resolved(events)
    # Threes with the 6 wild: seat 0 one; seat 1 two shown and a hidden 6; seat 2 one 6.
    assert result.reveals == (
        Reveal(0, (2, 2, 3, 4, 5), 1),
        Reveal(1, (1, 1, 3, 3, 6), 3),
        Reveal(2, (1, 1, 5, 5, 6), 1),
    )
    assert result.count == 5 and result.changes == ((2, -1),)  # V-4: one too many
    assert after.shown == ((), (), ())
    assert view(after, 0).past[-1].shown == ((), (3, 3), ())


def test_v9_shown_dice_add_up_over_the_round() -> None:
    state = play(bluff_after_opening(), "aside 33", "reroll 116", "4x3", "aside 11")
    assert state.shown == ((), (3, 3), (1, 1))
    state = play(state, "reroll 256", "5x3", "5x4", "aside 11", "reroll 3", "6x3")
    assert state.shown == ((), (1, 1, 3, 3), (1, 1))
    assert state.hands[1] == (3,) and state.dice_counts == (5, 5, 5)


def test_v9_at_least_one_die_stays_hidden() -> None:
    state = bluff_after_opening()
    with pytest.raises(IllegalActionError, match=r"at least one die stays hidden.*\(V-9\)"):
        apply(state, SetAside((2, 3, 3, 4, 6)))
    lone = play(
        start_round(BLUFF, [[2, 2, 3, 4, 5], [6], [1, 1, 5, 5, 6]], shown=[[], [2, 3, 4, 5], []]),
        "3x2",
    )
    assert not [a for a in legal_actions(lone) if isinstance(a, SetAside)]
    with pytest.raises(IllegalActionError, match=r"at least one die stays hidden.*\(V-9\)"):
        apply(lone, SetAside((6,)))


def test_v9_only_dice_the_seat_holds_hidden() -> None:
    state = bluff_after_opening()
    with pytest.raises(IllegalActionError, match=r"no 2 hidden 6s to set aside \(V-9\)"):
        apply(state, SetAside((6, 6)))
    with pytest.raises(IllegalActionError, match=r"no 1 hidden 9s.*\(V-9\)"):
        apply(state, SetAside((9,)))


def test_v9_not_before_the_opening_bid() -> None:
    state = start_round(BLUFF, BLUFF_HANDS)
    assert not [a for a in legal_actions(state) if isinstance(a, SetAside)]
    with pytest.raises(IllegalActionError, match=r"before raising, not before the opening.*V-9"):
        apply(state, SetAside((2,)))


def test_v9_not_in_a_palifico_round() -> None:
    rules = dataclasses.replace(BLUFF, palifico="on")
    state = play(start_round(rules, [[2], [2, 3, 3, 4, 6], [1, 5]], palifico=True), "1x2")
    assert not [a for a in legal_actions(state) if isinstance(a, SetAside)]
    with pytest.raises(IllegalActionError, match=r"set aside in a palifico round \(V-9\)"):
        apply(state, SetAside((3, 3)))


def test_v9_not_when_no_raise_is_left() -> None:
    state = play(start_round(BLUFF, [[2, 3], [4, 5]]), "4x6")  # four stars: the top bid
    assert list(legal_actions(state)) == [Dudo()]
    with pytest.raises(IllegalActionError, match=r"no bid is left.*\(V-9, P-16\)"):
        apply(state, SetAside((4,)))


def test_v9_off_nobody_sets_dice_aside() -> None:
    state = play(start_round(PERUDO, BLUFF_HANDS), "3x2")
    with pytest.raises(IllegalActionError, match=r"not played with these rules \(V-9\)"):
        apply(state, SetAside((3, 3)))


def test_v9_rerolls_are_chance_moves_of_the_right_size() -> None:
    state = play(bluff_after_opening(), "aside 33")
    with pytest.raises(IllegalActionError, match=r"the re-roll is 3 dice of 1–6 \(V-9\)"):
        apply(state, Reroll((1, 1)))
    with pytest.raises(IllegalActionError, match=r"the re-roll is 3 dice"):
        apply(state, Reroll((1, 1, 7)))
    with pytest.raises(IllegalActionError, match="cannot roll chance dice"):
        apply(state, Reroll((1, 1, 1)), 1)
    with pytest.raises(IllegalActionError, match="no deal is due"):
        apply(state, Deal(((1,), (2,), (3,))))
    with pytest.raises(IllegalActionError, match="waiting for chance"):
        apply(state, Bid(9, 2))
    with pytest.raises(IllegalActionError, match="no re-roll is due"):
        apply(bluff_after_opening(), Reroll((1, 2, 3)))


# --- V-10: pass ---------------------------------------------------------------------------

PASSING = dataclasses.replace(PERUDO, passing=True)
# Seat 1 holds five different faces: its pass is true.
PASS_HANDS = [[2, 3, 4, 5, 6], [1, 2, 3, 4, 5], [2, 2, 3, 3, 6]]


def test_v10_a_player_may_pass_instead_of_raising() -> None:
    state = play(start_round(PASSING, PASS_HANDS), "3x4")
    assert Pass() in legal_actions(state)
    state, events = apply(state, Pass())
    assert events == (ActionTaken(1, Pass()),)
    assert state.passer == 1 and state.to_act == 2
    assert state.bid == Bid(3, 4) and state.bidder == 0  # the bid before the pass stands


def test_v10_the_opener_cannot_pass() -> None:
    state = start_round(PASSING, PASS_HANDS)
    with pytest.raises(IllegalActionError, match=r"the opener must bid.*\(V-10\)"):
        apply(state, Pass())


def test_v10_the_next_player_raises_the_bid_before_the_pass_or_doubts_the_pass() -> None:
    state = play(start_round(PASSING, PASS_HANDS), "3x4", "pass")
    legal = list(legal_actions(state))
    assert legal[-1] == Dudo() and Pass() not in legal
    assert legal_actions(state).bids[0] == Bid(3, 5)
    with pytest.raises(IllegalActionError, match=r"raise the bid before it or call dudo.*V-10"):
        apply(state, Pass())
    with pytest.raises(IllegalActionError, match=r"does not raise 3x4: .*\(P-12\)"):
        apply(state, Bid(3, 3))
    state = play(state, "3x5")
    assert state.passer is None and state.bidder == 2 and state.bid == Bid(3, 5)


def test_v10_once_per_round() -> None:
    state = play(start_round(PASSING, PASS_HANDS), "3x4", "pass", "4x4", "pass", "5x4", "6x4")
    assert state.to_act == 0
    assert not is_legal(state, Pass())
    with pytest.raises(IllegalActionError, match=r"seat 0 has already passed this round"):
        apply(state, Pass())
    # The next round starts afresh.
    state = play(state, "dudo")
    state = play(state, "deal " + " ".join("12345"[:c] for c in state.dice_counts))
    state = play(state, "1x2")
    assert is_legal(state, Pass())


def test_v10_a_true_pass_doubted_the_doubter_loses() -> None:
    state = play(start_round(PASSING, PASS_HANDS), "3x4", "pass")
    after, events = apply(state, Dudo())
    result = resolved(events)
    assert result.kind == "pass" and result.caller == 2 and result.target == 1
    assert result.bid is None and result.holds
    assert result.reveals == (Reveal(1, (1, 2, 3, 4, 5), 5),)  # only the passer shows
    assert result.hidden == (0, 2)
    assert result.changes == ((2, -1),)
    assert after.opener == 2  # P-22: the loser opens


def test_v10_a_false_pass_doubted_the_passer_loses() -> None:
    hands = [[2, 3, 4, 5, 6], [1, 2, 3, 3, 5], [2, 2, 3, 3, 6]]
    after, events = play_events(start_round(PASSING, hands), "3x4", "pass", "dudo")
    result = resolved(events)
    assert not result.holds and result.count == 4  # four different faces of five
    assert result.changes == ((1, -1),)
    assert after.opener == 1


def test_v10_with_winner_opens_a_true_passer_opens() -> None:
    rules = dataclasses.replace(PASSING, next_opener="winner")
    after, _ = play_events(start_round(rules, PASS_HANDS), "3x4", "pass", "dudo")
    assert after.opener == 1


def test_v10_off_nobody_passes() -> None:
    state = play(start_round(PERUDO, PASS_HANDS), "3x4")
    assert Pass() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match=r"not played with these rules \(V-10\)"):
        apply(state, Pass())
