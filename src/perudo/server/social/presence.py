"""Who is online in this process, and the per-account channel that carries notices.

A signed-in person's open pages register here: each table socket opened with their session's
cookie (``table``: the table it shows), and each notice socket ``/ws/me`` (the page opens one
on every view while signed in), which carries their notices (an invitation, a declined one)
and tells the server whether the page is in front (Web Push is sent only to devices whose
pages are not: :mod:`.push`).

A person is *online* while one of their pages is open; they are *at* the tables their table
sockets show. With several processes (``PERUDO_REDIS_URL``) each process knows its own
sockets here, and :mod:`.shared` tells the others through Redis.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..connection import Connection

__all__ = ["Page", "Presence"]


@dataclass(eq=False)
class Page:
    """One open page of a signed-in person (a table socket, or a notice socket)."""

    account: int
    table: str | None = None
    """The table a table socket shows (``None``: a notice socket)."""
    conn: Connection | None = None
    """A table socket's connection: a block made meanwhile updates what it hides."""
    send: Callable[[str], None] | None = None
    """A notice socket's sender."""
    device: str = ""
    """The device's id (the page's, kept in its browser), as its push subscription names it."""
    visible: bool = True
    """Whether the page is in front (it says so on the notice socket)."""


class Presence:
    """Every open page of a signed-in person in this process, by account."""

    def __init__(self) -> None:
        self.pages: dict[int, set[Page]] = {}
        self.on_change: Callable[[int], None] | None = None
        """Told the account whose pages here changed (several processes: they share it,
        :mod:`.shared`)."""

    def touched(self, account: int) -> None:
        """``account``'s pages here changed (one opened, closed, came to the front…)."""
        if self.on_change is not None:
            self.on_change(account)

    def add(self, page: Page) -> None:
        """A page opened (the caller tells the others: :meth:`.hub.Social.add_page`)."""
        self.pages.setdefault(page.account, set()).add(page)

    def remove(self, page: Page) -> None:
        held = self.pages.get(page.account)
        if held is None:
            return
        held.discard(page)
        if not held:
            del self.pages[page.account]
        self.touched(page.account)

    def online(self, account: int) -> bool:
        return account in self.pages

    def tables(self, account: int) -> set[str]:
        """The tables ``account``'s open pages show."""
        return {p.table for p in self.pages.get(account, ()) if p.table is not None}

    def in_front(self, account: int) -> set[str]:
        """The devices on which one of ``account``'s pages is in front (push skips them)."""
        return {p.device for p in self.pages.get(account, ()) if p.visible and p.device}

    def connections(self, account: int) -> list[Connection]:
        return [p.conn for p in self.pages.get(account, ()) if p.conn is not None]

    def notify(self, account: int, data: dict[str, Any]) -> int:
        """Send ``data`` to every notice socket of ``account``; how many got it."""
        text = json.dumps(data)
        n = 0
        for p in self.pages.get(account, ()):
            if p.send is not None:
                p.send(text)
                n += 1
        return n
