"""Sockets of a table held by another process than its owner, both ends.

*Socket side*: the process holding the WebSocket reads each message under its own limits and
forwards it to the owner (:meth:`Routes.forward`); what the owner sends back for that socket
(``out`` on the bus) is written to it as it comes.

*Owner side*: a :class:`RemoteConnection` stands for the socket at the table. It is an
ordinary :class:`~perudo.server.connection.Connection` to the table: it has a seat or none,
counts in the seat's presence, and receives exactly what the presenter draws for its seat
(P-70): a process is only ever sent the messages of its own sockets, each drawn for that
socket's seat, so no hidden die crosses to a socket that may not see it. Its messages are
handled one at a time, in order, by the same function as a local socket's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from ..connection import Connection
from ..guard import Budgets

if TYPE_CHECKING:
    from .node import Node

__all__ = ["RemoteConnection", "Routes"]

log = logging.getLogger("perudo.server")

MOVED = 1012
"""The close code of a socket whose table moved to another process (the page reconnects)."""


async def _no_send(_text: str) -> None:  # a remote connection writes through the bus
    return None


async def _no_close(_code: int) -> None:
    return None


def _is_hello(text: Any) -> bool:
    """Whether a forwarded client message is a hello (how a socket starts at a table)."""
    try:
        return bool(json.loads(str(text)).get("type") == "hello")
    except (ValueError, AttributeError):
        return False


class RemoteConnection(Connection):
    """At the owner: a socket held by process ``node`` (its connection ``conn`` there)."""

    def __init__(
        self, routes: Routes, table_id: str, node: str, conn: int, budgets: Budgets
    ) -> None:
        settings = routes.node.settings
        super().__init__(
            _no_send, _no_close, rate=settings.rate_per_second, burst=settings.rate_burst
        )
        self.budgets = budgets
        """Whose budgets its messages draw on (its seat's person, else its client's)."""
        self.routes = routes
        self.table_id = table_id
        self.node = node
        self.remote_id = conn
        self.inbox: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        if not self.closed:
            self.routes.out(self.node, self.remote_id, text, 1000)

    def send_close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.routes.out(self.node, self.remote_id, None, code)


class Routes:
    """Both ends of the sockets linked through the bus, for one :class:`.Node`."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.links: dict[int, tuple[str, str, Connection]] = {}
        """Socket side: our connection id → (table id, owner, connection)."""
        self.remotes: dict[tuple[str, int], RemoteConnection] = {}
        """Owner side: (socket process, its connection id) → the connection at the table."""
        self._outbox: dict[str, list[list[Any]]] = {}
        self._flushing = False
        self._sending: set[asyncio.Task[None]] = set()

    # -- socket side ------------------------------------------------------------------------

    async def forward(
        self, conn: Connection, table_id: str, owner: str, text: str, base: str, client: str
    ) -> None:
        """Send a client message of ``conn`` (whose address is ``client``) to the table's
        owner, which applies the sender's budgets (it knows the socket's seat).

        :raises NoListener: no process received it (the owner died).
        :raises BusDown: Redis cannot be reached (the message was not sent).
        """
        self.links[conn.id] = (table_id, owner, conn)
        await self.node.bus.send(
            owner,
            {
                "op": "msg",
                "from": self.node.id,
                "table": table_id,
                "conn": conn.id,
                "text": text,
                "base": base,
                "client": client,
                "bot": conn.bot_account,
            },
        )

    async def unlink(self, conn: Connection) -> None:
        """``conn``'s socket closed: the owner detaches it from the table."""
        link = self.links.pop(conn.id, None)
        if link is None:
            return
        with contextlib.suppress(Exception):
            await self.node.bus.send(
                link[1], {"op": "gone", "from": self.node.id, "table": link[0], "conn": conn.id}
            )

    def linked_tables(self) -> dict[str, str]:
        """Tables with a socket here driven elsewhere, and their owners."""
        return {table_id: owner for table_id, owner, _ in self.links.values()}

    def close_table(self, table_id: str) -> None:
        """The table's owner changed: its sockets here reconnect (and resume by version)."""
        for table, _owner, conn in list(self.links.values()):
            if table == table_id:
                conn.send_close(MOVED)

    # -- owner side -------------------------------------------------------------------------

    async def on_message(self, data: dict[str, Any]) -> None:
        op = data.get("op")
        if op == "out":
            for conn_id, text, code in data["items"]:
                link = self.links.get(int(conn_id))
                if link is None:
                    continue
                if text is None:
                    link[2].send_close(int(code))
                else:
                    link[2].send(text)
        elif op == "msg":
            key = (str(data["from"]), int(data["conn"]))
            remote = self.remotes.get(key)
            if remote is None:
                if self.node.local(str(data["table"])) is None or not _is_hello(data["text"]):
                    # Not (or no longer) ours, or a socket this process no longer knows (its
                    # process missed a heartbeat and was dropped, :meth:`node_gone`): the
                    # socket reconnects, finds the owner and says hello again.
                    self.out(key[0], key[1], None, MOVED)
                    return
                lobby = self.node.lobby
                assert lobby is not None
                client = data.get("client")
                # No client: a process of an older version, which applied them itself.
                address = None if client is None else lobby.guard.of(str(client))
                budgets = Budgets(lobby.guard, address)
                remote = RemoteConnection(self, str(data["table"]), key[0], key[1], budgets)
                bot = data.get("bot")
                # The bot account the socket's token opened, checked by the socket's process.
                remote.bot_account = None if bot is None else int(bot)
                remote.worker = asyncio.create_task(self._work(remote))
                self.remotes[key] = remote
            remote.inbox.put_nowait((str(data["text"]), str(data.get("base", ""))))
        elif op == "gone":
            remote = self.remotes.pop((str(data["from"]), int(data["conn"])), None)
            if remote is not None:
                remote.inbox.put_nowait(None)
        elif op == "call":
            # Answered in a task of its own: a join (table lock, durable write) must not hold
            # up the bus listener, which delivers every other message and reply.
            task = asyncio.ensure_future(self._answer(data))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _work(self, remote: RemoteConnection) -> None:
        """Handle a remote socket's messages in order; detach it when it is gone."""
        while True:
            item = await remote.inbox.get()
            table = self.node.local(remote.table_id)
            if item is None:
                remote.closed = True
                if table is not None:
                    await table.detach(remote)
                return
            if table is None:
                remote.send_close(MOVED)
                continue
            try:
                await self.node.handle(table, remote, item[0], item[1], remote.budgets)
            except Exception:
                log.exception("table %s: a forwarded message failed", remote.table_id)

    async def node_gone(self, node: str) -> None:
        """Process ``node`` died: its sockets leave their tables (presence is right again)."""
        for key in [k for k in self.remotes if k[0] == node]:
            self.remotes.pop(key).inbox.put_nowait(None)
        self._outbox.pop(node, None)

    def remote_nodes(self) -> set[str]:
        return {node for node, _ in self.remotes}

    def forget_table(self, table_id: str) -> None:
        """This process no longer drives ``table_id``: its remote sockets reconnect."""
        for key, remote in list(self.remotes.items()):
            if remote.table_id == table_id:
                remote.send_close(MOVED)
                del self.remotes[key]
                if remote.worker is not None:
                    remote.worker.cancel()

    def out(self, node: str, conn: int, text: str | None, code: int) -> None:
        """Queue a message for a socket of ``node`` (sent at the end of this loop turn, one
        publish per process)."""
        self._outbox.setdefault(node, []).append([conn, text, code])
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        outbox, self._outbox = self._outbox, {}
        for node, items in outbox.items():
            task = asyncio.ensure_future(self._publish(node, items))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _publish(self, node: str, items: list[list[Any]]) -> None:
        try:
            await self.node.bus.send(node, {"op": "out", "items": items})
        except Exception as err:  # lost: the sockets reconnect when Redis is back
            log.warning("messages for %d sockets of %s lost: %s", len(items), node, err)

    # -- calls (the HTTP routes of a table owned elsewhere) ------------------------------------

    async def _answer(self, data: dict[str, Any]) -> None:
        from ..tables import TableError

        lobby = self.node.lobby
        assert lobby is not None
        table_id = str(data["table"])
        table = self.node.local(table_id)
        try:
            if table is None:
                raise TableError("moved", "the table is moving to another process; try again")
            if data["what"] == "info":
                result: Any = table.info()
            elif data["what"] == "join":
                # A signed-in person's account travels with their join (rated tables).
                who = data.get("player_id")
                seat, token = (
                    await lobby.join(table_id, str(data["name"]))
                    if who is None
                    else await lobby.join(
                        table_id, str(data["name"]), None, int(who), bool(data.get("bot"))
                    )
                )
                result = {"seat": seat, "token": token}
            elif data["what"] == "seated":
                # Who may invite to the table (perudo.server.social): a closed one is none.
                if table.closed:
                    raise TableError("no_table", f"there is no table {table_id[:40]!r}")
                result = {
                    "name": table.name,
                    "status": table.status,
                    "seated": table.holds(int(data["player_id"])),
                }
            else:
                raise TableError("bad_request", f"unknown call {data['what']!r}")
            answer = {"ok": True, "result": result}
        except TableError as err:
            answer = {"ok": False, "code": err.code, "message": err.message}
        except Exception:
            log.exception("table %s: a forwarded %s call failed", table_id, data.get("what"))
            answer = {
                "ok": False,
                "code": "unavailable",
                "message": "the process holding the table failed on that request; try again",
            }
        await self.node.bus.reply(str(data["from"]), int(data["id"]), answer)

    # -- all at once ------------------------------------------------------------------------

    async def reset(self) -> None:
        """After a Redis outage: every linked socket reconnects, on both ends."""
        for _table, _owner, conn in list(self.links.values()):
            conn.send_close(MOVED)
        for key in list(self.remotes):
            self.remotes.pop(key).inbox.put_nowait(None)

    def close_all(self) -> None:
        for _table, _owner, conn in list(self.links.values()):
            conn.send_close(MOVED)
        for remote in self.remotes.values():
            if remote.worker is not None:
                remote.worker.cancel()
        self.remotes.clear()
