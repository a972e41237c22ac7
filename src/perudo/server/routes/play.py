"""The Play-now socket ``/ws/play``: one page waiting in a pool (:mod:`perudo.server.play`).

The page sends ``play_join`` (the pool, its wait, its bots, a guest's name, and after a
reconnection its ticket), then receives ``pool`` messages (who waits, for how long) until a
``play_matched`` gives it its table, seat and seat token; ``play_leave`` takes it out of the
pool. Every refusal is an ``error`` with its words in each language (``texts``). A signed-in
person waits under their account (their rating, in a rated pool); the cookie counts only on a
socket this site's page opened. A bot account's program opens the socket with its token
(``Authorization: Bearer``, docs/bot-api.md) and waits as a bot: only in an unrated pool, seated
only with people who chose bots for their empty seats (:mod:`perudo.server.play.match`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from perudo.ratings import Rating, display
from perudo.ratings import pool as rating_pool

from .. import protocol as p
from ..accounts.bots import RECHECK_SECONDS, bearer, bot_of_token, revoked_message, sockets_of
from ..accounts.sessions import COOKIE, current, same_origin
from ..cluster.bus import BusDown
from ..connection import Connection
from ..play import Entry, Pool, PoolKey
from ..proxy import client_host
from ..store import PlayerRow, StoreError
from ..tables import TableConfig, TableError
from ..tables.config import server_texts
from ..tables.text import check_person_name, clean_name
from .common import lobby_of, settings_of, store_of

__all__ = ["router"]

router = APIRouter()

GUEST = "Guest"
"""A guest's name at the table when they give none."""


def _error(conn: Connection, code: str, message: str, texts: dict[str, str] | None = None) -> None:
    texts = texts if texts is not None else server_texts(code)
    conn.send(p.ErrorMessage(code=code, message=message, texts=texts).model_dump_json())


@router.websocket("/ws/play")
async def play_socket(ws: WebSocket) -> None:
    settings = settings_of(ws)
    if COOKIE in ws.cookies and not same_origin(ws, settings):
        await ws.close(1008)
        return
    lobby = lobby_of(ws)
    pool: Pool = ws.app.state.play
    client = client_host(ws)
    await ws.accept()
    conn = Connection(
        ws.send_text, lambda code: ws.close(code), rate=settings.rate_per_second, burst=8
    )
    conn.start()
    counted = await lobby.guard.open_connection(client)
    ticket: str | None = None
    revoked = False

    async def leave_pool() -> None:
        """The bot's token was revoked: its place leaves the pool, and the socket takes no
        new place (a join under way is left at its end, below)."""
        nonlocal ticket, revoked
        revoked = True
        left = ticket
        if left is not None:
            with contextlib.suppress(BusDown, TableError):
                await pool.leave(left)
            if ticket == left:
                ticket = None

    try:
        if not counted:
            _error(conn, "too_many_connections", "too many connections from one address")
            await conn.close_after_sending(1008)
            return
        account: PlayerRow | None = None
        token = bearer(ws)
        if token is not None:
            try:
                bot = await bot_of_token(store_of(ws), token)
            except StoreError:
                _error(conn, "unavailable", "the server cannot check bot tokens now; try again")
                await conn.close_after_sending(1013)
                return
            if bot is None:
                _error(
                    conn,
                    "bad_bot_token",
                    "that bot token is not valid (revoked, or never made): closed",
                )
                await conn.close_after_sending(1008)
                return
            account, is_bot = bot[0], True
            # Revoking the token (or deleting the account) takes its place out of the pool,
            # then closes this socket, as it closes the bot's table sockets.
            conn.bot_account, conn.bot_token = bot[0].id, bot[1]
            sockets_of(ws).add(bot[1], conn, leave_pool)
        else:
            found = await current(store_of(ws), ws)
            account, is_bot = (None if found is None else found[0].player), False
        checked = time.monotonic()
        while True:
            try:
                async with asyncio.timeout(settings.ws_idle_seconds):
                    message = await ws.receive()
            except TimeoutError:
                _error(
                    conn,
                    "idle",
                    f"nothing received for {settings.ws_idle_seconds:g} s: closed (send a "
                    "ping now and then while you wait)",
                )
                await conn.close_after_sending(1000)
                return
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect" or revoked:
                return
            if conn.bot_token is not None and time.monotonic() - checked > RECHECK_SECONDS:
                # A token revoked through another process: this one learns it here.
                checked = time.monotonic()
                try:
                    stands = await store_of(ws).bot_token_stands(conn.bot_token)
                except StoreError:  # the database cannot say now: asked again later
                    stands = True
                if not stands:
                    await leave_pool()
                    conn.send(revoked_message())
                    await conn.close_after_sending(1008)
                    return
            raw = message.get("text") or message.get("bytes") or b""
            if not conn.bucket.take():
                _error(conn, "rate_limited", "too many messages; this one was ignored")
                continue
            if len(raw) > settings.max_message_bytes:
                _error(conn, "too_large", "message over the size limit; it was ignored")
                continue
            try:
                msg = p.parse_play_message(raw)
            except p.ProtocolError as err:
                _error(conn, err.code, str(err), {})
                continue
            if isinstance(msg, p.Ping):
                conn.send(p.Pong(version=0).model_dump_json())
            elif isinstance(msg, p.PlayLeave):
                if ticket is None:
                    _error(conn, "pool_not_waiting", "you are not waiting in a pool")
                else:
                    try:
                        how = await pool.leave(ticket)
                    except BusDown:
                        _error(conn, "unavailable", "the queue cannot be reached now; try again")
                        continue
                    if how == "seating":
                        _error(conn, "pool_seating", "your table is being made: too late to leave")
                        continue
                    ticket = None  # left, or told its place was gone
                    conn.send_close(1000)
            else:
                try:
                    entry = await _entry(ws, msg, account, client, is_bot)
                    if ticket is not None and ticket != entry.ticket:
                        await pool.leave(ticket)
                    await pool.join(entry, conn.send)
                except TableError as err:
                    _error(conn, err.code, err.message, err.texts)
                    continue
                except BusDown:
                    _error(conn, "unavailable", "the queue cannot be reached now; try again soon")
                    continue
                ticket = entry.ticket
                if revoked:  # revoked while joining: the place it just took goes too
                    await leave_pool()
                    return
    finally:
        if conn.bot_token is not None:
            sockets_of(ws).discard(conn.bot_token, conn)
        if ticket is not None:
            pool.forget(ticket)
        if counted:
            lobby.guard.close_connection(client)
        with contextlib.suppress(Exception):
            await conn.stop()


