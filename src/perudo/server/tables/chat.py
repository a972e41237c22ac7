"""The table's chat: one line at a time, from a seat or a spectator.

A line is cleaned (:func:`.text.clean_text`: no control, bidi or zero-width characters), held
to the table's chat budget (``Settings.table_chat_per_second``, everyone together), written to
the store first (which keeps the table's last ``chat_stored_per_table`` lines), then gets the
table's next version, joins the recent lines that every snapshot carries
(``Settings.chat_history``) and the backlog, and goes to everyone at the table.
"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import TYPE_CHECKING

from ..connection import Connection, TokenBucket
from ..store import ChatRow, StoreError
from . import presenter
from .config import TableError, store_refused
from .text import clean_text

if TYPE_CHECKING:
    from .live import LiveTable

__all__ = ["TableChat"]


class TableChat:
    """The chat of one :class:`~perudo.server.tables.LiveTable` (which owns it)."""

    def __init__(self, table: LiveTable, history: int) -> None:
        self.table = table
        self.lines: deque[ChatRow] = deque(maxlen=max(1, history))
        """The recent lines every snapshot carries."""
        self.authors: dict[int, int] = {}
        """The account that said each recent line posted here (by version), while the
        snapshot or the backlog may still carry it: a person who blocks that account is not
        sent it (:mod:`perudo.server.social.blocks`)."""
        self.keep_authors = max(1, history) + table.settings.replay_buffer
        self.budget = TokenBucket(table.settings.table_chat_per_second, 10)
        """Chat lines at the table, from everyone."""

    def author(self, version: int, seat: int | None) -> int | None:
        """The account that said the line of ``version``: as noted when it was posted, else
        (a line restored from the store) the account now in its seat."""
        found = self.authors.get(version)
        if found is not None or seat is None or seat >= len(self.table.seats):
            return found
        s = self.table.seats[seat]
        return None if s is None else s.player_id

    async def post(self, conn: Connection, text: str) -> None:
        text = clean_text(text)
        if not text:
            raise TableError("bad_message", "an empty chat line")
        table = self.table
        if not self.budget.take():
            raise TableError(
                "rate_limited",
                f"this table's chat takes at most {table.settings.table_chat_per_second:g} "
                "lines a second; this one was not sent",
            )
        async with table.lock:
            author = conn.account
            if conn.seat is not None:
                s = table.seats[conn.seat]
                name = s.name if s is not None else "?"
                if s is not None and s.player_id is not None:
                    author = s.player_id
            else:
                name = "spectator"
            version = table.version + 1
            row = ChatRow(conn.seat, name, text, time.time(), version)
            try:
                await table.store.add_chat(table.id, row, table.settings.chat_stored_per_table)
            except StoreError as err:
                raise store_refused(err, f"a chat line of table {table.id}") from None
            table.version = version
            self.lines.append(row)
            entry = presenter.chat_json(row)
            table.backlog.remember(version, None, "chat", json.dumps(entry))
            if author is not None:
                self.authors[version] = author
                while len(self.authors) > self.keep_authors:
                    del self.authors[next(iter(self.authors))]
            presenter.broadcast_chat(table, entry, author)
