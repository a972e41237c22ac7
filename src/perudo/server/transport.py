"""What the HTTP layer refuses before the app sees it: slow and greedy clients.

* :func:`guarded_protocol`: uvicorn's HTTP protocol (httptools or h11:
  ``PERUDO_HTTP_PROTOCOL``) with a *header timeout* (a request's headers must all arrive
  within ``PERUDO_HEADER_TIMEOUT`` seconds of the connection, or of the request's first
  byte, else the connection is closed) and a cap on the HTTP connections
  one peer holds open before their requests are read (``PERUDO_CONNECTIONS_PER_CLIENT``;
  trusted proxies, which carry many clients, are exempt). Uvicorn's own keep-alive timeout
  still closes an idle connection between requests; the WebSocket idle timeout is the
  socket route's (:mod:`perudo.server.routes.socket`).
* :class:`BodyLimit`: an ASGI middleware that refuses a request body over
  ``PERUDO_MAX_BODY_BYTES`` with 413 before the app reads it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections import Counter
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from .guard import client_key
from .settings import Settings

__all__ = ["BodyLimit", "guarded_protocol", "http_protocol"]


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
    open_by_peer: Counter[str] = Counter()
    """HTTP connections per peer (:func:`~perudo.server.guard.client_key`: an IPv6 peer by
    its /64); a connection upgraded to a WebSocket leaves it: the socket route counts those
    per client."""
    parent: Any = base if base is not None else http_protocol(settings.http_protocol)

    class GuardedHTTP(parent):  # type: ignore[misc]
        _deadline: asyncio.TimerHandle | None = None
        _peer: str | None = None
        _cycle: object = None

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
