"""Dudo: the count and the loser (P-20), the reveal order (P-21), the next opener (P-22),
elimination and the winner (P-23), and switches V-4, V-5, V-8, V-11."""

from __future__ import annotations

import dataclasses
import json

import pytest
from tests.core.script import play, play_events, resolved

from perudo.core import (
    BLUFF,
    LIARS_DICE,
    PERUDO,
    ActionTaken,
    Bid,
    Dudo,
    GameOver,
    GameState,
    IllegalActionError,
    Phase,
    Reveal,
    RoundResolved,
    RuleSet,
    apply,
    count_hand,
    legal_actions,
    reveal_order,
    start_round,
    view,
)

# Four seats; seat 0 opens, seat 1 bids fives, seat 2 calls dudo. Reveal order: 3, 0, 1, 2.
FOUR = [[1, 5, 2, 3, 4], [5, 5, 5, 2, 2], [6, 6, 6, 6, 6], [5, 5, 3, 3, 4]]
# Fives (aces wild) per seat: 2, 3, 0, 2.


def dudo_on(rules: RuleSet, hands: list[list[int]], *bids: str) -> tuple[GameState, RoundResolved]:
    state = play(start_round(rules, hands), *bids)
    after, events = apply(state, Dudo())
    assert events[0] == ActionTaken(state.to_act, Dudo())  # type: ignore[arg-type]
    return after, resolved(events)


# --- P-20 ---------------------------------------------------------------------------------


def test_p20_bid_met_the_challenger_loses_a_die() -> None:
    after, result = dudo_on(PERUDO, FOUR, "2x5", "4x5")
    assert result.holds and result.caller == 2 and result.target == 1
    assert result.changes == ((2, -1),)
    assert after.dice_counts == (5, 5, 4, 5)


def test_p20_bid_not_met_the_bidder_loses_a_die() -> None:
    """The Italian example: nine 4s bid, only eight found: the bidder loses a die."""
    hands = [[4, 4, 1, 2, 3], [4, 4, 5, 6, 6], [4, 1, 2, 2, 3], [6, 6, 5, 5, 2], [4, 5, 5, 6, 6]]
    after, result = dudo_on(PERUDO, hands, "5x4", "6x4", "7x4", "9x4")
    assert result.count == 8 and not result.holds
    assert result.target == 3 and result.caller == 4
    assert after.dice_counts == (5, 5, 5, 4, 5)


def test_p20_the_exact_quantity_is_met() -> None:
    hands = [[4, 4, 1, 2, 3], [4, 4, 5, 6, 6], [4, 1, 2, 2, 3], [6, 6, 5, 5, 2], [4, 5, 5, 6, 4]]
    after, result = dudo_on(PERUDO, hands, "5x4", "6x4", "7x4", "9x4")
    assert result.count == 9 and result.holds
    assert after.dice_counts == (5, 5, 5, 5, 4)


# --- P-21: the reveal order ---------------------------------------------------------------


def test_p21_reveal_from_the_challengers_left_and_stop_once_proven() -> None:
    """Seat 2 doubts four 5s: seat 3 shows two, seat 0 two more: proven; seats 1 and 2 (the
    challenger, last) never reveal, and their dice stay secret for good."""
    after, result = dudo_on(PERUDO, FOUR, "2x5", "4x5")
    assert reveal_order((5, 5, 5, 5), 2) == (3, 0, 1, 2)
    assert result.reveals == (
        Reveal(3, (3, 3, 4, 5, 5), 2),
        Reveal(0, (1, 2, 3, 4, 5), 2),
    )
    assert result.hidden == (1, 2)
    assert result.count == 4
    for seat in (None, 0, 1, 2, 3):
        shown = view(after, seat).past[-1].result
        assert [r.seat for r in shown.reveals] == [3, 0]
        assert shown.hidden == (1, 2)
        text = json.dumps(view(after, seat).to_json())
        assert text.count('"hand"') == 3  # the seat's own hand field and the two reveals


def test_p21_the_challenger_reveals_last() -> None:
    hands = [[1, 5, 2, 3, 4], [2, 2, 3, 3, 4], [5, 5, 1, 6, 6], [5, 5, 3, 3, 4]]
    _, result = dudo_on(PERUDO, hands, "2x5", "7x5")
    assert [r.seat for r in result.reveals] == [3, 0, 1, 2]
    assert [r.count for r in result.reveals] == [2, 2, 0, 3]
    assert result.hidden == () and result.count == 7 and result.holds


def test_p21_never_proven_everyone_reveals() -> None:
    _, result = dudo_on(PERUDO, FOUR, "2x5", "9x5")
    assert [r.seat for r in result.reveals] == [3, 0, 1, 2]
    assert result.hidden == () and result.count == 7 and not result.holds


