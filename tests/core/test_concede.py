"""P-24: a player gives up the game (the web app's "nobody takes the seat"): out with all
their dice, at any moment and out of turn; the round in play is void (nobody reveals) and a new
one is dealt; one seat left wins. Never among the legal actions."""

from __future__ import annotations

import pytest

from perudo.core import (
    Bid,
    Concede,
    Deal,
    GameOver,
    GameRecord,
    IllegalActionError,
    Phase,
    RoundResolved,
    apply,
    find_ruleset,
    legal_actions,
    parse_action,
    start_game,
    start_round,
)

PERUDO = find_ruleset("perudo")


def test_p24_concede_out_of_turn_voids_the_round_and_keeps_every_hand_hidden() -> None:
    s = start_round(PERUDO, [[1, 4, 4], [2, 3, 5], [6, 6, 2]], opener=0)
    s, _ = apply(s, Bid(3, 4))
    assert s.to_act == 1
    s, events = apply(s, Concede(), 2)
    (result,) = events
    assert isinstance(result, RoundResolved) and result.kind == "concede"
    assert (result.caller, result.target, result.reveals) == (2, 2, ())
    assert result.hidden == (0, 1, 2) and result.changes == ((2, -3),)
    assert result.eliminated == (2,) and result.next_opener == 1
    assert s.dice_counts == (3, 3, 0) and s.phase is Phase.DEAL and s.opener == 1
    assert s.hands == ((), (), ()) and s.bid is None
    # The void round's public story: the bid that stood, no concession among its actions.
    assert s.past[-1].actions == ((0, Bid(3, 4)),) and s.past[-1].result is result


def test_p24_the_seat_to_act_conceding_passes_the_opening_on() -> None:
    s = start_round(PERUDO, [[1], [2, 3], [6, 6]], opener=1)
    s, _ = apply(s, Concede())
    assert s.dice_counts == (1, 0, 2) and s.opener == 2


def test_p24_between_deals_and_down_to_one_player_the_game_ends() -> None:
    s = start_game(PERUDO, 2, [[6, 1]])
    assert s.phase is Phase.DEAL
    s, events = apply(s, Concede(), 0)
    assert isinstance(events[-1], GameOver) and events[-1].winner == 1
    assert s.is_over and s.winner == 1 and s.dice_counts == (0, 5)
    with pytest.raises(IllegalActionError) as err:
        apply(s, Concede(), 1)
    assert err.value.code == "game.over"


def test_p24_a_seat_already_out_cannot_concede_and_concede_is_never_listed() -> None:
    s = start_round(PERUDO, [[1, 2], [], [3, 4]], opener=0)
    with pytest.raises(IllegalActionError) as err:
        apply(s, Concede(), 1)
    assert err.value.code == "seat.out"
    assert all(not isinstance(a, Concede) for a in legal_actions(s))
    assert Concede() not in legal_actions(s)


def test_p24_concede_is_written_and_replayed_like_any_move() -> None:
    assert parse_action("Concede") == Concede() and str(Concede()) == "concede"
    s = start_game(PERUDO, 3, [[6, 2, 1]])
    s, _ = apply(s, Deal(((1, 2, 3, 4, 5), (2, 2, 3, 4, 6), (5, 5, 5, 6, 6))))
    s, _ = apply(s, Bid(2, 5))
    s, _ = apply(s, Concede(), 0)
    record = GameRecord.from_state(s)
    again = GameRecord.from_json(record.to_json()).replay()
    assert again == s
    assert again.dice_counts == (0, 5, 5) and again.opener == 1