async def _entry(
    ws: WebSocket, msg: p.PlayJoin, account: PlayerRow | None, client: str, is_bot: bool = False
) -> Entry:
    """The pool entry ``msg`` asks for, checked (``is_bot``: ``account`` is a bot account's).

    :raises TableError: naming what is wrong (its words in ``texts``).
    """
    if msg.rated and account is None:
        raise TableError(
            "pool_rated_signed_in",
            "a rated pool seats only signed-in players; sign in first",
            texts=server_texts("pool_rated_signed_in"),
        )
    if msg.rated and is_bot:
        raise TableError(
            "pool_rated_bot_account",
            "a bot account waits only in unrated pools: rated pools are people's",
            texts=server_texts("pool_rated_bot_account"),
        )
    if msg.rated and msg.bots is not None:
        raise TableError(
            "pool_rated_bots",
            "a rated table seats no bots: choose no bots, or an unrated pool",
            texts=server_texts("pool_rated_bots"),
        )
    try:
        config = TableConfig.build(preset=msg.preset, seats=msg.seats)
    except ValueError as err:
        raise TableError("pool_preset", str(err), texts=server_texts("pool_preset")) from None
    key = PoolKey(config.preset, msg.seats, msg.rated)
    if account is not None:
        name, player_id = account.name, account.id
        ratings = await store_of(ws).ratings_of(account.id)
        held = ratings.get((config.preset, rating_pool(msg.seats)))
        rating = display(held[0] if held is not None else Rating())
    else:
        name = clean_name(msg.name or GUEST, "your name", 24)
        if name != GUEST:
            check_person_name(name, [])
        player_id, rating = None, display(Rating())
    return Entry(
        ticket=msg.ticket or secrets.token_urlsafe(18),
        key=key,
        name=name,
        player_id=player_id,
        rating=rating,
        since=ws.app.state.play.clock(),
        wait=msg.wait,
        bots=None if is_bot else msg.bots,
        is_bot=is_bot,
        accepts_bots=msg.bots is not None and not is_bot,
        client=client,
    )