def test_p21_seats_that_are_out_are_skipped() -> None:
    hands = [[5, 5], [], [2, 3, 4], [6], [5, 1, 2]]
    state = start_round(PERUDO, hands, opener=2)
    state = play(state, "2x5")  # seat 2 bids, seat 3 doubts
    _, events = apply(state, Dudo())
    result = resolved(events)
    assert reveal_order(state.dice_counts, 3) == (4, 0, 2, 3)
    assert [r.seat for r in result.reveals] == [4]
    assert result.hidden == (0, 2, 3)


def test_p21_the_running_count_includes_dice_set_aside() -> None:
    """A revealed seat lifts its whole hand, its V-9 shown dice included (docs/rules-engine.md)."""
    rules = dataclasses.replace(BLUFF, reveal="until_proven", loss="one")
    state = start_round(
        rules, [[2, 3], [4, 4, 4], [2, 2, 2, 3, 3]], shown=[[5, 5, 6], [], []], opener=1
    )
    state = play(state, "3x5")
    _, events = apply(state, Dudo())  # seat 2 doubts; seat 0 reveals first
    result = resolved(events)
    assert result.reveals == (Reveal(0, (2, 3, 5, 5, 6), 3),)
    assert result.hidden == (1, 2) and result.holds


# --- P-22: who opens next -----------------------------------------------------------------


def test_p22_the_loser_opens_the_next_round() -> None:
    after, result = dudo_on(PERUDO, FOUR, "2x5", "4x5")
    assert result.next_opener == 2 == after.opener
    assert after.phase is Phase.DEAL and after.to_act is None  # chance deals next


def test_p22_if_the_loser_is_out_the_next_seat_in_order_opens() -> None:
    hands = [[3, 3], [4], [], [2, 2, 6]]
    state = start_round(PERUDO, hands, opener=0)
    after, events = play_events(state, "1x6", "3x5", "dudo")  # seat 3 doubts seat 1's bid
    result = resolved(events)
    assert result.changes == ((1, -1),) and result.eliminated == (1,)
    assert result.next_opener == 3 == after.opener  # seat 2 is already out


def test_p22_the_next_opener_wraps_around_the_table() -> None:
    hands = [[3, 3], [4, 4], [5]]
    state = start_round(PERUDO, hands, opener=1)
    after, events = play_events(state, "1x2", "5x6", "dudo")  # seat 2 bids, seat 0 doubts
    assert resolved(events).eliminated == (2,)
    assert after.opener == 0


# --- P-23: elimination and the winner -----------------------------------------------------


def test_p23_a_seat_with_no_dice_is_out() -> None:
    hands = [[3, 3], [4], [5, 5]]
    after, events = play_events(start_round(PERUDO, hands), "2x3", "3x3", "dudo")
    result = resolved(events)
    assert result.count == 2 and result.eliminated == (1,)
    assert after.dice_counts == (2, 0, 2) and after.players_in == 2
    assert after.phase is Phase.DEAL  # the game goes on
    after = play(after, "deal 23 - 45")
    assert after.to_act == 2  # P-22: the loser is out, the next seat opens
    assert list(legal_actions(after, 1)) == []
    with pytest.raises(IllegalActionError, match=r"seat 1 is out of the game.*\(P-23\)"):
        apply(after, Bid(1, 2), 1)
    after = play(after, "1x2")
    assert after.to_act == 0  # the turn skips seat 1
    after = play(after, "1x3")
    assert after.to_act == 2


def test_p23_the_last_seat_with_dice_wins() -> None:
    state = start_round(PERUDO, [[3], [4]])
    after, events = play_events(state, "1x3", "dudo")
    result = resolved(events)
    assert result.holds and result.eliminated == (1,) and result.next_opener is None
    assert events[-1] == GameOver(0)
    assert after.is_over and after.phase is Phase.GAME_OVER and after.winner == 0
    assert after.to_act is None
    for seat in (0, 1):
        assert list(legal_actions(after, seat)) == []
        with pytest.raises(IllegalActionError, match=r"the game is over: seat 0 won \(P-23\)"):
            apply(after, Bid(1, 2), seat)


# --- V-4: loss by difference --------------------------------------------------------------

DIFFERENCE = dataclasses.replace(PERUDO, loss="difference")
THREES = [[3, 3, 1, 2, 4], [3, 5, 5, 6, 6], [2, 2, 4, 4, 6]]  # four 3s with the ace


def test_v4_false_bid_the_bidder_loses_the_shortfall() -> None:
    after, result = dudo_on(DIFFERENCE, THREES, "7x3")
    assert result.count == 4 and not result.holds
    assert result.changes == ((0, -3),)
    assert after.dice_counts == (2, 5, 5)


