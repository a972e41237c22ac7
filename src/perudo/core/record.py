"""Game records: the rules, the roll-off, and every move (chance included), as JSON.

A record replays to the identical :class:`GameState` (the core is pure and every die rolled
is a :class:`~perudo.core.actions.Deal` or :class:`~perudo.core.actions.Reroll` move in it).
A record holds every hand, revealed or not: it is for the game's trusted side (a server's
store, a finished game's export), not for a player during play (P-70).

>>> import random
>>> from perudo import find_ruleset, new_game
>>> game = new_game(find_ruleset("perudo"), 3, random.Random(1))
>>> GameRecord.from_json(GameRecord.from_state(game).to_json()).replay() == game
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from .actions import Action, parse_action
from .engine import apply, start_game
from .errors import IllegalActionError, NotationError
from .events import Event
from .rules import RuleSet, preset_name
from .state import GameState, LogEntry

__all__ = ["RECORD_FORMAT", "GameRecord", "RecordStep", "SeatInfo"]

RECORD_FORMAT: Final = "perudo-record"
RECORD_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sat at a seat: for the people reading a record (the rules never look at it)."""

    name: str
    kind: Literal["human", "bot"] = "bot"
    level: str | None = None
    """A bot's level (``easy`` … ``expert``); ``None`` for a person."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level}


class RecordStep(NamedTuple):
    """One move of a record replayed (:meth:`GameRecord.steps`)."""

    n: int
    """The move's number, from 1."""
    seat: int | None
    """Who moved (``None``: chance)."""
    action: Action
    before: GameState
    after: GameState
    events: tuple[Event, ...]
    """What the move caused (:func:`~perudo.core.apply`'s events, hidden ones included)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: replay it with :meth:`replay`.

    ``seats`` (one :class:`SeatInfo` per seat, or none) and ``software`` (the program and
    version that played it) are optional: they tell people who was who. ``memory``: the game
    was shown in memory mode (P-40), how it was played rather than a rule, so that a resumed
    game is shown the same way (written only when true).
    """

    rules: RuleSet
    num_players: int
    rolloff: tuple[tuple[int, ...], ...]
    moves: tuple[LogEntry, ...]
    seats: tuple[SeatInfo, ...] = ()
    software: str | None = None
    memory: bool = False

    @classmethod
    def from_state(
        cls,
        state: GameState,
        *,
        seats: tuple[SeatInfo, ...] = (),
        software: str | None = None,
        memory: bool = False,
    ) -> GameRecord:
        """The record of the game that led to ``state`` (with who sat where, if given).

        :raises ValueError: for a state made by ``start_round`` (it has no roll-off), or seats
            that are not one per player.
        """
        if not state.rolloff:
            raise ValueError("a state made by start_round has no game record (no roll-off)")
        if seats and len(seats) != state.num_players:
            raise ValueError(f"{len(seats)} seats given for {state.num_players} players")
        return cls(
            state.rules, state.num_players, state.rolloff, state.moves(), seats, software, memory
        )

    def start(self) -> GameState:
        """The game after its roll-off, before any move (:func:`~perudo.core.start_game`).

        :raises IllegalActionError: for a roll-off the rules refuse (P-2).
        """
        return start_game(self.rules, self.num_players, self.rolloff)

    def steps(self, upto: int | None = None) -> Iterator[RecordStep]:
        """The moves (the first ``upto`` of them) applied one by one from :meth:`start`: each
        with the states around it and its events. Every replay walks a record this way (the
        terminal's ``perudo replay``, the server's replays, :meth:`replay`).

        :raises IllegalActionError: ``record.illegal_move`` for a move the rules refuse, when
            it is reached (the moves before it were yielded): its message names the move and the
            rule it breaks; ``params`` hold ``move`` (from 1), ``seat``, ``action`` and the
            core's own refusal as ``cause`` (``code``, ``params``), which is also the error's
            ``__cause__``.
        """
        state = self.start()
        for i, (seat, action) in enumerate(self.moves[:upto], start=1):
            try:
                after, events = apply(state, action, seat)
            except IllegalActionError as err:
                who = "chance" if seat is None else f"seat {seat}"
                raise IllegalActionError(
                    f"move {i} ({who}: {action}): {err}",
                    code="record.illegal_move",
                    params={
                        "move": i,
                        "seat": seat,
                        "action": str(action),
                        "cause": {"code": err.code, "params": err.params},
                    },
                ) from err
            yield RecordStep(i, seat, action, state, after, events)
            state = after

    def replay(self, upto: int | None = None) -> GameState:
        """Apply the moves (the first ``upto`` of them) from the start.

        :raises IllegalActionError: naming the move and the rule it breaks.
        """
        state = self.start()
        for step in self.steps(upto):
            state = step.after
        return state

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; ``json.dumps`` it to save."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "preset": preset_name(self.rules),
            "rules": self.rules.to_dict(),
            "players": self.num_players,
            "rolloff": [list(t) for t in self.rolloff],
            "moves": [{"seat": seat, "action": str(action)} for seat, action in self.moves],
        }
        if self.seats:
            data["seats"] = [seat.to_json() for seat in self.seats]
        if self.software is not None:
            data["software"] = self.software
        if self.memory:
            data["memory"] = True
        return data

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any]) -> GameRecord:
        """Read a record from JSON text or a parsed dict.

        :raises NotationError: naming what is wrong (the moves are checked by :meth:`replay`).
        """
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as err:
                raise NotationError(
                    f"a game record must be JSON: {err}",
                    code="record.not_json",
                    params={"error": str(err)},
                ) from None
        if not isinstance(data, Mapping):
            raise NotationError("a game record is a JSON object", code="record.not_object")
        if data.get("format") != RECORD_FORMAT:
            raise NotationError(
                f"not a game record: format is not {RECORD_FORMAT!r}", code="record.format"
            )
        if data.get("version") != RECORD_VERSION:
            raise NotationError(
                f"unknown game record version {data.get('version')!r}",
                code="record.version",
                params={"version": repr(data.get("version"))},
            )
        try:
            rules_data = data["rules"]
            players = data["players"]
            rolloff_data = data["rolloff"]
            moves_data = data["moves"]
        except KeyError as err:
            raise NotationError(
                f"a game record needs the field {err.args[0]!r}",
                code="record.field",
                params={"field": str(err.args[0])},
            ) from None
        if not isinstance(rules_data, Mapping):
            raise NotationError("the record's rules must be an object", code="record.rules")
        try:
            rules = RuleSet.from_dict(rules_data)
        except (TypeError, ValueError) as err:
            raise NotationError(
                f"the record's rules are invalid: {err}",
                code="record.bad_rules",
                params={"error": str(err)},
            ) from None
        if isinstance(players, bool) or not isinstance(players, int):
            raise NotationError("the record's players must be an integer", code="record.players")
        if not rules.min_players <= players <= rules.max_players:
            raise NotationError(
                f"the record has {players} players; its rules take "
                f"{rules.min_players}–{rules.max_players} (P-1, V-12)",
                code="record.player_count",
                params={"players": players, "min": rules.min_players, "max": rules.max_players},
            )
        if not isinstance(rolloff_data, list) or not all(
            isinstance(t, list) and all(isinstance(d, int) for d in t) for t in rolloff_data
        ):
            raise NotationError(
                "the record's rolloff must be a list of lists of faces", code="record.rolloff"
            )
        if not isinstance(moves_data, list):
            raise NotationError("the record's moves must be a list", code="record.moves")
        moves: list[LogEntry] = []
        for i, move in enumerate(moves_data):
            if not isinstance(move, Mapping) or "action" not in move:
                raise NotationError(
                    f"move {i + 1} must be an object with an action",
                    code="record.move",
                    params={"move": i + 1},
                )
            seat = move.get("seat")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise NotationError(
                    f"move {i + 1}: seat must be an integer or null",
                    code="record.move_seat",
                    params={"move": i + 1},
                )
            try:
                action: Action = parse_action(move["action"])
            except NotationError as err:
                raise NotationError(
                    f"move {i + 1}: {err}",
                    code="record.move_action",
                    params={"move": i + 1, "cause": {"code": err.code, "params": err.params}},
                ) from None
            moves.append((seat, action))
        software = data.get("software")
        if software is not None and not isinstance(software, str):
            raise NotationError("the record's software must be text", code="record.software")
        memory = data.get("memory", False)
        if not isinstance(memory, bool):
            raise NotationError(
                "the record's memory must be true or false (P-40)", code="record.memory"
            )
        return cls(
            rules,
            players,
            tuple(tuple(t) for t in rolloff_data),
            tuple(moves),
            _seats(data.get("seats", []), players),
            software,
            memory,
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from JSON text (same as :meth:`from_json`)."""
        return cls.from_json(text)


def _seats(data: object, players: int) -> tuple[SeatInfo, ...]:
    """The record's optional ``seats``: none, or one ``{name, kind, level}`` per player."""
    if data == []:
        return ()
    if not isinstance(data, list) or len(data) != players:
        raise NotationError(
            f"the record's seats must be a list of {players} seats",
            code="record.seats",
            params={"players": players},
        )
    seats = []
    for i, seat in enumerate(data):
        if (
            not isinstance(seat, Mapping)
            or not isinstance(seat.get("name"), str)
            or seat.get("kind", "bot") not in ("human", "bot")
            or not isinstance(seat.get("level"), (str, type(None)))
        ):
            raise NotationError(
                f"seat {i + 1} of the record must be an object with a name, a kind (human or "
                "bot) and a level",
                code="record.seat",
                params={"number": i + 1},
            )
        seats.append(SeatInfo(seat["name"], seat.get("kind", "bot"), seat.get("level")))
    return tuple(seats)
