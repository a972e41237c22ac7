"""Limits per client: what one person, and one address, may take from the server.

People have budgets of their own: once a socket speaks for a seat (the table checked its token),
its messages and chat lines draw on that person's budgets (:class:`PersonLimits`, keyed by
:func:`person_key`) over all their connections, and on nothing another person sends, even from
the same address (friends on one Wi-Fi, phones behind a carrier's NAT: 100 chatting sockets
from the player's own address once made the player's move come back ``rate_limited``).

What carries no identity is limited per address, sized for shared addresses: a client is its
address as :func:`perudo.server.proxy.client_host` reads it: the peer's, or the forwarded one
when the peer is a trusted proxy (``PERUDO_TRUSTED_PROXIES``), an IPv6 client by its /64
(:func:`client_key`), so opening more connections, or taking more addresses of one /64, does
not buy more: tables waiting and tables created per minute, seats taken and invite codes drawn
per minute, WebSocket connections open, and the messages and chat lines of its sockets that
speak for no seat (spectators; a socket's first hello draws on neither). The limits per
connection (:class:`perudo.server.connection.Connection`) and per table
(:class:`perudo.server.tables.LiveTable`'s budgets) come on top. docs/security.md lists them
all with their settings. In multi-process mode the buckets, a client's count of sockets and its
count of waiting tables are kept in Redis (:mod:`perudo.server.cluster.limits`), one budget
over every process.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .connection import TokenBucket
from .settings import Settings

if TYPE_CHECKING:
    from .cluster.limits import SharedLimits

__all__ = [
    "Budgets",
    "ClientLimits",
    "Guard",
    "PersonLimits",
    "WaitingTables",
    "client_key",
    "person_key",
]


def client_key(host: str) -> str:
    """The client a peer address stands for in every per-client limit: an IPv4 address as it
    is; an IPv6 address by its /64 network (one subscriber gets a whole /64: its addresses
    are one client, or a new address would buy a new budget); an IPv4-mapped IPv6 address as
    its IPv4 address.

    >>> client_key("203.0.113.7")
    '203.0.113.7'
    >>> client_key("2001:db8:1:2:aaaa::1"), client_key("2001:db8:1:2:bbbb::2")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> client_key("::ffff:203.0.113.7")
    '203.0.113.7'
    >>> client_key("unknown")
    'unknown'
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def person_key(table_id: str, seat: int, account: int | None = None) -> str:
    """Who a socket speaks for in the per-person budgets, once its table knows it: a
    signed-in person's account (one budget over all their seats and tables), else the seat
    it holds (the person who showed the seat's token: the table checked it), so a person's
    sockets of one seat share one budget and nobody else's traffic draws on it.

    >>> person_key("Tq3x", 2)
    'seat:Tq3x:2'
    >>> person_key("Tq3x", 2, account=17)
    'account:17'
    """
    if account is not None:
        return f"account:{account}"
    return f"seat:{table_id}:{seat}"


@dataclass(slots=True)
class PersonLimits:
    """One person's budgets (:func:`person_key`), over all their connections."""

    messages: TokenBucket
    chat: TokenBucket
    seen: float = field(default_factory=time.monotonic)


@dataclass(slots=True)
class ClientLimits:
    """One client's budgets and what it holds."""

    messages: TokenBucket
    chat: TokenBucket
    creates: TokenBucket
    joins: TokenBucket
    """Seats taken (``POST /api/tables/{id}/join``)."""
    invites: TokenBucket
    """Invite QR codes drawn (``GET /api/tables/{id}/invite.svg``)."""
    connections: int = 0
    counted_shared: int = 0
    """Of :attr:`connections`, those counted in Redis too (the others were opened while
    Redis was away): only these are taken off there when they close."""
    seen: float = field(default_factory=time.monotonic)


class WaitingTables:
    """``PERUDO_TABLES_PER_CLIENT``: the tables each client created that wait for players, a
    table counted from its creation until its first game starts or it closes (it expires,
    unattended). Here in this process's memory, which is every table of the site when it is
    the only process; in multi-process mode
    :class:`perudo.server.cluster.limits.SharedWaitingTables` counts them in Redis, over every
    process, this memory then keeping the places this process holds there.

    Its user (:class:`perudo.server.lobby.Lobby`) holds a place before it creates a table,
    releases it when the table leaves the waiting state, and says which tables it drives that
    wait (:meth:`keep`) after restoring or taking tables over, and from time to time.
    """

    def __init__(self) -> None:
        self.held: dict[str, set[str]] = {}
        """Client → ids of its tables counted here."""

    async def hold(self, client: str, table_id: str, most: int | None) -> int:
        """Count ``table_id`` against ``client`` unless it has ``most`` tables counted already
        (``None``: count it anyway: a table restored or taken over, counted before). Returns
        how many it had: the table was counted when that is below ``most``.

        :raises perudo.server.cluster.bus.BusDown: (shared) Redis cannot be reached and
            ``most`` is set: nothing was counted.
        """
        tables = self.held.setdefault(client, set())
        had = len(tables)
        if most is None or had < most:
            tables.add(table_id)
        return had

    async def release(self, client: str, table_id: str) -> None:
        """``table_id`` no longer waits (its game started, it closed): its place is free."""
        tables = self.held.get(client)
        if tables is not None:
            tables.discard(table_id)
            if not tables:
                del self.held[client]

    async def keep(self, tables: Mapping[str, str]) -> None:
        """Exactly ``tables`` (id → its client) are the waiting tables this process drives:
        each is counted (again), any other place held here is released."""
        held: dict[str, set[str]] = {}
        for table_id, client in tables.items():
            held.setdefault(client, set()).add(table_id)
        self.held = held


