"""What each client at a table is sent: the wire messages, drawn per seat (P-70).

Everything a client receives about the game is built here from the seat's view
(``view(state, seat, memory=…).to_json()``), the events :func:`perudo.core.visible_to` lets
the seat see (as :func:`perudo.core.views.event_seen` shows them) and the core's refusals (as
:func:`perudo.core.views.refusal_seen` says them). Memory mode (P-40) is the core's to draw: its
views, events and refusals tell no count of the dice in play; this module adds only that no
odds are sent there (they are computed from the dice in play). The table decides what
happened; this module only draws it for each receiver.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from perudo.core import view
from perudo.core.events import reaches
from perudo.core.views import event_seen, refusal_seen, round_to_json, views_json
from perudo.i18n import LANGS, refusal_text, said_name

from .. import protocol as p
from ..connection import Connection
from ..hint import bid_hint
from ..store import ChatRow
from ..wirejson import write, write_each
from .config import TableError, server_texts

if TYPE_CHECKING:
    from .live import LiveTable

__all__ = [
    "Batch",
    "SpectatorOutbox",
    "broadcast_chat",
    "broadcast_events",
    "broadcast_table",
    "chat_json",
    "error",
    "flush_spectators",
    "missed",
    "refused",
    "send_each",
    "send_from",
    "snapshot",
    "table_message",
    "to_one",
    "to_spectators",
]

Batch = list[tuple[int | None, dict[str, Any]]]
"""A move's events: (audience seat or ``None`` for everyone, event JSON with its version)."""


def dump(msg: p.Snapshot | p.Update | p.TableMessage | p.ChatMessage | p.ErrorMessage) -> str:
    return msg.model_dump_json()


def seat_payload(
    table: LiveTable, seat: int | None, with_past: bool
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The seat's view as JSON (without ``past`` unless asked: it only grows, and updates
    carry the rounds just finished instead) and its probability hint (when it has something
    to decide): :func:`seat_payloads` of one seat."""
    return seat_payloads(table, [seat], with_past)[0]


def seat_payloads(
    table: LiveTable, seats: Sequence[int | None], with_past: bool
) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """:func:`seat_payload` of each of ``seats``, the views drawn at once
    (:func:`perudo.core.views.views_json`: the spectators' view once, each seat's a copy with its
    own seat, dice and legal actions; in memory mode, P-40, as the core draws it there)."""
    state = table.state
    if state is None:
        return [(None, None)] * len(seats)
    # The odds only where the table shows them (never in memory mode: P-40, they would tell the
    # total of dice in play).
    odds = table.odds_shown()
    memory = table.config.memory
    out: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
    # Memory mode's views hold the latest finished round only (P-40): sent whole each time,
    # it replaces the one before rather than adding to a story of every round.
    drawn = views_json(state, seats, past=with_past or memory, memory=memory)
    for seat, data in zip(seats, drawn, strict=True):
        can_act = data["legal"]["bids"] or data["legal"]["actions"]
        hint = bid_hint(view(state, seat)) if odds and can_act else None
        out.append((data, hint))
    return out


SPECTATOR_SNAPSHOT_TTL = 0.5
"""Seconds a spectators' snapshot is reused at the same version (a crowd arriving at once
costs one snapshot, not one each; its timer and head count are at most this old)."""


def snapshot(table: LiveTable, seat: int | None, hidden: frozenset[int] = frozenset()) -> str:
    """Everything ``seat`` needs to draw the table from scratch (without the chat lines of
    the accounts in ``hidden``: those its person blocks).

    Written from its model (:mod:`perudo.server.wirejson`; checked against the model's own
    encoding in the tests).
    """
    if hidden:
        return _snapshot(table, seat, hidden)
    if seat is None:
        out = table.spectator_out
        cached = out.snapshot
        now = time.monotonic()
        if (
            cached is not None
            and cached[0] == table.version
            and now - cached[1] < SPECTATOR_SNAPSHOT_TTL
        ):
            return cached[2]
        text = _snapshot(table, None)
        out.snapshot = (table.version, now, text)
        return text
    return _snapshot(table, seat)


def _snapshot(table: LiveTable, seat: int | None, hidden: frozenset[int] = frozenset()) -> str:
    data, hint = seat_payload(table, seat, True)
    return write(
        p.Snapshot,
        {
            "version": table.version,
            "table": table.info(),
            "seat": seat,
            "view": data,
            "hint": hint,
            "timer": table.schedule.remaining(),
            "chat": [
                chat_json(c)
                for c in table.chat.lines
                if not hidden or table.chat.author(c.version, c.seat) not in hidden
            ],
        },
    )


def table_message(table: LiveTable) -> str:
    return dump(p.TableMessage.model_validate({"version": table.version, "table": table.info()}))


def error(code: str, message: str, version: int | None) -> str:
    return dump(p.ErrorMessage(code=code, message=message, version=version))


def refused(table: LiveTable, err: TableError) -> str:
    """The table's refusal ``err``; when the rules refused (or the table's own refusal has
    words there, :func:`~perudo.server.tables.config.server_texts`), in every language of the
    catalogs too (:func:`perudo.i18n.refusal_text`, seats named by their names at the table),
    so that a page shows it in its own language."""
    if err.refusal is None:  # the table's own refusal: said by perudo.i18n where it can
        texts = server_texts(err.code)
        if not texts:
            return error(err.code, err.message, table.version)
        return dump(
            p.ErrorMessage(code=err.code, message=err.message, version=table.version, texts=texts)
        )
    memory = table.config.memory
    # P-40: no count of the dice in play, in the params or the "why?" detail.
    code = err.refusal.code
    params, message = refusal_seen(code, err.refusal.params, err.message, memory=memory)

    def namer(lang: str) -> Callable[[int], str]:
        def name_of(seat: int) -> str:  # a bot seat in the reader's words (perudo.i18n.names)
            s = table.seats[seat] if 0 <= seat < len(table.seats) else None
            return said_name(lang, s.name) if s is not None else f"#{seat + 1}"

        return name_of

    return dump(
        p.ErrorMessage(
            code=err.code,
            message=message,
            version=table.version,
            refusal=code,
            params=params,
            texts={
                lang: refusal_text(lang, code, params, namer(lang), memory=memory) for lang in LANGS
            },
        )
    )


def broadcast_table(table: LiveTable) -> None:
    """The table's seats, presence and status to everyone at it."""
    text = table_message(table)
    send_each(table, lambda seat: text)


