"""The table's chat: one line at a time, from a seat or a spectator.

A line is written to the store first, then gets the table's next version, joins the recent
lines that every snapshot carries (``Settings.chat_history``) and the replay buffer, and goes to
everyone at the table.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from .. import protocol as p
from ..connection import Connection
from ..store import ChatRow, Store, StoreError
from .config import Seat, TableError

__all__ = ["ChatMixin", "chat_json"]


class ChatMixin:
    """Chat at a :class:`~perudo.server.tables.LiveTable` (mixed into it)."""

    # The table's state this part reads and writes (set in ``LiveTable.__init__``).
    id: str
    store: Store
    seats: list[Seat | None]
    lock: asyncio.Lock
    version: int
    conns: set[Connection]
    chat: deque[ChatRow]

    if TYPE_CHECKING:
        # Defined by LiveTable: keeps a versioned item for reconnecting clients.
        def _remember(
            self, version: int, audience: int | None, kind: str, payload: str
        ) -> None: ...

    async def post_chat(self, conn: Connection, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            raise TableError("bad_message", "an empty chat line")
        async with self.lock:
            if conn.seat is not None:
                s = self.seats[conn.seat]
                name = s.name if s is not None else "?"
            else:
                name = "spectator"
            version = self.version + 1
            row = ChatRow(conn.seat, name, text, time.time(), version)
            try:
                await self.store.add_chat(self.id, row)
            except StoreError as err:
                raise TableError("store_error", str(err)) from None
            self.version = version
            self.chat.append(row)
            entry = chat_json(row)
            self._remember(version, None, "chat", json.dumps(entry))
            msg = p.ChatMessage(version=version, entry=entry).model_dump_json()
            for c in self.conns:
                c.send(msg)


def chat_json(row: ChatRow) -> dict[str, Any]:
    """A chat line as the wire carries it (in snapshots, chat messages and the replay buffer)."""
    return {
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.at,
        "version": row.version,
    }
