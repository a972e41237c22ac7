"""The table socket ``/ws/tables/{id}``: one connection of a seat or a spectator.

Each message is a :mod:`perudo.server.protocol` client message, read under the connection's
size limit and rate limit, then handed to the table under the budgets of whoever sends it (a
seated person's own, over all their connections; a socket holding no seat, its address's; the
table's spectator budget: :mod:`perudo.server.guard`, docs/security.md). A client has at most
``connections_per_client`` sockets open; one silent for ``ws_idle_seconds`` is closed. A bad
message gets an ``error`` reply and changes nothing; the connection and the table live on.

In multi-process mode any process accepts any table's socket: for a table another process
drives, each message (read under this process's connection limits) is forwarded to that owner
(:mod:`perudo.server.cluster.remote`), which knows the socket's seat and handles it with
:func:`handle`, the function that handles this process's own sockets' messages, under the
same budgets (kept in Redis, one budget over every process).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Message

from .. import protocol as p
from ..accounts.bots import (
    RECHECK_SECONDS,
    bearer,
    bot_of_token,
    revoked_message,
    sockets_of,
)
from ..accounts.sessions import COOKIE, current, same_origin
from ..cluster.bus import BusDown, NoListener
from ..connection import Connection
from ..guard import Budgets, ClientLimits, PersonLimits, client_key
from ..proxy import base_url, client_host
from ..settings import Settings
from ..social.blocks import before_hello
from ..social.presence import Page
from ..store import StoreError
from ..tables import LiveTable, TableError
from ..transport import WRITE_NOW

if TYPE_CHECKING:
    from ..cluster import Node
from ..tables.presenter import refused
from .common import lobby_of, settings_of, social_of, store_of

__all__ = ["NO_DATABASE", "OWNER_GONE", "UNAVAILABLE", "handle", "router"]

log = logging.getLogger("perudo.server")

router = APIRouter()

UNAVAILABLE = (
    "the server is reconnecting to its other processes: that was not done; try again in a moment"
)
"""Why a message for a table driven by another process was refused while Redis is away."""

OWNER_GONE = (
    "the process driving this table stopped: that was not done; the table is moving to "
    "another process (this page reconnects by itself), then try again"
)
"""Why a message for a table driven by another process was refused when no process received
it (its owner died: the table is taken over within a lease, and this socket, closed by the
lease scan, reconnects to the new owner)."""

NO_DATABASE = "the server cannot reach its database to find this table: try again in a moment"
"""Why a socket was refused when the table's owner could not be looked up (PostgreSQL away)."""


ARRIVAL_WAIT = 0.3
"""Seconds an arriving socket may hold its place among the arrivals being set up
(:attr:`perudo.server.lobby.Lobby.arrivals`) while the server waits for its first message
(a page sends its hello as soon as the socket opens). Holding the place until then is what
paces a crowd: the next socket's handshake is answered only when a place is free, so its
hello cannot come sooner. A silent socket gives its place up after this long (its first
message is then handled when it comes, like any other)."""


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    settings = settings_of(ws)
    if COOKIE in ws.cookies and not same_origin(ws, settings):
        # Another site's page opening the socket with a signed-in visitor's cookie: refused
        # at the handshake (403), whatever the socket would have been used for.
        await ws.close(1008)
        return
    lobby = lobby_of(ws)
    client = client_host(ws)
    direct = (ws.scope.get("extensions") or {}).get(WRITE_NOW)
    conn = Connection(
        ws.send_text,
        lambda code: ws.close(code),
        rate=settings.rate_per_second,
        burst=settings.rate_burst,
        write_now=direct["write"] if direct else None,
    )
    table: LiveTable | None = None
    owner: str | None = None
    counted = False
    page = await _signed_in_page(ws, conn, table_id)
    try:
        # A crowd arriving at once is let in a few sockets at a time (the handshake, then
        # the wait for the first message: the next socket's handshake is answered when a
        # place is free), so that the players' moves go on between them.
        async with lobby.arrivals:
            await ws.accept()
            conn.start()
            if not await lobby.guard.open_connection(client):
                await _refuse(
                    conn,
                    "too_many_connections",
                    f"{settings.connections_per_client} connections from one address at most; "
                    "close some tabs and reconnect",
                    1008,
                )
                return
            counted = True
            if not await _bot_socket(ws, conn):
                return
            table = lobby.tables.get(table_id)
            if table is None and lobby.node is not None:
                try:
                    where = await lobby.node.route(table_id)
                except (SQLAlchemyError, OSError) as err:
                    log.warning("table %s cannot be routed: %s", table_id, err)
                    await _refuse(conn, "unavailable", NO_DATABASE, 1013)
                    return
                if isinstance(where, LiveTable):
                    table = where
                else:
                    owner = where
            base = base_url(ws)
            address = lobby.guard.of(client)
            target: _Local | _Remote
            if table is not None:
                target = _Local(table, base, Budgets(lobby.guard, address))
            elif owner is not None and lobby.node is not None:
                target = _Remote(lobby.node, table_id, owner, base, client_key(client))
            else:
                await _refuse(conn, "no_table", f"there is no table {table_id[:40]!r}", 1000)
                return
            first = await _next(ws, conn, settings, ARRIVAL_WAIT)
        # Handled out of the arrivals' places: a hello that waits on its table (a move
        # being written) holds none.
        if first is None:
            return
        if first["type"] != "nothing":
            await _take(conn, target, settings, address, first)
        idle = IdleWatch(settings.ws_idle_seconds)
        checked = time.monotonic()
        try:
            while (message := await _next(ws, conn, settings, idle=idle)) is not None:
                if conn.bot_token is not None and time.monotonic() - checked > RECHECK_SECONDS:
                    checked = time.monotonic()
                    if not await _token_stands(ws, conn.bot_token):
                        conn.send(revoked_message())
                        conn.send_close(1008)
                        break
                await _take(conn, target, settings, address, message)
        finally:
            idle.stop()
    finally:
        if conn.bot_token is not None:
            sockets_of(ws).discard(conn.bot_token, conn)
        if page is not None:
            social_of(ws).presence.remove(page)
        if counted:
            lobby.guard.close_connection(client)
        if table is not None:
            await table.detach(conn)
        if owner is not None and lobby.node is not None:
            await lobby.node.routes.unlink(conn)
        await conn.stop()


