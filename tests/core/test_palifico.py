"""Palifico: P-30…P-35 with the Italian text's examples, and switch V-6."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tests.core.script import deal, play, play_events, resolved

from perudo.core import (
    LIARS_DICE,
    PERUDO,
    Bid,
    ChoosePalifico,
    Deal,
    Dudo,
    Event,
    GameState,
    IllegalActionError,
    PalificoChosen,
    Phase,
    RoundStarted,
    RuleSet,
    apply,
    chance_action,
    is_legal,
    legal_actions,
    new_game,
    start_round,
    view,
)
from perudo.core.bidding import wild_active


def drop_seat_0_to_one_die(rules: RuleSet, players: int) -> tuple[GameState, list[Event]]:
    """Seat 0 (two dice) bids five 6s, seat 1 doubts: seat 0 is down to one die."""
    hands = [[2, 3]] + [[4, 4, 4]] * (players - 1)
    return play_events(start_round(rules, hands), "5x6", "dudo")


def palifico_round(*hands: list[int], opener: int = 0) -> GameState:
    return start_round(PERUDO, hands, opener=opener, palifico=True)


# --- P-30 ---------------------------------------------------------------------------------


def test_p30_down_to_one_die_the_seat_opens_a_palifico_round() -> None:
    after, events = drop_seat_0_to_one_die(PERUDO, 3)
    assert after.dice_counts == (1, 3, 3)
    assert after.opener == 0 and after.phase is Phase.DEAL
    assert after.palifico and after.palifico_used == (True, False, False)
    assert not resolved(events).palifico  # the round just played was a normal one
    after, events = apply(after, Deal(((5,), (1, 2, 3), (4, 5, 6))))
    assert events[0] == RoundStarted(2, 0, True, (1, 3, 3))
    assert after.palifico and after.to_act == 0


def test_p30_palifico_only_once_per_player() -> None:
    """Seat 0 goes out; seat 1, next in order, opens holding one die: a palifico round only
    if it has not had one (P-22, P-30)."""
    hands = [[2], [3], [4, 4, 4], [5, 5]]
    fresh = play(start_round(PERUDO, hands), "2x6", "dudo")
    assert fresh.dice_counts == (0, 1, 3, 2)
    assert fresh.opener == 1 and fresh.palifico
    assert fresh.palifico_used == (False, True, False, False)
    used = play(start_round(PERUDO, hands, palifico_used=[1]), "2x6", "dudo")
    assert used.opener == 1 and not used.palifico
    assert used.palifico_used == (False, True, False, False)


def test_p30_a_palifico_round_set_up_directly_uses_the_openers_palifico() -> None:
    state = palifico_round([3], [1, 1, 3, 4], [1, 3, 5], opener=0)
    assert state.palifico and state.palifico_used == (True, False, False)
    with pytest.raises(ValueError, match=r"opened by a seat holding one die \(P-30\)"):
        start_round(PERUDO, [[3, 4], [1, 1, 3, 4]], palifico=True)


def test_p30_no_palifico_when_every_seat_starts_with_one_die() -> None:
    """A seat that never lost a die has no palifico (dice_per_player 1; docs/rules-engine.md)."""
    rules = dataclasses.replace(PERUDO, dice_per_player=1)
    state = play(new_game(rules, 3, random.Random(5)), "1x2", "dudo")
    assert state.players_in == 2 and state.dice_counts[state.opener] == 1
    assert state.phase is Phase.DEAL and not state.palifico
    assert state.palifico_used == (False, False, False)


def test_p30_palifico_in_a_whole_game_triggers_once_per_seat() -> None:
    """Over many random games: each seat has at most one palifico round, opened by it
    holding one die."""
    for seed in range(30):
        rng = random.Random(seed)
        state = new_game(PERUDO, 4, rng)
        openers: list[int] = []
        while not state.is_over:
            if state.to_act is None:
                state, events = apply(state, chance_action(state, rng))
                for e in events:
                    if isinstance(e, RoundStarted) and e.palifico:
                        assert e.dice_counts[e.opener] == 1
                        openers.append(e.opener)
                continue
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])[0]
        assert len(openers) == len(set(openers))


# --- P-31 ---------------------------------------------------------------------------------


def test_p31_aces_are_not_wild_in_a_palifico_round() -> None:
    state = palifico_round([3], [1, 1, 3, 4], [1, 3, 5])
    after, events = play_events(state, "3x3", "4x3", "dudo")
    result = resolved(events)
    assert result.palifico and result.count == 3 and not result.holds
    assert result.changes == ((1, -1),)  # seat 1's four 3s were false: aces are only aces
    # The same dice in a normal round: six 3s with the aces.
    normal = start_round(PERUDO, [[3], [1, 1, 3, 4], [1, 3, 5]])
    _, events = play_events(normal, "3x3", "4x3", "dudo")
    assert resolved(events).holds


def test_p31_no_wild_face_is_active_in_a_palifico_round() -> None:
    assert wild_active(PERUDO, False) == 1 and wild_active(PERUDO, True) is None
    bluff_like = dataclasses.replace(PERUDO, wild_face=6)
    assert wild_active(bluff_like, False) == 6 and wild_active(bluff_like, True) is None
    assert wild_active(dataclasses.replace(PERUDO, wild_face=None), False) is None


def test_p31_a_bid_on_aces_counts_aces_in_a_palifico_round() -> None:
    state = palifico_round([1], [1, 1, 3, 4], [1, 3, 5])
    _, events = play_events(state, "2x1", "4x1", "dudo")
    assert resolved(events).count == 4 and resolved(events).holds


# --- P-32 ---------------------------------------------------------------------------------


def test_p32_the_palifico_opener_may_open_on_aces() -> None:
    state = palifico_round([2], [3, 4, 5], [2, 2, 3])
    assert is_legal(state, Bid(1, 1)) and is_legal(state, Bid(7, 1))
    assert set(legal_actions(state).bids) == {Bid(q, f) for q in range(1, 8) for f in range(1, 7)}


def test_p32_every_later_bid_keeps_the_face_and_raises_the_quantity() -> None:
    """The Italian example: after three 4s the others may only bid more 4s, or doubt."""
    state = play(palifico_round([4], [3, 4, 5], [2, 2, 3]), "3x4")
    assert set(legal_actions(state).bids) == {Bid(4, 4), Bid(5, 4), Bid(6, 4), Bid(7, 4)}
    assert Dudo() in legal_actions(state)
    for refused in ("3x5", "4x5", "2x1", "6x1"):
        with pytest.raises(IllegalActionError, match=r"face stays 4.*\(P-32, P-33\)"):
            apply(state, Bid.parse(refused))
    with pytest.raises(IllegalActionError, match=r"after 3x4 bid more than 3 \(P-32\)"):
        apply(state, Bid(3, 4))


def test_p32_palifico_opened_on_aces_stays_on_aces() -> None:
    state = play(palifico_round([1], [3, 4, 5], [2, 2, 3]), "1x1")
    assert set(legal_actions(state).bids) == {Bid(q, 1) for q in range(2, 8)}


# --- P-33 ---------------------------------------------------------------------------------


def test_p33_italian_example_one_die_player_changes_the_face() -> None:
    """One 2; two 2s; a one-die player bids two 3s; the next must bid three or more 3s."""
    state = palifico_round([2], [3, 4, 5], [6], [2, 2, 3])
    state = play(state, "1x2", "2x2")
    # Seat 2 holds one die: it may change the face by the normal order, aces lowest.
    assert is_legal(state, Bid(2, 3)) and is_legal(state, Bid(3, 1))
    assert not is_legal(state, Bid(2, 1)) and not is_legal(state, Bid(2, 2))
    with pytest.raises(IllegalActionError, match=r"does not raise 2x2.*\(P-33\)"):
        apply(state, Bid(2, 1))
    state = play(state, "2x3")
    assert state.to_act == 3
    assert set(legal_actions(state).bids) == {Bid(q, 3) for q in range(3, 9)}
    for refused in ("3x2", "2x4", "3x4"):
        assert not is_legal(state, Bid.parse(refused))


def test_p33_unless_the_next_player_too_holds_one_die() -> None:
    state = play(palifico_round([2], [3, 4, 5], [6], [2]), "1x2", "2x2", "2x3")
    assert state.to_act == 3 and state.dice_counts[3] == 1
    for ok in ("2x4", "2x6", "3x1", "3x2", "3x3"):
        assert is_legal(state, Bid.parse(ok)), ok
    for refused in ("2x3", "2x1", "2x2"):
        assert not is_legal(state, Bid.parse(refused)), refused
    state = play(state, "2x5")
    assert state.to_act == 0  # the palifico opener holds one die too
    assert is_legal(state, Bid(3, 1))
    state = play(state, "3x1")  # the face is now aces, locked for seat 1
    assert set(legal_actions(state).bids) == {Bid(q, 1) for q in range(4, 7)}


# --- P-34 ---------------------------------------------------------------------------------


def test_p34_two_players_the_one_die_opener_chooses_before_the_deal() -> None:
    after, _ = drop_seat_0_to_one_die(PERUDO, 2)
    assert after.phase is Phase.CHOOSE_PALIFICO and after.to_act == 0
    assert view(after, 0).hand == ()  # before seeing the die
    assert list(legal_actions(after)) == [ChoosePalifico(True), ChoosePalifico(False)]
    assert list(legal_actions(after, 1)) == []
    with pytest.raises(IllegalActionError, match=r"before the deal \(P-34\)"):
        apply(after, Bid(1, 2))
    with pytest.raises(IllegalActionError, match=r"turn"):
        apply(after, ChoosePalifico(True), 1)
    with pytest.raises(IllegalActionError, match="no deal is due"):
        apply(after, Deal(((3,), (1, 2, 3))))


@pytest.mark.parametrize("choice", [True, False])
def test_p34_either_choice_uses_up_the_palifico(choice: bool) -> None:
    rules = dataclasses.replace(PERUDO, next_opener="winner")  # so seat 0 opens again
    # Seat 0 holds one die and has had no palifico; it wins a challenge and so opens.
    after = play(start_round(rules, [[3], [4, 4, 6]]), "1x3", "dudo")
    assert after.phase is Phase.CHOOSE_PALIFICO and after.opener == 0 and after.to_act == 0
    chosen, events = apply(after, ChoosePalifico(choice))
    assert events == (PalificoChosen(0, choice),)
    assert chosen.phase is Phase.DEAL and chosen.to_act is None
    assert chosen.palifico is choice and chosen.palifico_used == (True, False)
    state, events = apply(chosen, Deal(((3,), (4, 6))))
    assert events[0] == RoundStarted(2, 0, choice, (1, 2))
    # Seat 0 bids one 3 (true) and seat 1 doubts: seat 0 wins and opens again, holding one
    # die, with its palifico used: no choice this time, a normal round.
    state = play(state, "1x3", "dudo")
    assert state.opener == 0 and state.dice_counts == (1, 1)
    assert state.phase is Phase.DEAL and not state.palifico


def test_p34_is_for_two_players_only() -> None:
    after, _ = drop_seat_0_to_one_die(PERUDO, 3)
    assert after.phase is Phase.DEAL and after.palifico


def test_p34_choosing_normal_gives_wild_aces() -> None:
    after, _ = drop_seat_0_to_one_die(PERUDO, 2)
    state = play(after, "normal", deal([4], [1, 1, 4]))
    assert not state.palifico and not is_legal(state, Bid(1, 1))  # P-10 again
    _, events = play_events(state, "4x4", "dudo")
    assert resolved(events).count == 4 and resolved(events).holds
    state = play(after, "palifico", deal([4], [1, 1, 4]))
    assert state.palifico and is_legal(state, Bid(1, 1))
    _, events = play_events(state, "4x4", "dudo")
    assert resolved(events).count == 2 and not resolved(events).holds


# --- P-35 ---------------------------------------------------------------------------------


def test_p35_after_the_palifico_round_play_goes_on_with_normal_rounds() -> None:
    state = palifico_round([3], [1, 3, 4, 4, 5], [2, 5, 5])
    after, events = play_events(state, "1x3", "2x3", "dudo")  # two 3s: seat 2 was wrong
    assert resolved(events).palifico and resolved(events).holds
    assert after.opener == 2 and not after.palifico
    after = play(after, deal([6], [1, 1, 2, 3, 3], [5, 5]))
    assert not after.palifico
    assert not is_legal(after, Bid(1, 1))  # no opening on aces again (P-10)
    _, events = play_events(after, "4x3", "dudo")
    assert resolved(events).count == 4  # aces wild again (P-15)


# --- V-6 ----------------------------------------------------------------------------------


def test_v6_off_no_palifico_at_all() -> None:
    rules = dataclasses.replace(PERUDO, palifico="off")
    for players in (2, 3):
        after, _ = drop_seat_0_to_one_die(rules, players)
        assert after.phase is Phase.DEAL and not after.palifico
        assert not any(after.palifico_used)
    after, _ = drop_seat_0_to_one_die(LIARS_DICE, 3)
    assert not after.palifico


def test_v6_not_two_players_palifico_with_three_or_more_only() -> None:
    rules = dataclasses.replace(PERUDO, palifico="not_two_players")
    after, _ = drop_seat_0_to_one_die(rules, 3)
    assert after.palifico and after.palifico_used == (True, False, False)
    after, _ = drop_seat_0_to_one_die(rules, 2)
    assert after.phase is Phase.DEAL and not after.palifico
    assert after.palifico_used == (False, False)  # nothing was used up


def test_v6_on_palifico_and_the_two_player_choice() -> None:
    assert PERUDO.palifico == "on"
    assert drop_seat_0_to_one_die(PERUDO, 3)[0].palifico
    assert drop_seat_0_to_one_die(PERUDO, 2)[0].phase is Phase.CHOOSE_PALIFICO
