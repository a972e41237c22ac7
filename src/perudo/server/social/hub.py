"""The server's friends and notices in one place (``app.state.social``): the rows, who is
online (:class:`.presence.Presence`), the push sender, and what a table tells them ("your
turn", "your table is starting")."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..settings import Settings
from ..store import Store
from .presence import Presence
from .push import Pusher
from .rows import Rows

if TYPE_CHECKING:
    from ..tables import LiveTable

__all__ = ["Social"]

log = logging.getLogger("perudo.server")


class Social:
    """Friends and notices of one server process."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.rows = Rows(store)
        self.presence = Presence()
        self.pusher = Pusher(self.rows, self.presence, settings)

    async def open(self) -> None:
        await self.pusher.open()

    async def close(self) -> None:
        await self.pusher.close()

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
        hidden = await self.rows.blocked_by([account])
        for conn in self.presence.connections(account):
            conn.hidden = hidden
