"""What the routers share: the error replies (with their HTTP statuses), and the lobby, the
store and the settings of a request."""

from __future__ import annotations

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse

from ..lobby import Lobby
from ..settings import Settings
from ..social.hub import Social
from ..store import Store
from ..tables import TableError
from ..tables.config import server_texts

__all__ = ["error_response", "lobby_of", "settings_of", "social_of", "store_of"]

_STATUS = {
    "no_table": 404,
    "no_game": 404,
    "not_your_seat": 403,
    "hands_hidden": 403,
    "explain_people": 403,
    "not_seated": 403,
    "table_full": 409,
    "not_now": 409,
    "table_closed": 410,
    "too_many_tables": 503,
    "client_limit": 429,
    "bot_tables": 429,
    "name_taken": 409,
    "store_error": 503,
    "unavailable": 503,
    "moved": 503,
    "blocked": 403,
}
"""HTTP status of a refusal by its code (400 for any other)."""


def error_response(err: TableError) -> JSONResponse:
    """A refused request: ``{error: code, message}`` with the code's HTTP status, and
    ``texts`` (the refusal in each language) where :mod:`perudo.i18n` says it."""
    body: dict[str, object] = {"error": err.code, "message": err.message}
    texts = err.texts or server_texts(err.code)
    if texts:
        body["texts"] = texts
    return JSONResponse(body, status_code=_STATUS.get(err.code, 400))


def lobby_of(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def store_of(request: Request | WebSocket) -> Store:
    store: Store = request.app.state.store
    return store


def settings_of(request: Request | WebSocket) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def social_of(request: Request | WebSocket) -> Social:
    social: Social = request.app.state.social
    return social
