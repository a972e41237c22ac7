"""What a finished game tells the store about its players: who sat where (signed-in people,
for their profiles) and, for a rated table, each seat's finishing place (docs/ratings.md).

Places come from the core's events only (the server never decides a rule): each
:class:`~perudo.core.RoundResolved` names the seats it knocked out (P-23; a concession, P-24,
knocks out the seat that gave up, so a leaver of a rated table finishes last among those still
in), and :func:`perudo.sim.match.finishing_places` turns that order and the winner into places,
as the arena's tally does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from perudo.core import Event, GameRecord, GameState, RoundResolved, apply
from perudo.ratings import display
from perudo.sim.match import finishing_places

from .config import Seat

__all__ = ["changes_json", "knocked_out", "places", "players", "replay"]


def knocked_out(events: Iterable[Event]) -> list[tuple[int, ...]]:
    """The seats each round resolved in ``events`` knocked out (none: left out)."""
    return [e.eliminated for e in events if isinstance(e, RoundResolved) and e.eliminated]


def replay(record: GameRecord) -> tuple[GameState, list[tuple[int, ...]]]:
    """A stored game's state and its knock-outs so far (a table restored after a restart
    rates its game as the one that never stopped would).

    :raises IllegalActionError: for a stored move the core refuses (naming it and its rule).
    """
    state = record.replay(0)
    out: list[tuple[int, ...]] = []
    for seat, action in record.moves:
        state, events = apply(state, action, seat)
        out.extend(knocked_out(events))
    return state, out


def players(seats: Sequence[Seat | None]) -> dict[int, int]:
    """The signed-in player of each seat that has one (seat → player id)."""
    return {i: s.player_id for i, s in enumerate(seats) if s is not None and s.player_id}


def places(state: GameState, out: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each seat's finishing place in the game ``state`` ended (1: the winner)."""
    assert state.winner is not None
    return finishing_places(state.num_players, state.winner, out)


def changes_json(changes: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A rated game's changes (:meth:`perudo.server.store.Store.rating_changes`) as the end
    screen shows them (:class:`perudo.server.payloads.RatingChange`): each seat's place and
    displayed rating before and after, and whether the new one is provisional."""
    return [
        {
            "seat": c["seat"],
            "place": c["place"],
            "before": display(c["before"]),
            "after": display(c["after"]),
            "provisional": c["after"].provisional,
        }
        for c in changes
    ]
