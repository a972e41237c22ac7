"""The game state: one immutable value holding everything, hidden dice included.

A :class:`GameState` never leaves the trusted side (the engine, the server's table worker, a
simulation); players, bots and network clients get :func:`perudo.core.view` instead (P-70).

It is a ``NamedTuple``: immutable, hashable, and about four times cheaper to build than a
frozen dataclass, which matters because :func:`perudo.core.apply` builds one per action.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, NamedTuple, TypeAlias, TypedDict

from .actions import Action, Bid, PlayerAction
from .events import RoundResolved
from .rules import RuleSet

__all__ = ["NO_BID_YET", "GameState", "LogEntry", "Phase", "RoundRecord"]


class Phase(str, enum.Enum):
    """What the game waits for."""

    CHOOSE_PALIFICO = "choose_palifico"
    """The opener of a two-player round chooses palifico or normal, before the deal (P-34)."""
    DEAL = "deal"
    """Chance: a new round's dice (a :class:`~perudo.core.actions.Deal`)."""
    BIDDING = "bidding"
    """The seat ``to_act`` bids, or challenges; calza may come out of turn (P-50)."""
    REROLL = "reroll"
    """Chance: the dice re-rolled after a set-aside (a :class:`~perudo.core.actions.Reroll`)."""
    GAME_OVER = "game_over"
    """One seat has dice left (P-23)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """The public story of a finished round: who opened, the actions, the resolution."""

    round: int
    opener: int
    palifico: bool
    actions: tuple[tuple[int, PlayerAction], ...]
    shown: tuple[tuple[int, ...], ...]
    """Dice set aside face up per seat when the round ended (V-9)."""
    result: RoundResolved


LogEntry: TypeAlias = tuple[int | None, Action]
"""One move of the game record: the seat (``None`` for chance) and its action."""

_Log: TypeAlias = "tuple[_Log, int | None, Action] | None"


class _NoBidYet(TypedDict):
    bid: None
    bidder: None
    passer: None
    passed: int
    must_raise: bool
    actions: tuple[()]


NO_BID_YET: Final[_NoBidYet] = {
    "bid": None,
    "bidder": None,
    "passer": None,
    "passed": 0,
    "must_raise": False,
    "actions": (),
}
"""The :class:`GameState` fields of a round before its first action (no bid, no pass, no
re-roll, no action: P-10): a new game's, a round started from given hands, and the round after
one is resolved all take them from here (``GameState(..., **NO_BID_YET)``,
``state._replace(**NO_BID_YET)``)."""


class GameState(NamedTuple):
    """Everything about a game at one moment. Build it with :func:`~perudo.core.new_game`
    or :func:`~perudo.core.start_round`; change it only with :func:`~perudo.core.apply`."""

    rules: RuleSet
    phase: Phase
    round: int
    """Round number, from 1."""
    opener: int
    """The seat opening (or that opened) this round."""
    to_act: int | None
    """The seat to act, or ``None`` while chance acts or after the game."""
    dice_counts: tuple[int, ...]
    """Dice per seat, hidden and shown together; 0 = out (P-23)."""
    hands: tuple[tuple[int, ...], ...]
    """Each seat's hidden dice, sorted (empty before the deal)."""
    shown: tuple[tuple[int, ...], ...]
    """Each seat's dice set aside face up this round (V-9)."""
    palifico: bool
    """This round is a palifico round (P-30)."""
    palifico_used: tuple[bool, ...]
    """Seats that have had their palifico round (or made the P-34 choice)."""
    bid: Bid | None
    """The standing bid, or ``None`` before the opening bid."""
    bidder: int | None
    """Who made the standing bid."""
    passer: int | None
    """A seat whose pass (V-10) is the last action, waiting to be raised over or doubted."""
    passed: int
    """Bit mask of the seats that have passed this round (V-10: once per round)."""
    must_raise: bool
    """The seat to act has set dice aside and re-rolled, and must now bid (V-9)."""
    actions: tuple[tuple[int, PlayerAction], ...]
    """This round's public actions, in order."""
    past: tuple[RoundRecord, ...]
    """The finished rounds, oldest first."""
    winner: int | None
    """The last seat with dice, once the game is over (P-23)."""
    rolloff: tuple[tuple[int, ...], ...]
    """The roll-off throws that chose the first opener (P-2), in order."""
    log: _Log
    """Every move since the roll-off, newest first, as a linked list (see :func:`moves`)."""

    @property
    def num_players(self) -> int:
        return len(self.dice_counts)

    @property
    def total_dice(self) -> int:
        """Dice in play (P-16)."""
        return sum(self.dice_counts)

    @property
    def players_in(self) -> int:
        """Seats that still have dice."""
        return len(self.dice_counts) - self.dice_counts.count(0)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def moves(self) -> tuple[LogEntry, ...]:
        """The record's moves, oldest first: ``(seat, action)``, seat ``None`` for chance."""
        out: list[LogEntry] = []
        node = self.log
        while node is not None:
            node, seat, action = node
            out.append((seat, action))
        out.reverse()
        return tuple(out)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules} round {self.round} {self.phase.value} "
            f"to_act={self.to_act} dice={list(self.dice_counts)} bid={self.bid}>"
        )
