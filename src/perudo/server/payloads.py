"""The payloads the server sends, typed: a seat's view, the events, the table, the replay.

These pydantic models describe, field by field, the JSON that :func:`perudo.core.view`'s
``to_json``, :func:`perudo.core.events.event_to_json` and the table build (the core decides
what is in them; P-70). :mod:`perudo.server.protocol`'s messages carry them, so every message
the server sends is validated against them as it is built, and
:func:`perudo.server.protocol.json_schema`
exports them as one JSON Schema (served at ``/api/protocol.schema.json``) that the tests check
the server's real messages against. Unknown fields are refused (``extra="forbid"``): a field
added to the core's JSON must be added here too, or the server fails loudly in the tests.

Every action comes twice: its notation (``"3x5"``) for logs and records, and structured
(:class:`ActionInfo`, from :func:`perudo.core.actions.action_to_json`) for a display, which then
parses no notation; but what a seat may do comes once, compactly (:class:`Legal`: the bids as
runs of quantities per face, a few numbers where the list ran to 150 bids and more).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ActionInfo",
    "ChatEntry",
    "Event",
    "Hint",
    "Legal",
    "RatingChange",
    "ReplayData",
    "RoundInfo",
    "RoundTail",
    "Rules",
    "SeatInfo",
    "TableInfo",
    "View",
]


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


ActionKind = Literal[
    "bid", "dudo", "calza", "pass", "palifico", "normal", "aside", "deal", "reroll", "concede"
]


class ActionInfo(_Payload):
    """An action, structured (:func:`perudo.core.actions.action_to_json`)."""

    kind: ActionKind
    text: str
    """The notation (``str(action)``), which is what a client sends back to act."""
    quantity: int | None = None
    """A bid's quantity."""
    face: int | None = None
    """A bid's face."""
    dice: list[int] | None = None
    """The dice set aside (V-9) or re-rolled."""
    hands: list[list[int]] | None = None
    """A deal's hands (only in a finished game's record)."""


class Rules(_Payload):
    """:meth:`perudo.core.RuleSet.to_dict`: every switch of RULES.md Part B."""

    raise_order: Literal["perudo", "monotone"]
    wild_face: int | None
    wild_conversion: Literal["perudo", "bluff", "none"]
    loss: Literal["one", "difference"]
    next_opener: Literal["loser", "winner"]
    palifico: Literal["on", "off", "not_two_players"]
    calza: Literal["off", "on", "to_act"]
    reveal: Literal["until_proven", "all"]
    set_aside: bool
    passing: bool
    straight_counts_nothing: bool
    dice_per_player: int
    faces: int
    min_players: int
    max_players: int
    calza_min_players: int


class Reveal(_Payload):
    seat: int
    hand: list[int]
    count: int
    """How many of this hand's dice count toward the bid (the core counted: P-15, P-31)."""


class _Event(_Payload):
    version: int | None = None
    """The table version of the event (on the wire; absent in a replay's frames)."""


class RoundStarted(_Event):
    type: Literal["round_started"]
    round: int
    opener: int
    palifico: bool
    dice_counts: list[int | None]
    """``None`` for another seat's count in memory mode (P-40)."""


class DiceDealt(_Event):
    type: Literal["dice_dealt"]
    seat: int
    hand: list[int]


class DiceRerolled(_Event):
    type: Literal["dice_rerolled"]
    seat: int
    dice: list[int]


class ActionTaken(_Event):
    type: Literal["action"]
    seat: int
    action: str
    action_info: ActionInfo


class PalificoChosen(_Event):
    type: Literal["palifico_chosen"]
    seat: int
    palifico: bool


class RoundResolved(_Event):
    """A round's end: who called what, the hands shown, the count and who lost (P-20, P-21)."""

    type: Literal["round_resolved"]
    kind: Literal["dudo", "calza", "pass", "concede"]
    """``concede``: the caller gave up the game (P-24): no hand is shown."""
    caller: int
    target: int | None
    bid: str | None
    bid_info: ActionInfo | None
    reveals: list[Reveal]
    hidden: list[int]
    count: int | None
    holds: bool
    changes: list[tuple[int, int]]
    eliminated: list[int]
    next_opener: int | None
    palifico: bool


class GameOver(_Event):
    type: Literal["game_over"]
    winner: int


Event = Annotated[
    RoundStarted
    | DiceDealt
    | DiceRerolled
    | ActionTaken
    | PalificoChosen
    | RoundResolved
    | GameOver,
    Field(discriminator="type"),
]


class RoundTail(_Payload):
    """A finished round as an update's ``past_tail`` carries it: without what the update's
    receiver holds already or receives in it, each sent once. Its ``result`` is the update's
    own ``round_resolved`` event (the first for the first round, and so on); its ``actions``
    (and ``actions_info``) are the round's as the view's are counted (:class:`View`'s
    ``actions``) when that ``round_resolved`` comes."""

    round: int
    opener: int
    palifico: bool
    shown: list[list[int]]


class RoundInfo(RoundTail):
    """A finished round (:func:`perudo.core.views.round_to_json`)."""

    actions: list[tuple[int, str]]
    actions_info: list[ActionInfo]
    result: RoundResolved


class Legal(_Payload):
    """What a seat may do now, compactly (:func:`perudo.core.views.legal_json`): a display offers
    exactly these and decides no rule."""

    bids: list[tuple[int, int, int]]
    """The bids, as ``[face, lowest, highest]``: every quantity from ``lowest`` to ``highest``
    on that face (by face, then quantity; a bid is sent back as ``{quantity}x{face}``)."""
    actions: list[ActionInfo]
    """Every other action (dudo, calza, pass, a set-aside, the palifico choice), structured."""


