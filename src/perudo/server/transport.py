"""What the HTTP layer refuses before the app sees it: slow and greedy clients.

* :func:`guarded_protocol`: uvicorn's HTTP protocol (httptools or h11:
  ``PERUDO_HTTP_PROTOCOL``) with a *header timeout* (a request's headers must all arrive
  within ``PERUDO_HEADER_TIMEOUT`` seconds of the connection, or of the request's first
  byte, else the connection is closed) and a cap on the HTTP connections
  one peer holds open before their requests are read (``PERUDO_CONNECTIONS_PER_CLIENT``;
  trusted proxies, which carry many clients, are exempt); and new connections *paced*: at
  most ``PERUDO_CONNECTIONS_PER_TURN`` of them have their first request handled (parsed, a
  WebSocket handshake set up and handed to the app) in one turn of the event loop and
  ``PERUDO_CONNECTIONS_PER_SECOND`` a second, the others waiting with their reading paused,
  taking turns by client (:class:`Pacer`), so that 500 sockets arriving at once cost the
  loop a few handshakes per turn, not 500 in one go, and a player's move waits behind a few
  of them at most. Uvicorn's own keep-alive timeout
  still closes an idle connection between requests; the WebSocket idle timeout is the
  socket route's (:mod:`perudo.server.routes.socket`).
* :func:`websocket_protocol`: uvicorn's WebSocket protocol (websockets' sans-I/O one) that
  lets the app write a text message on the socket synchronously (the ASGI extension
  :data:`WRITE_NOW`), so that a move's message to each seat is framed and written as it is
  drawn, without a task's turn and the ASGI layers per message
  (:class:`~perudo.server.connection.Connection`).
* :class:`BodyLimit`: an ASGI middleware that refuses a request body over
  ``PERUDO_MAX_BODY_BYTES`` with 413 before the app reads it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from .guard import client_key
from .settings import Settings

__all__ = [
    "WRITE_NOW",
    "BodyLimit",
    "Pacer",
    "guarded_protocol",
    "http_protocol",
    "text_frame",
    "websocket_protocol",
]

log = logging.getLogger("perudo.server")


class Pacer:
    """Lets new connections in at a bounded pace: the first bytes of at most ``per_turn``
    of them handled (a request parsed, a WebSocket handshake set up and handed to the app)
    per turn of the event loop, and at most ``per_second`` a second (bursts of
    ``per_turn``).

    A new connection whose first bytes come when no place is free (or while others wait)
    has its reading paused and waits, its bytes kept. The waiting take turns by client
    (:func:`~perudo.server.guard.client_key`): each let in is from the next client with one
    waiting, so that a crowd from a few addresses delays a newcomer from another address
    (a player coming back) by one connection per crowding address, not by the whole crowd.
    One closed while waiting (by its client, or by the header timeout) gives its place up.

    Whatever the crowd, the loop parses a few requests per turn and sets up at most
    ``per_second`` connections a second, so it keeps time for everything else (the
    players' moves): it is never saturated by arrivals.
    """

    def __init__(self, per_turn: int, per_second: float) -> None:
        self.per_turn = per_turn
        self.per_second = per_second
        self.used = 0
        """Places taken in this turn."""
        self.tokens = float(per_turn)
        """Places the pace a second allows now (at most ``per_turn``)."""
        self._stamp: float | None = None
        self.waiting: dict[str, deque[tuple[asyncio.BaseTransport, Callable[[], None]]]] = {}
        """The waiting connections by client, clients in the order of their turns."""
        self._turn: asyncio.TimerHandle | asyncio.Handle | None = None
        self.held = 0
        """Connections that had to wait their turn, since the start."""

    def _refill(self, now: float) -> None:
        if self._stamp is not None:
            self.tokens = min(
                float(self.per_turn), self.tokens + (now - self._stamp) * self.per_second
            )
        self._stamp = now

    def take(self) -> bool:
        """A place now for a new connection's first bytes, if one is free and no one
        waits; else ``False`` (then :meth:`wait`)."""
        if self.used >= self.per_turn or self.waiting:
            return False
        self._refill(asyncio.get_running_loop().time())
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        self.used += 1
        self._next_turn()
        return True

    def wait(self, client: str, transport: asyncio.Transport, go: Callable[[], None]) -> None:
        """Pause ``transport`` (of ``client``) until its turn, then call ``go`` (which
        resumes it)."""
        transport.pause_reading()
        self.waiting.setdefault(client, deque()).append((transport, go))
        self.held += 1
        self._next_turn()

    def _next_turn(self) -> None:
        if self._turn is not None:
            return
        loop = asyncio.get_running_loop()
        if self.waiting and self.tokens < 1.0:
            delay = (1.0 - self.tokens) / self.per_second
            self._turn = loop.call_later(delay, self._on_turn)
        else:
            self._turn = loop.call_soon(self._on_turn)

    def _next_waiting(self) -> tuple[asyncio.BaseTransport, Callable[[], None]]:
        """The first waiting connection of the client whose turn it is (that client goes
        to the end of the line)."""
        client = next(iter(self.waiting))
        line = self.waiting.pop(client)
        first = line.popleft()
        if line:
            self.waiting[client] = line
        return first

    def _on_turn(self) -> None:
        self._turn = None
        self.used = 0
        self._refill(asyncio.get_running_loop().time())
        while self.waiting and self.used < self.per_turn and self.tokens >= 1.0:
            transport, go = self._next_waiting()
            if transport.is_closing():
                continue
            self.tokens -= 1.0
            self.used += 1
            try:
                go()
            except Exception:
                log.exception("a new connection failed as it was let in")
                transport.close()
        if self.waiting or self.used:
            self._next_turn()


def _trusted(host: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in net for net in networks)


def guarded_protocol(
    settings: Settings, base: type[asyncio.Protocol] | None = None
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` with the header timeout and the per-peer cap of
    ``settings`` (pass it as ``uvicorn.run(..., http=...)``). ``base``: by default the one
    ``PERUDO_HTTP_PROTOCOL`` names (:func:`http_protocol`). httptools and h11 are guarded
    alike, through the hooks both have: ``connection_made``, ``data_received`` (a
    request's headers are all in once it has started a new request cycle),
    ``handle_websocket_upgrade`` and ``connection_lost``."""
    networks = [ipaddress.ip_network(n, strict=False) for n in settings.trusted_proxy_list]
    timeout = settings.header_timeout
    cap = settings.connections_per_client
    pacer = Pacer(settings.connections_per_turn, settings.connections_per_second)
    open_by_peer: Counter[str] = Counter()
    """HTTP connections per peer (:func:`~perudo.server.guard.client_key`: an IPv6 peer by
    its /64); a connection upgraded to a WebSocket leaves it: the socket route counts those
    per client."""
    parent: Any = base if base is not None else http_protocol(settings.http_protocol)

    class GuardedHTTP(parent):  # type: ignore[misc]
        _deadline: asyncio.TimerHandle | None = None
        _peer: str | None = None
        _cycle: object = None
        _paced = False
        """Whether the connection's first bytes were let in (:class:`Pacer`)."""
        _held: bytearray | None = None
        """Bytes received while waiting for that."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None and not _trusted(host, networks):
                peer = client_key(host)
                if open_by_peer[peer] >= cap:
                    transport.close()
                    return
                self._peer = peer
                open_by_peer[peer] += 1
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._held is not None:  # waiting its turn (reading paused: seldom more)
                self._held += data
            elif self._paced or pacer.take():
                self._paced = True
                self._read(data)
            else:
                self._held = bytearray(data)
                host = self.client[0] if self.client else ""
                pacer.wait(self._peer or host, self.transport, self._let_in)

        def _let_in(self) -> None:
            """The turn of a connection that waited (:class:`Pacer`)."""
            data, self._held = bytes(self._held or b""), None
            self._paced = True
            self.transport.resume_reading()
            self._read(data)

        def _read(self, data: bytes) -> None:
            # A request's first bytes (after the last one was answered) start the clock.
            cycle = self.cycle
            if cycle is None or cycle.response_complete:
                self._arm()
            super().data_received(data)
            cycle = self.cycle
            if cycle is not None and cycle is not self._cycle and not cycle.response_complete:
                # A new request cycle: its headers are all in.
                self._cycle = cycle
                self._disarm()

        def _arm(self) -> None:
            if self._deadline is None and not self.transport.is_closing():
                self._deadline = self.loop.call_later(timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def _leave(self) -> None:
            if self._peer is not None:
                open_by_peer[self._peer] -= 1
                if open_by_peer[self._peer] <= 0:
                    del open_by_peer[self._peer]
                self._peer = None

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()
            self._leave()
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._leave()
            super().connection_lost(exc)

    GuardedHTTP.pacer = pacer
    GuardedHTTP.__name__ = GuardedHTTP.__qualname__ = f"Guarded{parent.__name__}"
    return GuardedHTTP


def http_protocol(name: str = "auto") -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol by ``name``: ``httptools``, ``h11``, or ``auto`` (httptools
    when it is installed, else h11: uvicorn's own choice)."""
    if name in ("auto", "httptools"):
        try:
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

            return HttpToolsProtocol
        except ImportError:
            if name == "httptools":
                raise
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return H11Protocol


WRITE_NOW = "perudo.websocket.write_now"
"""The ASGI extension (``scope["extensions"][WRITE_NOW]["write"]``) of
:func:`websocket_protocol`: ``write(text) -> bool`` writes ``text`` as one text message on the
socket now, or returns ``False`` when it cannot (the handshake not done, the socket closing or
closed, a close sent, or its buffer over the high-water mark: the caller then sends through
ASGI, which waits for the buffer to drain)."""


def websocket_protocol() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol on websockets' sans-I/O implementation (uvicorn's own
    choice) with :data:`WRITE_NOW`: pass it as ``uvicorn.run(..., ws=...)``. The message is
    framed as websockets' protocol object frames it (its state checks, and permessage-deflate
    when ``PERUDO_WS_COMPRESSION`` negotiated it; on an open socket without extensions the
    same bytes by :func:`text_frame`, a tenth of a move's work cheaper) and written as
    uvicorn's ``websocket.send`` writes it; the only difference is that nothing waits: a
    socket that cannot take it now says so."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
    from websockets.protocol import State

    class WritingWebSocket(WebSocketsSansIOProtocol):
        async def run_asgi(self) -> None:
            extensions: Any = self.scope.setdefault("extensions", {})
            extensions[WRITE_NOW] = {"write": self.write_now}
            await super().run_asgi()

        def write_now(self, text: str) -> bool:
            if (
                not self.handshake_complete
                or self.close_sent
                or self.disconnected
                or self.initial_response is not None
                or not self.writable.is_set()
                or self.transport.is_closing()
            ):
                return False
            conn = self.conn
            if (
                not conn.extensions
                and not conn.writes
                and not conn.expect_continuation_frame
                and conn.state is State.OPEN
            ):
                # Nothing negotiated, nothing of websockets' own waiting to go (a pong), no
                # message in fragments: the frame websockets would write, framed here
                # (text_frame) without its per-frame objects.
                self.transport.write(text_frame(text.encode()))
                return True
            try:
                conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True

    return WritingWebSocket


def text_frame(data: bytes) -> bytes:
    """One unfragmented, unmasked WebSocket text frame of ``data`` (RFC 6455 section 5.2: a
    server's frames are never masked): what websockets writes for ``send_text(data)`` on a
    connection without extensions (tests/server/test_connection.py compares the two)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) by their ``content-length``, and
    bodies of unknown length, before the app reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                too_large = name == b"content-length" and (
                    not value.isdigit() or int(value) > self.limit
                )
                # A body of unknown length (chunked) is refused too: the page and every
                # ordinary client say how long their JSON is.
                if too_large or name == b"transfer-encoding":
                    await self._refuse(send)
                    return
        await self.app(scope, receive, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "error": "too_large",
                "message": f"a request body may have at most {self.limit} bytes",
            }
        ).encode()
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