async def _bot_socket(ws: WebSocket, conn: Connection) -> bool:
    """A socket opened with ``Authorization: Bearer <token>`` is a bot account's (docs/
    bot-api.md): it holds only that account's seats, and revoking the token closes it. Whether
    the socket goes on: a token that opens no bot account is refused (and the socket closed);
    a socket with no such header is a page's."""
    token = bearer(ws)
    if token is None:
        return True
    try:
        found = await bot_of_token(store_of(ws), token)
    except StoreError as err:
        log.warning("a bot token could not be checked: %s", err)
        await _refuse(conn, "unavailable", NO_DATABASE, 1013)
        return False
    if found is None:
        await _refuse(
            conn,
            "bad_bot_token",
            "that bot token is not valid (revoked, or never made): closed",
            1008,
        )
        return False
    conn.bot_account, conn.bot_token = found[0].id, found[1]
    sockets_of(ws).add(found[1], conn)
    return True


async def _token_stands(ws: WebSocket, hashed: str) -> bool:
    """Whether a bot socket's token still stands (a store that cannot say leaves it be)."""
    try:
        return await store_of(ws).bot_token_stands(hashed)
    except StoreError:
        return True


async def _signed_in_page(ws: WebSocket, conn: Connection, table_id: str) -> Page | None:
    """A page opened with a session's cookie speaks for its person: the socket is theirs
    (:attr:`Connection.account`) and counts them online at this table (friends see it)."""
    if COOKIE not in ws.cookies:
        return None
    try:
        found = await current(store_of(ws), ws)
    except StoreError as err:
        log.warning("a table socket's session not read: %s", err)
        return None
    if found is None:
        return None
    conn.account = found[0].player.id
    page = Page(conn.account, table=table_id[:40], conn=conn)
    await social_of(ws).add_page(page)
    return page


class _Local:
    """A table this process drives: messages are handled here."""

    def __init__(self, table: LiveTable, base: str, budgets: Budgets) -> None:
        self.table = table
        self.base = base
        self.budgets = budgets

    @property
    def version(self) -> int | None:
        return self.table.version

    async def handle(self, conn: Connection, msg: p.ClientMessage, raw: str) -> None:
        await _handle(self.table, conn, msg, self.base, self.budgets)


class _Remote:
    """A table another process drives: messages are forwarded to it."""

    def __init__(self, node: Node, table_id: str, owner: str, base: str, client: str) -> None:
        self.node = node
        self.table_id = table_id
        self.owner = owner
        self.base = base
        self.client = client
        """The socket's client (:func:`~perudo.server.guard.client_key`): the owner draws the
        messages of a socket holding no seat on its budgets."""
        self.version: int | None = None

    async def handle(self, conn: Connection, msg: p.ClientMessage, raw: str) -> None:
        try:
            await self.node.routes.forward(
                conn, self.table_id, self.owner, raw, self.base, self.client
            )
        except NoListener:
            # Every move gets an answer: this one reached nobody (its owner died).
            conn.send(p.ErrorMessage(code="moved", message=OWNER_GONE).model_dump_json())
        except BusDown:
            conn.send(p.ErrorMessage(code="unavailable", message=UNAVAILABLE).model_dump_json())