class View(_Payload):
    """A seat's view (:meth:`perudo.core.PlayerView.to_json`), as the server sends it.

    In memory mode (P-40) other seats' counts are ``None``, and nothing tells the total.
    """

    seat: int | None
    rules: Rules | None = None
    """The rule set: in snapshots and whole views; omitted (``None``) in updates, which a
    game's rules never change (the table's ``rules`` say the same)."""
    phase: Literal["choose_palifico", "deal", "bidding", "reroll", "game_over"]
    round: int
    opener: int
    to_act: int | None
    dice_counts: list[int | None]
    hand: list[int]
    shown: list[list[int]]
    palifico: bool
    palifico_used: list[bool]
    bid: str | None
    bid_info: ActionInfo | None
    wild: int | None
    """The wild face (V-2), or ``None``: a display names it, never decides it."""
    bidder: int | None
    passer: int | None
    must_raise: bool
    actions: list[tuple[int, str]] | None = None
    """This round's actions: in snapshots and whole views; omitted (``None``) in updates, whose
    receiver holds them already: those of its view before the update, then the update's
    ``action`` events after its last ``round_resolved`` or ``round_started`` (which begin a
    round anew), each sent once (a long round's actions made every move's message 2 KB and
    more)."""
    actions_info: list[ActionInfo] | None = None
    """This round's actions, structured, in the order of ``actions`` (``None`` as it is)."""
    past: list[RoundInfo] | None = None
    """Finished rounds: in snapshots and whole views; omitted (``None``) in updates."""
    winner: int | None
    rolloff: list[list[int]] | None = None
    """The roll-off for the first opener (P-2): in snapshots and whole views; omitted
    (``None``) in updates."""
    legal: Legal
    """What this seat may do now (:func:`perudo.core.views.legal_json`)."""


class Hint(_Payload):
    """The odds of the standing bid from the seat's own knowledge (when the table shows it)."""

    bid: str
    holds: float
    exact: float


class SeatInfo(_Payload):
    seat: int
    kind: Literal["human", "bot"]
    name: str
    level: str | None
    connected: bool
    devices: int = 0
    """The live connections holding this seat: more than one, the person has it open on
    several devices (or tabs) at once, and each of them is told so."""
    away: bool
    host: bool = False
    """This seat's person is the table's host (starts the game, manages bots and seats)."""
    bot_account: bool = False
    """This seat is held by a bot account playing through the bot API (docs/bot-api.md), not
    by a person: the page marks it as a bot."""


class RatingChange(_Payload):
    """One seat's rating change in a finished rated game (docs/ratings.md): its finishing
    place and its displayed rating before and after (``provisional``: the new one is)."""

    seat: int
    place: int
    before: int
    after: int
    provisional: bool


class TableInfo(_Payload):
    """A table as the page sees it (no hidden information)."""

    id: str
    name: str
    status: Literal["open", "playing", "finished"]
    preset: str
    rules: Rules
    memory: bool
    vacated: Literal["bot", "nobody"] = "bot"
    """Who takes the seat of a player who leaves during a game: a bot, or nobody (P-24)."""
    odds: Literal["auto", "on", "off"] = "auto"
    """The odds hint setting (``auto``: shown while at most one person sits at the table)."""
    odds_shown: bool = False
    """Whether the seats are sent the odds now."""
    show_hands: bool = False
    """Every hand of every round is shown to everyone once the game is over (a table
    agreement outside the rules, docs/analysis.md); never during play."""
    turn_seconds: float
    seat_count: int
    private: bool
    seats: list[SeatInfo | None]
    host: int | None = None
    """The host's seat (``None``: no host, e.g. nobody seated)."""
    spectators: int
    game_id: str | None
    """The current or last game's key (unguessable; its replay is ``/replay/{game_id}``)."""
    to_act: int | None
    turn_remaining: float | None
    winner: int | None
    invite: str
    """The invite link's path (``/t/{id}``)."""
    invite_url: str | None = None
    """The absolute invite link (``PERUDO_PUBLIC_URL``); ``None``: the page uses its origin."""
    rated: bool = False
    """A rated table: signed-in people only, no bots (docs/ratings.md)."""
    rating_changes: list[RatingChange] | None = None
    """The finished rated game's changes per seat (``None``: unrated, or not over)."""


class ChatEntry(_Payload):
    seat: int | None
    name: str
    text: str
    at: float
    version: int


class ReplayMove(_Payload):
    seat: int | None
    action: str
    action_info: ActionInfo | None = None
    """The player's action, structured (``None`` for chance's deal and re-roll)."""


class ReplayFrame(_Payload):
    n: int
    move: ReplayMove | None
    events: list[Event]
    view: View


class RoundHands(_Payload):
    """One round's dice of every seat (an empty list for a seat that was out)."""

    round: int
    hands: list[list[int]]


class ReplayData(_Payload):
    """``GET /api/games/{id}/replay``: every move of a game as a frame."""

    game_id: str
    table_id: str | None
    """``None`` for a private table's game (its id is its invite)."""
    names: list[str]
    winner: int | None
    finished: bool
    frames: list[ReplayFrame]
    bots: list[int] = []
    """The seats bot accounts played (docs/bot-api.md): the replay marks them as bots."""
    hands: list[RoundHands] | None = None
    """Every hand of every round, where the table agreed to show them at the end (and the
    game is over); ``None`` elsewhere: P-21 keeps the hands nobody lifted hidden."""
