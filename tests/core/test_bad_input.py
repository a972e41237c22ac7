"""Bad input: every illegal action, wrong seat, malformed text or corrupt record raises an
IllegalActionError or NotationError (both ValueErrors) that says what is wrong, naming the
rule where one applies, and the state it was tried on is unchanged."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.core.script import play

from perudo.core import (
    BLUFF,
    PERUDO,
    PERUDO_CALZA,
    Bid,
    Calza,
    ChoosePalifico,
    Deal,
    Dudo,
    GameRecord,
    GameState,
    IllegalActionError,
    NotationError,
    Pass,
    Reroll,
    SetAside,
    apply,
    check_action,
    is_legal,
    new_game,
    parse_action,
    start_round,
)

HANDS = [[2, 3, 3, 4, 5], [1, 2, 6, 6, 4], [5, 5, 5, 2, 1]]


def opening() -> GameState:
    return start_round(PERUDO, HANDS)


def after_bid() -> GameState:
    return play(opening(), "3x4")


def calza_table() -> GameState:
    return play(start_round(PERUDO_CALZA, HANDS), "3x4")


def game_over() -> GameState:
    return play(start_round(PERUDO, [[3], [4]]), "1x3", "dudo")


def choosing() -> GameState:
    return play(start_round(PERUDO, [[2, 3], [4, 4, 4]]), "5x6", "dudo")


def dealing() -> GameState:
    return play(opening(), "3x4", "dudo")


def bluff_bid() -> GameState:
    return play(start_round(BLUFF, HANDS), "3x4")


def rerolling() -> GameState:
    return play(bluff_bid(), "aside 66")


def must_raise() -> GameState:
    return play(rerolling(), "reroll 123")


CASES: list[tuple[str, Callable[[], GameState], Any, int | None, str]] = [
    ("open on aces", opening, Bid(2, 1), None, r"P-10"),
    ("dudo before a bid", opening, Dudo(), None, r"P-10"),
    ("too many dice", opening, Bid(16, 3), None, r"P-16"),
    ("no such face", opening, Bid(2, 7), None, r"V-12"),
    ("not a raise", after_bid, Bid(3, 3), None, r"P-12"),
    ("too few aces", after_bid, Bid(1, 1), None, r"P-13"),
    ("out of turn bid", after_bid, Bid(5, 5), 2, r"seat 1's turn.*P-11"),
    ("out of turn dudo", after_bid, Dudo(), 0, r"P-11"),
    ("calza off", after_bid, Calza(), 2, r"V-7"),
    ("calza by the bidder", calza_table, Calza(), 0, r"P-50"),
    ("calza by the next", calza_table, Calza(), 1, r"P-50"),
    ("pass off", after_bid, Pass(), None, r"V-10"),
    ("set aside off", after_bid, SetAside((2,)), None, r"V-9"),
    ("palifico choice not due", after_bid, ChoosePalifico(True), None, r"P-34"),
    ("bid before the P-34 choice", choosing, Bid(1, 2), None, r"P-34"),
    ("choice by the other seat", choosing, ChoosePalifico(False), 1, r"P-11"),
    ("bid after the game", game_over, Bid(1, 2), 0, r"game is over.*P-23"),
    ("dudo after the game", game_over, Dudo(), None, r"game is over.*P-23"),
    ("deal after the game", game_over, Deal(((1,), ())), None, r"game is over.*P-23"),
    ("bid while dealing", dealing, Bid(1, 2), None, r"waiting for chance"),
    ("bid by a seat while dealing", dealing, Bid(1, 2), 1, r"waiting for chance"),
    ("deal by a seat", dealing, Deal(((1,) * 5, (1,) * 5, (1,) * 4)), 0, "cannot roll"),
    ("deal of the wrong size", dealing, Deal(((1,) * 5, (1,) * 5, (1,) * 5)), None, r"P-3"),
    ("deal not due", after_bid, Deal(((1,) * 5,) * 3), None, "no deal is due"),
    ("reroll not due", after_bid, Reroll((1, 2)), None, "no re-roll is due"),
    ("reroll of the wrong size", rerolling, Reroll((1, 2)), None, r"V-9"),
    ("dudo instead of raising", must_raise, Dudo(), None, r"V-9"),
    ("set aside unheld dice", bluff_bid, SetAside((3,)), None, r"no 1 hidden 3s.*V-9"),
    ("set aside every die", bluff_bid, SetAside((1, 2, 4, 6, 6)), None, r"stays hidden.*V-9"),
    ("seat past the table", after_bid, Bid(5, 5), 3, "no seat 3"),
    ("negative seat", after_bid, Bid(5, 5), -1, "no seat -1"),
    ("seat as a bool", after_bid, Bid(5, 5), True, "no seat True"),
    ("seat as text", after_bid, Bid(5, 5), "1", "no seat '1'"),
    ("not an action", after_bid, "4x4", None, "not a Perudo action"),
    ("not an action either", after_bid, 44, None, "not a Perudo action"),
    ("no action", after_bid, None, None, "not a Perudo action"),
]


@pytest.mark.parametrize(
    ("make", "action", "seat", "why"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_illegal_action_names_the_rule_and_changes_nothing(
    make: Callable[[], GameState], action: Any, seat: Any, why: str
) -> None:
    state = make()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match=why) as err:
        apply(state, action, seat)
    assert isinstance(err.value, ValueError)
    with pytest.raises(IllegalActionError, match=why):
        check_action(state, action, seat)
    assert not is_legal(state, action, seat)
    assert state == before
    assert state.moves() == before.moves()


def test_an_out_of_seat_is_refused_naming_p23() -> None:
    state = play(start_round(PERUDO_CALZA, [[2, 3], [], [4, 4], [5]]), "1x3")
    before = copy.deepcopy(state)
    for action in (Bid(2, 2), Calza(), Dudo()):
        with pytest.raises(IllegalActionError, match=r"seat 1 is out.*P-23"):
            apply(state, action, 1)
    assert state == before


# --- malformed notation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "3",
        "x5",
        "3x",
        "3x5x",
        "-3x5",
        "3x-5",
        "3.5x2",
        "3xx5",
        "three fives",
        "3 x 5 x 6",
        "0x5",
        "3x0",
        "dudo",
        "²x5",
        "9" * 5000 + "x5",
    ],
)
def test_malformed_bid_strings_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as err:
        Bid.parse(text)
    assert isinstance(err.value, ValueError)
    assert "bid" in str(err.value)


@pytest.mark.parametrize("value", [None, 35, 3.5, b"3x5", ["3x5"]])
def test_bid_parse_of_something_that_is_not_text(value: object) -> None:
    with pytest.raises(NotationError, match="is not a bid"):
        Bid.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("dudoo", "is not an action"),
        ("dudo now", "is not an action"),
        ("aside", "is not an action"),
        ("aside 55 5", "is not an action"),
        ("aside 0", "positive integer"),
        ("aside 5a", "not a run of faces"),
        ("aside -", "at least one die"),
        ("aside ²", "not a run of faces"),
        ("reroll", "is not an action"),
        ("reroll x", "not a run of faces"),
        ("deal 12", "is not an action"),
        ("deal 12 3x", "not a run of faces"),
        ("deal 12 ³", "not a run of faces"),
        ("palifico yes", "is not an action"),
        ("3x", "is not an action"),
        ("0x3", "is not an action"),
    ],
)
def test_malformed_actions_raise_notation_error_saying_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        parse_action(text)


@pytest.mark.parametrize("value", [None, 3, Bid(3, 5), ["dudo"]])
def test_parse_action_of_something_that_is_not_text(value: object) -> None:
    with pytest.raises(NotationError, match="must be text"):
        parse_action(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: SetAside(()), "at least one die"),
        (lambda: SetAside([5]), "at least one die"),  # a list, not a tuple
        (lambda: SetAside((5, 0)), "positive integer"),
        (lambda: SetAside((5, True)), "positive integer"),
        (lambda: Bid(3, "5"), "positive integer"),
        (lambda: Bid(-1, 5), "positive integer"),
        (lambda: Bid(True, 5), "positive integer"),
    ],
)
def test_impossible_action_values_raise_notation_error(
    make: Callable[[], object], why: str
) -> None:
    with pytest.raises(NotationError, match=why):
        make()


# --- corrupt game records -----------------------------------------------------------------


def a_record() -> dict[str, Any]:
    state = new_game(PERUDO, 3, random.Random(11))
    state = play(state, "2x3", "3x3", "dudo")
    return GameRecord.from_state(state).to_json()


def edited(**changes: Any) -> dict[str, Any]:
    data = a_record()
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ("{not json", "must be JSON"),
        (b"\xff\xfe", "must be JSON"),
        ("[1, 2]", "is a JSON object"),
        ("null", "is a JSON object"),
        (json.dumps(edited(format="chess-pgn")), "not a game record"),
        (edited(format=KeyError), "not a game record"),
        (edited(version=2), "unknown game record version 2"),
        (edited(rules=KeyError), "needs the field 'rules'"),
        (edited(players=KeyError), "needs the field 'players'"),
        (edited(rolloff=KeyError), "needs the field 'rolloff'"),
        (edited(moves=KeyError), "needs the field 'moves'"),
        (edited(rules="perudo"), "rules must be an object"),
        (edited(rules={"faces": 12}), r"rules are invalid.*V-12"),
        (edited(rules={"calza": "sometimes"}), r"rules are invalid.*calza"),
        (edited(rules={"cheat": True}), r"rules are invalid.*unknown rule field"),
        (edited(players="3"), "players must be an integer"),
        (edited(players=True), "players must be an integer"),
        (edited(players=11), r"11 players.*P-1"),
        (edited(rolloff="1 2 3"), "rolloff must be a list"),
        (edited(rolloff=[[1, "6", 2]]), "rolloff must be a list"),
        (edited(moves={}), "moves must be a list"),
        (edited(moves=["2x3"]), "move 1 must be an object"),
        (edited(moves=[{"seat": 0}]), "move 1 must be an object with an action"),
        (edited(moves=[{"seat": "0", "action": "2x3"}]), "move 1: seat must be an integer"),
        (edited(moves=[{"seat": 0, "action": "2 by 3"}]), "move 1: .*is not an action"),
    ],
)
def test_corrupt_records_raise_notation_error(data: Any, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        GameRecord.from_json(data)


def test_a_record_with_an_illegal_move_names_the_move_and_the_rule() -> None:
    data = a_record()
    data["moves"][1]["action"] = "2x1"  # an opening bid on aces
    record = GameRecord.from_json(data)
    with pytest.raises(IllegalActionError, match=r"move 2 \(seat \d: 2x1\): .*\(P-10\)"):
        record.replay()
    assert record.replay(1).phase.value == "bidding"  # the moves before it are fine
    # Stepping through it yields the moves before it, then says which move and why.
    got = []
    with pytest.raises(IllegalActionError) as refused:
        got.extend(step.n for step in record.steps())
    assert got == [1]
    assert refused.value.code == "record.illegal_move"
    assert refused.value.params["move"] == 2
    cause = refused.value.__cause__
    assert isinstance(cause, IllegalActionError) and "P-10" in str(cause)
    assert refused.value.params["cause"] == {"code": cause.code, "params": cause.params}


def test_a_record_with_a_move_out_of_turn_or_a_bad_deal_is_refused() -> None:
    data = a_record()
    seat = data["moves"][1]["seat"]
    data["moves"][1]["seat"] = (seat + 1) % 3
    with pytest.raises(IllegalActionError, match=r"move 2 .*\(P-11\)"):
        GameRecord.from_json(data).replay()
    data = a_record()
    data["moves"][0]["action"] = "deal 12345 12345 1234"
    with pytest.raises(IllegalActionError, match=r"move 1 \(chance: deal .*\(P-3\)"):
        GameRecord.from_json(data).replay()
    data = a_record()
    data["rolloff"] = [[6, 6, 1]]
    with pytest.raises(IllegalActionError, match=r"P-2"):
        GameRecord.from_json(data).replay()


def test_a_record_with_moves_after_the_end_is_refused() -> None:
    state = play(start_round(PERUDO, [[3], [4]]), "1x3")
    game = new_game(dataclasses.replace(PERUDO, dice_per_player=1), 2, random.Random(1))
    game = play(game, "1x2", "dudo")
    assert game.is_over
    data = GameRecord.from_state(game).to_json()
    data["moves"].append({"seat": 0, "action": "1x3"})
    with pytest.raises(IllegalActionError, match=r"move 4 .*game is over.*P-23"):
        GameRecord.from_json(data).replay()
    with pytest.raises(ValueError, match="start_round has no game record"):
        GameRecord.from_state(state)
