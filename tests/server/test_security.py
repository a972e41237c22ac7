"""Issue 14, each defect found by trying the server as an attacker would, shown gone: no dice
of an earlier occupant or game (P-70), no private game found by counting, no client that fills
the server or slows the players, no table frozen by an absent person, no slow or greedy client
held for good, no crash on odd input. Real server processes on loopback, real sockets."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import random
import socket
import sqlite3
import time
from typing import Any

import pytest
from tests.server.harness import (
    Client,
    ServerProcess,
    choose,
    create_at_once,
    die_lists,
    play_until_over,
    run,
)

from perudo.server.guard import Budgets, Guard, PersonLimits, client_key
from perudo.server.hosting import invite_svg
from perudo.server.lobby import Lobby
from perudo.server.settings import Settings
from perudo.server.store import Store
from perudo.server.tables import LiveTable, TableConfig, TableError
from perudo.server.transport import Pacer, guarded_protocol, http_protocol


def _http_from(srv: ServerProcess, source: str, method: str, path: str, body: Any = None) -> Any:
    """An HTTP request from another loopback address (``127.0.0.2``: another client)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers={"content-type": "application/json"})
        r = conn.getresponse()
        return {"status": r.status, **json.loads(r.read())}
    finally:
        conn.close()


async def _play_a_game(srv: ServerProcess, **kw: Any) -> tuple[dict[str, Any], Client, Client]:
    t = srv.create_table(seats=2, dice=1, turn_seconds=0, **kw)
    j = srv.join(t["table_id"], "Bo")
    ann = await Client(srv, t["table_id"], t["token"]).connect()
    bo = await Client(srv, t["table_id"], j["token"]).connect()
    await ann.send({"type": "start"})
    await ann.until(lambda: ann.view is not None and ann.view["phase"] != "deal")
    await play_until_over([ann, bo], random.Random(3))
    await ann.until(lambda: ann.table is not None and ann.table["status"] == "finished")
    return t, ann, bo


# 1 -------------------------------------------------------------------------------------------


def test_p70_a_newcomer_in_a_seat_never_receives_the_previous_occupants_dice(
    server: ServerProcess,
) -> None:
    """Finish a game, rematch, Bo leaves, Cy takes his seat and asks for everything since
    version 1: nothing dealt to Bo (in this game or the last) reaches Cy."""

    async def go() -> None:
        t, ann, bo = await _play_a_game(server)
        await ann.send({"type": "rematch"})
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "open")
        await bo.send({"type": "leave"})
        await ann.until(lambda: ann.table is not None and ann.table["seats"][1] is None)
        j = server.join(t["table_id"], "Cy")
        assert j["seat"] == 1
        cy = await Client(server, t["table_id"], j["token"]).connect(last_version=1)
        await cy.send({"type": "sync", "last_version": 1})
        await cy.next(lambda m: m["type"] in ("update", "snapshot", "table"))
        await cy.ping()
        for m in cy.messages:
            found: list[tuple[str, int | None, tuple[int, ...]]] = []
            die_lists(m, None, found)
            assert all(not dice for _, _, dice in found), m
            for e in m.get("events", []):
                assert e["type"] != "dice_dealt", e
        for c in (ann, bo, cy):
            await c.close()

    run(go())


# 2 -------------------------------------------------------------------------------------------


