"""Abuse benchmark: the attacks of issue 14 against a fresh server on loopback, each while a
normal player plays, with the player's action→event latency measured under each.

The server (``python -m perudo serve``, default limits, a fresh SQLite file in a temporary
folder) listens on 127.0.0.1 only; the player connects from 127.0.0.1, the attackers from
other loopback addresses (127.0.0.2 and up: other clients, as the server sees them). Every
attack is bounded in count and time (``seconds`` each, at most 60). Afterwards: every game the
player played is still in the store and replays (:func:`perudo.server.replay.replay_frames`
through ``/api/games/{id}/replay``) to the moves the player saw, and the player's table
still moves (no table stuck).

``perudo bench-abuse`` or ``python benchmarks/abuse.py`` prints one line per attack; the
figures in docs/security.md come from it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import random
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .loadbench import LoadResult, _http, _Seat, start_server

__all__ = ["AttackResult", "main", "run_abuse"]

MAX_SECONDS = 60.0
HEADER_TIMEOUT = 10.0
"""``PERUDO_HEADER_TIMEOUT`` as the server runs here (its default)."""


@dataclass
class AttackResult:
    name: str
    what: str
    player: LoadResult
    outcome: str = ""
    counts: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        p = self.player
        ms = 1000.0
        lat = (
            f"p50 {p.quantile(0.5) * ms:6.1f} ms  p99 {p.quantile(0.99) * ms:6.1f} ms  "
            f"max {max(p.latencies) * ms:6.1f} ms  ({len(p.latencies)} actions)"
            if p.latencies
            else "no action measured"
        )
        refused = "".join(f"; the player's {k} {v}" for k, v in sorted(p.errors.items()))
        return f"  {self.name:<16} {lat}  | {self.outcome}{refused}"


def _addr(i: int) -> str:
    """The ``i``-th attacker's loopback address (127.0.0.2 …)."""
    i += 2
    return f"127.0.{i // 250}.{i % 250 + 1}" if i >= 250 else f"127.0.0.{i}"


async def _ws(ws_base: str, table_id: str, source: str) -> Any:
    import websockets

    return await websockets.connect(
        f"{ws_base}/ws/tables/{table_id}", max_size=None, local_addr=(source, 0), open_timeout=30
    )


async def _drain(ws: Any, counts: dict[str, int]) -> None:
    with contextlib.suppress(Exception):
        async for raw in ws:
            kind = json.loads(raw)["type"]
            counts[f"received {kind}"] = counts.get(f"received {kind}", 0) + 1


async def _chat_crowd(
    ws_base: str, table_id: str, stop: asyncio.Event, source: Callable[[int], str] = _addr
) -> dict[str, int]:
    """100 spectators from 100 addresses (``source``: the address of each), each chatting 10
    lines a second."""
    counts: dict[str, int] = {}
    socks = await asyncio.gather(*(_ws(ws_base, table_id, source(i)) for i in range(100)))
    readers = [asyncio.create_task(_drain(ws, counts)) for ws in socks]
    for ws in socks:
        await ws.send(json.dumps({"type": "hello"}))

    async def talk(ws: Any, n: int) -> None:
        i = 0
        while not stop.is_set():
            with contextlib.suppress(Exception):
                await ws.send(json.dumps({"type": "chat", "text": f"spam {n}.{i}"}))
            counts["chat sent"] = counts.get("chat sent", 0) + 1
            i += 1
            await asyncio.sleep(0.1)

    talkers = [asyncio.create_task(talk(ws, n)) for n, ws in enumerate(socks)]
    await stop.wait()
    for t in talkers:
        t.cancel()
    for ws in socks:
        await ws.close()
    for r in readers:
        r.cancel()
    return counts


async def _spectator_crowd(ws_base: str, table_id: str, stop: asyncio.Event) -> dict[str, int]:
    """500 spectators from 50 addresses (10 each) arrive as fast as they can, and stay."""
    counts: dict[str, int] = {}
    started = time.monotonic()

    async def one(i: int) -> Any:
        ws = await _ws(ws_base, table_id, _addr(200 + i % 50))
        await ws.send(json.dumps({"type": "hello"}))
        return ws

    socks = await asyncio.gather(*(one(i) for i in range(500)), return_exceptions=True)
    counts["connect seconds x10"] = round((time.monotonic() - started) * 10)
    live = [ws for ws in socks if not isinstance(ws, BaseException)]
    counts["connected"] = len(live)
    readers = [asyncio.create_task(_drain(ws, counts)) for ws in live]
    await stop.wait()
    for ws in live:
        with contextlib.suppress(Exception):
            await ws.close()
    for r in readers:
        r.cancel()
    return counts


async def _table_flood(base: str, stop: asyncio.Event) -> dict[str, int]:
    """One client creates private tables as fast as it can; then another client tries."""
    counts: dict[str, int] = {"created": 0, "refused": 0}
    body = {"name": "flood", "player": "F", "private": True}
    while not stop.is_set():
        status = await asyncio.to_thread(_post_from, base, "127.0.0.2", "/api/tables", body)
        counts["created" if status == 200 else "refused"] += 1
        await asyncio.sleep(0)
    other = await asyncio.to_thread(
        _post_from, base, "127.0.0.3", "/api/tables", {"name": "mine", "player": "G"}
    )
    counts["another client's create: HTTP"] = other
    return counts


