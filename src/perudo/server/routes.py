"""HTTP and WebSocket routes: the lobby API, the page, replays, and the table socket.

HTTP (JSON):

* ``GET /api/config``: presets, switches and bot levels for the create-table form;
* ``GET /api/tables``: the lobby (public tables waiting or playing);
* ``POST /api/tables``: create a table (its creator takes seat 0) → ``{table_id, seat, token}``;
* ``GET /api/tables/{id}``: one table's public information;
* ``POST /api/tables/{id}/join``: take a seat under a display name → ``{seat, token}``;
* ``GET /api/games``: recent finished games; ``GET /api/games/{id}/replay``: a replay;
* ``GET /healthz``.

Each table's answer carries ``invite`` (the path ``/t/{id}``) and ``invite_url``, the absolute
link on ``PERUDO_PUBLIC_URL`` (or on the address the request came to).

WebSocket ``/ws/tables/{id}``: :mod:`perudo.server.protocol` messages. A bad message gets an
``error`` reply and changes nothing; the connection and the table live on.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from perudo.bots import LEVELS
from perudo.core import PRESETS

from . import protocol as p
from .connection import Connection
from .lobby import Lobby
from .proxy import base_url
from .replay import replay_frames
from .settings import Settings
from .store import Store
from .tables import LiveTable, TableConfig, TableError

__all__ = ["STATIC_DIR", "register_routes"]

STATIC_DIR = Path(__file__).with_name("static")
log = logging.getLogger("perudo.server")

_STATUS = {
    "no_table": 404,
    "no_game": 404,
    "table_full": 409,
    "not_now": 409,
    "too_many_tables": 503,
    "store_error": 503,
}


class CreateTable(BaseModel):
    """The create-table form."""

    name: str = Field(min_length=1, max_length=60)
    player: str = Field(min_length=1, max_length=24)
    preset: str = Field(default="perudo", max_length=40)
    calza: Literal["off", "on", "to_act"] | None = None
    palifico: Literal["on", "off", "not_two_players"] | None = None
    dice: int | None = Field(default=None, ge=1, le=10)
    seats: int = Field(default=6, ge=2, le=10)
    memory: bool = False
    turn_seconds: float | None = Field(default=None, ge=0, le=600)
    private: bool = False


class JoinTable(BaseModel):
    name: str = Field(min_length=1, max_length=24)


def _error(err: TableError) -> JSONResponse:
    return JSONResponse(
        {"error": err.code, "message": err.message}, status_code=_STATUS.get(err.code, 400)
    )


def _lobby(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def register_routes(app: FastAPI, settings: Settings) -> None:
    """Add every route to ``app``."""

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        return JSONResponse({"error": "bad_request", "message": problems}, status_code=400)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "tables": len(_lobby_of(app).tables)}

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        return {
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "levels": list(LEVELS),
            "turn_seconds": settings.turn_seconds,
            "languages": ["en", "ko", "it"],
        }

    def invite_url(request: Request, table_id: str) -> str:
        """The table's invite link, absolute: on PERUDO_PUBLIC_URL, else on the address the
        request came to (as a trusted proxy forwards it)."""
        return settings.absolute(f"/t/{table_id}", base_url(request))

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        tables = _lobby(request).open_tables()
        return {"tables": [{**t, "invite_url": invite_url(request, t["id"])} for t in tables]}

    @app.post("/api/tables", response_model=None)
    async def create_table(request: Request, body: CreateTable) -> JSONResponse | dict[str, Any]:
        lobby = _lobby(request)
        try:
            cfg = TableConfig.build(
                preset=body.preset,
                seats=body.seats,
                calza=body.calza,
                palifico=body.palifico,
                dice=body.dice,
                memory=body.memory,
                turn_seconds=(
                    settings.turn_seconds if body.turn_seconds is None else body.turn_seconds
                ),
            )
        except ValueError as err:
            return _error(TableError("bad_rules", str(err)))
        try:
            table, seat, token = await lobby.create(
                name=body.name, player=body.player, config=cfg, private=body.private
            )
        except TableError as err:
            return _error(err)
        return {
            "table_id": table.id,
            "seat": seat,
            "token": token,
            "invite": f"/t/{table.id}",
            "invite_url": invite_url(request, table.id),
            "table": table.info(),
        }

    @app.get("/api/tables/{table_id}", response_model=None)
    async def get_table(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
        try:
            info = _lobby(request).get(table_id).info()
        except TableError as err:
            return _error(err)
        return {**info, "invite_url": invite_url(request, table_id)}

    @app.post("/api/tables/{table_id}/join", response_model=None)
    async def join_table(
        request: Request, table_id: str, body: JoinTable
    ) -> JSONResponse | dict[str, Any]:
        try:
            seat, token = await _lobby(request).join(table_id, body.name)
        except TableError as err:
            return _error(err)
        return {
            "table_id": table_id,
            "seat": seat,
            "token": token,
            "invite_url": invite_url(request, table_id),
        }

    @app.get("/api/games")
    async def finished_games(request: Request) -> dict[str, Any]:
        store: Store = request.app.state.store
        return {"games": await store.finished_games()}

    @app.get("/api/games/{game_id}/replay", response_model=None)
    async def replay(request: Request, game_id: int) -> JSONResponse | dict[str, Any]:
        store: Store = request.app.state.store
        game = await store.game(game_id)
        if game is None:
            return _error(TableError("no_game", f"there is no game {game_id}"))
        if game.finished_at is None:
            # A replay shows the whole public story; a game still being played has none yet
            # (and its live view is at its table).
            return _error(TableError("not_now", f"game {game_id} is not finished yet"))
        try:
            return replay_frames(game)
        except ValueError as err:
            return _error(TableError("bad_record", str(err)))

    index = STATIC_DIR / "index.html"

    @app.get("/", include_in_schema=False)
    async def page_lobby() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    async def page_table(table_id: str) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def page_replay(game_id: str) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        conn = Connection(
            ws.send_text,
            lambda code: ws.close(code),
            rate=settings.rate_per_second,
            burst=settings.rate_burst,
        )
        conn.start()
        table = _lobby(ws).tables.get(table_id)
        try:
            if table is None:
                conn.send(
                    p.ErrorMessage(
                        code="no_table", message=f"there is no table {table_id!r}"
                    ).model_dump_json()
                )
                conn.send_close()
                await conn.wait_closed()
                return
            await _serve(ws, conn, table, settings)
        finally:
            if table is not None:
                await table.detach(conn)
            await conn.stop()


def _lobby_of(app: FastAPI) -> Lobby:
    lobby: Lobby = app.state.lobby
    return lobby


async def _serve(ws: WebSocket, conn: Connection, table: LiveTable, settings: Settings) -> None:
    limit = settings.max_message_bytes
    while True:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        raw: str | bytes | None = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
        if not conn.bucket.take():
            now = time.monotonic()
            if now - conn.last_limit_error >= 1.0:
                conn.last_limit_error = now
                _reply_error(
                    conn,
                    table,
                    "rate_limited",
                    f"too many messages: at most {settings.rate_per_second:g} a second "
                    f"(bursts of {settings.rate_burst}); this one was ignored",
                )
            continue
        if size > limit:
            _reply_error(
                conn,
                table,
                "too_large",
                f"message of {size} bytes is over the limit of {limit}; it was ignored",
            )
            continue
        try:
            msg = p.parse_client_message(raw)
        except p.ProtocolError as err:
            _reply_error(conn, table, err.code, str(err))
            continue
        try:
            await _dispatch(table, conn, msg)
        except TableError as err:
            _reply_error(conn, table, err.code, err.message)
        except Exception:
            # A bug must not cost the player their connection: say so and carry on.
            log.exception("table %s: %s message failed", table.id, msg.type)
            _reply_error(conn, table, "internal", "the server failed on that message; try again")


def _reply_error(conn: Connection, table: LiveTable, code: str, message: str) -> None:
    conn.send(p.ErrorMessage(code=code, message=message, version=table.version).model_dump_json())


async def _dispatch(table: LiveTable, conn: Connection, msg: p.ClientMessage) -> None:
    if isinstance(msg, p.Hello):
        await table.hello(conn, msg)
        return
    if isinstance(msg, p.Ping):
        conn.send(p.Pong(version=table.version).model_dump_json())
        return
    if not conn.greeted:
        raise TableError(
            "hello_first", 'say hello first: {"type": "hello", "token": …} (or no token)'
        )
    if isinstance(msg, p.Act):
        await table.act(conn, msg.action, msg.version)
    elif isinstance(msg, p.ChatSend):
        await table.post_chat(conn, msg.text)
    elif isinstance(msg, p.AddBot):
        await table.add_bot(conn, msg.level, msg.seat)
    elif isinstance(msg, p.FillBots):
        await table.fill_bots(conn, msg.level)
    elif isinstance(msg, p.RemoveSeat):
        await table.remove_seat(conn, msg.seat)
    elif isinstance(msg, p.Leave):
        await table.leave(conn)
    elif isinstance(msg, p.Start):
        await table.start(conn)
    elif isinstance(msg, p.Rematch):
        await table.rematch(conn)
    elif isinstance(msg, p.Sync):
        await table.sync(conn, msg.last_version)
    elif isinstance(msg, p.Back):
        await table.back(conn)
