"""Several ``perudo serve`` processes on one PostgreSQL and one Redis (perudo.server.cluster).

Real parts throughout: Debian's PostgreSQL and Redis (tests/server/services.py), real
``perudo serve`` processes (tests/server/cluster.py), Debian's nginx balancing them with the
repository's ``deploy/nginx/cluster.conf``, and WebSocket clients that reconnect like the
page. Leases last 1.5 s here (``PERUDO_LEASE_SECONDS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from redis import asyncio as aioredis
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from tests.server.cluster import (
    STARTUP,
    Endpoint,
    Player,
    Processes,
    check_events_against_log,
    play_on,
    replay,
    stored_log,
)
from tests.server.harness import ROOT, ServerProcess, create_at_once, die_lists, run
from tests.server.nginx import NginxBalancer, require_nginx

from perudo.core.views import legal_texts
from perudo.server.cluster.bus import Bus, BusDown, NoListener, channel
from perudo.server.cluster.lease import ClusterRunning, Leases, leave_cluster_mode
from perudo.server.cluster.limits import SharedLimits, SharedWaitingTables
from perudo.server.cluster.node import Node
from perudo.server.guard import Guard, WaitingTables
from perudo.server.lobby import Lobby
from perudo.server.routes.socket import handle
from perudo.server.settings import Settings
from perudo.server.store import ChatRow, Fenced, SeatRow, Store
from perudo.server.tables import LiveTable, TableConfig, TableError


@pytest.fixture
def cluster(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> Iterator[Callable[..., Processes]]:
    made: list[Processes] = []

    def make(count: int = 2, **env: str) -> Processes:
        procs = Processes(tmp_path, postgres_url, redis_url, count, **env)
        made.append(procs)  # stopped after the test even if one fails to start
        return procs.start()

    yield make
    for procs in made:
        procs.stop()


def keep_going(view: dict[str, Any]) -> str:
    """Raise (the lowest raise) most of the time: games last long enough to fail over."""
    legal = legal_texts(view["legal"])
    if "dudo" in legal and random.random() < 0.25:
        return "dudo"
    raises = [a for a in legal if "x" in a]
    return raises[0] if raises else legal[0]


async def fresh_view(endpoint: Endpoint, table_id: str, token: str | None) -> dict[str, Any]:
    """The view a page loaded now would get."""
    p = await Player(endpoint, table_id, token).connect()
    snap = next(m for m in p.messages if m["type"] == "snapshot")
    await p.close()
    return dict(snap["view"])


def same_view(a: dict[str, Any] | None, b: dict[str, Any]) -> None:
    """Views equal but for what only snapshots carry: ``past`` (updates carry it as a tail),
    ``rules`` and ``rolloff`` (a game never changes them)."""
    assert a is not None
    once = ("past", "rules", "rolloff")
    assert {k: v for k, v in a.items() if k not in once} == {
        k: v for k, v in b.items() if k not in once
    }


async def two_people(procs: Processes) -> tuple[str, dict[str, Any], str, Player, Player]:
    """A table created at the first process by Ann, Bo joined through the second (forwarded
    to the owner); Ann connected at the first, Bo at the second; the game started and in
    its first round. (table id, creation answer, Bo's token, Ann, Bo)"""
    a, b = procs.servers
    t = a.create_table(seats=2, dice=3)
    tid = t["table_id"]
    bo_token = b.join(tid, "Bo")["token"]
    ann = await Player(Endpoint(a.ws_url), tid, t["token"]).connect()
    bo = await Player(Endpoint(b.ws_url), tid, bo_token).connect()
    await ann.send({"type": "start"})
    for p in (ann, bo):
        await p.until(lambda p=p: p.view is not None and p.view["phase"] == "bidding")  # type: ignore[misc]
    return tid, t, bo_token, ann, bo


# -- the store and the lease, in this process -------------------------------------------------


def test_the_database_refuses_every_write_under_a_lease_taken_over(postgres_url: str) -> None:
    """The fencing token is the database's check, not a clock's: once another process took
    the lease over (token 2), writes carrying token 1, or none, are refused whole."""

    async def go() -> None:
        a, b = Store(postgres_url), Store(postgres_url)
        await a.open()
        await b.open()
        assert a.engine is not None and b.engine is not None
        la, lb = Leases(a.engine, "A", 0.3), Leases(b.engine, "B", 0.3)
        await la.install()
        held_a: dict[str, int] = {}
        held_b: dict[str, int] = {}
        a.fence_of, b.fence_of = held_a.get, held_b.get
        try:
            token = await la.claim("t1")
            assert token == 1
            held_a["t1"] = token
            seats = [
                SeatRow(0, "human", "Ann", None, None, True),
                SeatRow(1, "bot", "B", None, "easy"),
            ]
            await a.create_table("t1", "t", {}, False, seats, 1)
            gid, key = await a.start_game("t1", {}, ["Ann", "B"], [[6, 2]], seats, 2)
            await a.append_actions(gid, 0, [(None, "deal 1 2")], 3, "t1")
            assert await lb.claim("t1") is None, "a live lease cannot be claimed"
            await asyncio.sleep(0.4)
            assert await lb.claim("t1") == 2
            held_b["t1"] = 2
            # B writes the table's row first; an UPDATE that does not name its token carries
            # none (not B's, left in the row) and is refused.
            await b.set_status("t1", "playing", 4)
            async with b.engine.connect() as conn:
                with pytest.raises(DBAPIError, match="perudo_fenced"):
                    await conn.execute(text("UPDATE tables SET version = 9 WHERE id = 't1'"))
            # A still believes it holds the table (its memory says token 1): refused.
            with pytest.raises(Fenced):
                await a.set_config("t1", {}, 5)
            with pytest.raises(Fenced):
                await a.set_status("t1", "finished", 5)
            with pytest.raises(Fenced):
                await a.start_game("t1", {}, ["Ann", "B"], [[6, 2]], seats, 5)
            with pytest.raises(Fenced):
                await a.append_actions(gid, 1, [(0, "1x3")], 4, "t1")
            with pytest.raises(Fenced):
                await a.set_seats("t1", seats, 5)
            with pytest.raises(Fenced):
                await a.add_chat("t1", ChatRow(0, "Ann", "hi", 0.0, 5))
            with pytest.raises(Fenced):
                await a.finish_game("t1", gid, 0, 6, [(0, "dudo")], 1)
            held_a.clear()  # no token at all: refused as well
            with pytest.raises(Fenced):
                await a.append_actions(gid, 1, [(0, "1x3")], 4, "t1")
            await b.append_actions(gid, 1, [(1, "1x4")], 4, "t1")
            assert await la.renew() == {}, "A's renewal finds the table gone"
            assert await lb.renew() == {"t1": 2}
            game = await b.game(key)
            assert game is not None and game.moves == [(None, "deal 1 2"), (1, "1x4")]
            # One process cannot leave the multi-process mode under live leases.
            with pytest.raises(ClusterRunning, match="PERUDO_REDIS_URL"):
                await leave_cluster_mode(a.engine)
            assert await lb.renew() == {"t1": 2}, "the refused start changed nothing"
            # Back to one process on this database: no lease, no fence, writes go through.
            await asyncio.sleep(0.4)
            await leave_cluster_mode(a.engine)
            await a.append_actions(gid, 2, [(0, "2x4")], 5, "t1")
        finally:
            await a.close()
            await b.close()

    run(go())


def test_a_table_that_cannot_be_restored_is_marked_broken_not_claimed_forever(
    postgres_url: str, redis_url: str
) -> None:
    """A table whose rows cannot be restored is claimed once, marked ``broken`` and let go:
    no process finds it an orphan again (it was re-claimed twice a second, forever)."""

    async def go() -> None:
        store = Store(postgres_url)
        await store.open()
        assert store.engine is not None
        node = Node(Settings(database_url=postgres_url, redis_url=redis_url), store, handle)
        node.lobby = SimpleNamespace(tables={}, changed=lambda _t: None)  # type: ignore[assignment]
        try:
            await node.leases.install()
            seats = [SeatRow(0, "human", "Ann", None, None, True)]
            await store.create_table("tb", "t", {}, False, seats, 1)
            async with store.engine.begin() as conn:
                await conn.execute(text("UPDATE tables SET config = '{bad' WHERE id = 'tb'"))
            assert "tb" in await node.leases.orphans(1000)
            assert await node.adopt("tb") is None
            assert "tb" not in await node.leases.orphans(1000)
            assert not await node.leases.exists("tb")
            assert node.owned == {} and await node.leases.owners(["tb"]) == {"tb": None}
        finally:
            await store.close()

    run(go())


def test_an_expired_table_lets_its_lease_go_and_the_scans_are_indexed(
    postgres_url: str, redis_url: str
) -> None:
    """A waiting table that expires leaves the process's leases and the lease table (both
    grew without end); renewals (by owner) and scans (by status) have their indexes."""

    async def go() -> None:
        store = Store(postgres_url)
        await store.open()
        assert store.engine is not None
        settings = Settings(database_url=postgres_url, redis_url=redis_url)
        node = Node(settings, store, handle)
        lobby = Lobby(store, settings, node)
        try:
            await lobby.open()
            table, _, _ = await lobby.create(
                name="t",
                player="Ann",
                config=TableConfig.build(preset="perudo", seats=2),
                private=True,
            )
            assert table.id in node.owned
            assert await lobby.expire(time.monotonic() + 10**6) == 1
            assert table.id not in node.owned
            async with store.engine.connect() as conn:
                left = await conn.execute(
                    text("SELECT 1 FROM table_leases WHERE table_id = :t"), {"t": table.id}
                )
                assert left.first() is None
                names = {r[0] for r in await conn.execute(text("SELECT indexname FROM pg_indexes"))}
            assert {"table_leases_owner", "tables_status"} <= names
        finally:
            await lobby.close()
            await store.close()

    run(go())


def test_a_socket_counted_while_redis_was_away_is_not_taken_off_redis(redis_url: str) -> None:
    """The per-client connection count over every process: a socket opened while Redis was
    away (counted here only) is not taken off Redis when it closes (the shared count went
    negative, for good); every write keeps the count's expiry."""

    class Away(SharedLimits):
        down_now = False

        async def open_connection(self, client: str, limit: int) -> bool | None:
            return None if self.down_now else await super().open_connection(client, limit)

    async def go() -> None:
        redis = aioredis.from_url(redis_url)
        key = "perudo:conns:198.51.100.9"
        await redis.delete(key)
        shared = Away(redis, "n1")
        guard = Guard(Settings(), shared)
        try:
            assert await guard.open_connection("198.51.100.9")
            shared.down_now = True
            assert await guard.open_connection("198.51.100.9")  # counted here only
            guard.close_connection("198.51.100.9")
            guard.close_connection("198.51.100.9")
            await asyncio.gather(*guard._tasks)
            assert await redis.hget(key, "n1") is None, "the shared count went below zero"
            shared.down_now = False
            assert await guard.open_connection("198.51.100.9")
            guard.close_connection("198.51.100.9")
            await asyncio.gather(*guard._tasks)
            assert await guard.open_connection("198.51.100.9")
            assert await redis.hget(key, "n1") == b"1" and await redis.ttl(key) > 0
        finally:
            await redis.delete(key)
            await redis.aclose()

    run(go())


def test_a_publish_nobody_receives_or_any_redis_failure_is_said_never_lost(
    redis_url: str,
) -> None:
    """``Bus.send`` tells the caller when no process received the message (Redis counts the
    receivers: 0 when the process listening there died), so that the caller answers it rather
    than the message vanishing (a move, a call: refused at once, not after a timeout); and any
    failure of redis-py (an ``AttributeError`` from a connection closed under it while Redis
    restarts escaped to the socket's handler) is :class:`BusDown`."""

    async def nothing(_data: dict[str, Any]) -> None:
        return None

    async def back() -> None:
        return None

    class Broken:
        async def publish(self, *_args: Any) -> int:
            raise AttributeError("'NoneType' object has no attribute 'send_command'")

    async def go() -> None:
        bus = Bus(redis_url, "n-here", nothing, back)
        await bus.open()
        publisher = bus.publisher
        try:
            await bus.send("n-here", {"op": "nothing"})  # this process listens: received
            with pytest.raises(NoListener, match=channel("n-gone")):
                await bus.send("n-gone", {"op": "msg"})
            started = time.monotonic()
            with pytest.raises(NoListener):
                await bus.call("n-gone", {"what": "info"}, 30.0)
            assert time.monotonic() - started < 10, "a call to nobody waited for its timeout"
            bus.publisher = Broken()  # type: ignore[assignment]
            with pytest.raises(BusDown, match="send_command"):
                await bus.send("n-here", {"op": "nothing"})
        finally:
            bus.publisher = publisher
            await bus.close()

    run(go())


@contextlib.asynccontextmanager
async def two_processes(settings: Settings) -> AsyncIterator[tuple[list[Store], list[Lobby]]]:
    """Two processes' stores and lobbies (in this one) on ``settings``' PostgreSQL and Redis,
    opened, and closed after."""
    stores = [Store(settings.database_url), Store(settings.database_url)]
    lobbies: list[Lobby] = []
    try:
        for store in stores:
            await store.open()
            lobbies.append(Lobby(store, settings, Node(settings, store, handle)))
            await lobbies[-1].open()
        yield stores, lobbies
    finally:
        for lobby in lobbies:
            await lobby.close()
        for store in stores:
            await store.close()


def test_waiting_and_open_tables_are_counted_over_every_process(
    postgres_url: str, redis_url: str
) -> None:
    """Two processes' lobbies on one PostgreSQL and one Redis: ``PERUDO_TABLES_PER_CLIENT``
    counts a client's waiting tables over both (its third is refused at either), and
    ``PERUDO_MAX_OPEN_TABLES`` the site's tables; a table that closes frees both places. A
    place held under a process that is no longer alive does not count; a process releasing a
    table another took over leaves that process's place alone."""

    async def go() -> None:
        settings = Settings(
            database_url=postgres_url,
            redis_url=redis_url,
            tables_per_client=2,
            max_open_tables=4,
            creates_per_minute=60000,  # (bursts of tables_per_client)
        )
        redis = aioredis.from_url(redis_url)
        cfg = TableConfig.build(preset="perudo", seats=2)

        async def create(lobby: Lobby, client: str = "198.51.100.7") -> str:
            table, _, _ = await lobby.create(
                name="t", player="Ann", config=cfg, private=True, client=client
            )
            return table.id

        async def refused(lobby: Lobby, client: str = "198.51.100.7") -> TableError:
            with pytest.raises(TableError) as err:
                await create(lobby, client)
            return err.value

        try:
            async with two_processes(settings) as (_, (a, b)):
                first = await create(a)
                await create(b)
                err = await refused(a)
                assert err.code == "client_limit" and "2 tables waiting" in err.message
                assert (await refused(b)).code == "client_limit"
                await create(b, "203.0.113.5")
                await create(a, "203.0.113.5")
                err = await refused(b, "203.0.113.6")
                assert err.code == "too_many_tables" and "4 open tables" in err.message
                assert await a.expire(time.monotonic() + 10**6) == 2  # a's tables close
                await asyncio.gather(*a._tasks)
                third = await create(a)  # both places came back
                assert (await refused(b)).code == "client_limit"
                key = "perudo:waiting:198.51.100.7"
                assert first not in {k.decode() for k in await redis.hkeys(key)}
                # A place of a process that died (its liveness key gone) counts for nothing.
                await redis.hset(key, "gone-table", "dead-process")  # type: ignore[misc]
                assert (await refused(b)).code == "client_limit"
                assert await redis.hget(key, "gone-table") is None
                # A stale process's release of a table another process holds changes nothing.
                stale = SharedLimits(redis, "stale-process")
                await stale.place_tables({}, {third: "198.51.100.7"})
                assert await redis.hget(key, third) == a.node.id.encode()  # type: ignore[union-attr]
        finally:
            await redis.aclose()

    run(go())


def test_simultaneous_creations_on_two_processes_never_pass_the_site_wide_limit(
    postgres_url: str, redis_url: str
) -> None:
    """Two processes' lobbies, ``PERUDO_MAX_OPEN_TABLES`` = 3, eight people creating a table
    at the same moment, half on each: the count and the table's row are one transaction
    under an advisory lock, so exactly three tables exist and five creators are refused in
    words; a refused creator's claim and waiting place are given back."""

    async def go() -> None:
        settings = Settings(
            database_url=postgres_url,
            redis_url=redis_url,
            max_open_tables=3,
            creates_per_minute=60000,
        )
        async with two_processes(settings) as (stores, lobbies):
            made, refused = await create_at_once(lobbies, 8)
            assert len(made) == 3 and len(refused) == 5, refused
            assert all(e.code == "too_many_tables" for e in refused)
            assert await stores[0].count_live_tables() == 3
            assert sum(len(lobby.tables) for lobby in lobbies) == 3
            owned = [set(lobby.node.owned) for lobby in lobbies]  # type: ignore[union-attr]
            assert sum(map(len, owned)) == 3

    run(go())


def test_the_shared_count_of_waiting_tables_answers_as_the_one_in_memory(redis_url: str) -> None:
    """The two backends of ``PERUDO_TABLES_PER_CLIENT`` (one interface): any sequence of
    holds (with or without a limit), releases and reconciliations gets the same answers from
    the count in Redis as from the count in one process's memory, and Redis holds exactly
    the places memory does, client by client."""
    clients = ["198.51.100.1", "198.51.100.2"]
    table_ids = [f"t{i}" for i in range(6)]

    def client_of(table_id: str) -> str:
        return clients[int(table_id[1:]) % 2]  # a table has one creator

    class Backends(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.loop = asyncio.new_event_loop()
            self.redis = aioredis.from_url(redis_url)
            self.loop.run_until_complete(self.redis.flushdb())
            self.memory = WaitingTables()
            self.shared = SharedWaitingTables(SharedLimits(self.redis, "n1"))

        def both(self, call: Callable[[WaitingTables], Any]) -> tuple[Any, Any]:
            return (
                self.loop.run_until_complete(call(self.memory)),
                self.loop.run_until_complete(call(self.shared)),
            )

        @rule(table_id=st.sampled_from(table_ids), most=st.sampled_from([None, 1, 2, 3]))
        def hold(self, table_id: str, most: int | None) -> None:
            here, there = self.both(lambda w: w.hold(client_of(table_id), table_id, most))
            assert here == there

        @rule(table_id=st.sampled_from(table_ids))
        def release(self, table_id: str) -> None:
            self.both(lambda w: w.release(client_of(table_id), table_id))

        @rule(kept=st.sets(st.sampled_from(table_ids)))
        def keep(self, kept: set[str]) -> None:
            self.both(lambda w: w.keep({t: client_of(t) for t in kept}))

        @invariant()
        def same_places(self) -> None:
            for client in clients:
                there = self.loop.run_until_complete(self.redis.hkeys(f"perudo:waiting:{client}"))
                assert {k.decode() for k in there} == self.memory.held.get(client, set())

        def teardown(self) -> None:
            self.loop.run_until_complete(self.redis.aclose())
            self.loop.close()

    run_state_machine_as_test(
        Backends, settings=settings(max_examples=12, stateful_step_count=12, deadline=None)
    )


# -- processes ----------------------------------------------------------------------------


def test_a_paused_owner_that_lost_its_lease_cannot_write(
    cluster: Callable[..., Processes], postgres_url: str
) -> None:
    """SIGSTOP the owner past its lease: the other process takes the table over from the
    log; SIGCONT: the old owner's write of the move it then reads is refused by the database
    (its fencing token is old), it lets the table go, and the move, sent again, is applied
    once. Both clients end with the view of a fresh load and the events of the log."""
    procs = cluster(2, PERUDO_TURN_SECONDS="0", PERUDO_DROP_GRACE="60")
    a, b = procs.servers
    at_a, at_b = Endpoint(a.ws_url), Endpoint(b.ws_url)

    async def go() -> None:
        tid, t, bo_token, ann, bo = await two_people(procs)
        if bo.my_turn():
            assert bo.view is not None
            await bo.act(legal_texts(bo.view["legal"])[0])
            await ann.until(ann.my_turn)
        assert ann.my_turn() and ann.view is not None
        owner, token = await procs.owner(tid)
        assert procs.index_of(owner) == 0

        assert a.proc is not None
        a.proc.send_signal(signal.SIGSTOP)
        new, new_token, _ = await procs.wait_owner(tid, not_=owner)
        assert procs.index_of(new) == 1 and new_token > token
        # Bo's socket was linked to A: B closes it (the table moved) and Bo comes back.
        await bo.until(lambda: not bo.alive, 10)
        await bo.resume()
        version = ann.version
        move = legal_texts(ann.view["legal"])[0]
        await ann.act(move)  # waits in the paused process's socket
        await asyncio.sleep(0.3)
        a.proc.send_signal(signal.SIGCONT)
        await ann.until(lambda: not ann.alive, 10)
        deadline = time.monotonic() + 5
        while "perudo_fenced" not in procs.log(0) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert "perudo_fenced" in procs.log(0), "the old owner's write was not refused"
        assert bo.version == version, "the move refused at the old owner reached someone"

        await ann.resume()  # at A again, which now forwards to B
        assert ann.version == version and ann.my_turn()
        await ann.act(move)
        await bo.until(lambda: bo.version > version)
        await ann.until(lambda: ann.version == bo.version)
        assert ann.table is not None
        record, moves = await stored_log(postgres_url, ann.table["game_id"])
        assert sum(1 for seat, action, _ in moves if seat == 0 and action == move) == 1
        _, events, _, _ = replay(record, moves)
        assert check_events_against_log(ann, events) > 0
        assert check_events_against_log(bo, events) > 0
        same_view(ann.view, await fresh_view(at_b, tid, t["token"]))
        same_view(bo.view, await fresh_view(at_a, tid, bo_token))
        await ann.close()
        await bo.close()

    run(go())


def test_failover_after_kill_9_and_a_rolling_restart_lose_nothing(
    cluster: Callable[..., Processes], postgres_url: str, tmp_path: Path
) -> None:
    """Three processes behind nginx; a person and two bots. kill -9 the table's owner:
    another takes it over from the log within 5 s, the bots and the turn timer carry on, the
    person's page reconnects and resumes by version. Then every process is restarted in turn
    (SIGTERM, start): the game goes on to its end, every event the person received is the
    log's, none twice."""
    require_nginx()
    procs = cluster(3, PERUDO_BOT_DELAY="0.05", PERUDO_TURN_SECONDS="0")
    balancer = NginxBalancer(tmp_path, procs.ports()).start()
    front = Endpoint(balancer.ws_url, balancer.tls())
    try:

        async def go() -> None:
            t = procs.servers[0].create_table(seats=3, dice=5, turn_seconds=1.5)
            tid = t["table_id"]
            ann = await Player(front, tid, t["token"]).connect()
            await ann.send({"type": "fill_bots", "level": "easy"})
            await ann.send({"type": "start"})
            await play_on([ann], keep_going, lambda: ann.version > 12)
            owner, token = await procs.owner(tid)
            dead = procs.index_of(owner)
            assert dead is not None
            killed_at = time.monotonic()
            procs.servers[dead].kill()
            new, new_token, _ = await procs.wait_owner(tid, not_=owner)
            took = time.monotonic() - killed_at
            assert took < 5.0, f"the table was taken over after {took:.1f} s"
            assert new_token > token
            # The turn timer runs at the new owner: on her turn the person does nothing, and a
            # stand-in plays for her when her time is out; she is back with her next move.
            await play_on([ann], keep_going, lambda: ann.alive and ann.my_turn())
            waited = ann.version
            await ann.until(lambda: ann.version > waited, 10)
            await ann.until(lambda: bool(ann.table and ann.table["seats"][0]["away"]), 10)
            before = ann.version
            await play_on([ann], keep_going, lambda: ann.version > before + 6)

            # A rolling restart of the processes still alive.
            for i, srv in enumerate(procs.servers):
                if i == dead:
                    continue
                await asyncio.to_thread(srv.stop)
                await asyncio.to_thread(srv.start, STARTUP)
                target = ann.version + 3
                await play_on([ann], keep_going, lambda t=target: ann.version > t)  # type: ignore[misc]
            await play_on([ann], keep_going, lambda: False, timeout=120)
            assert ann.view is not None and ann.view["phase"] == "game_over"
            assert ann.table is not None
            record, moves = await stored_log(postgres_url, ann.table["game_id"])
            state, events, _, _ = replay(record, moves)
            assert state.is_over and state.winner == record["winner"]
            versions = [v for _, _, v in moves]
            assert versions == sorted(set(versions)), "a move stored twice or out of order"
            assert check_events_against_log(ann, events) > 10
            assert len(ann.closes) >= 1, "the person's socket never moved"
            same_view(ann.view, await fresh_view(front, tid, t["token"]))
            await ann.close()

        run(go())
    finally:
        balancer.stop()


def test_no_hidden_die_crosses_processes_and_presence_and_limits_are_shared(
    cluster: Callable[..., Processes], postgres_url: str
) -> None:
    """Three people and a spectator on two processes (the owner and another) play a whole
    game: every die any of them received is their own or was revealed (P-21, P-70), every
    event is the log's and for their seat. Seats connected on the other process show as
    connected at the owner, and not once that process dies; one client's sockets are
    counted over both processes, and so are its tables waiting for players: refused at one
    process when it has its two waiting at both, a place back when a game starts; a waiting
    table of a process killed keeps its place at the process that takes it over, and frees it
    there when its game starts."""
    procs = cluster(2, PERUDO_CONNECTIONS_PER_CLIENT="5", PERUDO_TABLES_PER_CLIENT="2")
    a, b = procs.servers
    at_a, at_b = Endpoint(a.ws_url), Endpoint(b.ws_url)

    def refused_a_table(srv: ServerProcess) -> None:
        out = srv.http("POST", "/api/tables", {"name": "t", "player": "Ann", "private": True})
        assert out.get("status") == 429 and out["error"] == "client_limit", out
        assert "2 tables waiting" in out["message"], out

    async def go() -> None:
        t = a.create_table(seats=3, dice=2)
        tid = t["table_id"]
        waiting = b.create_table(private=True)
        refused_a_table(a)  # its second waiting table is at b
        tokens = [t["token"], b.join(tid, "Bo")["token"], b.join(tid, "Cy")["token"]]
        people = [
            await Player(at_a, tid, tokens[0]).connect(),
            await Player(at_b, tid, tokens[1]).connect(),
            await Player(at_b, tid, tokens[2]).connect(),
        ]
        watcher = await Player(at_b, tid).connect()
        await people[0].send({"type": "start"})
        await play_on(people, keep_going, lambda: False)
        await watcher.until(
            lambda: watcher.view is not None and watcher.view["phase"] == "game_over"
        )
        assert watcher.table is not None
        record, moves = await stored_log(postgres_url, watcher.table["game_id"])
        _, events, dealt, resolved = replay(record, moves)
        revealed = {(r.seat, r.hand) for res in resolved for r in res.reveals}
        checked = 0
        for client in [*people, watcher]:
            assert check_events_against_log(client, events) > 0
            for m in client.messages:
                found: list[tuple[str, int | None, tuple[int, ...]]] = []
                die_lists(m, None, found)
                for key, seat, dice in found:
                    checked += 1
                    if dice and seat != client.seat:
                        assert (
                            (seat, dice) in revealed
                        ), f"seat {client.seat} received seat {seat}'s {key} {dice} (P-70)"
                    elif dice:
                        assert (seat, dice) in set(dealt) or (seat, dice) in revealed
        assert checked > 30

        ann = people[0]

        def connected(seat: int) -> bool:
            return bool(ann.table and ann.table["seats"][seat]["connected"])

        assert connected(1) and connected(2), "seats held on B are not present at A"
        fifth = await Player(at_b, tid).connect()  # this address's fifth socket
        refused = Player(at_a, tid)
        await refused.connect(hello=False)
        err = await refused.next(lambda m: m["type"] == "error")
        assert err["code"] == "too_many_connections"
        await fifth.close()
        a.create_table(private=True)  # the game's start gave its place back
        refused_a_table(b)
        killed, _ = await procs.owner(waiting["table_id"])
        b.kill()
        await ann.until(lambda: not connected(1) and not connected(2), 10)
        await ann.close()
        # b's waiting table, taken over by a, counts there again for its client.
        new, _, _ = await procs.wait_owner(waiting["table_id"], not_=killed)
        redis = aioredis.from_url(procs.redis_url)
        try:
            while (
                await redis.hget(  # type: ignore[misc]
                    "perudo:waiting:127.0.0.1", waiting["table_id"]
                )
                != new.encode()
            ):
                await asyncio.sleep(0.05)
        finally:
            await redis.aclose()
        refused_a_table(a)
        host = await Player(at_a, waiting["table_id"], waiting["token"]).connect()
        await host.send({"type": "fill_bots", "level": "easy"})
        await host.send({"type": "start"})
        await host.until(lambda: bool(host.table and host.table["status"] == "playing"))
        await host.close()
        a.create_table(private=True)

    run(go())


def test_redis_restart_refuses_forwarded_moves_in_words_then_play_resumes(
    cluster: Callable[..., Processes], redis_server: Any
) -> None:
    """Redis down: a move sent to a process that is not the table's owner is refused with
    ``unavailable`` (nothing applied; the page says it in the player's language), and so is a
    new table (its place among the client's waiting tables cannot be counted); Redis back
    (empty): the processes reconnect by themselves (on new connections), the socket resumes,
    the move goes through, and the client's waiting table is counted again (its next table is
    refused at the other process)."""
    procs = cluster(
        2, PERUDO_TURN_SECONDS="0", PERUDO_DROP_GRACE="60", PERUDO_TABLES_PER_CLIENT="1"
    )
    a, b = procs.servers

    async def go() -> None:
        _, _, _, ann, bo = await two_people(procs)
        waiting = a.create_table(private=True)["table_id"]  # the game's table no longer waits
        if ann.my_turn():
            assert ann.view is not None
            await ann.act(legal_texts(ann.view["legal"])[0])
            await bo.until(bo.my_turn)
        assert bo.view is not None
        version = bo.version
        redis_server.stop()
        await bo.act(legal_texts(bo.view["legal"])[0])
        err = await bo.error()
        assert err["code"] == "unavailable"
        words = (ROOT / "src/perudo/server/static/i18n.js").read_text()
        assert words.count('"error.unavailable":') == 3, "the refusal in en, ko and it"
        assert ann.version == version, "a refused move reached the table"
        for srv in (a, b):
            out = srv.http("POST", "/api/tables", {"name": "t", "player": "Ann"})
            assert out.get("status") == 503 and out["error"] == "unavailable", out
        redis_server.start()
        await bo.until(lambda: not bo.alive, 15)  # the process reconnected: the socket resumes
        await bo.resume()
        assert bo.version == version and bo.my_turn() and bo.view is not None
        await bo.act(legal_texts(bo.view["legal"])[0])
        await ann.until(lambda: ann.version > version)
        await ann.close()
        await bo.close()
        redis = aioredis.from_url(procs.redis_url)
        try:
            while not await redis.hexists("perudo:waiting:127.0.0.1", waiting):  # type: ignore[misc]
                await asyncio.sleep(0.05)
        finally:
            await redis.aclose()
        out = b.http("POST", "/api/tables", {"name": "t", "player": "Ann"})
        assert out.get("status") == 429 and out["error"] == "client_limit", out
        logs = procs.log(0) + procs.log(1)
        assert "Traceback" not in logs
        # The first message published after Redis came back (the owner's answer to the
        # socket's hello) was lost on the connection the restart had closed: 15 s stalled.
        assert "lost: Connection closed by server" not in logs

    run(go())


def test_postgresql_restart_refuses_moves_then_play_resumes(
    cluster: Callable[..., Processes], pg_server: Any
) -> None:
    """PostgreSQL restarts under play: a move meanwhile is refused (never half-applied), a
    socket opened at a process that must look the table's owner up is refused saying the
    database is out of reach (not "reconnecting to its other processes": Redis is fine), the
    processes reconnect by themselves and the game goes on with the same player."""
    procs = cluster(2, PERUDO_TURN_SECONDS="0", PERUDO_DROP_GRACE="60")

    async def go() -> None:
        tid, _, _, ann, bo = await two_people(procs)
        pg_server.stop()
        watcher = Player(Endpoint(procs.servers[1].ws_url), tid)
        await watcher.connect(hello=False)
        err = await watcher.error()
        assert err["code"] == "unavailable" and "database" in err["message"], err
        assert "other processes" not in err["message"], err
        mover = ann if ann.my_turn() else bo
        await mover.until(mover.my_turn)
        assert mover.view is not None
        version = mover.version
        await mover.act(legal_texts(mover.view["legal"])[0])
        err = await mover.next(lambda m: m["type"] == "error" or m["version"] > version, 10)
        assert err["type"] == "error" and err["code"] in ("store_error", "unavailable"), err
        await asyncio.to_thread(pg_server.start)
        players = [ann, bo]
        await play_on(players, keep_going, lambda: min(p.version for p in players) > version + 4)

    run(go())


def test_a_move_sent_while_its_tables_owner_dies_is_refused_in_words_then_played(
    cluster: Callable[..., Processes],
) -> None:
    """Bo's socket is at the process that does not drive the table. The owner is killed
    (-9): Bo's move, sent before the lease runs out, reaches no process (Redis counts 0
    receivers) and is refused at once with ``moved`` (the page says it in Bo's language),
    not lost without an answer (a client waiting for it stalled); then Bo's socket is closed
    by the lease scan, it resumes at the new owner and the move is played."""
    procs = cluster(2, PERUDO_TURN_SECONDS="0", PERUDO_DROP_GRACE="60")
    a, b = procs.servers

    async def go() -> None:
        tid, _, _, ann, bo = await two_people(procs)
        owner, _ = await procs.owner(tid)
        assert procs.index_of(owner) == 0
        if ann.my_turn():
            assert ann.view is not None
            await ann.act(legal_texts(ann.view["legal"])[0])
            await bo.until(bo.my_turn)
        assert bo.view is not None and owner is not None
        version = bo.version
        a.kill()
        redis = aioredis.from_url(procs.redis_url)
        try:  # Redis has dropped the dead process's subscription with its connection
            while (await redis.pubsub_numsub(channel(owner)))[0][1]:
                await asyncio.sleep(0.02)
        finally:
            await redis.aclose()
        await ann.close()
        await bo.act(legal_texts(bo.view["legal"])[0])
        err = await bo.error()
        assert err["code"] == "moved", err
        words = (ROOT / "src/perudo/server/static/i18n.js").read_text()
        assert words.count('"error.moved":') == 3, "the refusal in en, ko and it"
        await bo.until(lambda: bo.version == version and bo.my_turn() and not bo.alive, 15)
        await bo.resume()
        assert bo.version == version and bo.my_turn() and bo.view is not None
        await bo.act(legal_texts(bo.view["legal"])[0])
        await bo.until(lambda: bo.version > version)
        await bo.close()
        assert "Traceback" not in procs.log(1)

    run(go())


def test_a_seated_players_moves_never_wait_on_other_peoples_traffic_over_processes(
    cluster: Callable[..., Processes],
) -> None:
    """The address's budgets are kept in Redis over every process; a person's are their own
    there too: 30 spectator sockets from the players' address, at the process that does not
    drive the table, chat and keep the address's budget spent (2 messages a second here);
    Ann (at the owner) and Bo (at the other process, his messages forwarded, the owner
    applying his budgets: it knows his seat) play on, nothing of theirs refused."""
    procs = cluster(2, PERUDO_TURN_SECONDS="0", PERUDO_CLIENT_RATE_PER_SECOND="2")
    b = procs.servers[1]

    async def go() -> None:
        tid, _, _, ann, bo = await two_people(procs)
        chatters = [await Player(Endpoint(b.ws_url), tid).connect() for _ in range(30)]
        stop = asyncio.Event()

        async def chat(w: Player) -> None:
            i = 0
            with contextlib.suppress(Exception):
                while not stop.is_set():  # a line a second each
                    await w.send({"type": "chat", "text": f"hello {i}"})
                    i += 1
                    await asyncio.sleep(1.0)

        flood = [asyncio.create_task(chat(w)) for w in chatters]

        def address_spent() -> bool:
            return any(
                m["type"] == "error" and "your address" in m["message"]
                for w in chatters
                for m in w.messages
            )

        await chatters[0].until(address_spent, 30)
        start = ann.version
        await play_on([ann, bo], keep_going, lambda: ann.version > start + 12)
        stop.set()
        await asyncio.gather(*flood)
        for p in (ann, bo):
            refused = [m for m in p.messages if m["type"] == "error"]
            assert not [m for m in refused if m["code"] in ("rate_limited", "flooding")], refused
        for w in [ann, bo, *chatters]:
            await w.close()

    run(go())


def test_a_takeover_keeps_away_people_away_so_play_resumes_within_a_lease(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Ann has gone (her drop grace, 0.2 s at the owner, ran out: a stand-in plays her seat);
    Bo plays at the other process, whose drop grace is a minute. The owner is killed (-9) on
    Bo's turn; the other process takes the table over, Bo moves, and Ann's stand-in answers at
    once: she is still away there (Redis told it who was away), not given a new minute of
    grace (a table whose seat to act was an away person's stalled a whole grace)."""
    procs = Processes(
        tmp_path, postgres_url, redis_url, 2, PERUDO_TURN_SECONDS="0", PERUDO_DROP_GRACE="0.2"
    )
    procs.servers[1].env["PERUDO_DROP_GRACE"] = "60"
    try:
        procs.start()

        async def go() -> None:
            tid, _, _, ann, bo = await two_people(procs)
            owner, _ = await procs.owner(tid)
            assert procs.index_of(owner) == 0
            await ann.close()

            def ann_away() -> bool:
                return bool(bo.table and bo.table["seats"][0]["away"])

            await bo.until(lambda: ann_away() and bo.my_turn())
            redis = aioredis.from_url(procs.redis_url)
            try:  # the owner has told Redis she is away
                async with asyncio.timeout(15):
                    while await redis.hget(f"perudo:absent:{tid}", "0") != b"away":  # type: ignore[misc]
                        await asyncio.sleep(0.05)
            finally:
                await redis.aclose()
            before = bo.view
            assert before is not None
            procs.servers[0].kill()
            await procs.wait_owner(tid, not_=owner)
            await bo.until(lambda: not bo.alive)  # the lease scan closed it: it reconnects
            await bo.resume()
            # Nothing moved (the new owner may have redrawn the seats: a table version, no move).
            assert bo.my_turn() and bo.view is not None
            assert (bo.view["round"], bo.view["actions"]) == (before["round"], before["actions"])
            version = bo.version
            raise_ = next(a for a in legal_texts(bo.view["legal"]) if "x" in a)
            await bo.act(raise_)
            await bo.until(lambda: bo.version > version)
            moved = bo.version
            # Ann's stand-in plays at once (a minute of grace restarted would stall here).
            await bo.until(
                lambda: bo.view is not None
                and (bo.view["phase"] == "game_over" or (bo.my_turn() and bo.version > moved)),
                15,
            )
            await bo.close()

        run(go())
    finally:
        procs.stop()


def test_what_a_takeover_is_told_of_absent_people_is_what_the_table_goes_on_with(
    tmp_path: Path,
) -> None:
    """``Scheduler.absent`` (what the owner records in Redis) and ``LiveTable.resume(absent)``
    (what the process taking the table over does with it) agree: Bo was away, so he is away
    at once; Cy's connection went 5 s ago with an 8 s drop grace, so his stand-in comes in
    3 s, not 8; Ann, who was connected, gets the whole grace; and the table restored tells
    the same absences again."""
    from perudo.server.connection import Connection
    from perudo.server.protocol import Hello

    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 't.db'}", drop_grace=8.0)

    async def go() -> None:
        store = Store(settings.database_url)
        await store.open()
        lobby = Lobby(store, settings)
        await lobby.open()
        try:
            cfg = TableConfig.build(preset="perudo", seats=3, dice=3, turn_seconds=0)
            table, _, token = await lobby.create(name="t", player="Ann", config=cfg, private=True)
            await lobby.join(table.id, "Bo")
            await lobby.join(table.id, "Cy")

            async def nothing(_x: Any) -> None:
                return None

            ann = Connection(nothing, nothing, rate=1e9, burst=10**9)
            ann.start()
            await table.hello(ann, Hello(type="hello", token=token))
            await table.start(ann)
            row = await store.load_table(table.id)
            assert row is not None
            taken = LiveTable.restore(row, store, settings)
            since = time.time() - 5.0
            await taken.resume({1: None, 2: since})
            loop = asyncio.get_running_loop()
            bo, cy, ann_seat = taken.seats[1], taken.seats[2], taken.seats[0]
            assert bo is not None and bo.away and bo.drop_timer is None
            assert cy is not None and not cy.away and cy.drop_timer is not None
            assert abs(cy.drop_timer.when() - loop.time() - 3.0) < 0.5
            assert ann_seat is not None and ann_seat.drop_timer is not None
            assert abs(ann_seat.drop_timer.when() - loop.time() - 8.0) < 0.5
            told = taken.schedule.absent()
            assert told[1] is None and abs((told[2] or 0.0) - since) < 0.5
            assert abs((told[0] or 0.0) - time.time()) < 0.5
            await taken.close()
            await ann.stop()
        finally:
            await lobby.close()
            await store.close()

    run(go())