def send_each(table: LiveTable, text_for: Callable[[int | None], str]) -> None:
    """``text_for(seat)`` to every connection at the table: the seated ones now, in this
    order; the spectators through their outbox (:func:`to_spectators`), drawn once for them
    all (after their gathered update: :func:`flush_spectators`)."""
    flush_spectators(table)
    spectators = False
    for c in table.conns:
        if c.seat is None:
            spectators = True
        else:
            c.send(text_for(c.seat))
    if spectators:
        to_spectators(table, text_for(None))


def broadcast_events(table: LiveTable, batch: Batch, resolved: int) -> None:
    """A move's events to everyone, each receiving those its seat may see and its view after
    (drawn once per seat, whatever the number of connections).

    The seated connections get theirs now. The spectators' are gathered for
    ``spectator_delay`` seconds (:func:`flush_spectators`): one update, drawn once, carries
    every public event of the moves made meanwhile, and the same text goes to every
    spectator, so a crowd costs a few messages a second, not one per move each.
    """
    seats: list[int] = []
    spectators = False
    for c in table.conns:
        if c.seat is None:
            spectators = True
        elif c.seat not in seats:
            seats.append(c.seat)
    by_seat = dict(zip(seats, _updates(table, seats, batch, resolved), strict=True))
    for c in table.conns:
        if c.seat is not None:
            c.send(by_seat[c.seat])
    if not spectators:
        return
    out = table.spectator_out
    out.events.extend(data for audience, data in batch if audience is None)
    out.resolved += resolved
    delay = table.settings.spectator_delay
    if delay <= 0:
        flush_spectators(table)
    elif out.timer is None:
        out.timer = asyncio.get_running_loop().call_later(delay, flush_spectators, table)


SLICE = 32
"""Spectators sent a message per turn of the event loop: a crowd's messages go out in
slices, between which the players' moves are read, applied and sent."""


@dataclass(slots=True)
class SpectatorOutbox:
    """What goes to a table's spectators, in order (:func:`to_spectators`), the public
    events gathered for their next update (:func:`broadcast_events`) and their last snapshot
    (:func:`snapshot`): this module's own state, which the table holds for it."""

    events: list[dict[str, Any]] = field(default_factory=list)
    resolved: int = 0
    """Rounds resolved by those events (their ``past_tail``)."""
    timer: asyncio.TimerHandle | None = None
    queue: deque[tuple[str, list[Connection]]] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None
    snapshot: tuple[int, float, str] | None = None
    """(version, ``time.monotonic()``, text) of the last spectators' snapshot drawn."""


def to_spectators(table: LiveTable, text: str, only: Connection | None = None) -> None:
    """Queue ``text`` for every spectator at the table now (or for ``only``, one of them),
    after what was queued for them before. A task sends the queue in slices of
    :data:`SLICE` connections per turn of the event loop, so a crowd of spectators never
    holds up the loop in one go (their queues are theirs: :class:`~..connection.Connection`)."""
    recipients = [only] if only is not None else [c for c in table.conns if c.seat is None]
    if not recipients:
        return
    out = table.spectator_out
    out.queue.append((text, recipients))
    if out.task is None:
        out.task = asyncio.get_running_loop().create_task(
            _pump(table), name=f"perudo-spectators-{table.id[:8]}"
        )


def to_one(table: LiveTable, conn: Connection, text: str) -> None:
    """``text`` to ``conn`` after what is queued for it: a spectator's through the outbox
    (its replies never overtake a broadcast queued before them), a seat's now."""
    if conn.seat is None and table.spectator_out.task is not None:
        to_spectators(table, text, conn)
    else:
        conn.send(text)


