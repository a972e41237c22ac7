"""Load benchmark: many 6-seat tables of bots playing as real WebSocket clients on loopback.

The bots here are *clients*: each seat is its own WebSocket connection that reads its view and
sends an action from the view's ``legal`` list after a think time, exactly as a browser would;
the server runs no bot. The figures: actions per second across all tables, the latency
from an action sent to its event received back by the sender (p50, p90, p99, max), and the
bytes of a move's message to each seat (an ``update`` as the WebSocket carries it: median and
max, for the seat whose turn it then is and for the others; a phone on mobile data pays each).

By default it starts its own server (``python -m perudo serve``) on a free loopback port with a
fresh SQLite file in a temporary folder, and stops it afterwards; ``url`` points it at a
running server instead, which must be started with its limits per client lifted
(:data:`ONE_ADDRESS_MANY_PEOPLE`, docs/scaling.md): every client here comes from one address.
A server that refuses it (HTTP 429, a limit per client) stops the benchmark with
:class:`ServerRefused`, in words naming those settings. Counts and time are bounded (at most
500 tables, 300 seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ONE_ADDRESS_MANY_PEOPLE",
    "LoadResult",
    "ServerRefused",
    "main",
    "run_load",
    "start_server",
]

MAX_TABLES = 500
MAX_SECONDS = 300.0
SEATS = 6


@dataclass
class LoadResult:
    tables: int
    seconds: float
    think: float
    actions: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    server_cpu: float | None = None
    """CPU seconds the server processes used while measuring (when this run started them)."""
    processes: int = 1
    """How many ``perudo serve`` processes served the load (behind a balancer when several)."""
    service_cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds of the services beside them while measuring (``postgres``, ``redis``,
    ``nginx``: each process with its children)."""
    client_cpu: float = 0.0
    """CPU seconds the benchmark's own clients used while measuring."""
    turn_bytes: list[int] = field(default_factory=list)
    """Bytes of each update received by the seat whose turn it then is (it carries what the
    seat may do), while measuring."""
    other_bytes: list[int] = field(default_factory=list)
    """Bytes of each other update a seat received, while measuring."""

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def quantile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        if len(self.latencies) == 1:
            return self.latencies[0]
        return statistics.quantiles(self.latencies, n=1000, method="inclusive")[
            min(998, max(0, round(q * 1000) - 1))
        ]

    def report(self) -> str:
        ms = 1000.0
        lat = self.latencies
        lines = [
            f"perudo bench-load: {self.tables} tables × {SEATS} seats "
            f"({self.tables * SEATS} WebSocket clients on loopback), "
            f"think {self.think:.2f} s, measured {self.seconds:.1f} s",
            f"  actions: {self.actions} ({self.per_second:.1f} per second), "
            f"games finished: {self.games}",
        ]
        if lat:
            lines.append(
                "  latency, action sent → its event received: "
                f"p50 {self.quantile(0.5) * ms:.1f} ms, p90 {self.quantile(0.9) * ms:.1f} ms, "
                f"p99 {self.quantile(0.99) * ms:.1f} ms, max {max(lat) * ms:.1f} ms "
                f"({len(lat)} samples)"
            )
        if self.actions:
            cpu = f"clients {self.client_cpu / self.actions * ms:.2f} ms"
            if self.server_cpu is not None:
                many = f" ({self.processes} processes)" if self.processes > 1 else ""
                cpu = f"server {self.server_cpu / self.actions * ms:.2f} ms{many}, " + cpu
            for name, seconds in sorted(self.service_cpu.items()):
                cpu += f", {name} {seconds / self.actions * ms:.2f} ms"
            lines.append(f"  CPU per action: {cpu}")
        if self.turn_bytes or self.other_bytes:
            parts = [
                f"{who} median {statistics.median(sizes):.0f}, max {max(sizes)}"
                for who, sizes in (
                    ("to the seat to act", self.turn_bytes),
                    ("to the others", self.other_bytes),
                )
                if sizes
            ]
            lines.append(f"  bytes of a move's message per seat: {'; '.join(parts)}")
        errors = ", ".join(f"{k} {v}" for k, v in sorted(self.errors.items())) or "none"
        lines.append(f"  errors: {errors}")
        return "\n".join(lines)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _http(
    base: str,
    path: str,
    body: dict[str, Any] | None = None,
    tls: ssl.SSLContext | None = None,
    person: Person | None = None,
) -> dict[str, Any]:
    """POST ``body`` (GET without one) as JSON; ``person``: with their session's cookie and
    CSRF token (a sign-up's answer fills them in)."""
    headers = {"content-type": "application/json"}
    if person is not None and person.cookie:
        headers |= {"cookie": f"{COOKIE}={person.cookie}", "X-CSRF-Token": person.csrf}
    req = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers=headers,
    )
    try:
        with urllib.request.urlopen(req, timeout=30, context=tls) as r:
            data: dict[str, Any] = json.loads(r.read())
            if person is not None and "csrf" in data:
                person.csrf = data["csrf"]
                for value in r.headers.get_all("set-cookie") or []:
                    name, _, rest = value.partition("=")
                    if name == COOKIE:
                        person.cookie = rest.split(";", 1)[0]
            return data
    except urllib.error.HTTPError as err:
        raise ServerRefused.of(base, path, err) from None


