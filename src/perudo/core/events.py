"""Events: what :func:`perudo.core.apply` tells the world, each with its audience.

Every event has ``audience``: ``None`` for everyone, or the one seat that may see it (the dice
dealt to a seat, the dice it re-rolled). This is lichess's ``only``, made a field; the server
and the terminal forward an event to a seat only if :func:`visible_to` says so (P-70).

``to_json()`` gives each event as a JSON-ready dict with a ``type`` tag.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from .actions import Bid, PlayerAction, action_to_json

__all__ = [
    "ActionTaken",
    "DiceDealt",
    "DiceRerolled",
    "Event",
    "GameOver",
    "PalificoChosen",
    "Reveal",
    "RoundResolved",
    "RoundStarted",
    "event_to_json",
    "reaches",
    "visible_to",
]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round begins (after the deal): who opens, whether it is a palifico round (P-30)."""

    round: int
    opener: int
    palifico: bool
    dice_counts: tuple[int, ...]

    @property
    def audience(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class DiceDealt:
    """The dice a seat rolled for this round (P-3): for that seat's eyes only."""

    seat: int
    hand: tuple[int, ...]

    @property
    def audience(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class DiceRerolled:
    """The new faces of a seat's re-rolled hidden dice (V-9): for that seat only."""

    seat: int
    dice: tuple[int, ...]

    @property
    def audience(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat's public action: a bid, dudo, calza, pass, set-aside (the dice set aside are
    shown face up, V-9) or the two-player palifico choice."""

    seat: int
    action: PlayerAction

    @property
    def audience(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class PalificoChosen:
    """The P-34 choice was made: ``palifico`` says which round the opener chose."""

    seat: int
    palifico: bool

    @property
    def audience(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class Reveal:
    """One seat lifting its cup after a challenge (P-21): its whole hand, shown dice included."""

    seat: int
    hand: tuple[int, ...]
    count: int
    """How many of these dice count toward the bid."""


ResolutionKind: TypeAlias = Literal["dudo", "calza", "pass", "concede"]


@dataclass(frozen=True, slots=True)
class RoundResolved:
    """A challenge ended the round (P-20…P-23, P-51, V-4, V-10), or a concession voided it
    (``concede``, P-24: ``caller`` and ``target`` are the seat that gave up, nobody reveals,
    every hand dealt stays hidden).

    ``reveals`` are the hands lifted, in order (P-21); ``hidden`` are the seats in the round
    whose dice stayed secret for good. ``count`` is the running count when revealing stopped
    (the full count when everyone revealed). ``changes`` are the dice each seat lost (negative)
    or gained (positive).
    """

    kind: ResolutionKind
    caller: int
    """Who called dudo or calza."""
    target: int
    """The bidder challenged (for ``pass``: the passer)."""
    bid: Bid | None
    """The bid checked (``None`` for a challenged pass)."""
    reveals: tuple[Reveal, ...]
    hidden: tuple[int, ...]
    count: int
    holds: bool
    """The claim held: the bid was met (dudo), exact (calza), or the pass was true."""
    changes: tuple[tuple[int, int], ...]
    eliminated: tuple[int, ...]
    next_opener: int | None
    """Who opens the next round (``None`` when the game is over)."""
    palifico: bool
    """Whether the resolved round was a palifico round (aces not wild)."""

    @property
    def audience(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class GameOver:
    """One seat has dice left (P-23)."""

    winner: int

    @property
    def audience(self) -> int | None:
        return None


Event: TypeAlias = (
    RoundStarted
    | DiceDealt
    | DiceRerolled
    | ActionTaken
    | PalificoChosen
    | RoundResolved
    | GameOver
)


def reaches(audience: int | None, seat: int | None) -> bool:
    """Whether what is meant for ``audience`` (a seat, or ``None``: everyone) reaches ``seat``
    (``None``: a spectator): the one check of who may see what (P-70), for an event
    (:func:`visible_to`) and for what a front end keeps of it (the server's backlog)."""
    return audience is None or audience == seat


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) may see ``event`` (P-70)."""
    return reaches(event.audience, seat)


def _reveal_json(r: Reveal) -> dict[str, Any]:
    return {"seat": r.seat, "hand": list(r.hand), "count": r.count}


def event_to_json(event: Event) -> dict[str, Any]:
    """A JSON-ready dict for ``event``, tagged with ``type``."""
    if isinstance(event, RoundStarted):
        return {
            "type": "round_started",
            "round": event.round,
            "opener": event.opener,
            "palifico": event.palifico,
            "dice_counts": list(event.dice_counts),
        }
    if isinstance(event, DiceDealt):
        return {"type": "dice_dealt", "seat": event.seat, "hand": list(event.hand)}
    if isinstance(event, DiceRerolled):
        return {"type": "dice_rerolled", "seat": event.seat, "dice": list(event.dice)}
    if isinstance(event, ActionTaken):
        return {
            "type": "action",
            "seat": event.seat,
            "action": str(event.action),
            "action_info": action_to_json(event.action),
        }
    if isinstance(event, PalificoChosen):
        return {"type": "palifico_chosen", "seat": event.seat, "palifico": event.palifico}
    if isinstance(event, RoundResolved):
        return {
            "type": "round_resolved",
            "kind": event.kind,
            "caller": event.caller,
            "target": event.target,
            "bid": None if event.bid is None else str(event.bid),
            "bid_info": None if event.bid is None else action_to_json(event.bid),
            "reveals": [_reveal_json(r) for r in event.reveals],
            "hidden": list(event.hidden),
            "count": event.count,
            "holds": event.holds,
            "changes": [list(c) for c in event.changes],
            "eliminated": list(event.eliminated),
            "next_opener": event.next_opener,
            "palifico": event.palifico,
        }
    return {"type": "game_over", "winner": event.winner}
