"""The ASGI app: ``create_app(settings)`` wires the store, the lobby and the routes.

>>> app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
>>> sorted(path for path in app.openapi()["paths"] if path.startswith("/api/tables"))
... # doctest: +NORMALIZE_WHITESPACE
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/explain',
 '/api/tables/{table_id}/invite.svg', '/api/tables/{table_id}/join']
"""

from __future__ import annotations

import gc
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from . import hosting, proxy
from .lobby import Lobby
from .play import open_pool
from .routes import register_routes
from .settings import Settings
from .social.hub import Social
from .store import Store
from .transport import BodyLimit, guarded_protocol, websocket_protocol

__all__ = ["SocketLinesFilter", "TableIdFilter", "create_app", "serve"]


class SocketLinesFilter(logging.Filter):
    """Drops the lines uvicorn and websockets log at ``INFO`` for every WebSocket
    (``… "WebSocket /ws/tables/…" [accepted]``, ``connection open``, ``connection closed``):
    a crowd of 500 sockets would write 1,500 of them, synchronously, on the event loop that
    plays the moves (about a fifth of the server's CPU per arrival). Refusals and errors
    are kept; :func:`serve` leaves every line in at ``PERUDO_LOG_LEVEL=debug``.

    >>> f = SocketLinesFilter()
    >>> def line(msg, *args, level=logging.INFO):
    ...     return f.filter(logging.LogRecord("uvicorn.error", level, "", 0, msg, args, None))
    >>> line('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/t/x"), line("connection open")
    (False, False)
    >>> line('%s - "WebSocket %s" %d', "127.0.0.1:5", "/ws/t/x", 403), line("Started server")
    (True, True)
    """

    LINES = frozenset({'%s - "WebSocket %s" [accepted]', "connection open", "connection closed"})

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.INFO and record.msg in self.LINES)


class TableIdFilter(logging.Filter):
    """Writes ``{id}`` for the table's id in the paths uvicorn logs (the access log's
    ``"POST /api/tables/…/join HTTP/1.1" 200`` and the WebSocket lines): a table's id is its
    invite, and a private table's must not end up in log files and whoever reads them.
    Operators still see the route. :func:`serve` installs it at every log level.

    >>> f = TableIdFilter()
    >>> def line(msg, *args, name="uvicorn.access"):
    ...     record = logging.LogRecord(name, logging.INFO, "", 0, msg, args, None)
    ...     return f.filter(record) and record.getMessage()
    >>> access = '%s - "%s %s HTTP/%s" %d'
    >>> line(access, "127.0.0.1:5", "POST", "/api/tables/k3Zq_x/join", "1.1", 200)
    '127.0.0.1:5 - "POST /api/tables/{id}/join HTTP/1.1" 200'
    >>> line(access, "127.0.0.1:5", "GET", "/t/k3Zq_x?x=1", "1.1", 200)
    '127.0.0.1:5 - "GET /t/{id}?x=1 HTTP/1.1" 200'
    >>> line(access, "127.0.0.1:5", "GET", "/api/tables", "1.1", 200)
    '127.0.0.1:5 - "GET /api/tables HTTP/1.1" 200'
    >>> line('%s - "WebSocket %s" %d', "::1:5", "/ws/tables/k3Zq_x", 403, name="uvicorn.error")
    '::1:5 - "WebSocket /ws/tables/{id}" 403'
    """

    PATH = re.compile(r"^(/t/|/api/tables/|/ws/tables/)[^/?#]+")

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(
                self.PATH.sub(r"\1{id}", a) if isinstance(a, str) else a for a in args
            )
        return True


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings`` (default: from ``PERUDO_…`` environment variables)."""
    settings = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        node = None
        if settings.cluster:
            # One of several processes on PostgreSQL and Redis (perudo.server.cluster). A
            # process paused inside a transaction must not keep a lease row locked for good.
            from .cluster import Node
            from .routes.socket import handle

            idle = str(int(settings.lease_seconds * 2000))
            store = Store(settings.database_url, {"idle_in_transaction_session_timeout": idle})
            await store.open()
            node = Node(settings, store, handle)
        else:
            store = Store(settings.database_url)
            await store.open()
            if store.engine is not None and store.engine.dialect.name == "postgresql":
                from .cluster.lease import ClusterRunning, leave_cluster_mode

                try:
                    await leave_cluster_mode(store.engine)
                except ClusterRunning as err:
                    logging.getLogger("perudo.server").error("not started: %s", err)
                    await store.close()
                    raise
        lobby = Lobby(store, settings, node)
        social = Social(store, settings, node)
        await social.open()
        lobby.social = social
        await lobby.open()
        app.state.store = store
        app.state.lobby = lobby
        # Play now (perudo.server.play): this process's side of the pools.
        app.state.play = open_pool(lobby)
        app.state.social = social
        if settings.analysis_workers > 0:
            from .analysis import Analyses

            app.state.analyses = Analyses(settings.analysis_workers, settings.analysis_cache, store)
        # Everything loaded so far (modules, schemas, restored tables) lives as long as the
        # process: keep it out of the collector's full passes, which otherwise stall every
        # table for a few hundred milliseconds under load.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            analyses = getattr(app.state, "analyses", None)
            if analyses is not None:
                analyses.close()
            await app.state.play.close()
            await lobby.close()
            await social.close()
            await store.close()

    app = FastAPI(
        title="Perudo",
        summary="Play Perudo (Dudo, Liar's Dice) with friends and bots in the browser.",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
    )
    app.state.settings = settings
    register_routes(app)
    proxy.install(app, settings)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    return app


def serve(settings: Settings | None = None) -> None:
    """Run the app with uvicorn until interrupted, printing where friends can open it
    (:func:`.hosting.banner`); listening on a wildcard address without ``PERUDO_PUBLIC_URL``,
    invite links are built on the machine's first network address."""
    import uvicorn

    settings = settings if settings is not None else Settings()
    logging.basicConfig(level=settings.log_level.upper(), format="%(levelname)s: %(message)s")
    if settings.log_level.lower() != "debug":
        logging.getLogger("uvicorn.error").addFilter(SocketLinesFilter())
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(TableIdFilter())
    addresses = hosting.interface_addresses()
    settings = hosting.public_settings(settings, addresses)
    print(hosting.banner(settings, addresses), flush=True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=settings.ws_compression,
        log_level=settings.log_level.lower(),
        lifespan="on",
        # Forwarded headers are believed only from PERUDO_TRUSTED_PROXIES (create_app installs
        # that middleware); uvicorn's own would trust 127.0.0.1 whatever the settings say.
        proxy_headers=False,
        # Slow headers cut off, half-open connections per peer capped (docs/security.md).
        http=guarded_protocol(settings),
        # A move's messages written on the sockets as they are drawn (transport.WRITE_NOW).
        ws=websocket_protocol(),
    )