def test_games_and_tables_have_unguessable_ids_and_private_replays_hide_the_invite(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        t, ann, bo = await _play_a_game(server, private=True)
        assert len(t["table_id"]) >= 16  # 96 random bits
        assert ann.table is not None
        key = ann.table["game_id"]
        assert isinstance(key, str) and len(key) >= 16
        for n in range(1, 4):  # counting finds nothing
            assert server.http("GET", f"/api/games/{n}/replay")["status"] == 404
        replay = server.http("GET", f"/api/games/{key}/replay")
        assert replay["game_id"] == key and replay["table_id"] is None
        assert key not in {g["id"] for g in server.http("GET", "/api/games")["games"]}
        await ann.close()
        await bo.close()

    run(go())


# 3 -------------------------------------------------------------------------------------------


def test_one_client_cannot_fill_the_server_with_tables_and_unattended_ones_expire(
    make_server: Any,
) -> None:
    srv = make_server(
        PERUDO_TABLES_PER_CLIENT="3",
        PERUDO_CREATES_PER_MINUTE="600",
        PERUDO_WAITING_TABLE_SECONDS="1.5",
    ).start()
    made = [srv.create_table(private=True)["table_id"] for _ in range(3)]
    refused = srv.http("POST", "/api/tables", {"name": "t", "player": "A", "private": True})
    assert refused["status"] == 429 and refused["error"] == "client_limit", refused
    # The page says why in the player's language: not "wait a moment" (waiting does not help).
    assert refused["texts"]["en"].startswith("You already have 3 tables waiting for players")
    assert "3개" in refused["texts"]["ko"] and "3 tavoli" in refused["texts"]["it"], refused
    other = _http_from(srv, "127.0.0.2", "POST", "/api/tables", {"name": "mine", "player": "Zoe"})
    assert other["status"] == 200 and "table_id" in other, other
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and srv.http("GET", "/api/tables")["tables"]:
        time.sleep(0.25)
    assert srv.http("GET", "/api/tables")["tables"] == []
    for tid in made:
        assert srv.http("GET", f"/api/tables/{tid}")["status"] == 404
    srv.stop()
    srv.start()
    for tid in [*made, other["table_id"]]:
        assert srv.http("GET", f"/api/tables/{tid}")["status"] == 404
    assert "table_id" in srv.create_table()  # the client's tables expired: it may create again


def test_a_closed_waiting_table_frees_its_place_and_a_restart_counts_the_others_again(
    tmp_path: Any,
) -> None:
    """One process: a waiting table that closes (expires) gives its creator's place back at
    once, and after a restart the restored waiting tables count again for their client (the
    client is stored with the table): restarting the server does not reset the limit."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}",
        tables_per_client=2,
        creates_per_minute=60000,
    )
    cfg = TableConfig.build(preset="perudo", seats=2)

    async def create(lobby: Lobby) -> LiveTable:
        table, _, _ = await lobby.create(
            name="t", player="Ann", config=cfg, private=True, client="198.51.100.7"
        )
        return table

    async def opened() -> Lobby:
        store = Store(settings.database_url)
        await store.open()
        lobby = Lobby(store, settings)
        await lobby.open()
        return lobby

    async def closed(lobby: Lobby) -> None:
        await lobby.close()
        await lobby.store.close()

    async def go() -> None:
        lobby = await opened()
        first, second = await create(lobby), await create(lobby)
        with pytest.raises(TableError, match="2 tables waiting"):
            await create(lobby)
        second.unattended_since = None  # someone is there: only the first expires
        assert await lobby.expire(time.monotonic() + 10**6) == 1
        await asyncio.gather(*lobby._tasks)
        await create(lobby)
        await closed(lobby)
        lobby = await opened()
        assert len(lobby.tables) == 2 and first.id not in lobby.tables
        with pytest.raises(TableError, match="2 tables waiting"):
            await create(lobby)
        await closed(lobby)

    asyncio.run(go())


def test_simultaneous_creations_never_pass_the_open_tables_limit_in_one_process(
    tmp_path: Any,
) -> None:
    """``PERUDO_MAX_OPEN_TABLES`` = 3 and eight people creating a table at the same moment:
    exactly three tables are made, the five others refused in words (``too_many_tables``),
    and every refused creator's waiting place is given back."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}",
        max_open_tables=3,
        creates_per_minute=60000,
    )

    async def go() -> None:
        store = Store(settings.database_url)
        await store.open()
        lobby = Lobby(store, settings)
        await lobby.open()
        try:
            made, refused = await create_at_once([lobby], 8)
            assert len(made) == 3 and len(refused) == 5, refused
            assert all(e.code == "too_many_tables" for e in refused)
            assert len(lobby.tables) == 3 and await store.count_live_tables() == 3
            assert sum(len(held) for held in lobby.guard.waiting.held.values()) == 3
        finally:
            await lobby.close()
            await store.close()

    asyncio.run(go())


# 4 -------------------------------------------------------------------------------------------


