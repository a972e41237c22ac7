"""The table socket ``/ws/tables/{id}``: one connection of a seat or a spectator.

Each message is a :mod:`perudo.server.protocol` client message, read under the connection's
rate limit and size limit and handed to the table. A bad message gets an ``error`` reply and
changes nothing; the connection and the table live on.
"""

from __future__ import annotations

import logging
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .. import protocol as p
from ..connection import Connection
from ..proxy import base_url
from ..settings import Settings
from ..tables import LiveTable, TableError
from .common import lobby_of, settings_of

__all__ = ["router"]

log = logging.getLogger("perudo.server")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    settings = settings_of(ws)
    await ws.accept()
    conn = Connection(
        ws.send_text,
        lambda code: ws.close(code),
        rate=settings.rate_per_second,
        burst=settings.rate_burst,
    )
    conn.start()
    table = lobby_of(ws).tables.get(table_id)
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
            await _dispatch(ws, table, conn, msg)
        except TableError as err:
            _reply_error(conn, table, err.code, err.message)
        except Exception:
            # A bug must not cost the player their connection: say so and carry on.
            log.exception("table %s: %s message failed", table.id, msg.type)
            _reply_error(conn, table, "internal", "the server failed on that message; try again")


def _reply_error(conn: Connection, table: LiveTable, code: str, message: str) -> None:
    conn.send(p.ErrorMessage(code=code, message=message, version=table.version).model_dump_json())


async def _dispatch(
    ws: WebSocket, table: LiveTable, conn: Connection, msg: p.ClientMessage
) -> None:
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
        await table.chat.post(conn, msg.text)
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
    elif isinstance(msg, p.TransferSeat):
        await table.transfer_seat(conn, base_url(ws))
    elif isinstance(msg, p.MakeHost):
        await table.make_host(conn, msg.seat)