async def _refuse(conn: Connection, code: str, message: str, close_code: int) -> None:
    """Say why, then close (once the message is sent)."""
    conn.send(p.ErrorMessage(code=code, message=message).model_dump_json())
    await conn.close_after_sending(close_code)


class IdleWatch:
    """Ends the wait for a socket's next message once it has been silent ``seconds`` (the
    socket's task is cancelled, as ``asyncio.timeout`` would, and :meth:`fired` tells that
    cancellation from any other). One timer per socket, moved on only when it comes due:
    a message received costs a clock reading, not a timer set and cancelled (a socket's
    messages come far more often than its idle time)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.last = self.loop.time()
        """When the last message came (or the watch started)."""
        self.reading = False
        """Whether the task is waiting for a message (only then is it cancelled)."""
        self.cancelled = False
        self._handle: asyncio.TimerHandle | None = self.loop.call_at(self.last + seconds, self._due)

    def _due(self) -> None:
        now = self.loop.time()
        if not self.reading:
            # A message is being handled (a long write): its time counts as heard from.
            self.last = now
        deadline = self.last + self.seconds
        if now < deadline:
            self._handle = self.loop.call_at(deadline, self._due)
            return
        self._handle = None
        if self.task is not None:
            self.cancelled = True
            self.task.cancel()

    def fired(self) -> bool:
        """Whether the task's cancellation is this watch's (then withdrawn: the task goes
        on to close the socket); ``False`` for any other (the server stopping)."""
        if not self.cancelled or self.task is None:
            return False
        self.cancelled = False
        return self.task.uncancel() == 0

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


async def _next(
    ws: WebSocket,
    conn: Connection,
    settings: Settings,
    wait: float | None = None,
    idle: IdleWatch | None = None,
) -> Message | None:
    """The socket's next message; ``None`` once the connection is over. With ``wait``, a
    socket silent that long is let be (``{"type": "nothing"}``: nothing yet); with ``idle``,
    one silent for ``ws_idle_seconds`` is closed."""
    timed_out = False
    try:
        if idle is not None:
            idle.reading = True
            try:
                message = await ws.receive()
            except asyncio.CancelledError:
                if not idle.fired():
                    raise
                timed_out = True
            finally:
                idle.reading = False
                idle.last = idle.loop.time()
        else:
            async with asyncio.timeout(wait or settings.ws_idle_seconds):
                message = await ws.receive()
    except TimeoutError:
        timed_out = True
    except (WebSocketDisconnect, RuntimeError):
        return None
    if timed_out:
        if wait is not None:
            return {"type": "nothing"}
        await _refuse(
            conn,
            "idle",
            f"nothing received for {settings.ws_idle_seconds:g} s: closed (reconnect "
            "with your last version to carry on)",
            1000,
        )
        return None
    if message["type"] == "websocket.disconnect":
        return None
    return message


async def _take(
    conn: Connection,
    target: _Local | _Remote,
    settings: Settings,
    address: ClientLimits,
    message: Message,
) -> None:
    """Handle one message read from the socket, under the connection's limits (one refused
    gets an error reply and changes nothing); the table's process applies the sender's
    budgets (:func:`_handle`). A message that cannot be read (too large, not a client
    message) speaks for nobody: it draws on the ``address``'s budget."""
    limit = settings.max_message_bytes
    raw: str | bytes | None = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
    if not conn.bucket.take():
        _rate_limited(
            conn,
            target.version,
            f"too many messages: at most {settings.rate_per_second:g} a second "
            f"(bursts of {settings.rate_burst}); this one was ignored",
        )
        return
    if size > limit:
        if not await _address_takes(conn, target, settings, address):
            return
        _reply_error(
            conn,
            target.version,
            "too_large",
            f"message of {size} bytes is over the limit of {limit}; it was ignored",
        )
        return
    try:
        msg = p.parse_client_message(raw)
    except p.ProtocolError as err:
        if await _address_takes(conn, target, settings, address):
            _reply_error(conn, target.version, err.code, str(err))
        return
    text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
    await target.handle(conn, msg, text)


async def _address_takes(
    conn: Connection, target: _Local | _Remote, settings: Settings, address: ClientLimits
) -> bool:
    """Whether the address's budget takes a message that speaks for nobody (else it is
    refused as over the limit)."""
    if await address.messages.acquire():
        return True
    _rate_limited(conn, target.version, _over_address(settings))
    return False


