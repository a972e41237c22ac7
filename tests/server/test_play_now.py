"""Play now in one process, through a real server: two people waiting in the heads-up pool are
seated at one new table, started, through the pool socket ``/ws/play``; its refusals are said
in every language; a page that reconnects with its ticket keeps its place."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from tests.server.harness import Client, ServerProcess, run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, with argon2 cheap enough to sign people up."""
    srv = ServerProcess(
        tmp_path_factory.mktemp("playnow"),
        PERUDO_ARGON2_MEMORY_KIB="8192",
        PERUDO_ARGON2_TIME_COST="1",
    ).start()
    yield srv
    srv.stop()


def signed_up(srv: ServerProcess, name: str) -> str:
    """A new account's session cookie (as the page's socket sends it)."""
    out = httpx.post(
        srv.url + "/api/account/signup",
        json={"name": name, "password": "correct horse battery staple"},
        timeout=20,
    )
    assert out.status_code == 201, out.text
    return f"perudo_session={out.cookies['perudo_session']}"


class Waiting:
    """A page's pool socket: records what it receives."""

    def __init__(self, ws_url: str, cookie: str | None = None) -> None:
        self.url = ws_url + "/ws/play"
        self.headers = {"cookie": cookie} if cookie else {}
        self.messages: list[dict[str, Any]] = []
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()

    async def open(self) -> Waiting:
        self.ws = await websockets.connect(self.url, additional_headers=self.headers)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                self.messages.append(json.loads(raw))
                self._arrived.set()
        self._arrived.set()

    async def send(self, **msg: Any) -> None:
        await self.ws.send(json.dumps(msg))

    async def first(self, kind: str, timeout: float = 15.0) -> dict[str, Any]:
        """The first message of ``kind`` received (waiting for it)."""
        deadline = time.monotonic() + timeout
        while True:
            for m in self.messages:
                if m["type"] == kind:
                    return m
            left = deadline - time.monotonic()
            if left <= 0 or (self._reader is not None and self._reader.done()):
                raise TimeoutError(f"no {kind}; got {self.messages[-3:]}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def closed(self, timeout: float = 10.0) -> None:
        assert self._reader is not None
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)

    async def close(self) -> None:
        await self.ws.close()


def test_play_now_seats_two_guests_heads_up_at_one_started_table(server: ServerProcess) -> None:
    async def go() -> None:
        ann = await Waiting(server.ws_url).open()
        await ann.send(type="play_join", preset="perudo", seats=2, wait=60, name="Ann")
        state = await ann.first("pool")
        assert state["seats"] == 2 and not state["rated"]
        assert [w["name"] for w in state["waiting"]] == [None]  # a guest is shown as a guest
        bo = await Waiting(server.ws_url).open()
        await bo.send(type="play_join", preset="perudo", seats=2, wait=60, name="Ann")
        a, b = await ann.first("play_matched"), await bo.first("play_matched")
        assert a["table_id"] == b["table_id"] and {a["seat"], b["seat"]} == {0, 1}
        assert a["invite"] == f"/t/{a['table_id']}"
        seated = await Client(server, a["table_id"], b["token"]).connect()
        await seated.until(lambda: bool(seated.table and seated.table["status"] == "playing"))
        names = {s["name"] for s in seated.table["seats"]}  # type: ignore[index]
        assert names == {"Ann", "Ann 2"}  # two guests of one name, told apart
        await seated.close()
        await ann.close()
        await bo.close()

    run(go())


def test_play_now_refusals_are_said_in_every_language(server: ServerProcess) -> None:
    async def go() -> None:
        page = await Waiting(server.ws_url).open()
        await page.send(type="play_join", seats=2, rated=True)
        err = await page.first("error")
        assert err["code"] == "pool_rated_signed_in"
        assert set(err["texts"]) == {"en", "ko", "it"}
        page.messages.clear()
        await page.send(type="play_join", preset="no such rules", seats=2)
        err = await page.first("error")
        assert err["code"] == "pool_preset" and set(err["texts"]) == {"en", "ko", "it"}
        page.messages.clear()
        await page.send(type="play_leave")
        assert (await page.first("error"))["code"] == "pool_not_waiting"
        page.messages.clear()
        await page.send(type="play_join", seats=3)
        assert (await page.first("error"))["code"] == "bad_message"
        await page.close()

    run(go())


def test_play_now_a_page_that_reconnects_with_its_ticket_keeps_its_place_and_can_leave(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        page = await Waiting(server.ws_url).open()
        await page.send(type="play_join", preset="bluff", seats=4, wait=600, name="Cy")
        first = await page.first("pool")
        await page.close()
        again = await Waiting(server.ws_url).open()
        await again.send(
            type="play_join", preset="bluff", seats=4, wait=600, name="Cy", ticket=first["ticket"]
        )
        state = await again.first("pool")
        assert state["ticket"] == first["ticket"] and len(state["waiting"]) == 1
        await again.send(type="play_leave")
        await again.closed()  # left: the server closes the pool socket
        other = await Waiting(server.ws_url).open()
        await other.send(type="play_join", preset="bluff", seats=4, wait=600, name="Di")
        assert [w["you"] for w in (await other.first("pool"))["waiting"]] == [True]
        await other.close()

    run(go())


def test_rated_play_now_seats_signed_in_people_by_name_at_a_rated_table(
    server: ServerProcess,
) -> None:
    """A rated pool: signed-in people only, shown by name, seated under their accounts at a
    rated table (docs/ratings.md); bots are refused there in words."""

    async def go() -> None:
        ann = await Waiting(server.ws_url, signed_up(server, "AnnRated")).open()
        await ann.send(type="play_join", seats=2, rated=True, bots="easy")
        assert (await ann.first("error"))["code"] == "pool_rated_bots"
        await ann.send(type="play_join", seats=2, rated=True, wait=600)
        state = await ann.first("pool")
        assert state["rated"] and [w["name"] for w in state["waiting"]] == ["AnnRated"]
        bo = await Waiting(server.ws_url, signed_up(server, "BoRated")).open()
        await bo.send(type="play_join", seats=2, rated=True, wait=600, name="ignored")
        seat = await bo.first("play_matched")
        assert (await ann.first("play_matched"))["table_id"] == seat["table_id"]
        table = server.http("GET", f"/api/tables/{seat['table_id']}")
        assert table["rated"] and table["status"] == "playing", table
        assert {s["name"] for s in table["seats"]} == {"AnnRated", "BoRated"}
        await ann.close()
        await bo.close()

    run(go())
