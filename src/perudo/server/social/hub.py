"""The server's friends and notices in one place (``app.state.social``): the rows, who is
online (:class:`.presence.Presence`), the push sender, and what a table tells them ("your
turn", "your table is starting")."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ..settings import Settings
from ..store import Store
from .presence import Page, Presence
from .push import Pusher
from .shared import SharedPresence

if TYPE_CHECKING:
    from ..cluster import Node
    from ..tables import LiveTable

__all__ = ["Social"]

log = logging.getLogger("perudo.server")


class Social:
    """Friends and notices of one server process."""

    def __init__(self, store: Store, settings: Settings, node: Node | None = None) -> None:
        self.store = store
        self.presence = Presence()
        self.shared = None if node is None else SharedPresence(node, self.presence)
        """Several processes: this one's presence told to the others, and theirs read."""
        self.pusher = Pusher(self.store, self.presence, settings, self.shared)

    async def forget_account(self, account: int) -> None:
        """A deleted account: its follows, blocks and devices go, its invitations are
        withdrawn, and nothing is pushed to it any more."""
        with self.pusher.changing():
            await self.store.forget_social(account)

    async def open(self) -> None:
        await self.pusher.open()
        if self.shared is not None:
            self.shared.start()

    async def close(self) -> None:
        if self.shared is not None:
            await self.shared.close()
        await self.pusher.close()

    async def add_page(self, page: Page) -> None:
        """A page of a signed-in person opened here; with several processes, the others
        know it once this returns (so a page that has been answered is seen everywhere)."""
        self.presence.add(page)
        if self.shared is not None:
            await self.shared.publish(page.account)

    async def whereabouts(self, account: int) -> tuple[bool, set[str]]:
        """Whether ``account`` has a page open (on any process), and the tables they show."""
        online = self.presence.online(account)
        tables = self.presence.tables(account)
        if self.shared is not None:
            for entry in (await self.shared.others(account)).values():
                online = True
                tables |= {str(t) for t in entry.get("tables", [])}
        return online, tables

    async def notify(self, account: int, data: dict[str, Any]) -> int:
        """Send ``data`` to every notice socket of ``account`` (on any process); how many."""
        n = self.presence.notify(account, data)
        if self.shared is not None:
            n += await self.shared.notify(account, data)
        return n

    def table_notice(self, table: LiveTable, kind: str) -> None:
        """A table says ``turn`` (a person's turn to act came) or ``start`` (its game
        started): the people it concerns get a push on their devices not in front."""
        names = {"table": table.name}
        if kind == "turn":
            st = table.state
            if st is None or st.is_over or st.to_act is None:
                return
            s = table.seats[st.to_act] if st.to_act < len(table.seats) else None
            if s is not None and s.kind == "human" and s.player_id is not None and not s.away:
                self.pusher.notify(s.player_id, "turn", table.id, names)
        elif kind == "start":
            for s in table.seats:
                if s is not None and s.kind == "human" and s.player_id is not None:
                    self.pusher.notify(s.player_id, "start", table.id, names)

    async def update_hidden(self, account: int) -> None:
        """``account`` blocked or unblocked someone: their open table sockets in this process
        hide from now on exactly the accounts they block."""
        hidden = await self.store.blocked_by([account])
        for conn in self.presence.connections(account):
            conn.hidden = hidden
