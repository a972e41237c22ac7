"""What each client at a table is sent: the wire messages, drawn per seat (P-70).

Everything a client receives about the game is built here from the seat's view
(``view(state, seat).to_json()``) and the events :func:`perudo.core.visible_to` lets the seat
see; memory mode (P-40) hides here every number that tells how many dice are in play: the
other seats' counts, the total, the odds, the highest legal quantity (the bids offered run to
the dice at the start of the game instead, :func:`memory_legal`) and the count in a refusal of
a bid above the dice in play. The table decides what happened; this module only draws it for
each receiver.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from perudo.core import Bid, PlayerView, action_to_json, raises_after, round_to_json, view
from perudo.i18n import LANGS, hide_counts, refusal_text, said_name

from .. import protocol as p
from ..connection import Connection
from ..hint import bid_hint
from ..store import ChatRow
from .config import TableError

if TYPE_CHECKING:
    from .live import LiveTable

__all__ = [
    "Batch",
    "broadcast_chat",
    "broadcast_events",
    "broadcast_table",
    "chat_json",
    "error",
    "memory_legal",
    "missed",
    "refused",
    "snapshot",
    "table_message",
]

Batch = list[tuple[int | None, dict[str, Any]]]
"""A move's events: (audience seat or ``None`` for everyone, event JSON with its version)."""


def dump(msg: p.Snapshot | p.Update | p.TableMessage | p.ChatMessage | p.ErrorMessage) -> str:
    return msg.model_dump_json()


def counts_json(counts: Iterable[int], seat: int | None) -> list[int | None]:
    """P-40 memory mode: a seat sees its own count; others' show only whether they're in."""
    return [c if (i == seat or c == 0) else None for i, c in enumerate(counts)]


