"""HTTP and WebSocket routes, one router per concern (find a route by its file's name).

* :mod:`.health`: ``GET /healthz``;
* :mod:`.tables`: the lobby API: ``GET /api/config`` (presets, switches and bot levels for the
  create-table form), ``GET /api/tables`` (the lobby: public tables waiting or playing),
  ``POST /api/tables`` (create a table; its creator takes seat 0 → ``{table_id, seat,
  token}``), ``GET /api/tables/{id}`` (one table's public information),
  ``POST /api/tables/{id}/join`` (take a seat under a display name → ``{seat, token}``);
* :mod:`.games`: ``GET /api/games`` (recent finished public games),
  ``GET /api/games/{id}/replay`` (a replay, public information only);
* :mod:`.pages`: the page (``/``, ``/t/{id}``, ``/replay/{id}``), its ``/static`` files and
  the rule book (``/rules/{lang}``);
* :mod:`.webapp`: the page as an installable web app: ``/manifest.webmanifest`` and its
  service worker ``/sw.js``;
* :mod:`.socket`: the table socket ``/ws/tables/{id}``: :mod:`perudo.server.protocol`
  messages; a bad message gets an ``error`` reply and changes nothing, the connection and the
  table live on;
* :mod:`.play`: the Play-now socket ``/ws/play`` (:mod:`perudo.server.play`);
* :mod:`.wire`: ``GET /api/protocol.schema.json`` (the JSON Schema of the wire);
* :mod:`perudo.server.accounts.routes`: the account API (``/api/account…``);
* :mod:`perudo.server.accounts.recovery`: e-mail addresses and password reset by mail
  (``/api/account/mail``, ``…/email``, ``…/forgot``, ``…/reset``);
* :mod:`perudo.server.accounts.players`: profiles and leaderboards as JSON
  (``/api/players/{name}``, ``/api/players/{name}/games``, ``/api/leaderboard``);
* :mod:`perudo.server.social.routes`: friends, invitations, Web Push subscriptions
  (``/api/friends…``, ``/api/invitations…``, ``/api/push…``) and the notice socket
  ``/ws/me``;
* :mod:`.common`: what they share (the error replies and their HTTP statuses, the lobby and
  the settings of a request).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from ..accounts.passwords import Busy
from ..accounts.refusals import refused
from ..store import StoreError
from ..tables.config import store_refused
from . import games, health, pages, play, socket, tables, webapp, wire
from .common import error_response

__all__ = ["register_routes"]


def register_routes(app: FastAPI) -> None:
    """Add every route to ``app`` (whose ``state.settings`` the routes read)."""

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        return JSONResponse({"error": "bad_request", "message": problems}, status_code=400)

    @app.exception_handler(RecursionError)
    async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
        return JSONResponse(
            {"error": "bad_request", "message": "body: JSON nested too deeply"}, status_code=400
        )

    @app.exception_handler(HTTPException)
    async def _not_found(request: Request, exc: HTTPException) -> Response:
        # A person's browser asking for a page that does not exist gets the page, which says
        # so in their language (404 still); the API and everything else keep their JSON.
        if exc.status_code == 404 and pages.wants_page(request):
            return pages.missing_page()
        return await http_exception_handler(request, exc)

    @app.exception_handler(StoreError)
    async def _store_down(_request: Request, exc: StoreError) -> JSONResponse:
        # The database is unreachable (restarting): a clear 503 the client may retry, never a
        # bare 500. The socket's refusals carry the same code (``store_error``).
        return error_response(store_refused(exc, "a request's data"))

    @app.exception_handler(Busy)
    async def _argon2_busy(_request: Request, _exc: Busy) -> JSONResponse:
        # Too many passwords wait for the argon2 thread (accounts.passwords): refused at once,
        # before anything changed, in the player's words; a moment later it may pass.
        answer = refused("busy", "busy", 429)
        answer.headers["Retry-After"] = "1"
        return answer

    for module in (health, tables, games, pages, webapp, socket, wire, play):
        app.include_router(module.router)
    # Imported here: the accounts' routes use .common, which imports this package.
    from ..accounts import botapi, export, passkeys, players, recovery
    from ..accounts import routes as accounts
    from ..social import routes as social

    app.include_router(accounts.router)
    app.include_router(passkeys.router)
    app.include_router(botapi.router)
    app.include_router(social.router)
    app.include_router(players.router)
    app.include_router(export.router)
    app.include_router(recovery.router)
    pages.mount_static(app)