def _over_address(settings: Settings) -> str:
    """Why a message was refused for its address's budget."""
    return (
        f"too many messages from your address: at most {settings.client_rate_per_second:g} "
        "a second over all its connections that hold no seat; this one was ignored"
    )


async def handle(
    table: LiveTable, conn: Connection, text: str, base: str, budgets: Budgets
) -> None:
    """Handle a client message (already read under its socket's connection limits) at the
    table: a forwarded one, in multi-process mode."""
    try:
        msg = p.parse_client_message(text)
    except p.ProtocolError as err:
        _reply_error(conn, table.version, err.code, str(err))
        return
    await _handle(table, conn, msg, base, budgets)


async def _handle(
    table: LiveTable, conn: Connection, msg: p.ClientMessage, base: str, budgets: Budgets
) -> None:
    """A message other than a socket's first hello draws on its sender's budgets (a seated
    person's own, else its address's: :class:`~perudo.server.guard.Budgets`); a spectator's
    (other than a ping) on the table's spectator budget too, which the players' never wait
    on; then the table does what it asks."""
    first_hello = isinstance(msg, p.Hello) and not conn.greeted
    if not first_hello and not await _within_budgets(table, conn, msg, budgets):
        return
    spectator = conn.seat is None and not isinstance(msg, p.Ping) and not first_hello
    if spectator and not table.spectator_budget.take():
        _rate_limited(
            conn,
            table.version,
            f"this table's spectators may send {table.settings.table_spectator_rate:g} messages "
            "a second together; this one was ignored",
        )
        return
    try:
        if isinstance(msg, p.Hello):
            await before_hello(table, conn, msg)
        await _dispatch(base, table, conn, msg)
    except TableError as err:
        conn.send(refused(table, err))
    except Exception:
        # A bug must not cost the player their connection: say so and carry on.
        log.exception("table %s: %s message failed", table.id, msg.type)
        _reply_error(
            conn, table.version, "internal", "the server failed on that message; try again"
        )


async def _within_budgets(
    table: LiveTable, conn: Connection, msg: p.ClientMessage, budgets: Budgets
) -> bool:
    """Whether the sender's budgets take ``msg`` (one refused is said, and changes nothing):
    a seated person's own (nobody else's traffic draws on them), else its address's."""
    held = table.seats[conn.seat] if conn.seat is not None else None
    account = held.player_id if held is not None else None
    limits: PersonLimits | ClientLimits | None = budgets.of(table.id, conn.seat, account)
    if limits is None:
        return True
    s = table.settings
    person = isinstance(limits, PersonLimits)
    if not await limits.messages.acquire():
        _rate_limited(
            conn,
            table.version,
            f"too many messages from you: at most {s.person_rate_per_second:g} a second over "
            "all your connections; this one was ignored"
            if person
            else _over_address(s),
        )
        return False
    if isinstance(msg, p.ChatSend) and not await limits.chat.acquire():
        whose = "you" if person else "your address"
        _rate_limited(
            conn,
            table.version,
            f"at most {s.chat_per_second:g} chat lines a second from {whose}; "
            "this one was not sent",
        )
        return False
    return True


def _rate_limited(conn: Connection, version: int | None, message: str) -> None:
    """Refuse a message over a rate limit (saying so at most once a second); a connection
    that keeps flooding (its :attr:`~.Connection.patience` spent) is closed."""
    if not conn.patience.take():
        conn.send(
            p.ErrorMessage(
                code="flooding", message="too many messages over the limits: disconnected"
            ).model_dump_json()
        )
        conn.send_close(1008)
        return
    now = time.monotonic()
    if now - conn.last_limit_error >= 1.0:
        conn.last_limit_error = now
        _reply_error(conn, version, "rate_limited", message)


def _reply_error(conn: Connection, version: int | None, code: str, message: str) -> None:
    conn.send(p.ErrorMessage(code=code, message=message, version=version).model_dump_json())


async def _dispatch(base: str, table: LiveTable, conn: Connection, msg: p.ClientMessage) -> None:
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
        await table.act(conn, msg.action, msg.version, msg.on)
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
        await table.transfer_seat(conn, base)
    elif isinstance(msg, p.MakeHost):
        await table.make_host(conn, msg.seat)
    elif isinstance(msg, p.React):
        table.reactions.post(conn, msg.emote)
    elif isinstance(msg, p.SetOptions):
        await table.set_options(conn, msg.model_dump(exclude={"type"}, exclude_none=True))
