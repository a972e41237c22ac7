"""A connection's messages written straight onto its socket when it takes them
(:class:`perudo.server.connection.Connection`, the server's WebSocket protocol's
:data:`~perudo.server.transport.WRITE_NOW`): in the order sent whatever path each took, a slow
reader held to a bounded queue then disconnected (1013), nothing written after a close, and
the frames themselves read by a real client over a real uvicorn server."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from typing import Any

import pytest
import uvicorn
import websockets

from perudo.server.connection import Connection
from perudo.server.transport import WRITE_NOW, text_frame, websocket_protocol


class FakeSocket:
    """A socket whose buffer is full while :attr:`full` is set (``write_now`` then refuses,
    and the task's send waits for it to drain); everything written, in order, in
    :attr:`wire`."""

    def __init__(self) -> None:
        self.wire: list[str] = []
        self.direct = 0
        self.full = False
        self.drained = asyncio.Event()
        self.drained.set()
        self.closed_with: int | None = None

    def write_now(self, text: str) -> bool:
        if self.full or self.closed_with is not None:
            return False
        self.wire.append(text)
        self.direct += 1
        return True

    async def send_text(self, text: str) -> None:
        await self.drained.wait()
        self.wire.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code

    def fill(self) -> None:
        self.full = True
        self.drained.clear()

    def drain(self) -> None:
        self.full = False
        self.drained.set()


def _conn(sock: FakeSocket) -> Connection:
    conn = Connection(sock.send_text, sock.close, rate=1e9, burst=10**9, write_now=sock.write_now)
    conn.start()
    return conn


def test_messages_reach_the_socket_in_order_whether_written_now_or_queued() -> None:
    async def go() -> None:
        sock = FakeSocket()
        conn = _conn(sock)
        conn.send("1")
        conn.send("2")
        assert sock.wire == ["1", "2"] and sock.direct == 2  # written now, no task's turn
        sock.fill()
        conn.send("3")
        await asyncio.sleep(0)  # the task holds "3", waiting for the socket to drain
        sock.full = False  # the socket would take "4" now, but "3" comes first
        conn.send("4")
        conn.send("5")
        assert sock.wire == ["1", "2"]
        sock.drain()
        for _ in range(10):
            await asyncio.sleep(0)
        assert sock.wire == ["1", "2", "3", "4", "5"]
        conn.send("6")  # the queue is empty again: written now
        assert sock.wire[-1] == "6" and sock.direct == 3
        conn.send_close(1000)
        conn.send("7")  # after the close: never written
        await conn.wait_closed()
        assert sock.wire == ["1", "2", "3", "4", "5", "6"] and sock.closed_with == 1000

    asyncio.run(go())


def test_a_reader_that_stops_reading_is_held_to_the_queue_limit_then_disconnected() -> None:
    async def go() -> None:
        sock = FakeSocket()
        conn = _conn(sock)
        sock.fill()
        for i in range(Connection.QUEUE_LIMIT + 500):
            conn.send(f"m{i}")
        assert conn.closed
        assert conn._queue.qsize() <= Connection.QUEUE_LIMIT + 1  # the messages and the close
        sock.drain()
        await conn.wait_closed()
        assert sock.closed_with == 1013
        assert sock.wire == [f"m{i}" for i in range(len(sock.wire))]  # a prefix, in order
        assert len(sock.wire) <= Connection.QUEUE_LIMIT

    asyncio.run(go())


def test_a_socket_write_that_fails_queues_the_message_for_the_task() -> None:
    async def go() -> None:
        sock = FakeSocket()

        def broken(text: str) -> bool:
            raise OSError("gone")

        conn = Connection(sock.send_text, sock.close, rate=1e9, burst=10**9, write_now=broken)
        conn.start()
        conn.send("a")  # never raises into the table that sends it
        await asyncio.sleep(0)
        assert sock.wire == ["a"]
        await conn.stop()

    asyncio.run(go())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_server_protocol_writes_frames_a_real_client_reads_in_order_then_closes() -> None:
    """Through uvicorn with :func:`websocket_protocol`: ``write_now`` refuses before the
    handshake, while the socket's buffer is over its high-water mark and after the close;
    the frames it writes and those sent through ASGI arrive in order, then the close code."""
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        write = scope["extensions"][WRITE_NOW]["write"]
        await receive()  # websocket.connect
        seen["before_accept"] = write("x")
        await send({"type": "websocket.accept"})
        seen["a"] = write("a")
        await send({"type": "websocket.send", "text": "b"})
        protocol = write.__self__
        protocol.pause_writing()  # as the transport does over its high-water mark
        seen["while_full"] = write("x")
        protocol.resume_writing()
        seen["c"] = write(json.dumps({"n": "ñ" * 70000}))  # a long frame, UTF-8
        await send({"type": "websocket.close", "code": 4000})
        seen["after_close"] = write("x")
        await receive()

    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, ws=websocket_protocol(), log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)

    async def client() -> tuple[list[str], int | None]:
        got: list[str] = []
        async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=None) as ws:
            try:
                while True:
                    got.append(str(await ws.recv()))
            except websockets.ConnectionClosed as closed:
                return got, closed.rcvd.code if closed.rcvd else None

    try:
        got, code = asyncio.run(client())
    finally:
        server.should_exit = True
        thread.join(10)
    assert seen == {
        "before_accept": False,
        "a": True,
        "while_full": False,
        "c": True,
        "after_close": False,
    }
    assert got[:2] == ["a", "b"] and json.loads(got[2]) == {"n": "ñ" * 70000}
    assert len(got) == 3 and code == 4000


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 200_000])
def test_a_text_frame_is_byte_for_byte_the_frame_websockets_writes(size: int) -> None:
    """:func:`~perudo.server.transport.text_frame` (a socket without extensions) frames a
    message as websockets does, across the three lengths of RFC 6455's header."""
    from websockets.frames import OP_TEXT, Frame

    data = ("ñ" * size).encode()[:size]
    assert text_frame(data) == Frame(OP_TEXT, data).serialize(mask=False, extensions=[])