COOKIE = "perudo_session"
"""The session cookie's name (perudo.server.accounts.sessions.COOKIE)."""


@dataclass
class Person:
    """A signed-up player of ``--signed-in``: their session's cookie and CSRF token."""

    name: str
    cookie: str = ""
    csrf: str = ""


def sign_up(base: str, name: str, tls: ssl.SSLContext | None = None) -> Person:
    """Sign ``name`` up (a random password) and keep the session."""
    person = Person(name)
    _http(
        base,
        "/api/account/signup",
        {"name": name, "password": secrets.token_urlsafe(16)},
        tls,
        person,
    )
    return person


class ServerRefused(RuntimeError):
    """The server refused one of the benchmark's requests (said in words: what it answered
    and, for a limit per client, the settings a server loaded with ``--url`` needs)."""

    @classmethod
    def of(cls, base: str, path: str, err: urllib.error.HTTPError) -> ServerRefused:
        try:
            body = json.loads(err.read())
            said = f"{body.get('error')}: {body.get('message')}"
        except (ValueError, OSError, AttributeError):
            said = str(err.reason)
        words = f"{base}{path} answered HTTP {err.code} ({said})"
        if err.code == 429:
            lifted = " ".join(f"{k}={v}" for k, v in ONE_ADDRESS_MANY_PEOPLE.items())
            words += (
                ". Every client of this benchmark comes from one address, so a server it "
                f"loads must lift its limits per client: start it with {lifted} "
                "(docs/scaling.md), or leave --url out to let the benchmark start one"
            )
        return cls(words)


def _can_act(view: dict[str, Any]) -> bool:
    """Whether the view offers its seat anything to do."""
    legal = view["legal"]
    return bool(legal["bids"] or legal["actions"])


def _choose(view: dict[str, Any], rng: random.Random) -> str:
    """The client bots' policy, over ``legal`` only: dudo a third of the time when allowed,
    else one of the three lowest raises (the lowest quantity of three faces), or whatever else
    is legal."""
    legal = view["legal"]
    others: list[str] = [a["text"] for a in legal["actions"]]
    if "dudo" in others and rng.random() < 0.33:
        return "dudo"
    lowest = sorted((low, face) for face, low, _ in legal["bids"])[:3]
    if lowest:
        quantity, face = rng.choice(lowest)
        return f"{quantity}x{face}"
    return rng.choice(others)