def test_many_connections_of_one_client_share_its_budgets_and_chat_is_capped_per_table(
    make_server: Any,
) -> None:
    """Twenty spectator sockets from one address, each sending 20 chat lines at once: the
    table's chat budget (and the client's) lets only a few through, the rest are refused
    with an error; the store keeps at most ``CHAT_STORED_PER_TABLE`` lines."""
    srv = make_server(
        PERUDO_CHAT_PER_SECOND="1",
        PERUDO_TABLE_CHAT_PER_SECOND="4",
        PERUDO_CLIENT_RATE_PER_SECOND="20",
    ).start()

    async def go() -> None:
        t = srv.create_table()
        watchers = [await Client(srv, t["table_id"]).connect() for _ in range(20)]
        started = time.monotonic()
        for w in watchers:
            for i in range(20):
                await w.send({"type": "chat", "text": f"spam {i}"})
        await asyncio.sleep(1.5)  # pings would be over the client's budget too
        elapsed = time.monotonic() - started
        lines = [m for m in watchers[0].messages if m["type"] == "chat"]
        # Table: bursts of 10, 4 a second; the client: bursts of 5, 1 a second.
        assert len(lines) <= 5 + elapsed * 1 + 1, (len(lines), elapsed)
        refused = [m for w in watchers for m in w.messages if m["type"] == "error"]
        assert refused and all(m["code"] == "rate_limited" for m in refused)
        for w in watchers:
            await w.close()

    run(go())
    srv.stop()
    srv2 = make_server(
        PERUDO_CHAT_STORED_PER_TABLE="10",
        PERUDO_CHAT_PER_SECOND="1000",
        PERUDO_TABLE_CHAT_PER_SECOND="1000",
        PERUDO_RATE_PER_SECOND="1000",
        PERUDO_RATE_BURST="1000",
    ).start()

    async def flood() -> None:
        t = srv2.create_table()
        w = await Client(srv2, t["table_id"]).connect()
        for i in range(120):
            await w.send({"type": "chat", "text": f"line {i}"})
            if i % 20 == 19:
                await w.ping()
        await w.close()

    run(flood())
    with sqlite3.connect(srv2.db) as db:
        (stored,) = db.execute("select count(*) from chat_messages").fetchone()
    assert stored <= 10 + 50  # pruned about once per 50 lines


# 5 -------------------------------------------------------------------------------------------


def test_a_seat_taken_over_http_but_never_connected_gets_a_stand_in(
    server: ServerProcess,
) -> None:
    """No turn timer; Bo takes a seat and never opens the table: after the drop grace a bot
    plays for him and the game reaches its end."""

    async def go() -> None:
        t = server.create_table(seats=2, dice=2, turn_seconds=0)
        server.join(t["table_id"], "Bo")
        ann = await Client(server, t["table_id"], t["token"]).connect()
        await ann.send({"type": "start"})
        await play_until_over([ann], random.Random(5), timeout=60)
        assert ann.table is not None
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "finished")
        await ann.close()

    run(go())


# 6 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", ["httptools", "h11"])
def test_slow_headers_are_cut_off_and_one_peer_holds_few_connections(
    make_server: Any, protocol: str
) -> None:
    """With either of uvicorn's HTTP implementations (h11 is what runs where httptools is
    not installed)."""
    srv = make_server(
        PERUDO_HEADER_TIMEOUT="1",
        PERUDO_CONNECTIONS_PER_CLIENT="5",
        PERUDO_HTTP_PROTOCOL=protocol,
    ).start()
    socks = []
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        s.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")  # never finished
        socks.append(s)
    extra = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    assert extra.recv(100) == b""  # over the cap: closed at once
    extra.close()
    for s in socks:
        assert s.recv(100) == b""  # closed within the header timeout (blocks at most 10 s)
        s.close()
    # A whole request still gets its answer, and so do the next ones on a kept-alive
    # connection (the clock restarts with each request's first byte).
    assert srv.http("GET", "/api/tables") == {"tables": []}
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        for _ in range(2):
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            while not answer.endswith(b"}"):
                answer += s.recv(4096)
            assert answer.startswith(b"HTTP/1.1 200")
            time.sleep(0.6)
        s.sendall(b"GET /healthz HTTP/1.1\r\n")  # half a request: cut off again
        assert s.recv(4096) == b""


