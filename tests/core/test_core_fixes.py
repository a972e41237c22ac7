"""Regression tests for bugs the core's test suite found (each fixed in its own commit)."""

from __future__ import annotations

import dataclasses

import pytest

from perudo.core import (
    BLUFF,
    Bid,
    Calza,
    IllegalActionError,
    Reroll,
    SetAside,
    apply,
    is_legal,
    legal_actions,
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