class _Seat:
    def __init__(
        self,
        ws_base: str,
        table_id: str,
        token: str,
        think: float,
        result: LoadResult,
        rng: random.Random,
        host: bool,
        tls: ssl.SSLContext | None = None,
        person: Person | None = None,
    ) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.person = person
        self.tls = tls
        self.token = token
        self.think = think
        self.result = result
        self.rng = rng
        self.host = host
        self.version = 0
        self.view_version = 0
        """The version of the last view received (chat and table messages move
        :attr:`version` but not the game)."""
        self.pending: float | None = None
        self.measuring = False
        self.ws: Any = None
        self.ready = asyncio.Event()
        self.acts: set[asyncio.Task[None]] = set()

    async def run(self, stop: asyncio.Event, opening: asyncio.Semaphore | None = None) -> None:
        """Connect (at most as many at once as ``opening`` lets: hundreds of TLS handshakes
        at once through a balancer time out on a busy machine), greet, play until ``stop``."""
        import websockets

        async with contextlib.AsyncExitStack() as stack:
            if opening is not None:
                await opening.acquire()
            try:
                cookie = (
                    {"cookie": f"{COOKIE}={self.person.cookie}"} if self.person is not None else {}
                )
                ws = await stack.enter_async_context(
                    websockets.connect(
                        self.url,
                        max_size=None,
                        ssl=self.tls,
                        open_timeout=60,
                        additional_headers=cookie,
                    )
                )
            finally:
                if opening is not None:
                    opening.release()
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            reader = asyncio.create_task(self._read(ws))
            await stop.wait()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    async def _read(self, ws: Any) -> None:
        async for raw in ws:
            m = json.loads(raw)
            kind = m["type"]
            if kind == "snapshot":
                self.ready.set()
            if kind in ("snapshot", "update", "table", "chat"):
                self.version = max(self.version, m["version"])
            if kind in ("snapshot", "update"):
                self.view_version = m["version"]
            if kind == "error":
                code = m.get("code", "?")
                if self.measuring:
                    self.result.errors[code] = self.result.errors.get(code, 0) + 1
                self.pending = None
                continue
            if kind == "table" and self.host and m["table"]["status"] == "finished":
                if self.measuring:
                    self.result.games += 1
                await ws.send(json.dumps({"type": "rematch"}))
                await ws.send(json.dumps({"type": "start"}))
                continue
            view: dict[str, Any] | None = m.get("view") if kind in ("snapshot", "update") else None
            if kind == "update" and view is not None and self.measuring:
                size = len(raw.encode()) if isinstance(raw, str) else len(raw)
                mine = view["to_act"] == view["seat"] and _can_act(view)
                (self.result.turn_bytes if mine else self.result.other_bytes).append(size)
            if kind == "update" and view is not None and self.pending is not None:
                for e in m["events"]:
                    if e["type"] in ("action", "palifico_chosen") and e["seat"] == view["seat"]:
                        if self.measuring:
                            self.result.latencies.append(time.perf_counter() - self.pending)
                            self.result.actions += 1
                        self.pending = None
                        break
            if (
                view is not None
                and self.pending is None
                and _can_act(view)
                and view["to_act"] == view["seat"]
            ):
                asyncio.get_running_loop().call_later(
                    self.think * (0.5 + self.rng.random()), self._schedule, view, self.view_version
                )

    def _schedule(self, view: dict[str, Any], version: int) -> None:
        task = asyncio.ensure_future(self._act(view, version))
        self.acts.add(task)
        task.add_done_callback(self.acts.discard)

    async def _act(self, view: dict[str, Any], version: int) -> None:
        if self.pending is not None or version != self.view_version:
            return
        action = _choose(view, self.rng)
        self.pending = time.perf_counter()
        with contextlib.suppress(Exception):
            await self.ws.send(
                json.dumps(
                    {
                        "type": "act",
                        "action": action,
                        "version": self.version,
                        "on": [view["round"], view["bid"]],
                    }
                )
            )


def _cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``), or ``None``."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of ``pid`` and of each of its living children (PostgreSQL's backends,
    nginx's workers), by process id."""
    import psutil

    out: dict[int, float] = {}
    try:
        root = psutil.Process(pid)
        for proc in [root, *root.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                t = proc.cpu_times()
                out[proc.pid] = t.user + t.system
    except psutil.Error:
        pass
    return out


def _cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two :func:`_tree_cpu` readings (a child born meanwhile counts whole;
    one that ended meanwhile is lost, which the benchmark's long-lived processes avoid)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


async def run_load(
    url: str,
    tables: int,
    seconds: float,
    think: float,
    warmup: float = 2.0,
    server_pid: int | None = None,
    server_pids: Sequence[int] = (),
    services: Mapping[str, int] | None = None,
    tls: ssl.SSLContext | None = None,
    signed_in: bool = False,
) -> LoadResult:
    """Create ``tables`` tables of six client bots at ``url`` and measure for ``seconds``.

    ``signed_in``: every seat's player signs up first (not measured) and creates or joins
    its table, and opens its socket, with its session's cookie and CSRF token, so each seat
    is a signed-in person's (its budgets are the account's, docs/security.md).

    ``server_pid`` / ``server_pids``: the ``perudo serve`` processes whose CPU is measured;
    ``services``: other processes by name (``postgres``: its postmaster), measured with their
    children; ``tls``: the client context for an ``https`` URL (a balancer's certificate)."""
    tables = max(1, min(MAX_TABLES, tables))
    seconds = max(1.0, min(MAX_SECONDS, seconds))
    pids = [*server_pids] + ([server_pid] if server_pid is not None else [])
    result = LoadResult(tables, seconds, think, processes=max(1, len(pids)))
    ws_base = "ws" + url[len("http") :]
    rng = random.Random(2024)
    seats: list[_Seat] = []

    run_id = secrets.token_hex(3)

    def make_table(i: int) -> list[tuple[str, str, Person | None]]:
        people: list[Person | None] = [
            sign_up(url, f"L{run_id}_{i}_{k}", tls) if signed_in else None for k in range(SEATS)
        ]
        made = _http(
            url,
            "/api/tables",
            {
                "name": f"load {i}",
                "player": "bot 0",
                "seats": SEATS,
                "turn_seconds": 0,
                "private": True,
            },
            tls,
            people[0],
        )
        tokens = [(made["table_id"], made["token"], people[0])]
        for k in range(1, SEATS):
            j = _http(
                url, f"/api/tables/{made['table_id']}/join", {"name": f"bot {k}"}, tls, people[k]
            )
            tokens.append((made["table_id"], j["token"], people[k]))
        return tokens

    for i in range(tables):
        for k, (table_id, token, person) in enumerate(await asyncio.to_thread(make_table, i)):
            seats.append(
                _Seat(
                    ws_base,
                    table_id,
                    token,
                    think,
                    result,
                    random.Random(rng.random()),
                    k == 0,
                    tls,
                    person,
                )
            )
    stop = asyncio.Event()
    opening = asyncio.Semaphore(50)
    tasks = [asyncio.create_task(s.run(stop, opening)) for s in seats]
    # Everyone connected and greeted before the games start.
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in seats)), 300)
    for s in seats:
        if s.host and s.ws is not None:
            await s.ws.send(json.dumps({"type": "start"}))
    await asyncio.sleep(warmup)
    # The clients' own long-lived objects (600 connections) out of the collector's full
    # passes, so that the figures measure the server rather than this process's GC pauses.
    gc.collect()
    gc.freeze()
    for s in seats:
        s.measuring = True
    started = time.perf_counter()
    cpu0 = time.process_time()
    server0 = [_cpu_seconds(pid) for pid in pids]
    services0 = {name: _tree_cpu(pid) for name, pid in (services or {}).items()}
    await asyncio.sleep(seconds)
    for s in seats:
        s.measuring = False
    result.seconds = time.perf_counter() - started
    result.client_cpu = time.process_time() - cpu0
    server1 = [_cpu_seconds(pid) for pid in pids]
    spent = [
        b - a for a, b in zip(server0, server1, strict=True) if a is not None and b is not None
    ]
    if pids and len(spent) == len(pids):
        result.server_cpu = sum(spent)
    for name, pid in (services or {}).items():
        result.service_cpu[name] = _cpu_between(services0[name], _tree_cpu(pid))
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return result


