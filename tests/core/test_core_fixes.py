"""Regression tests for bugs the core's test suite found (each fixed in its own commit)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from perudo.core import (
    BLUFF,
    PERUDO,
    PERUDO_CALZA,
    Bid,
    Calza,
    Deal,
    GameRecord,
    IllegalActionError,
    NotationError,
    Reroll,
    SetAside,
    apply,
    is_legal,
    legal_actions,
    new_game,
    parse_action,
    start_game,
    start_round,
)


def test_v9_v7_seat_that_must_raise_cannot_call_calza_instead() -> None:
    """V-9 with V-7 ``to_act``: after setting dice aside the seat must raise; calza is refused
    by is_legal and apply just as legal_actions leaves it out."""
    rules = dataclasses.replace(BLUFF, calza="to_act")
    state = start_round(rules, [[1, 2, 3, 4, 5], [2, 2, 3, 3, 4], [5, 5, 6, 6, 1]])
    state, _ = apply(state, Bid(3, 2))
    assert Calza() in list(legal_actions(state))  # before setting aside: calza is allowed
    state, _ = apply(state, SetAside((2, 2)))
    state, _ = apply(state, Reroll((1, 1, 1)))
    assert state.must_raise and state.to_act == 1
    assert Calza() not in list(legal_actions(state))
    assert not is_legal(state, Calza())
    assert Calza() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="V-9"):
        apply(state, Calza())


@pytest.mark.parametrize("seat", [-1, 3, 7, True, "0"])
def test_legal_actions_for_a_seat_not_at_the_table_is_refused(seat: object) -> None:
    """Seat -1 used to get seat 2's calza (Python indexing) and seat 7 an IndexError."""
    state = start_round(PERUDO_CALZA, [[1, 2, 3, 4, 5], [2, 2, 3, 3, 4], [5, 5, 6, 6, 1]])
    state, _ = apply(state, Bid(3, 2))
    assert list(legal_actions(state, 2)) == [Calza()]
    with pytest.raises(IllegalActionError, match="no seat"):
        legal_actions(state, seat)  # type: ignore[arg-type]


def test_legal_actions_contains_only_player_actions() -> None:
    """A due deal is legal for chance, yet the (empty) list of legal actions must not claim
    to contain it: ``in`` agrees with iteration."""
    state = start_game(PERUDO, 2, [[3, 5]])
    deal = Deal(((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)))
    assert is_legal(state, deal)
    legal = legal_actions(state)
    assert list(legal) == []
    assert deal not in legal
    assert "3x5" not in legal


@pytest.mark.parametrize(
    "text",
    ["aside ²", "reroll 1²", "deal 12 ³4", "9" * 5000 + "x5", "3x" + "1" * 5000],
)
def test_malformed_notation_raises_notation_error_not_a_bare_value_error(text: str) -> None:
    """'²'.isdigit() is true but int('²') fails, and int() refuses over 4300 digits: both
    used to escape as a plain ValueError instead of NotationError."""
    with pytest.raises(NotationError):
        parse_action(text)
    if "x" in text:
        with pytest.raises(NotationError, match="is not a bid"):
            Bid.parse(text)


@pytest.mark.parametrize("players", [0, 1, 11])
def test_record_with_a_player_count_its_rules_refuse_is_a_notation_error(players: int) -> None:
    """Such a record loaded, then replay() raised a bare ValueError from start_game."""
    record = GameRecord.from_state(new_game(PERUDO, 3, random.Random(4))).to_json()
    record["players"] = players
    with pytest.raises(NotationError, match="P-1"):
        GameRecord.from_json(record)


@pytest.mark.parametrize(
    ("hands", "kw", "why"),
    [
        ([[1, 2], [3, 4]], {"palifico_used": [7]}, "no seat 7"),
        ([[1, 2], [3, 4]], {"palifico_used": [-1]}, "no seat -1"),
        ([[1, 2], [3, 4]], {"opener": True}, "opener must be a seat"),
        ([[1, 2], [3, 4]], {"opener": -1}, "opener must be a seat"),
        ([[], [4, 5]], {"shown": [[2, 3], []]}, r"at least one die stays hidden.*V-9"),
    ],
)
def test_start_round_refuses_impossible_seats_with_a_value_error(
    hands: list[list[int]], kw: dict[str, object], why: str
) -> None:
    """start_round promised ValueError on impossible seats: palifico_used=[7] raised
    IndexError, and palifico_used=[-1], opener=True and a seat with every die set aside
    were accepted."""
    with pytest.raises(ValueError, match=why):
        start_round(PERUDO, hands, **kw)  # type: ignore[arg-type]
