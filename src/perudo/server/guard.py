"""Limits per client: what one client (one address) may take from the server.

A client is its address as :func:`perudo.server.proxy.client_host` reads it: the peer's, or the
forwarded one when the peer is a trusted proxy (``PERUDO_TRUSTED_PROXIES``). Every limit here is
keyed on it, so opening more connections does not buy more: tables waiting and tables created
per minute, WebSocket connections open, messages per second over all its connections, and chat
lines per second. The limits per connection (:class:`perudo.server.connection.Connection`) and
per table (:class:`perudo.server.tables.LiveTable`'s budgets) come on top. docs/security.md
lists them all with their settings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .connection import TokenBucket
from .settings import Settings

__all__ = ["ClientLimits", "Guard"]


@dataclass(slots=True)
class ClientLimits:
    """One client's budgets and what it holds."""

    messages: TokenBucket
    chat: TokenBucket
    creates: TokenBucket
    connections: int = 0
    tables: set[str] = field(default_factory=set)
    """Tables this client created that are still waiting for players."""
    seen: float = field(default_factory=time.monotonic)


class Guard:
    """Every client's limits (held by the app; entries for clients gone quiet are dropped)."""

    FORGET_AFTER = 300.0

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.clients: dict[str, ClientLimits] = {}

    def of(self, client: str) -> ClientLimits:
        limits = self.clients.get(client)
        if limits is None:
            s = self.settings
            limits = self.clients[client] = ClientLimits(
                messages=TokenBucket(s.client_rate_per_second, int(s.client_rate_per_second * 3)),
                chat=TokenBucket(s.chat_per_second, 5),
                creates=TokenBucket(s.creates_per_minute / 60.0, s.tables_per_client),
            )
        limits.seen = time.monotonic()
        return limits

    def open_connection(self, client: str) -> bool:
        """Count a new WebSocket from ``client``; ``False`` (not counted) when it has its
        ``connections_per_client`` open already."""
        limits = self.of(client)
        if limits.connections >= self.settings.connections_per_client:
            return False
        limits.connections += 1
        return True

    def close_connection(self, client: str) -> None:
        limits = self.clients.get(client)
        if limits is not None:
            limits.connections = max(0, limits.connections - 1)

    def sweep(self, now: float, waiting: set[str]) -> None:
        """Forget tables no longer waiting (``waiting``: the ids of every table still waiting)
        and clients with nothing open that have been quiet for :attr:`FORGET_AFTER`."""
        for client, limits in list(self.clients.items()):
            limits.tables &= waiting
            if (
                not limits.connections
                and not limits.tables
                and now - limits.seen > self.FORGET_AFTER
            ):
                del self.clients[client]
