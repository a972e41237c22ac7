"""Every hand of every round, for a table that agreed to show them all at the end.

P-21 keeps the hands nobody lifted hidden for good, and that is the default everywhere. A table
may agree, when it is created, to "show every hand at the end" (a table agreement outside the
rules, docs/analysis.md): once its game is over, every seat's dice of every round are public.
:func:`every_hand` is the one place that reads them from a record, and it refuses a game that
is not over, so nothing built on it can show a die during play (P-70).
"""

from __future__ import annotations

from perudo.core import Bid, GameRecord, Phase, apply, count_hand

__all__ = ["every_hand", "true_count"]


def every_hand(record: GameRecord) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Each finished round's dice of every seat as they stood when the round ended (the hidden
    hand with the dice set aside face up, V-9; an empty tuple for a seat that was out), by
    round number.

    :raises ValueError: if the game is not over (the hands are public only after its end).
    """
    state = record.replay(0)
    out: dict[int, tuple[tuple[int, ...], ...]] = {}
    for seat, action in record.moves:
        before = state
        state, _ = apply(state, action, seat)
        if len(state.past) != len(before.past):
            out[before.round] = tuple(
                tuple(sorted(hand + shown))
                for hand, shown in zip(before.hands, before.shown, strict=True)
            )
    if state.phase is not Phase.GAME_OVER:
        raise ValueError("every hand is shown only once the game is over")
    return out


def true_count(
    record: GameRecord, hands: tuple[tuple[int, ...], ...], bid: Bid, palifico: bool
) -> int:
    """The dice of ``hands`` (every seat's) that count toward ``bid`` (P-15, P-31, V-11)."""
    return sum(count_hand(record.rules, hand, bid.face, palifico) for hand in hands)