def seat_payload(
    table: LiveTable, seat: int | None, with_past: bool
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The seat's view as JSON (without ``past`` unless asked: it only grows, and updates
    carry the rounds just finished instead) and its probability hint (when it has something
    to decide)."""
    state = table.state
    if state is None:
        return None, None
    v = view(state, seat)
    # The odds only where the table shows them (never in memory mode: P-40, they would tell the
    # total of dice in play; no total is sent there either).
    hint = bid_hint(v) if v.legal and table.odds_shown() else None
    data = v.to_json(past=with_past)
    if table.config.memory:
        data["dice_counts"] = counts_json(state.dice_counts, seat)
        if any(isinstance(a, Bid) for a in v.legal):
            legal = memory_legal(v)
            data["legal"] = [str(a) for a in legal]
            data["legal_info"] = [action_to_json(a) for a in legal]
    return data, hint


def memory_legal(v: PlayerView) -> list[Any]:
    """P-40: the seat's legal actions with the bids running to the dice at the start of the
    game (every seat's dice per player) rather than to the dice in play, whose highest
    quantity would tell the total. The core still refuses a bid above the dice in play
    (P-16), in words that state no count (:func:`refused`). The other actions are the core's.
    """
    start_total = v.rules.dice_per_player * v.num_players
    one_die = v.seat is not None and v.dice_counts[v.seat] == 1
    bids, start = raises_after(v.rules, v.bid, start_total, palifico=v.palifico, one_die=one_die)
    return [*bids[start:], *(a for a in v.legal if not isinstance(a, Bid))]


def for_seat(table: LiveTable, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event's JSON as ``seat`` receives it (P-40 memory mode hides others' counts)."""
    if table.config.memory and data.get("type") == "round_started":
        data = dict(data)
        data["dice_counts"] = counts_json(data["dice_counts"], seat)
    return data


SPECTATOR_SNAPSHOT_TTL = 0.5
"""Seconds a spectators' snapshot is reused at the same version (a crowd arriving at once
costs one snapshot, not one each; its timer and head count are at most this old)."""


def snapshot(table: LiveTable, seat: int | None) -> str:
    """Everything ``seat`` needs to draw the table from scratch.

    Every message is validated against its model (:mod:`perudo.server.payloads`) as it is
    built: a field the wire does not describe fails here, not in a browser.
    """
    if seat is None:
        cached = table.spectator_snapshot
        now = time.monotonic()
        if (
            cached is not None
            and cached[0] == table.version
            and now - cached[1] < SPECTATOR_SNAPSHOT_TTL
        ):
            return cached[2]
        text = _snapshot(table, None)
        table.spectator_snapshot = (table.version, now, text)
        return text
    return _snapshot(table, seat)


def _snapshot(table: LiveTable, seat: int | None) -> str:
    data, hint = seat_payload(table, seat, True)
    return dump(
        p.Snapshot.model_validate(
            {
                "version": table.version,
                "table": table.info(),
                "seat": seat,
                "view": data,
                "hint": hint,
                "timer": table.schedule.remaining(),
                "chat": [chat_json(c) for c in table.chat.lines],
            }
        )
    )


def table_message(table: LiveTable) -> str:
    return dump(p.TableMessage.model_validate({"version": table.version, "table": table.info()}))


def error(code: str, message: str, version: int | None) -> str:
    return dump(p.ErrorMessage(code=code, message=message, version=version))


def refused(table: LiveTable, err: TableError) -> str:
    """The table's refusal ``err``; when the rules refused, in every language of the
    catalogs too (:func:`perudo.i18n.refusal_text`, seats named by their names at the table),
    so that a page shows it in its own language."""
    if err.refusal is None:
        return error(err.code, err.message, table.version)
    code, params, message = err.refusal.code, err.refusal.params, err.message
    memory = table.config.memory
    if memory:  # P-40: no count of the dice in play, in the params or the "why?" detail
        params, message = hide_counts(code, params, message)

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
    for c in table.conns:
        c.send(text)


def broadcast_events(table: LiveTable, batch: Batch, resolved: int) -> None:
    """A move's events to everyone, each receiving those its seat may see and its view after
    (drawn once per seat, whatever the number of connections)."""
    by_seat: dict[int | None, str] = {}
    for c in table.conns:
        text = by_seat.get(c.seat)
        if text is None:
            text = by_seat[c.seat] = _update(table, c.seat, batch, resolved)
        c.send(text)


def _update(table: LiveTable, seat: int | None, batch: Batch, resolved: int) -> str:
    view_json, hint = seat_payload(table, seat, False)
    tail: list[dict[str, Any]] = []
    if resolved and table.state is not None:
        tail = [round_to_json(r) for r in table.state.past[-resolved:]]
    return dump(
        p.Update.model_validate(
            {
                "version": table.version,
                "events": [
                    for_seat(table, data, seat)
                    for audience, data in batch
                    if audience is None or audience == seat
                ],
                "view": view_json,
                "hint": hint,
                "timer": table.schedule.remaining(),
                "past_tail": tail,
            }
        )
    )


def broadcast_chat(table: LiveTable, entry: dict[str, Any]) -> None:
    text = dump(p.ChatMessage.model_validate({"version": entry["version"], "entry": entry}))
    for c in table.conns:
        c.send(text)


def missed(table: LiveTable, conn: Connection, last: int) -> None:
    """Catch ``conn`` up from version ``last`` (which the backlog covers): the events its seat
    may see, its whole view, then the chat lines."""
    events: list[dict[str, Any]] = []
    chats: list[dict[str, Any]] = []
    for kind, payload in table.backlog.after(last, conn.seat):
        if kind == "event":
            events.append(for_seat(table, json.loads(payload), conn.seat))
        elif kind == "chat":
            chats.append(json.loads(payload))
    data, hint = seat_payload(table, conn.seat, True)
    conn.send(
        dump(
            p.Update.model_validate(
                {
                    "version": table.version,
                    "events": events,
                    "view": data,
                    "hint": hint,
                    "timer": table.schedule.remaining(),
                }
            )
        )
    )
    for entry in chats:
        conn.send(dump(p.ChatMessage.model_validate({"version": entry["version"], "entry": entry})))


def chat_json(row: ChatRow) -> dict[str, Any]:
    """A chat line as the wire carries it (in snapshots, chat messages and the backlog)."""
    return {
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.at,
        "version": row.version,
    }
