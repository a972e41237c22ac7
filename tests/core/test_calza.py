"""Calza: P-50…P-53 (the Korean text's extra rule) and switch V-7."""

from __future__ import annotations

import dataclasses

import pytest
from tests.core.script import play, resolved

from perudo.core import (
    PERUDO,
    PERUDO_CALZA,
    ActionTaken,
    Bid,
    Calza,
    Dudo,
    GameState,
    IllegalActionError,
    Phase,
    RuleSet,
    answers,
    apply,
    calza_callers,
    is_legal,
    legal_actions,
    start_round,
)

# Threes with aces wild: 1, 3, 0, 1, 3 = eight in all. Seat 3 holds four dice.
HANDS = [[2, 2, 3, 4, 6], [3, 3, 5, 5, 1], [6, 6, 6, 2, 4], [3, 4, 4, 5], [1, 2, 3, 3, 5]]


def bid_stands(
    bid: str = "8x3", rules: RuleSet = PERUDO_CALZA, hands: list[list[int]] = HANDS
) -> GameState:
    """Seat 0 opens five 3s, seat 1 bids ``bid``; seat 2 is to act."""
    return play(start_round(rules, hands), "5x3", bid)


# --- P-50 ---------------------------------------------------------------------------------


def test_p50_any_player_but_the_bidder_and_the_next_may_call_out_of_turn() -> None:
    state = bid_stands()
    assert state.bidder == 1 and state.to_act == 2
    for seat in (3, 4, 0):
        assert list(legal_actions(state, seat)) == [Calza()]
        assert is_legal(state, Calza(), seat)
    with pytest.raises(IllegalActionError, match=r"bidder cannot call calza.*\(P-50\)"):
        apply(state, Calza(), 1)
    with pytest.raises(IllegalActionError, match=r"whose turn is next cannot call calza.*P-50"):
        apply(state, Calza(), 2)
    assert Calza() not in list(legal_actions(state))  # the seat to act raises or doubts
    assert list(legal_actions(state, 1)) == []


def test_p50_calza_needs_a_standing_bid() -> None:
    state = start_round(PERUDO_CALZA, HANDS)
    for seat in range(5):
        with pytest.raises(IllegalActionError, match=r"needs a standing bid \(P-50\)"):
            apply(state, Calza(), seat)


def test_p50_calza_only_while_three_or_more_players_are_in() -> None:
    state = play(start_round(PERUDO_CALZA, [[2, 3], [], [4, 4], [5]]), "1x3")
    assert state.players_in == 3 and calza_callers(state) == (3,)
    two_left = play(start_round(PERUDO_CALZA, [[2, 3], [], [4, 4], []]), "1x3")
    assert calza_callers(two_left) == ()
    for seat in (0, 2):
        with pytest.raises(IllegalActionError, match=r"at least 3 players.*\(P-50\)"):
            apply(two_left, Calza(), seat)


def test_p50_a_seat_that_is_out_cannot_call() -> None:
    state = play(start_round(PERUDO_CALZA, [[2, 3], [], [4, 4], [5]]), "1x3")
    with pytest.raises(IllegalActionError, match=r"seat 1 is out of the game.*\(P-23\)"):
        apply(state, Calza(), 1)


# --- P-51 ---------------------------------------------------------------------------------


def test_p51_exact_the_caller_gains_a_die_and_everyone_reveals() -> None:
    state = bid_stands("8x3")
    after, events = apply(state, Calza(), 3)
    assert events[0] == ActionTaken(3, Calza())
    result = resolved(events)
    assert result.kind == "calza" and result.caller == 3 and result.target == 1
    assert result.holds and result.count == 8
    # Calza always reveals everyone, from the caller's left, the caller last (P-21, P-51).
    assert [r.seat for r in result.reveals] == [4, 0, 1, 2, 3]
    assert result.hidden == ()
    assert result.changes == ((3, 1),)
    assert after.dice_counts == (5, 5, 5, 5, 5)


def test_p51_gain_is_capped_at_the_starting_dice() -> None:
    state = bid_stands("8x3")
    after, events = apply(state, Calza(), 4)  # seat 4 already holds five dice
    assert resolved(events).holds
    assert resolved(events).changes == ((4, 0),)
    assert after.dice_counts == (5, 5, 5, 4, 5)


def test_p51_not_exact_the_caller_loses_a_die() -> None:
    for bid in ("7x3", "9x3"):
        after, events = apply(bid_stands(bid), Calza(), 0)
        result = resolved(events)
        assert not result.holds and result.count == 8
        assert result.changes == ((0, -1),)
        assert after.dice_counts == (4, 5, 5, 4, 5)


def test_p51_the_bidder_risks_nothing() -> None:
    for bid, caller in (("8x3", 3), ("7x3", 0), ("9x3", 4)):
        after, events = apply(bid_stands(bid), Calza(), caller)
        assert 1 not in dict(resolved(events).changes)
        assert after.dice_counts[1] == 5


def test_p51_calza_in_a_palifico_round_counts_aces_as_aces() -> None:
    state = start_round(PERUDO_CALZA, [[3], [1, 3, 3], [1, 1, 4]], palifico=True)
    state = play(state, "2x3", "3x3")  # seat 2 to act; seat 0 may call
    after, events = apply(state, Calza(), 0)
    assert resolved(events).palifico and resolved(events).holds
    assert resolved(events).count == 3
    assert after.dice_counts == (2, 3, 3)  # back to two dice


# --- P-52 ---------------------------------------------------------------------------------


