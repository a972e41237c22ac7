"""Scripted play for the rule tests: moves written in the game's notation.

``play(state, "3x5", "4x5", "dudo")`` applies each move for the seat to act; a move
``(seat, "calza")`` is taken by that seat (out of turn); ``"deal ..."`` and ``"reroll ..."``
are chance moves. :func:`play_events` also returns every event, in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from perudo.core import (
    Action,
    Event,
    GameState,
    RoundResolved,
    RuleSet,
    apply,
    parse_action,
    start_round,
)

Move = str | Action | tuple[int, str | Action]

__all__ = ["Move", "deal", "play", "play_events", "resolved", "round_of"]


def _move(move: Move) -> tuple[int | None, Action]:
    if isinstance(move, tuple) and len(move) == 2 and isinstance(move[0], int):
        seat, what = move
        return seat, parse_action(what) if isinstance(what, str) else what
    assert not isinstance(move, tuple)
    return None, parse_action(move) if isinstance(move, str) else move


def play_events(state: GameState, *moves: Move) -> tuple[GameState, list[Event]]:
    """Apply ``moves`` in order; return the final state and every event."""
    events: list[Event] = []
    for move in moves:
        seat, action = _move(move)
        state, new = apply(state, action, seat)
        events.extend(new)
    return state, events


def play(state: GameState, *moves: Move) -> GameState:
    """Apply ``moves`` in order; return the final state."""
    return play_events(state, *moves)[0]


def resolved(events: Sequence[Event]) -> RoundResolved:
    """The one RoundResolved among ``events``."""
    (result,) = [e for e in events if isinstance(e, RoundResolved)]
    return result


def deal(*hands: Sequence[int]) -> str:
    """The notation of a deal of these hands (an empty hand for a seat that is out)."""
    return "deal " + " ".join("".join(map(str, h)) or "-" for h in hands)


def round_of(rules: RuleSet, *hands: Sequence[int], opener: int = 0, **kw: object) -> GameState:
    """:func:`start_round` with the hands given as arguments."""
    return start_round(rules, hands, opener=opener, **kw)  # type: ignore[arg-type]