ONE_ADDRESS_MANY_PEOPLE = {
    "PERUDO_TABLES_PER_CLIENT": "100000",
    "PERUDO_CREATES_PER_MINUTE": "1000000",
    "PERUDO_CONNECTIONS_PER_CLIENT": "100000",
    "PERUDO_CLIENT_RATE_PER_SECOND": "1000000",
    "PERUDO_JOINS_PER_MINUTE": "1000000",
    "PERUDO_JOINS_BURST": "100000",
    "PERUDO_CONNECTIONS_PER_SECOND": "1000000",
}
"""Every client of this benchmark comes from 127.0.0.1 but stands for a different person:
the limits per client (docs/security.md) are lifted for it; and the pace of new
connections, since its hundreds of people all arrive in the first second (the pace of a
crowd arriving at once is what ``perudo bench-abuse`` measures), so that its figures of play
stay comparable with those before the pace existed."""


def start_server(workdir: Path, **env: str) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m perudo serve`` on a free loopback port (or ``env``'s ``PERUDO_PORT``) with a
    fresh SQLite file in ``workdir`` (bots without delay; ``env``: more ``PERUDO_…``
    settings); returns the process and its URL once it answers."""
    port = int(env["PERUDO_PORT"]) if "PERUDO_PORT" in env else _free_port()
    env = {
        **os.environ,
        "PERUDO_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'load.db'}",
        "PERUDO_HOST": "127.0.0.1",
        "PERUDO_PORT": str(port),
        "PERUDO_LOG_LEVEL": "warning",
        "PERUDO_BOT_DELAY": "0",
        "PERUDO_ROUND_PAUSE": "0",
        **env,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "perudo", "serve"],
        cwd=workdir,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            _http(url, "/healthz")
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def main(
    tables: int = 100,
    seconds: float = 20.0,
    think: float = 0.5,
    url: str | None = None,
    signed_in: bool = False,
) -> LoadResult:
    """Run the benchmark (starting a server unless ``url`` is given) and print the figures.
    ``signed_in``: every player signs up and plays under their account; a server started
    here then hashes passwords with argon2id's cheapest parameters (8 MiB, one pass: the
    sign-ups are set-up, not measured)."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if url is not None:
        result = asyncio.run(run_load(url.rstrip("/"), tables, seconds, think, signed_in=signed_in))
    else:
        cheap = (
            {"PERUDO_ARGON2_MEMORY_KIB": "8192", "PERUDO_ARGON2_TIME_COST": "1"}
            if signed_in
            else {}
        )
        with tempfile.TemporaryDirectory(prefix="perudo-load-") as tmp:
            proc, base = start_server(Path(tmp), **ONE_ADDRESS_MANY_PEOPLE, **cheap)
            try:
                result = asyncio.run(
                    run_load(base, tables, seconds, think, server_pid=proc.pid, signed_in=signed_in)
                )
            finally:
                proc.terminate()
                proc.wait(10)
    print(result.report(), flush=True)
    return result