class Guard:
    """Every client's limits (held by the app; entries for clients gone quiet are dropped)."""

    FORGET_AFTER = 300.0

    def __init__(self, settings: Settings, shared: SharedLimits | None = None) -> None:
        self.settings = settings
        self.clients: dict[str, ClientLimits] = {}
        self.people: dict[str, PersonLimits] = {}
        """Each person's budgets (:func:`person_key`)."""
        self.shared = shared
        """Multi-process mode: the budgets kept in Redis."""
        self.waiting = WaitingTables()
        """The tables each client has waiting for players (``PERUDO_TABLES_PER_CLIENT``)."""
        if shared is not None:
            from .cluster.limits import SharedWaitingTables

            self.waiting = SharedWaitingTables(shared)
        self._tasks: set[asyncio.Task[None]] = set()

    def of(self, client: str) -> ClientLimits:
        """The limits of ``client`` (an address, keyed by :func:`client_key`)."""
        client = client_key(client)
        limits = self.clients.get(client)
        if limits is None:
            s = self.settings
            limits = self.clients[client] = ClientLimits(
                messages=self._bucket(
                    client, "messages", s.client_rate_per_second, int(s.client_rate_per_second * 3)
                ),
                chat=self._bucket(client, "chat", s.chat_per_second, 5),
                creates=self._bucket(
                    client, "creates", s.creates_per_minute / 60.0, s.tables_per_client
                ),
                joins=self._bucket(client, "joins", s.joins_per_minute / 60.0, s.joins_burst),
                invites=self._bucket(
                    client, "invites", s.invites_per_minute / 60.0, s.invites_burst
                ),
            )
        limits.seen = time.monotonic()
        return limits

    def person(self, key: str) -> PersonLimits:
        """The budgets of the person ``key`` (:func:`person_key`)."""
        limits = self.people.get(key)
        if limits is None:
            s = self.settings
            rate = s.person_rate_per_second
            limits = self.people[key] = PersonLimits(
                messages=self._bucket(key, "messages", rate, int(rate * 3)),
                chat=self._bucket(key, "chat", s.chat_per_second, 5),
            )
        limits.seen = time.monotonic()
        return limits

    def _bucket(self, client: str, kind: str, rate: float, burst: int) -> TokenBucket:
        if self.shared is None:
            return TokenBucket(rate, burst)
        from .cluster.limits import SharedBucket

        return SharedBucket(self.shared, f"perudo:bucket:{kind}:{client}", rate, burst)

    async def open_connection(self, client: str) -> bool:
        """Count a new WebSocket from ``client``; ``False`` (not counted) when it has its
        ``connections_per_client`` open already (over every process, in multi-process mode)."""
        client = client_key(client)
        limits = self.of(client)
        most = self.settings.connections_per_client
        if self.shared is not None:
            ok = await self.shared.open_connection(client, most)
            if ok is False:
                return False
            if ok is True:
                limits.connections += 1
                limits.counted_shared += 1
                return True
        if limits.connections >= most:
            return False
        limits.connections += 1
        return True

    def close_connection(self, client: str) -> None:
        client = client_key(client)
        limits = self.clients.get(client)
        if limits is None:
            return
        limits.connections = max(0, limits.connections - 1)
        if self.shared is not None and limits.counted_shared > 0:
            limits.counted_shared -= 1
            task = asyncio.ensure_future(self.shared.close_connection(client))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def sweep(self, now: float) -> None:
        """Forget clients with no socket open that have been quiet for :attr:`FORGET_AFTER`
        (their buckets are full again by then; their waiting tables are counted apart)."""
        for client, limits in list(self.clients.items()):
            if not limits.connections and now - limits.seen > self.FORGET_AFTER:
                del self.clients[client]
        for key, person in list(self.people.items()):
            if now - person.seen > self.FORGET_AFTER:
                del self.people[key]


class Budgets:
    """Whose budgets one socket's messages draw on: the person's it speaks for once its table
    knows its seat, else its address's (``address``; ``None``: its process applied them
    already, a socket of an older process in a rolling upgrade)."""

    __slots__ = ("address", "guard", "key", "person")

    def __init__(self, guard: Guard, address: ClientLimits | None) -> None:
        self.guard = guard
        self.address = address
        self.key: str | None = None
        self.person: PersonLimits | None = None

    def of(
        self, table_id: str, seat: int | None, account: int | None = None
    ) -> PersonLimits | ClientLimits | None:
        """The budgets of a socket at ``table_id`` holding ``seat`` (``None``: no seat), taken
        by the signed-in ``account`` (``None``: a guest's seat)."""
        if seat is None:
            return self.address
        key = person_key(table_id, seat, account)
        if key != self.key or self.person is None:
            self.key = key
            self.person = self.guard.person(key)
        else:
            self.person.seen = time.monotonic()
        return self.person
