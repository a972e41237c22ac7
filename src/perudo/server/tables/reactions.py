"""Quick reactions at a table (``react`` → ``reaction``, :class:`perudo.server.protocol.React`).

A reaction is a moment's gesture, not part of the game: it is never stored, gets no version
and is not in the backlog (a page that reconnects has simply missed it). Only a seat reacts
(a spectator's is refused with ``not_seated``), and each seat draws on a bucket of its own:
:data:`BURST` in a row, then one every ``1 / RATE`` seconds; one more is refused with
``rate_limited`` and goes to nobody. Muting is the page's: a device that muted a table shows
none of its reactions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import protocol as p
from ..connection import Connection, TokenBucket
from . import presenter
from .config import TableError

if TYPE_CHECKING:
    from .live import LiveTable

__all__ = ["BURST", "RATE", "TableReactions"]

RATE = 0.5
"""Reactions a second a seat may send, sustained."""
BURST = 3
"""Reactions a seat may send in a row."""


class TableReactions:
    """The reactions of one :class:`~perudo.server.tables.LiveTable` (which owns it)."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.buckets: dict[int, TokenBucket] = {}

    def post(self, conn: Connection, emote: p.Emote) -> None:
        seat = conn.seat
        if seat is None:
            raise TableError("not_seated", "only a seat at the table may react")
        bucket = self.buckets.setdefault(seat, TokenBucket(RATE, BURST))
        if not bucket.take():
            raise TableError(
                "rate_limited",
                f"a seat may react {BURST} times in a row, then once every "
                f"{1 / RATE:g} seconds; this one was not sent",
            )
        text = p.Reaction(seat=seat, emote=emote).model_dump_json()
        held = self.table.seats[seat]
        author = held.player_id if held is not None else None
        presenter.send_from(self.table, text, author if author is not None else conn.account)
