"""Several ``perudo serve`` processes on one PostgreSQL and one Redis, for the multi-process
tests (``tests/server/test_cluster.py``) and the failover benchmark (``benchmarks/failover.py``).

:class:`Processes` starts N processes sharing the database and Redis (short leases, so that
takeovers happen within the tests' patience); :class:`Player` is a WebSocket client that, like
the page, reconnects when its socket closes and resumes from its last version (through the
nginx balancer or straight to a process); :func:`stored_log` reads a game's log from
PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import ssl
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import websockets
from tests.server.harness import Client, ServerProcess

LEASE = "1.5"
"""The tests' lease (seconds): a dead owner's tables are taken over after about this long."""


STARTUP = 120.0
"""Seconds a process may take to start (several start at once on a machine with 2 cores)."""


def plain_dsn(url: str) -> str:
    """The app's SQLAlchemy URL as asyncpg's DSN."""
    return url.replace("postgresql+asyncpg://", "postgresql://")


class Processes:
    """``count`` processes in multi-process mode, each in its own folder under ``workdir``."""

    def __init__(self, workdir: Path, database_url: str, redis_url: str, count: int, **env: str):
        self.database_url = database_url
        self.redis_url = redis_url
        self.servers: list[ServerProcess] = []
        for i in range(count):
            folder = workdir / f"p{i}"
            folder.mkdir(exist_ok=True)
            self.servers.append(
                ServerProcess(
                    folder,
                    **{
                        "PERUDO_DATABASE_URL": database_url,
                        "PERUDO_REDIS_URL": redis_url,
                        "PERUDO_LEASE_SECONDS": LEASE,
                        "PERUDO_LOG_LEVEL": "info",
                        **env,
                    },
                )
            )

    def start(self) -> Processes:
        """Start every process at once (each waits for its own health check)."""
        with ThreadPoolExecutor(len(self.servers)) as pool:
            list(pool.map(lambda srv: srv.start(STARTUP), self.servers))
        return self

    def stop(self) -> None:
        for srv in self.servers:
            with contextlib.suppress(Exception):
                if srv.proc is not None and srv.proc.poll() is None:
                    srv.proc.send_signal(signal.SIGCONT)
            srv.stop()

    def ports(self) -> list[int]:
        return [srv.port for srv in self.servers]

    def log(self, i: int) -> str:
        return self.servers[i].log.read_text(errors="replace")

    async def owner(self, table_id: str) -> tuple[str | None, int]:
        """The process id (its ``node``) holding ``table_id``'s live lease, and the token."""
        conn = await asyncpg.connect(plain_dsn(self.database_url))
        try:
            row = await conn.fetchrow(
                "SELECT owner, token, expires_at >= extract(epoch from clock_timestamp()) AS live "
                "FROM table_leases WHERE table_id = $1",
                table_id,
            )
        finally:
            await conn.close()
        if row is None:
            return None, 0
        return (row["owner"] if row["live"] else None), int(row["token"])

    def index_of(self, node: str | None) -> int | None:
        """Which of the processes ``node`` is (its id holds the process's pid)."""
        for i, srv in enumerate(self.servers):
            if node is not None and srv.proc is not None and f"-{srv.proc.pid}-" in node:
                return i
        return None

    async def wait_owner(
        self, table_id: str, not_: str | None = None, timeout: float = 15.0
    ) -> tuple[str, int, float]:
        """Wait until a live owner other than ``not_`` holds the table; (owner, token, s)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            owner, token = await self.owner(table_id)
            if owner is not None and owner != not_:
                return owner, token, time.monotonic() - start
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no process took table {table_id} over in {timeout} s")


class Endpoint:
    """Where a :class:`Player` connects: a process, or the balancer (``tls``: its context)."""

    def __init__(self, ws_url: str, tls: ssl.SSLContext | None = None) -> None:
        self.ws_url = ws_url
        self.tls = tls


class Player(Client):
    """A client that reconnects (as the page does) when its socket closes, from its last
    version, and remembers every socket it had."""

    def __init__(self, endpoint: Endpoint, table_id: str, token: str | None = None) -> None:
        super().__init__(endpoint, table_id, token)  # type: ignore[arg-type]
        self.endpoint = endpoint
        self.closes: list[int | None] = []

    @property
    def alive(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def until(self, cond: Callable[[], bool], timeout: float = 15.0) -> None:
        """Wait until ``cond()`` holds, reconnecting (from the last version) when the socket
        closes meanwhile (its table moved to another process)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                await super().until(cond, max(0.1, deadline - time.monotonic()))
                return
            except ConnectionError:
                if time.monotonic() > deadline:
                    raise TimeoutError("condition not met (the socket kept closing)") from None
                await self.resume()

    async def resume(self, timeout: float = 20.0) -> None:
        """Reconnect from the last version seen, trying again until a process answers."""
        if self.ws is not None:
            self.closes.append(self.ws.close_code)
        deadline = time.monotonic() + timeout
        while True:
            try:
                await self.connect(last_version=self.version)
                return
            except (OSError, ConnectionError, TimeoutError, websockets.WebSocketException):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)


