"""Wire messages: typed pydantic models discriminated on ``type``.

A client sends one JSON object per WebSocket message (:data:`ClientMessage`); the server
answers with :class:`Snapshot`, :class:`Update`, :class:`TableMessage`, :class:`ChatMessage`,
:class:`ErrorMessage` and :class:`Pong`. The server's payloads are built only from seat views
(``view(state, seat).to_json()``) and events that :func:`perudo.core.visible_to` lets the
receiving seat see (P-70); the page renders them and holds no rule logic.

>>> parse_client_message('{"type": "act", "action": "calza", "version": 7, "on": [2, "3x5"]}')
Act(type='act', action='calza', version=7, on=(2, '3x5'))
>>> parse_client_message('{"type": "fly"}')
Traceback (most recent call last):
...
perudo.server.protocol.ProtocolError: unknown message type 'fly'; known: hello, act, chat, \
add_bot, fill_bots, remove_seat, leave, start, rematch, sync, ping, back, transfer_seat, \
make_host, set_options, react
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .payloads import ChatEntry, Event, Hint, ReplayData, RoundTail, TableInfo, View

__all__ = [
    "Act",
    "AddBot",
    "Back",
    "ChatMessage",
    "ChatSend",
    "ClientMessage",
    "Emote",
    "ErrorMessage",
    "FillBots",
    "Hello",
    "Leave",
    "MakeHost",
    "Ping",
    "PlayJoin",
    "PlayLeave",
    "PlayMatched",
    "PlayMessage",
    "Pong",
    "PoolState",
    "PoolWaiting",
    "ProtocolError",
    "React",
    "Reaction",
    "Rematch",
    "RemoveSeat",
    "SeatChanged",
    "SeatTransfer",
    "ServerMessage",
    "SetOptions",
    "Snapshot",
    "Start",
    "Sync",
    "TableMessage",
    "TransferSeat",
    "Update",
    "json_schema",
    "parse_client_message",
    "parse_play_message",
]

BotLevel = Literal["easy", "medium", "hard", "expert"]
M = TypeVar("M")


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- client → server ---------------------------------------------------------------------


class Hello(_Msg):
    """First message on a connection: the seat token (if any) and the last version seen.

    ``transfer`` instead of ``token``: a seat's transfer token (the ``#transfer=…`` of the link
    :class:`TransferSeat` gives): the seat moves to this connection, which gets a new seat token
    (:class:`SeatChanged`); the seat's other connections become spectators."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=100)
    transfer: str | None = Field(default=None, max_length=100)
    last_version: int | None = Field(default=None, ge=0)


class Act(_Msg):
    """Take an action for one's seat, in the core's notation (``3x5``, ``dudo``, ``calza``…),
    against the table version the client has seen (a stale version is refused).

    ``on`` names the moment the action answers, as the client drew it: ``[round, bid]``, the
    round and its standing bid in notation (``null``: no bid yet). The action is refused
    (``bid_changed``) unless that bid still stands (:func:`perudo.core.answers`); a dudo or a
    calza without ``on`` (a page from before it) is refused (``old_page``), never judged on
    whatever bid stands when it arrives."""

    type: Literal["act"]
    action: str = Field(max_length=100)
    version: int = Field(ge=0)
    on: tuple[Annotated[int, Field(ge=1)], Annotated[str, Field(max_length=20)] | None] | None = (
        None
    )


class ChatSend(_Msg):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=300)


Emote = Literal["nice", "haha", "wow", "bluff", "ouch", "gg"]
"""The quick reactions at a table (:mod:`perudo.server.tables.reactions`); the page draws and
names each in the reader's language."""


class React(_Msg):
    """A quick reaction from one's seat, shown to everyone at the table for a moment: never
    stored, never part of the game; each seat may send a few in a row, then one every couple
    of seconds."""

    type: Literal["react"]
    emote: Emote


class AddBot(_Msg):
    """Seat a bot in an empty seat (the first empty one if ``seat`` is omitted)."""

    type: Literal["add_bot"]
    level: BotLevel = "medium"
    seat: int | None = Field(default=None, ge=0)