def test_the_guard_wraps_either_http_implementation() -> None:
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    for name, base in (("h11", H11Protocol), ("httptools", HttpToolsProtocol)):
        settings = Settings(http_protocol=name)
        assert http_protocol(name) is base
        assert issubclass(guarded_protocol(settings), base)


def test_a_silent_socket_is_closed_and_one_client_opens_few_sockets(make_server: Any) -> None:
    srv = make_server(PERUDO_WS_IDLE_SECONDS="1", PERUDO_CONNECTIONS_PER_CLIENT="3").start()

    async def go() -> None:
        t = srv.create_table()
        quiet = await Client(srv, t["table_id"]).connect()
        err = await quiet.error(timeout=10)
        assert err["code"] == "idle"
        assert quiet._reader is not None
        await asyncio.wait_for(quiet._reader, 5)  # and the server closed it
        # One that speaks more often than the idle time is never closed: its deadline
        # moves on with each message (routes.socket.IdleWatch), over several idle times.
        talker = await Client(srv, t["table_id"]).connect()
        for _ in range(5):
            await asyncio.sleep(0.3)
            await talker.ping()
        assert not any(m["type"] == "error" for m in talker.messages)
        await talker.close()
        open_ = [await Client(srv, t["table_id"]).connect() for _ in range(3)]
        fourth = await Client(srv, t["table_id"]).connect(hello=False)
        err = await fourth.error()
        assert err["code"] == "too_many_connections"
        for c in open_:
            await c.close()

    run(go())


# 7 -------------------------------------------------------------------------------------------


def test_a_crowd_of_spectators_costs_table_messages_in_proportion_to_its_size(
    make_server: Any,
) -> None:
    """60 spectators arrive: each receives a few table messages, not one per arrival (which
    made N connections cost N² messages)."""
    srv = make_server(PERUDO_PRESENCE_DELAY="1", PERUDO_SPECTATOR_COUNT_DELAY="1").start()

    async def go() -> None:
        t = srv.create_table()
        crowd = await asyncio.gather(*(Client(srv, t["table_id"]).connect() for _ in range(60)))
        await asyncio.sleep(2.5)
        tables = sum(1 for c in crowd for m in c.messages if m["type"] == "table")
        assert tables <= 4 * len(crowd), tables
        assert all(c.table is not None and c.table["spectators"] == 60 for c in crowd)
        for c in crowd:
            await c.close()

    run(go())


def test_spectators_get_every_public_event_in_fewer_updates_and_the_table_caps_them(
    make_server: Any,
) -> None:
    """A crowd's cost per move: the spectators' update is gathered for
    ``PERUDO_SPECTATOR_DELAY`` and drawn once for them all, so a spectator receives fewer
    updates than a seated player while a bot answers at once, yet every public event, in
    order (P-70: and nothing private). A table holds ``PERUDO_SPECTATORS_PER_TABLE``."""
    srv = make_server(PERUDO_SPECTATOR_DELAY="0.3", PERUDO_SPECTATORS_PER_TABLE="2").start()

    async def go() -> None:
        t = srv.create_table(seats=2, dice=2, turn_seconds=0)
        tid = t["table_id"]
        ann = await Client(srv, tid, t["token"]).connect()
        watchers = [await Client(srv, tid).connect() for _ in range(2)]
        third = await Client(srv, tid).connect(hello=False)
        await third.send({"type": "hello"})
        err = await third.error()
        assert err["code"] == "too_many_spectators"
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.send({"type": "start"})
        await ann.until(lambda: ann.view is not None and ann.view["phase"] != "deal")
        await play_until_over([ann], random.Random(8))
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "finished")
        last = ann.version
        for w in watchers:
            await w.until(lambda w=w: w.version >= last)
            seen = [e for m in w.messages if m["type"] == "update" for e in m["events"]]
            public = [
                e
                for m in ann.messages
                if m["type"] == "update"
                for e in m["events"]
                if e["type"] not in ("dice_dealt", "dice_rerolled")
            ]
            assert [e["version"] for e in seen] == [e["version"] for e in public]
            assert not [e for e in seen if e["type"] in ("dice_dealt", "dice_rerolled")]
            updates = sum(1 for m in w.messages if m["type"] == "update")
            assert updates < sum(1 for m in ann.messages if m["type"] == "update")
        for c in (ann, *watchers, third):
            await c.close()

    run(go())