async def play_on(
    players: list[Player],
    choose: Callable[[dict[str, Any]], str],
    until: Callable[[], bool],
    timeout: float = 60.0,
) -> None:
    """Each player acts on its turn, reconnecting when its socket closes, until ``until()``
    or the game is over."""
    deadline = time.monotonic() + timeout
    while not until():
        if any(p.view is not None and p.view["phase"] == "game_over" for p in players):
            return
        for p in players:
            if not p.alive:
                await p.resume()
            if p.my_turn() and p.acted_at < p.version:
                p.acted_at = p.version
                assert p.view is not None
                with contextlib.suppress(websockets.ConnectionClosed):
                    await p.act(choose(p.view))
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not get there in time")
        await asyncio.sleep(0.02)


async def stored_log(
    database_url: str, game_key: str
) -> tuple[dict[str, Any], list[tuple[Any, str, int]]]:
    """A game's row (rules, players, roll-off) and its moves ``(seat, action, version)`` in
    ``seq`` order, from PostgreSQL."""
    conn = await asyncpg.connect(plain_dsn(database_url))
    try:
        game = await conn.fetchrow(
            "SELECT id, rules, players, rolloff, winner FROM games WHERE key = $1", game_key
        )
        assert game is not None, f"no game {game_key}"
        moves = await conn.fetch(
            "SELECT seat, action, version FROM game_actions WHERE game_id = $1 ORDER BY seq",
            game["id"],
        )
    finally:
        await conn.close()
    return (
        {
            "rules": json.loads(game["rules"]),
            "players": game["players"],
            "rolloff": json.loads(game["rolloff"]),
            "winner": game["winner"],
        },
        [(m["seat"], m["action"], m["version"]) for m in moves],
    )


def replay(
    record: dict[str, Any], moves: list[tuple[Any, str, int]]
) -> tuple[
    Any, dict[int, tuple[int | None, dict[str, Any]]], list[tuple[int, tuple[int, ...]]], list[Any]
]:
    """The stored log folded in the core: the final state; every event by the version the
    server gave it (``(audience, JSON)``: a move's events take the versions up to the one
    stored with it); every hand dealt ``(seat, hand)``; every round's result."""
    from perudo.core import DiceDealt, RoundResolved, RuleSet, apply, parse_action, start_game
    from perudo.core.events import event_to_json

    state = start_game(RuleSet.from_dict(record["rules"]), record["players"], record["rolloff"])
    events_by_version: dict[int, tuple[int | None, dict[str, Any]]] = {}
    dealt: list[tuple[int, tuple[int, ...]]] = []
    resolved: list[Any] = []
    for seat, action, last in moves:
        state, events = apply(state, parse_action(action), seat)
        first = last - max(1, len(events)) + 1
        for i, e in enumerate(events):
            events_by_version[first + i] = (e.audience, {**event_to_json(e), "version": first + i})
            if isinstance(e, DiceDealt):
                dealt.append((e.seat, e.hand))
            if isinstance(e, RoundResolved):
                resolved.append(e)
    return state, events_by_version, dealt, resolved


def check_events_against_log(
    player: Client, events_by_version: dict[int, tuple[int | None, dict[str, Any]]]
) -> int:
    """Every game event ``player`` received is the stored log's event of that version, and
    one its seat may see (P-70); returns how many were checked."""
    checked = 0
    for m in player.messages:
        if m["type"] != "update":
            continue
        seat = m["view"]["seat"] if m["view"] is not None else player.seat
        for e in m["events"]:
            audience, data = events_by_version[e["version"]]
            assert (
                audience is None or audience == seat
            ), f"seat {seat} received an event for seat {audience}: {e}"
            assert _filled(e) == _filled(data), f"received {e}, the log says {data}"
            checked += 1
    return checked


def _filled(obj: Any) -> Any:
    """``obj`` without its ``None`` fields (the wire's models fill in their defaults)."""
    if isinstance(obj, dict):
        return {k: _filled(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [_filled(v) for v in obj]
    return obj