class FillBots(_Msg):
    """Seat a bot of ``level`` in every empty seat."""

    type: Literal["fill_bots"]
    level: BotLevel = "medium"


class RemoveSeat(_Msg):
    """The host only: remove a bot before the game, or a person who is away (no live
    connection): before or after a game their seat is emptied; during one a bot takes it."""

    type: Literal["remove_seat"]
    seat: int = Field(ge=0)


class Leave(_Msg):
    """Give up one's seat (and its token): before or after a game the seat is emptied; during
    one a bot plays it to the end. A leaving host passes the role on."""

    type: Literal["leave"]


class TransferSeat(_Msg):
    """Ask for a private, expiring link that moves one's seat to another device
    (:class:`SeatTransfer`, sent to the asking connection only)."""

    type: Literal["transfer_seat"]


class MakeHost(_Msg):
    """The host only: hand the host role to the person in ``seat``."""

    type: Literal["make_host"]
    seat: int = Field(ge=0)


class SetOptions(_Msg):
    """The host only, before the game starts: change the table's own options (omitted ones
    stay): the odds hint, the turn timer (0: none), who takes the seat of a person who leaves
    during a game, memory mode (P-40). The rules themselves stay as the table was created."""

    type: Literal["set_options"]
    odds: Literal["auto", "on", "off"] | None = None
    turn_seconds: float | None = Field(default=None, ge=0, le=600)
    vacated: Literal["bot", "nobody"] | None = None
    memory: bool | None = None


class Start(_Msg):
    """Start the game with the seated players (empty seats are dropped; at least two)."""

    type: Literal["start"]


class Rematch(_Msg):
    """After the game: reopen the table with the same seats for a new game."""

    type: Literal["rematch"]


class Sync(_Msg):
    """Ask for what was missed since ``last_version`` (or a fresh view)."""

    type: Literal["sync"]
    last_version: int = Field(ge=0)


class Ping(_Msg):
    type: Literal["ping"]


class Back(_Msg):
    """The person at this seat is back: the stand-in bot stops playing for them."""

    type: Literal["back"]


ClientMessage = Annotated[
    Hello
    | Act
    | ChatSend
    | AddBot
    | FillBots
    | RemoveSeat
    | Leave
    | Start
    | Rematch
    | Sync
    | Ping
    | Back
    | TransferSeat
    | MakeHost
    | SetOptions
    | React,
    Field(discriminator="type"),
]
_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_TYPES = (
    "hello",
    "act",
    "chat",
    "add_bot",
    "fill_bots",
    "remove_seat",
    "leave",
    "start",
    "rematch",
    "sync",
    "ping",
    "back",
    "transfer_seat",
    "make_host",
    "set_options",
    "react",
)


# -- Play now: the pool socket ``/ws/play`` ----------------------------------------------


class PlayJoin(_Msg):
    """Wait in a Play-now pool: the variant (``preset``), the table size (heads-up, 4 or 6
    seats), rated or not (signed-in people only), how long one is willing to wait, and the
    level of the bots that fill the empty seats once that wait is over (``None``: no bots,
    keep waiting for people; never at a rated table). ``name``: a guest's name at the table
    (a signed-in person sits under their account's). ``ticket``: the one a ``pool`` message
    gave, to get one's place back after a reconnection (omitted: a new place)."""

    type: Literal["play_join"]
    preset: str = Field(default="perudo", max_length=40)
    seats: Literal[2, 4, 6] = 2
    rated: bool = False
    wait: float = Field(default=60.0, ge=10, le=600)
    bots: BotLevel | None = None
    name: str | None = Field(default=None, max_length=24)
    ticket: str | None = Field(default=None, min_length=16, max_length=64)


class PlayLeave(_Msg):
    """Leave the pool (refused once one's table is being made: its seat comes)."""

    type: Literal["play_leave"]


PlayMessage = Annotated[PlayJoin | PlayLeave | Ping, Field(discriminator="type")]
_PLAY: TypeAdapter[PlayMessage] = TypeAdapter(PlayMessage)
_PLAY_TYPES = ("play_join", "play_leave", "ping")


