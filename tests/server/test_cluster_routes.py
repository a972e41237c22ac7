"""The bus ends of sockets and calls linked across processes (perudo.server.cluster.remote),
driven in this process with a stand-in node: what the owner answers to each bus message."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from tests.server.harness import run

from perudo.server.cluster.remote import MOVED, Routes
from perudo.server.guard import Guard
from perudo.server.settings import Settings


class FakeBus:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.replies: list[tuple[str, int, dict[str, Any]]] = []

    async def send(self, node: str, data: dict[str, Any]) -> None:
        self.sent.append((node, data))

    async def reply(self, node: str, ident: int, data: dict[str, Any]) -> None:
        self.replies.append((node, ident, data))


def owner_of(
    table_id: str, join: Any = None, info: Any = None
) -> tuple[Routes, FakeBus, list[str]]:
    """Routes of a process that drives ``table_id``; the messages its table handled."""
    bus = FakeBus()
    handled: list[str] = []

    async def handle(_table: Any, _conn: Any, text: str, _base: str, _budgets: Any) -> None:
        handled.append(json.loads(text)["type"])

    async def detach(_conn: Any) -> None:
        return None

    table = SimpleNamespace(id=table_id, detach=detach, info=info)
    node = SimpleNamespace(
        settings=Settings(),
        bus=bus,
        handle=handle,
        lobby=SimpleNamespace(join=join, guard=Guard(Settings())),
        local=lambda t: table if t == table_id else None,
    )
    return Routes(node), bus, handled  # type: ignore[arg-type]


def msg(text: dict[str, Any], conn: int = 7) -> dict[str, Any]:
    return {"op": "msg", "from": "S", "table": "t1", "conn": conn, "text": json.dumps(text)}


def test_a_socket_the_owner_dropped_is_told_to_reconnect_not_refused_forever() -> None:
    """A socket process that missed its heartbeat had its sockets dropped at the owner
    (node_gone); its next move, from a socket the owner no longer knows, closes that socket
    with MOVED (it reconnects and says hello again) instead of a hello_first refusal forever."""

    async def go() -> None:
        routes, bus, handled = owner_of("t1")
        await routes.on_message(msg({"type": "hello", "token": None}))
        await asyncio.sleep(0.05)
        assert handled == ["hello"] and ("S", 7) in routes.remotes
        await routes.node_gone("S")
        await asyncio.sleep(0.05)
        await routes.on_message(msg({"type": "act", "action": "1x3", "version": 4}))
        await routes.on_message(msg({"type": "ping"}))
        await asyncio.sleep(0.05)
        assert handled == ["hello"], "a stranger's move reached the table"
        assert ("S", 7) not in routes.remotes
        closes = [item for _, data in bus.sent for item in data["items"]]
        assert closes == [[7, None, MOVED], [7, None, MOVED]]
        # Reconnected, it says hello first: linked again.
        await routes.on_message(msg({"type": "hello", "token": None}, conn=8))
        await asyncio.sleep(0.05)
        assert handled == ["hello", "hello"] and ("S", 8) in routes.remotes

    run(go())


def test_a_slow_forwarded_call_holds_up_nothing_and_a_failed_one_is_answered() -> None:
    """A forwarded join waits on its table in a task of its own: the bus listener goes on
    delivering (here: an info call answered meanwhile); a call failing on an unexpected error
    is answered with an error, not left to time out."""

    async def go() -> None:
        gate = asyncio.Event()

        async def join(table_id: str, name: str) -> tuple[int, str]:
            if name == "boom":
                raise RuntimeError("a bug")
            await gate.wait()
            return 1, "tok"

        routes, bus, _ = owner_of("t1", join, lambda: {"id": "t1"})
        call = {"op": "call", "from": "S", "table": "t1"}
        await asyncio.wait_for(
            routes.on_message({**call, "id": 1, "what": "join", "name": "Bo"}), 1
        )
        await asyncio.wait_for(routes.on_message({**call, "id": 2, "what": "info"}), 1)
        await asyncio.wait_for(
            routes.on_message({**call, "id": 3, "what": "join", "name": "boom"}), 1
        )
        await asyncio.sleep(0.05)
        assert [(i, a["ok"]) for _, i, a in bus.replies] == [(2, True), (3, False)]
        assert bus.replies[1][2]["code"] == "unavailable"
        gate.set()
        await asyncio.sleep(0.05)
        assert bus.replies[2] == ("S", 1, {"ok": True, "result": {"seat": 1, "token": "tok"}})

    run(go())