async def _sign_in_flood(
    base: str, stop: asyncio.Event, sources: int, workers: int = 16
) -> dict[str, int]:
    """Credential stuffing: ``workers`` at once sign in under ever new names with a wrong
    password (the server's argon2id check runs for each), from one address (``sources`` 1)
    or from ``sources`` addresses in turn; counted by the answer's status."""
    counts: dict[str, int] = {}
    tried = 0
    loop = asyncio.get_running_loop()
    # A thread for each worker: the loop's default executor has only a few (cores + 4), which
    # would hold the attack to fewer at once than it says.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)

    async def worker(w: int) -> None:
        nonlocal tried
        while not stop.is_set():
            n = tried
            tried += 1
            source = _addr(n % sources)
            body = {"name": f"victim{w}x{n}", "password": "hunter2-leaked"}
            status = await loop.run_in_executor(
                pool, _post_from, base, source, "/api/account/signin", body
            )
            key = f"HTTP {status}"
            counts[key] = counts.get(key, 0) + 1

    with pool:
        await asyncio.gather(*(worker(w) for w in range(workers)))
    return counts


def _post_from(base: str, source: str, path: str, body: dict[str, Any]) -> int:
    import http.client

    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"content-type": "application/json"})
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


async def _slow_headers(base: str, stop: asyncio.Event) -> dict[str, int]:
    """1,000 HTTP connections from 40 addresses, each sending one header line every 5 s."""
    host, port = base.removeprefix("http://").split(":")
    loop = asyncio.get_running_loop()
    socks: list[socket.socket] = []
    for i in range(1000):
        s = socket.socket()
        s.setblocking(False)
        s.bind((_addr(300 + i % 40), 0))
        with contextlib.suppress(OSError):
            await loop.sock_connect(s, (host, int(port)))
            await loop.sock_sendall(s, b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
    n = 0
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 5)
        n += 1
        for s in socks:
            with contextlib.suppress(OSError):
                s.send(f"X-Slow-{n}: 1\r\n".encode())
    closed = 0
    for s in socks:
        try:
            closed += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    return {"opened": len(socks), "closed by the server": closed}


async def _message_flood(ws_base: str, table_id: str, stop: asyncio.Event) -> dict[str, int]:
    """One client, 30 sockets, each sending syncs and pings as fast as it can, plus nested
    and oversize messages."""
    counts: dict[str, int] = {}
    socks = await asyncio.gather(*(_ws(ws_base, table_id, "127.0.0.4") for _ in range(30)))
    readers = [asyncio.create_task(_drain(ws, counts)) for ws in socks]
    for ws in socks:
        await ws.send(json.dumps({"type": "hello"}))
    junk = [
        json.dumps({"type": "sync", "last_version": 0}),
        json.dumps({"type": "ping"}),
        "[" * 1500 + "]" * 1500,
        "x" * 5000,
    ]

    async def flood(ws: Any) -> None:
        i = 0
        while not stop.is_set():
            with contextlib.suppress(Exception):
                await ws.send(junk[i % len(junk)])
            counts["sent"] = counts.get("sent", 0) + 1
            i += 1
            if i % 20 == 0:
                await asyncio.sleep(0.01)

    floods = [asyncio.create_task(flood(ws)) for ws in socks]
    await stop.wait()
    for t in floods:
        t.cancel()
    for ws in socks:
        await ws.close()
    for r in readers:
        r.cancel()
    return counts


async def run_abuse(base: str, seconds: float, only: list[str] | None = None) -> list[AttackResult]:
    """Run every attack (or the baseline and those named in ``only``) for ``seconds`` against
    the server at ``base`` while a player plays."""
    seconds = min(seconds, MAX_SECONDS)
    ws_base = "ws://" + base.removeprefix("http://")
    created = _http(
        base,
        "/api/tables",
        {"name": "player's table", "player": "P", "seats": 2, "dice": 5, "turn_seconds": 0},
    )
    table_id = created["table_id"]
    rng = random.Random(14)
    result = LoadResult(tables=1, seconds=seconds, think=0.2)
    player = _Seat(ws_base, table_id, created["token"], 0.2, result, rng, host=True)
    stop_player = asyncio.Event()
    runner = asyncio.create_task(player.run(stop_player))
    await player.ready.wait()
    await player.ws.send(json.dumps({"type": "add_bot", "level": "easy"}))
    await player.ws.send(json.dumps({"type": "start"}))
    await asyncio.sleep(1.0)

    results: list[AttackResult] = []
    for name, what in _chosen(only):
        measured = LoadResult(tables=1, seconds=seconds, think=0.2)
        player.result = measured
        player.measuring = True
        # The attacker runs in a process of its own, so that its work does not slow the
        # player's client (only the server is shared, as it would be).
        # Slow headers last past the header timeout, to see them cut off.
        span = max(seconds, HEADER_TIMEOUT + 3) if name == "slow headers" else seconds
        counts = await asyncio.to_thread(_in_process, name, base, table_id, span)
        player.measuring = False
        results.append(AttackResult(name, what, measured, counts=counts))
        await asyncio.sleep(0.5)
    # No table stuck: the player's game still moves.
    before = player.version
    await asyncio.sleep(3.0)
    moving = player.version > before
    stop_player.set()
    await runner
    stored = _stored_check(base, player)
    for r in results:
        r.outcome = ", ".join(f"{k} {v}" for k, v in r.counts.items())
    results.append(
        AttackResult(
            "afterwards",
            "",
            LoadResult(tables=1, seconds=0, think=0),
            outcome=f"player's table still moving: {moving}; {stored}",
        )
    )
    return results


