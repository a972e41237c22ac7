"""Who a request comes from, behind a reverse proxy or not.

A reverse proxy (nginx: ``deploy/nginx/perudo.conf``, docs/hosting.md) connects to the app
itself and says who the real client is in ``X-Forwarded-For`` and how it connected in
``X-Forwarded-Proto``. Anyone can send those headers, so they are believed only from the
peers named in ``PERUDO_TRUSTED_PROXIES``: :func:`install` wraps the app in uvicorn's
``ProxyHeadersMiddleware`` with exactly those hosts, which rewrites the ASGI scope's
``client`` and ``scheme`` for requests and WebSockets alike. Uvicorn's own proxy-header
handling (which trusts ``127.0.0.1`` by default) is switched off in :func:`perudo.server.serve`
so this is the only place that decides.

Everything that needs the client's identity (limits per client, logs) reads it through
:func:`client_host`, never from the headers.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.requests import HTTPConnection
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .settings import Settings

__all__ = ["base_url", "client_host", "install"]


def install(app: FastAPI, settings: Settings) -> None:
    """Trust forwarded headers from ``settings.trusted_proxy_list`` only (none when empty)."""
    hosts = settings.trusted_proxy_list
    if hosts:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=hosts)


def client_host(conn: HTTPConnection) -> str:
    """The client's address for a request or WebSocket: the forwarded one when the peer is a
    trusted proxy, the peer's own otherwise (``"unknown"`` when the server has none, e.g. a
    Unix socket)."""
    client = conn.client
    return client.host if client is not None and client.host else "unknown"


def base_url(conn: HTTPConnection) -> str:
    """The address this request came to, as the client sees it (``https://host`` behind a
    trusted proxy that says so), without a trailing slash."""
    url = conn.base_url
    scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
    return f"{scheme}://{url.netloc}"