def test_seats_taken_and_invite_codes_are_limited_per_client_and_codes_are_cached(
    make_server: Any,
) -> None:
    srv = make_server(
        PERUDO_JOINS_PER_MINUTE="1",
        PERUDO_JOINS_BURST="2",
        PERUDO_INVITES_PER_MINUTE="1",
        PERUDO_INVITES_BURST="2",
    ).start()
    tid = srv.create_table(seats=6)["table_id"]
    for name in ("B", "C"):
        assert "token" in _http_from(
            srv, "127.0.0.2", "POST", f"/api/tables/{tid}/join", {"name": name}
        )
    out = _http_from(srv, "127.0.0.2", "POST", f"/api/tables/{tid}/join", {"name": "D"})
    assert out["status"] == 429 and out["error"] == "client_limit", out
    assert "token" in _http_from(srv, "127.0.0.3", "POST", f"/api/tables/{tid}/join", {"name": "E"})
    seats = srv.http("GET", f"/api/tables/{tid}")["seats"]
    assert [s["name"] for s in seats if s is not None] == ["Ann", "B", "C", "E"]  # not D

    def qr(source: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(
            "127.0.0.1", srv.port, timeout=10, source_address=(source, 0)
        )
        try:
            conn.request("GET", f"/api/tables/{tid}/invite.svg")
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()

    first, second, third = qr("127.0.0.4"), qr("127.0.0.4"), qr("127.0.0.4")
    assert first[0] == second[0] == 200 and first[1] == second[1]
    assert third[0] == 429 and json.loads(third[1])["error"] == "client_limit"
    assert qr("127.0.0.5")[0] == 200
    # Drawn once per link (the cache is bounded).
    invite_svg.cache_clear()
    invite_svg("http://example.org/t/x")
    invite_svg("http://example.org/t/x")
    info = invite_svg.cache_info()
    assert (info.hits, info.misses, info.maxsize) == (1, 1, 256)


def test_an_ipv6_client_is_its_64_and_ipv4_is_its_address() -> None:
    """Per-client limits key an IPv6 peer on its /64 (one subscriber holds a whole /64), an
    IPv4 peer on its address."""
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("10.0.0.1") != client_key("10.0.0.2")
    assert client_key("::ffff:10.0.0.1") == "10.0.0.1"
    guard = Guard(Settings(connections_per_client=2))

    async def go() -> None:
        assert await guard.open_connection("2001:db8:1:2::1")
        assert await guard.open_connection("2001:db8:1:2::2")
        assert not await guard.open_connection("2001:db8:1:2:abcd::3")  # same /64
        assert await guard.open_connection("2001:db8:1:3::1")  # another /64
        assert await guard.open_connection("10.0.0.1")
        assert await guard.open_connection("10.0.0.1")
        assert not await guard.open_connection("10.0.0.1")
        assert await guard.open_connection("10.0.0.2")
        guard.close_connection("2001:db8:1:2::1")
        assert await guard.open_connection("2001:db8:1:2::9")

    asyncio.run(go())


# 8, 9 ----------------------------------------------------------------------------------------


def test_deep_nesting_gets_an_error_reply_and_the_socket_lives_on(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table()
        a = await Client(server, t["table_id"], t["token"]).connect()
        await a.send("[" * 1500 + "]" * 1500)
        err = await a.error()
        assert err["code"] == "bad_json" and "nested" in err["message"]
        await a.ping()
        await a.close()

    run(go())
    assert "RecursionError" not in server.log.read_text()


def test_oversize_ids_are_not_found_not_server_errors(server: ServerProcess) -> None:
    assert server.http("GET", "/api/games/99999999999999999999999/replay")["status"] == 404
    assert server.http("GET", "/api/games/" + "7" * 3000 + "/replay")["status"] == 404
    assert server.http("GET", "/api/tables/" + "x" * 3000)["status"] == 404
    joined = server.http("POST", "/api/tables/" + "x" * 3000 + "/join", {"name": "Eve"})
    assert joined["status"] == 404 and len(joined["message"]) < 200


# 10 ------------------------------------------------------------------------------------------


def test_names_are_unique_per_table_and_names_and_chat_are_cleaned(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(player="Ann")
        tid = t["table_id"]
        for name in ("Ann", "ann", "ＡＮＮ", "Spectator", "Easy bot 1"):
            out = server.http("POST", f"/api/tables/{tid}/join", {"name": name})
            assert out["status"] == 409 and out["error"] == "name_taken", (name, out)
        j = server.join(tid, "Cy\u200b\u202e\x00")
        ann = await Client(server, tid, t["token"]).connect()
        assert ann.table is not None and ann.table["seats"][j["seat"]]["name"] == "Cy"
        await ann.send({"type": "chat", "text": "hi\u202e dlrow\u200b\u2066\x00 !"})
        line = await ann.next(lambda m: m["type"] == "chat")
        assert line["entry"]["text"] == "hi dlrow !"
        await ann.close()

    run(go())


# 11 ------------------------------------------------------------------------------------------


def test_turn_seconds_must_be_none_or_a_sensible_time(server: ServerProcess) -> None:
    for bad in (1e-9, 0.01, 601):
        out = server.http("POST", "/api/tables", {"name": "t", "player": "A", "turn_seconds": bad})
        assert out["status"] == 400 and "turn" in out["message"], out
    assert "table_id" in server.create_table(turn_seconds=0)
    with pytest.raises(ValueError, match="turn timer"):
        TableConfig.build(preset="perudo", seats=2, turn_seconds=1)
    assert TableConfig.build(preset="perudo", seats=2, turn_seconds=5).turn_seconds == 5


# Arrivals paced ------------------------------------------------------------------------------


class _Transport:
    """A stand-in transport for :class:`Pacer`: paused or reading, closed or not."""

    def __init__(self) -> None:
        self.paused = False
        self.closing = False

    def pause_reading(self) -> None:
        self.paused = True

    def is_closing(self) -> bool:
        return self.closing


def test_the_pacer_lets_new_connections_in_a_few_per_turn_taking_turns_by_client() -> None:
    """A crowd arriving in one turn of the loop is let in ``per_turn`` per turn; the
    waiting take turns by client (a newcomer from another address is not behind the whole
    crowd); one closed while waiting gives its place up; the pace a second holds."""

    async def go() -> None:
        pacer = Pacer(per_turn=2, per_second=1e9)
        turns: list[list[str]] = [[]]

        def arrive(client: str, name: str) -> _Transport:
            t = _Transport()
            if pacer.take():
                turns[-1].append(name)
            else:
                pacer.wait(client, t, lambda: turns[-1].append(name))  # type: ignore[arg-type]
            return t

        for i in range(5):
            arrive("a", f"a{i}")
        arrive("b", "b0")
        gone = arrive("c", "c0")
        gone.closing = True  # closed by its client (or the header timeout) while waiting
        assert turns == [["a0", "a1"]] and pacer.held == 5
        while pacer.waiting:
            turns.append([])
            await asyncio.sleep(0)
        assert [t for t in turns[1:] if t] == [["a2", "b0"], ["a3", "a4"]]

        slow = Pacer(per_turn=4, per_second=20.0)
        loop = asyncio.get_running_loop()
        started, done = loop.time(), []
        for i in range(10):
            t = _Transport()
            if slow.take():
                done.append(i)
            else:
                slow.wait(f"client{i}", t, lambda i=i: done.append(i))  # type: ignore[arg-type]
        assert done == [0, 1, 2, 3]  # a burst of per_turn, then the pace
        while slow.waiting:
            await asyncio.sleep(0.01)
        assert done == list(range(10))
        assert loop.time() - started >= 6 / 20.0 * 0.9

    run(go())


def test_a_players_move_is_answered_while_a_crowd_waits_to_be_let_in(make_server: Any) -> None:
    """A crowd of sockets arriving from one address waits its turn (a few let in per turn
    of the loop, ``PERUDO_CONNECTIONS_PER_SECOND``), and meanwhile a seated player's move is
    answered and a newcomer from another address is let in ahead of the crowd's rest;
    then every one of the crowd is let in. At ``PERUDO_LOG_LEVEL=info`` the crowd wrote no
    log line per socket (uvicorn's ``[accepted]``, ``connection open``), the HTTP requests
    theirs."""
    srv = make_server(
        PERUDO_CONNECTIONS_PER_SECOND="8", PERUDO_CONNECTIONS_PER_TURN="1", PERUDO_LOG_LEVEL="info"
    ).start()
    upgrade = (
        "GET /ws/tables/{} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )

    async def go() -> None:
        t = srv.create_table(seats=2, dice=5, turn_seconds=0)
        ann = await Client(srv, t["table_id"], t["token"]).connect()
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.send({"type": "start"})
        await ann.until(ann.my_turn)
        let_in: list[str] = []

        async def knock(source: str, name: str) -> asyncio.StreamWriter:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", srv.port, local_addr=(source, 0)
            )
            writer.write(upgrade.format(t["table_id"]).encode())
            await writer.drain()

            async def answered() -> None:
                line = await reader.readline()
                assert line.startswith(b"HTTP/1.1 101"), line
                let_in.append(name)

            tasks.append(asyncio.create_task(answered()))
            return writer

        tasks: list[asyncio.Task[None]] = []
        crowd = [await knock("127.0.0.2", f"crowd{i}") for i in range(10)]
        assert ann.view is not None
        await ann.act(choose(ann.view, random.Random(1)))
        mine = await ann.next(lambda m: m["type"] in ("update", "error"))
        assert mine["type"] == "update"
        assert len(let_in) < 10  # the move was answered while the crowd waited
        newcomer = await knock("127.0.0.3", "newcomer")
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        assert len(let_in) == 11
        assert let_in.index("newcomer") < 10  # ahead of the crowd's last ones
        for w in (*crowd, newcomer):
            w.close()
        await ann.close()

    run(go())
    log = srv.log.read_text()
    assert '"POST /api/tables HTTP/1.1" 200' in log
    assert "[accepted]" not in log and "connection open" not in log


def test_a_crowd_arriving_at_one_version_costs_one_spectators_snapshot(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """30 spectators greeted at one version of a game are sent one snapshot, drawn once and
    shared; a change draws the next arrival a new one. It is the public view (P-70: no hand,
    no seat) while the seated player's has their hand. The real store and lobby, in
    process."""
    from perudo.server.connection import Connection
    from perudo.server.lobby import Lobby
    from perudo.server.protocol import Hello
    from perudo.server.store import Store
    from perudo.server.tables import presenter

    drawn: list[int | None] = []
    draw = presenter._snapshot

    def counted(table: Any, seat: int | None) -> str:
        drawn.append(seat)
        return draw(table, seat)

    monkeypatch.setattr(presenter, "_snapshot", counted)
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 's.db'}", bot_delay=0, round_pause=0
    )

    async def go() -> None:
        store = Store(settings.database_url)
        await store.open()
        lobby = Lobby(store, settings)
        await lobby.open()
        conns: list[Connection] = []
        try:
            cfg = TableConfig.build(preset="perudo", seats=2, dice=5, turn_seconds=0)
            table, _, token = await lobby.create(name="t", player="A", config=cfg, private=False)

            def arrive() -> tuple[Connection, list[str]]:
                box: list[str] = []

                async def send(text: str) -> None:
                    box.append(text)

                async def close(code: int) -> None:
                    pass

                conn = Connection(send, close, rate=1e9, burst=10**9)
                conn.start()
                conns.append(conn)
                return conn, box

            host, _ = arrive()
            await table.hello(host, Hello(type="hello", token=token))
            await table.add_bot(host, "easy", None)
            await table.start(host)
            await asyncio.sleep(0.2)  # the deal, the bot's move if it opens: A's turn now
            version = table.version
            drawn.clear()
            crowd = [arrive() for _ in range(30)]
            for conn, _ in crowd:
                await table.hello(conn, Hello(type="hello"))
            await asyncio.sleep(0.05)
            assert table.version == version and drawn == [None]
            firsts = {box[0] for _, box in crowd}
            assert len(firsts) == 1
            first = json.loads(next(iter(firsts)))
            assert first["type"] == "snapshot" and first["seat"] is None
            assert not first["view"]["hand"] and first["view"]["seat"] is None
            assert json.loads(table.snapshot(0))["view"]["hand"]  # the seat's own has it
            await table.chat.post(host, "hello")  # a change: the next arrival's is new
            late, _ = arrive()
            await table.hello(late, Hello(type="hello"))
            assert drawn == [None, 0, None]
        finally:
            for conn in conns:
                await table.detach(conn)
                await conn.stop()
            await lobby.close()
            await store.close()

    run(go())


# Players, not just seats, point 6 ---------------------------------------------------------


def test_a_seated_players_moves_never_wait_on_other_peoples_traffic_from_their_address(
    make_server: Any,
) -> None:
    """100 spectator sockets from the players' own address (friends on one Wi-Fi, phones
    behind a carrier's NAT) chat, a line a second each, and keep the address's budgets spent
    (they are refused, ``rate_limited``: a small budget here, 2 messages a second, so that it
    is spent whenever a player's message comes); meanwhile two people seated at that table
    connect from the same address and play a whole game: every move is applied and none of
    their messages is refused, for each person's budgets are their own
    (:func:`perudo.server.guard.person_key`). The other limits are the defaults (100 sockets
    from one address among them)."""
    defaults = Settings()
    assert defaults.connections_per_client > 100, "a shared address holds 100 sockets"
    srv = make_server(
        PERUDO_CONNECTIONS_PER_CLIENT=str(defaults.connections_per_client),
        PERUDO_CLIENT_RATE_PER_SECOND="2",
        PERUDO_CHAT_PER_SECOND=str(defaults.chat_per_second),
        PERUDO_TABLE_CHAT_PER_SECOND=str(defaults.table_chat_per_second),
        PERUDO_TABLE_SPECTATOR_RATE=str(defaults.table_spectator_rate),
    ).start()

    async def go() -> None:
        t = srv.create_table(seats=2, dice=2, turn_seconds=0)
        tid = t["table_id"]
        bo_token = srv.join(tid, "Bo")["token"]
        chatters = [await Client(srv, tid).connect() for _ in range(100)]
        stop = asyncio.Event()

        async def chat(w: Client) -> None:
            i = 0
            with contextlib.suppress(Exception):
                while not stop.is_set():  # a line a second each: 100 from the address
                    await w.send({"type": "chat", "text": f"hello {i}"})
                    i += 1
                    await asyncio.sleep(1.0)

        flood = [asyncio.create_task(chat(w)) for w in chatters]

        def address_spent() -> bool:
            return any(
                m["type"] == "error"
                and m["code"] == "rate_limited"
                and "your address" in m["message"]
                for w in chatters
                for m in w.messages
            )

        await chatters[0].until(address_spent, 30)
        ann = await Client(srv, tid, t["token"]).connect()
        bo = await Client(srv, tid, bo_token).connect()
        await ann.send({"type": "start"})
        await ann.until(lambda: ann.view is not None and ann.view["phase"] == "bidding")
        await play_until_over([ann, bo], random.Random(6), timeout=120)
        stop.set()
        await asyncio.gather(*flood)
        for p in (ann, bo):
            refused = [m for m in p.messages if m["type"] == "error"]
            assert not [m for m in refused if m["code"] in ("rate_limited", "flooding")], refused
        assert ann.view is not None and ann.view["phase"] == "game_over"
        for w in [ann, bo, *chatters]:
            await w.close()

    run(go())


def test_a_signed_in_person_has_one_budget_over_all_their_seats_and_a_guest_one_per_seat() -> None:
    """Limits keyed on the person (issue "Players, not just seats", point 6): a seat taken by
    a signed-in account draws on that account's budget at every table; a guest's seat on its
    own; a socket without a seat on its address's."""
    guard = Guard(Settings())
    address = guard.of("203.0.113.9")
    one, two = Budgets(guard, address), Budgets(guard, address)
    ann_here = one.of("tableA", 0, account=7)
    ann_there = two.of("tableB", 3, account=7)
    assert isinstance(ann_here, PersonLimits) and ann_here is ann_there
    guest_a, guest_b = one.of("tableA", 1), two.of("tableA", 2)
    assert isinstance(guest_a, PersonLimits) and guest_a is not guest_b
    assert guest_a is not ann_here
    assert one.of("tableA", None) is address