async def _pump(table: LiveTable) -> None:
    out = table.spectator_out
    try:
        while out.queue:
            text, recipients = out.queue.popleft()
            for i, c in enumerate(recipients):
                # One who took a seat meanwhile was sent a snapshot for it: not this.
                if c.seat is None:
                    c.send(text)
                if i % SLICE == SLICE - 1:
                    await asyncio.sleep(0)
            await asyncio.sleep(0)
    finally:
        out.task = None


def flush_spectators(table: LiveTable) -> None:
    """Queue for the spectators the update gathered for them, if any: called when its delay
    is up, and before anything else goes to them (a table message, a chat line, a snapshot,
    a newcomer), so that they receive everything in version order."""
    out = table.spectator_out
    if out.timer is not None:
        out.timer.cancel()
        out.timer = None
    if not out.events and not out.resolved:
        return
    events, resolved = out.events, out.resolved
    out.events, out.resolved = [], 0
    if table.closed:
        return
    (text,) = _updates(table, [None], [(None, e) for e in events], resolved)
    to_spectators(table, text)


def _updates(
    table: LiveTable, seats: Sequence[int | None], batch: Batch, resolved: int
) -> list[str]:
    """The ``update`` of a move (or of the moves gathered for the spectators) to each of
    ``seats``: the events its seat may see (:func:`perudo.core.visible_to`, as stamped on
    ``batch``) and its view after (:func:`~perudo.server.wirejson.write_each`; the view's
    parts every seat shares are drawn once per state by the core)."""
    tail: list[dict[str, Any]] = []
    if resolved and table.state is not None and not table.config.memory:
        # Each round's result is its round_resolved event, among the events, and its actions
        # are the receiver's already (its view before) or among the events: sent once.
        tail = [_tail(round_to_json(r)) for r in table.state.past[-resolved:]]
    timer = table.schedule.remaining()
    messages = []
    for seat, (view_json, hint) in zip(seats, seat_payloads(table, seats, False), strict=True):
        if view_json is not None:  # the round's actions: the receiver's already, or events
            view_json = {**view_json, "actions": None, "actions_info": None}
        messages.append(
            {
                "version": table.version,
                "events": [
                    event_seen(data, seat, memory=table.config.memory)
                    for audience, data in batch
                    if reaches(audience, seat)
                ],
                "view": view_json,
                "hint": hint,
                "timer": timer,
                "past_tail": tail,
            }
        )
    return write_each(p.Update, messages)


_NOT_IN_TAIL = frozenset({"result", "actions", "actions_info"})


def _tail(round_json: dict[str, Any]) -> dict[str, Any]:
    """A finished round as ``past_tail`` carries it (:class:`~..payloads.RoundTail`)."""
    return {k: v for k, v in round_json.items() if k not in _NOT_IN_TAIL}


def broadcast_chat(table: LiveTable, entry: dict[str, Any], author: int | None = None) -> None:
    text = dump(p.ChatMessage.model_validate({"version": entry["version"], "entry": entry}))
    send_from(table, text, author)


def send_from(table: LiveTable, text: str, author: int | None) -> None:
    """``text`` (a chat line, a reaction: what a person says) to everyone at the table but
    the connections whose person blocks its ``author`` (:mod:`perudo.server.social.blocks`)."""
    if author is None or not any(author in c.hidden for c in table.conns):
        send_each(table, lambda _seat: text)
        return
    flush_spectators(table)
    for c in list(table.conns):
        if author not in c.hidden:
            to_one(table, c, text)


def missed(table: LiveTable, conn: Connection, last: int) -> None:
    """Catch ``conn`` up from version ``last`` (which the backlog covers): the events its seat
    may see, its whole view, then the chat lines."""
    events: list[dict[str, Any]] = []
    chats: list[dict[str, Any]] = []
    for kind, payload in table.backlog.after(last, conn.seat):
        if kind == "event":
            events.append(event_seen(json.loads(payload), conn.seat, memory=table.config.memory))
        elif kind == "chat":
            entry = json.loads(payload)
            if (
                not conn.hidden
                or table.chat.author(entry["version"], entry["seat"]) not in conn.hidden
            ):
                chats.append(entry)
    data, hint = seat_payload(table, conn.seat, True)
    to_one(
        table,
        conn,
        write(
            p.Update,
            {
                "version": table.version,
                "events": events,
                "view": data,
                "hint": hint,
                "timer": table.schedule.remaining(),
            },
        ),
    )
    for entry in chats:
        to_one(
            table,
            conn,
            dump(p.ChatMessage.model_validate({"version": entry["version"], "entry": entry})),
        )


def chat_json(row: ChatRow) -> dict[str, Any]:
    """A chat line as the wire carries it (in snapshots, chat messages and the backlog)."""
    return {
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.at,
        "version": row.version,
    }