def parse_play_message(text: str | bytes) -> PlayMessage:
    """Parse one message of the pool socket.

    :raises ProtocolError: naming what is wrong (bad JSON, unknown type, bad field).

    >>> parse_play_message('{"type": "play_join", "seats": 2, "wait": 30}').seats
    2
    >>> parse_play_message('{"type": "act"}')
    Traceback (most recent call last):
    ...
    perudo.server.protocol.ProtocolError: unknown message type 'act'; known: play_join, \
play_leave, ping
    """
    return _read_checked(text, _PLAY, _PLAY_TYPES)


class ProtocolError(ValueError):
    """A client message that is not valid JSON or not a known, well-formed message."""

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Parse one client message.

    :raises ProtocolError: naming what is wrong (bad JSON, unknown type, bad field).
    """
    try:
        # One pass of pydantic's own JSON parser for a good message (every move's cost);
        # anything it refuses is read again below, to say what is wrong.
        return _CLIENT.validate_json(text)
    except ValidationError:
        return _parse_checked(text)


def _parse_checked(text: str | bytes) -> ClientMessage:
    """:func:`parse_client_message` step by step: the JSON, its type, then its fields, each
    refusal in its own words."""
    return _read_checked(text, _CLIENT, _TYPES)


def _read_checked(text: str | bytes, adapter: TypeAdapter[M], types: tuple[str, ...]) -> M:
    """A message of one of ``types`` read by ``adapter``, step by step (a table socket's or
    the pool socket's)."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise ProtocolError(f"a message must be a JSON object: {err}", "bad_json") from None
    except RecursionError:
        raise ProtocolError(
            "a message must be a JSON object, not nested this deeply", "bad_json"
        ) from None
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object with a type", "bad_json")
    kind = data.get("type")
    if kind not in types:
        raise ProtocolError(
            f"unknown message type {kind!r}; known: {', '.join(types)}", "unknown_type"
        )
    try:
        return adapter.validate_python(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in err.errors()
        )
        raise ProtocolError(f"bad {kind} message: {problems}") from None


# -- server → client ---------------------------------------------------------------------


class Snapshot(_Msg):
    """Everything a client needs to draw the table from scratch (on hello, or a big gap)."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    table: TableInfo
    seat: int | None
    """The receiver's seat (``None``: spectator)."""
    view: View | None
    """``view(state, seat).to_json()`` for the current game (``None`` before the first)."""
    hint: Hint | None
    timer: float | None = None
    """Seconds left on the turn timer of the seat to act (``None``: no timer running)."""
    chat: list[ChatEntry]


class Update(_Msg):
    """Events the receiver may see (each with its version) and its view afterwards.

    ``view`` omits ``past`` (the finished rounds, which only grow) and the round's ``actions``
    (the receiver's view before, then the ``action`` events: :class:`~.payloads.View`);
    ``past_tail`` carries the rounds finished by these events, each without its result (that
    is the ``round_resolved`` event among ``events``, in order) and its actions
    (:class:`~.payloads.RoundTail`): each thing sent once. After a reconnect with a small gap,
    ``view`` is whole (``past`` and ``actions`` included).
    """

    type: Literal["update"] = "update"
    version: int
    events: list[Event]
    view: View | None
    hint: Hint | None
    timer: float | None = None
    """Seconds left on the turn timer of the seat to act (``None``: no timer running)."""
    past_tail: list[RoundTail] = []


class TableMessage(_Msg):
    """The table's seats, presence, status or settings changed.

    ``table["to_act"]`` and ``table["turn_remaining"]`` are as of this message: the table is
    not re-sent after every move, so during a game the current seat to act and turn time are
    the ones of the latest ``update`` (its ``view`` and ``timer``).
    """

    type: Literal["table"] = "table"
    version: int
    table: TableInfo


class ChatMessage(_Msg):
    type: Literal["chat"] = "chat"
    version: int
    entry: ChatEntry


class Reaction(_Msg):
    """Seat ``seat`` reacted with ``emote`` (:class:`React`): to everyone at the table, once;
    a page may mute a table's reactions (it then shows none)."""

    type: Literal["reaction"] = "reaction"
    seat: int
    emote: Emote


class ErrorMessage(_Msg):
    """The sender's message was refused; nothing changed. ``message`` names the rule broken
    (the core's own English message, with its rule id, for developers and a "why?" detail)
    or what is wrong with the message.

    When the rules refused, ``refusal`` and ``params`` are the core's code and parameters
    (:class:`perudo.core.PerudoError`), and ``texts`` says it in each language of
    :mod:`perudo.i18n` (seats named): the page shows ``texts[its language]``. Otherwise a page
    says ``code`` in its own words.
    """

    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None
    refusal: str | None = None
    params: dict[str, Any] = {}
    texts: dict[str, str] = {}


class Pong(_Msg):
    type: Literal["pong"] = "pong"
    version: int


class SeatTransfer(_Msg):
    """To the seat holder's asking connection only: the link that moves the seat to another
    device. ``path`` is ``/t/{id}#transfer={token}`` (the token after ``#`` never reaches a
    server log); ``url`` is it made absolute (on ``PERUDO_PUBLIC_URL`` or the address the page
    came from). Single use; a new request replaces it; it expires after ``expires_in`` s."""

    type: Literal["seat_transfer"] = "seat_transfer"
    seat: int
    path: str
    url: str
    qr: str
    """A QR code of ``url`` (inline SVG) for the other device's camera."""
    expires_in: float


class SeatChanged(_Msg):
    """This connection's seat changed: ``reason`` ``transferred_in`` (``token`` is the seat's
    new token, to keep instead of the old one), ``transferred_out`` (the seat moved to another
    device), ``left`` or ``removed`` (by the host); ``seat`` ``None``: now a spectator. A
    snapshot for the new seat follows."""

    type: Literal["seat"] = "seat"
    seat: int | None
    token: str | None = None
    reason: Literal["transferred_in", "transferred_out", "left", "removed"]


class PoolWaiting(_Msg):
    """One entrant waiting in a pool: a signed-in person's name (``None``: a guest, whom the
    page calls "guest" in its language), seconds waited, whether a bot account, whether the
    receiver."""

    name: str | None
    waited: float
    bot: bool = False
    you: bool = False


class PoolState(_Msg):
    """To a socket waiting in a Play-now pool, on every change and every few seconds: the
    pool, the receiver's ``ticket`` (to join again with after a reconnection), their wait so
    far and chosen, and who waits, oldest first. ``overdue``: their wait is over and no table
    could be made (no bots chosen): they keep waiting, or leave."""

    type: Literal["pool"] = "pool"
    ticket: str
    preset: str
    seats: int
    rated: bool
    waited: float
    wait: float
    bots: str | None
    overdue: bool
    waiting: list[PoolWaiting]


class PlayMatched(_Msg):
    """The receiver is seated: their table (``invite``: its path), seat and seat token (the
    table socket's ``hello`` token). The pool socket's work is done."""

    type: Literal["play_matched"] = "play_matched"
    table_id: str
    seat: int
    token: str
    invite: str


ServerMessage = Annotated[
    Snapshot
    | Update
    | TableMessage
    | ChatMessage
    | ErrorMessage
    | Pong
    | SeatTransfer
    | SeatChanged
    | Reaction
    | PoolState
    | PlayMatched,
    Field(discriminator="type"),
]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of what the server sends: ``ServerMessage`` (every WebSocket message to a
    client) and ``ReplayData`` (a finished game's replay), under ``$defs``, with the client's
    messages as ``ClientMessage``. Served at ``/api/protocol.schema.json``."""
    defs: dict[str, Any] = {}
    roots: dict[str, Any] = {}
    for name, tp in (
        ("ServerMessage", ServerMessage),
        ("ClientMessage", ClientMessage),
        ("PlayMessage", PlayMessage),
        ("ReplayData", ReplayData),
    ):
        schema = TypeAdapter(tp).json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        roots[name] = schema
    defs.update(roots)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Perudo wire protocol",
        "$defs": defs,
        "oneOf": [{"$ref": "#/$defs/ServerMessage"}],
    }