def test_p52_the_calza_caller_opens_the_next_round() -> None:
    for bid, caller in (("8x3", 3), ("7x3", 0)):
        after, events = apply(bid_stands(bid), Calza(), caller)
        assert after.opener == caller == resolved(events).next_opener
        assert after.to_act is None and after.phase is Phase.DEAL
    # Not the bidder, not the player who was to act.
    after, _ = apply(bid_stands("8x3"), Calza(), 4)
    assert after.opener not in (1, 2)


def test_p52_a_caller_who_goes_out_passes_the_opening_on() -> None:
    hands = [[2, 3], [3, 5], [6, 6], [4], [1, 2]]
    state = play(start_round(PERUDO_CALZA, hands), "1x3", "4x3")  # seat 1 bids; seat 2 next
    after, events = apply(state, Calza(), 3)  # three 3s, not four: seat 3 loses its die
    result = resolved(events)
    assert result.eliminated == (3,) and not result.holds
    assert after.opener == 4 == result.next_opener


# --- P-53 ---------------------------------------------------------------------------------


def test_p53_callers_are_asked_left_of_the_bidder_first() -> None:
    state = bid_stands()
    assert calza_callers(state) == (3, 4, 0)
    state = play(state, "9x3")  # seat 2 bids; seat 3 to act
    assert calza_callers(state) == (4, 0, 1)


def test_p53_the_first_call_received_wins() -> None:
    state = bid_stands("8x3")
    first, *others = calza_callers(state)
    after, events = apply(state, Calza(), first)
    assert resolved(events).caller == first
    for seat in others:
        with pytest.raises(IllegalActionError, match=r"needs a standing bid \(P-50\)"):
            apply(after, Calza(), seat)


# --- V-7 ----------------------------------------------------------------------------------


def test_v7_off_calza_is_not_played() -> None:
    state = bid_stands(rules=PERUDO)
    assert calza_callers(state) == ()
    for seat in range(5):
        assert Calza() not in list(legal_actions(state, seat))
        with pytest.raises(IllegalActionError, match=r"not played with these rules \(V-7\)"):
            apply(state, Calza(), seat)


def test_v7_to_act_only_the_player_to_act_may_call() -> None:
    rules = dataclasses.replace(PERUDO, calza="to_act")
    state = bid_stands(rules=rules)
    assert list(legal_actions(state))[-2:] == [Dudo(), Calza()]
    assert calza_callers(state) == (2,)
    for seat in (0, 3, 4):
        assert list(legal_actions(state, seat)) == []
        with pytest.raises(IllegalActionError, match=r"only the player to act.*\(V-7\)"):
            apply(state, Calza(), seat)
    after, events = apply(state, Calza())
    assert resolved(events).caller == 2 and resolved(events).holds
    assert after.dice_counts == (5, 5, 5, 4, 5)  # seat 2 already had five
    assert after.opener == 2


def test_v7_to_act_still_needs_three_players() -> None:
    rules = dataclasses.replace(PERUDO, calza="to_act")
    state = play(start_round(rules, [[2, 3], [4, 4]]), "1x3")
    assert list(legal_actions(state))[-1] == Dudo()
    assert not is_legal(state, Calza())


def test_calza_is_not_called_on_a_pass() -> None:
    """While a pass (V-10) waits to be raised over or doubted, nobody calls calza
    (docs/rules-engine.md)."""
    rules = dataclasses.replace(PERUDO_CALZA, passing=True)
    state = play(bid_stands(rules=rules), "pass")
    assert state.passer == 2 and state.to_act == 3
    assert calza_callers(state) == ()
    with pytest.raises(IllegalActionError, match=r"not on a pass.*\(P-50, V-10\)"):
        apply(state, Calza(), 0)
    after = play(state, "9x3")  # seat 3 raises the bid before the pass
    assert after.passer is None and after.bidder == 3 and after.to_act == 4
    assert calza_callers(after) == (0, 1, 2)


def test_calza_around_a_set_aside() -> None:
    """V-9 with calza on: no calza while the re-roll is due (chance acts); once the seat has
    re-rolled and must raise, the others may call calza on the standing bid, the seat itself
    may not (docs/rules-engine.md)."""
    rules = dataclasses.replace(PERUDO_CALZA, set_aside=True)
    state = play(bid_stands(rules=rules), "aside 66")
    assert state.phase is Phase.REROLL and calza_callers(state) == ()
    with pytest.raises(IllegalActionError, match=r"needs a standing bid \(P-50\)"):
        apply(state, Calza(), 3)
    state = play(state, "reroll 123")
    assert state.must_raise and state.to_act == 2
    assert calza_callers(state) == (3, 4, 0)
    assert not is_legal(state, Calza(), 2)


def test_p50_a_call_answers_the_bid_it_was_chosen_on_and_no_later_one() -> None:
    """``answers``: a calza (or a dudo) chosen while 5x3 stood answers 5x3 only: after the
    raise to 8x3, or in the next round, it no longer does (a server refuses it then)."""
    opened = play(start_round(PERUDO_CALZA, HANDS), "5x3")
    assert answers(opened, opened.round, Bid(5, 3))
    assert not answers(opened, opened.round, None) and not answers(
        opened, opened.round + 1, Bid(5, 3)
    )
    raised = play(opened, "8x3")
    assert answers(raised, raised.round, Bid(8, 3))
    assert not answers(raised, opened.round, Bid(5, 3))
    after, _ = apply(raised, Calza(), 3)
    assert after.round == raised.round + 1
    assert not answers(after, raised.round, Bid(8, 3))
    assert answers(after, after.round, None)