def test_v4_count_above_the_bid_the_challenger_loses_the_excess() -> None:
    after, result = dudo_on(DIFFERENCE, THREES, "2x3")
    assert result.changes == ((1, -2),)
    assert after.dice_counts == (5, 3, 5)


def test_v4_exact_bid_every_player_but_the_bidder_loses_one() -> None:
    after, result = dudo_on(DIFFERENCE, THREES, "4x3")
    assert result.holds and result.count == 4
    assert result.changes == ((1, -1), (2, -1))
    assert after.dice_counts == (5, 4, 4)
    # With V-5 'loser' the challenger counts as the loser of an exact bid and opens.
    assert after.opener == 1


def test_v4_a_loss_larger_than_a_hand_empties_it_and_eliminates() -> None:
    hands = [[2, 2], [3, 5, 5, 6, 6], [3, 4]]
    after, result = dudo_on(DIFFERENCE, hands, "5x3")  # two 3s: seat 0 loses 3 of its 2 dice
    assert result.changes == ((0, -2),) and result.eliminated == (0,)
    assert after.dice_counts == (0, 5, 2)
    assert after.opener == 1


def test_v4_difference_always_reveals_everyone() -> None:
    """V-8: a loss by difference needs the full count, so nobody's dice stay hidden."""
    after, result = dudo_on(DIFFERENCE, THREES, "2x3")
    assert DIFFERENCE.reveal == "until_proven"
    assert [r.seat for r in result.reveals] == [2, 0, 1] and result.hidden == ()
    assert result.count == 4


# --- V-5: the next opener -----------------------------------------------------------------

WINNER_OPENS = dataclasses.replace(PERUDO, next_opener="winner")


def test_v5_winner_opens_true_bid_means_the_bidder() -> None:
    after, result = dudo_on(WINNER_OPENS, FOUR, "2x5", "4x5")
    assert result.holds and after.opener == 1 == result.next_opener


def test_v5_winner_opens_false_bid_means_the_challenger() -> None:
    after, result = dudo_on(WINNER_OPENS, FOUR, "2x5", "9x5")
    assert not result.holds and after.opener == 2


def test_v5_winner_opens_exact_bid_under_difference_means_the_bidder() -> None:
    """Bluff: an exact bid is won by the bidder, who opens."""
    rules = dataclasses.replace(BLUFF, set_aside=False)
    hands = [[6, 3, 1, 2, 4], [3, 5, 5, 6, 1], [2, 2, 4, 4, 1]]  # 3s with 6s wild: 4
    after, result = dudo_on(rules, hands, "1x2", "4x3")
    assert result.count == 4 and result.changes == ((0, -1), (2, -1))
    assert after.opener == 1


# --- V-8: reveal order --------------------------------------------------------------------


def test_v8_reveal_all_shows_every_hand_even_once_proven() -> None:
    after, result = dudo_on(LIARS_DICE, FOUR, "2x5", "4x5")
    assert [r.seat for r in result.reveals] == [3, 0, 1, 2]
    assert result.hidden == () and result.count == 7 and result.holds
    assert after.dice_counts == (5, 5, 4, 5)


# --- V-11: a straight counts nothing ------------------------------------------------------

STRAIGHT = dataclasses.replace(PERUDO, straight_counts_nothing=True)


@pytest.mark.parametrize(
    ("hand", "face", "plain", "with_v11"),
    [
        ((1, 2, 3, 4, 5), 3, 2, 0),
        ((2, 3, 4, 5, 6), 3, 1, 0),
        ((1, 2, 3, 4, 5), 1, 1, 0),
        ((1, 2, 3, 4), 3, 2, 2),  # four dice: no straight
        ((1, 3, 3, 4, 5), 3, 3, 3),  # a pair: no straight
        ((1, 2, 3, 4, 5, 5), 5, 3, 3),  # six dice (V-12): five different faces are no straight
        ((1, 2, 3, 4, 5, 6), 3, 2, 2),  # six different faces: not five dice
    ],
)
def test_v11_a_straight_counts_nothing(
    hand: tuple[int, ...], face: int, plain: int, with_v11: int
) -> None:
    assert count_hand(PERUDO, hand, face, False) == plain
    assert count_hand(STRAIGHT, hand, face, False) == with_v11


def test_v11_a_straight_counts_nothing_at_the_reveal() -> None:
    hands = [[1, 2, 3, 4, 5], [3, 3, 2, 2, 6], [3, 4, 4, 6, 6]]
    after, result = dudo_on(STRAIGHT, hands, "4x3")
    assert [r.count for r in result.reveals] == [1, 0, 2]  # seat 2, then 0, then 1
    assert result.count == 3 and not result.holds
    after_plain, result_plain = dudo_on(PERUDO, hands, "4x3")
    assert result_plain.holds