async def _idle(stop: asyncio.Event) -> dict[str, int]:
    await stop.wait()
    return {}


ATTACKS = [
    ("none (baseline)", ""),
    ("chat crowd", "100 spectators (100 addresses) chatting 10 lines/s each"),
    ("same-address chat", "100 spectators from the player's own address chatting 10 lines/s"),
    ("spectator crowd", "500 spectators arriving at once (50 addresses)"),
    ("table flood", "one client creating tables as fast as it can"),
    ("slow headers", "1,000 half-sent requests (40 addresses), a header line every 5 s"),
    ("message flood", "30 sockets of one client: syncs, pings, nested, oversize"),
    (
        "sign-in stuffing",
        "16 at once signing in under ever new names, wrong passwords, from one address",
    ),
    (
        "sign-in spread",
        "16 at once signing in under ever new names, wrong passwords, from 200 addresses",
    ),
]


def _chosen(only: list[str] | None) -> list[tuple[str, str]]:
    """The baseline, then every attack or those named in ``only`` (an unknown name is an
    error naming the known ones)."""
    if not only:
        return ATTACKS
    known = [name for name, _ in ATTACKS]
    unknown = [name for name in only if name not in known]
    if unknown:
        raise ValueError(f"no attack {unknown[0]!r}: the attacks are {', '.join(known[1:])}")
    return [ATTACKS[0], *(a for a in ATTACKS[1:] if a[0] in only)]


def _attack(name: str, base: str, table_id: str) -> Callable[[asyncio.Event], Any]:
    ws_base = "ws://" + base.removeprefix("http://")
    return {
        "none (baseline)": _idle,
        "chat crowd": lambda stop: _chat_crowd(ws_base, table_id, stop),
        "same-address chat": lambda stop: _chat_crowd(
            ws_base, table_id, stop, lambda _i: "127.0.0.1"
        ),
        "spectator crowd": lambda stop: _spectator_crowd(ws_base, table_id, stop),
        "table flood": lambda stop: _table_flood(base, stop),
        "slow headers": lambda stop: _slow_headers(base, stop),
        "message flood": lambda stop: _message_flood(ws_base, table_id, stop),
        "sign-in stuffing": lambda stop: _sign_in_flood(base, stop, 1),
        "sign-in spread": lambda stop: _sign_in_flood(base, stop, 200),
    }[name]


def _attacker(name: str, base: str, table_id: str, seconds: float, out: Any) -> None:
    """A child process's work: run one attack for ``seconds``, put its counts on ``out``."""

    async def go() -> dict[str, int]:
        stop = asyncio.Event()
        task = asyncio.create_task(_attack(name, base, table_id)(stop))
        await asyncio.sleep(seconds)
        stop.set()
        counts: dict[str, int] = await task
        return counts

    out.put(asyncio.run(go()))


def _in_process(name: str, base: str, table_id: str, seconds: float) -> dict[str, int]:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=_attacker, args=(name, base, table_id, seconds, out))
    proc.start()
    try:
        counts: dict[str, int] = out.get(timeout=seconds + 120)
    finally:
        proc.join(30)
        if proc.is_alive():
            proc.kill()
    return counts


def _stored_check(base: str, player: _Seat) -> str:
    """Every game the player finished is in the store and replays."""
    games = _http(base, "/api/games")["games"]
    mine = [g for g in games if g["table_name"] == "player's table"]
    replayed = 0
    for g in mine:
        replay = _http(base, f"/api/games/{g['id']}/replay")
        replayed += bool(replay["frames"])
    return f"games finished and stored: {len(mine)}, replayed from the store: {replayed}"


def main(seconds: float = 8.0, only: list[str] | None = None) -> list[AttackResult]:
    """Start a server on loopback, run every attack (or the baseline and those named in
    ``only``), print the figures."""
    _chosen(only)
    with tempfile.TemporaryDirectory(prefix="perudo-abuse-") as tmp:
        proc, base = start_server(Path(tmp))
        try:
            results = asyncio.run(run_abuse(base, seconds, only))
        finally:
            proc.terminate()
            proc.wait(10)
    print(
        f"perudo bench-abuse: each attack {min(seconds, MAX_SECONDS):g} s on loopback; the "
        "player's action→event latency under it"
    )
    for r in results:
        if r.what:
            print(f"  {r.name}: {r.what}")
        print(r.line() if r.name != "afterwards" else f"  afterwards: {r.outcome}")
    return results
