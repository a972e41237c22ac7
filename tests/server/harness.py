"""Real parts for the server tests: a uvicorn process on a free loopback port with its own
SQLite file, real WebSocket clients (the ``websockets`` library), and the server's own record
of a game replayed in the core. Shared with the browser tests and the load benchmark's tests as
``tests.server.harness``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import websockets

from perudo.core import DiceDealt, RoundResolved, RuleSet, apply, parse_action, start_game
from perudo.core.views import legal_texts

ROOT = Path(__file__).resolve().parents[2]


async def create_at_once(lobbies: Sequence[Any], count: int) -> tuple[list[Any], list[Any]]:
    """``count`` people (each from its own address) creating a two-seat Perudo table at the
    same moment, spread over ``lobbies`` (:class:`perudo.server.lobby.Lobby`, one per
    process) in turn: the tables made and the :class:`~perudo.server.tables.TableError`
    refusals (anything else raised is raised here)."""
    from perudo.server.tables import TableConfig, TableError

    cfg = TableConfig.build(preset="perudo", seats=2)
    results = await asyncio.gather(
        *(
            lobbies[i % len(lobbies)].create(
                name="t", player="Ann", config=cfg, private=True, client=f"198.51.100.{i}"
            )
            for i in range(count)
        ),
        return_exceptions=True,
    )
    made = [r[0] for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, TableError)]
    for r in results:
        if isinstance(r, BaseException) and not isinstance(r, TableError):
            raise r
    return made, refused


def free_port() -> int:
    """A TCP port free on every IPv4 address of the machine (some servers here listen on
    ``0.0.0.0``, so a port free on loopback alone is not enough)."""
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def wait_healthy(
    proc: subprocess.Popen[bytes],
    url: str,
    log: Callable[[], str],
    seconds: float = 30,
    context: Any = None,
) -> None:
    """Wait until ``url`` answers 200 (``context``: an SSL context for https), or raise with
    ``log()`` when ``proc`` exits first or the time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited: {log()}")
        try:
            with urllib.request.urlopen(url, timeout=1, context=context) as r:
                if r.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer: {log()}")


def stop_process(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM, then SIGKILL after 10 s, to a child process still running."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class ServerProcess:
    """``python -m perudo serve [args]`` as a child process; :meth:`kill` sends SIGKILL."""

    def __init__(self, workdir: Path, args: tuple[str, ...] = (), **env: str) -> None:
        self.workdir = workdir
        self.args = args
        self.port = free_port()
        self.db = workdir / "perudo.db"
        self.env = {
            **os.environ,
            "PERUDO_DATABASE_URL": f"sqlite+aiosqlite:///{self.db}",
            "PERUDO_HOST": "127.0.0.1",
            "PERUDO_PORT": str(self.port),
            "PERUDO_BOT_DELAY": "0",
            "PERUDO_ROUND_PAUSE": "0",
            "PERUDO_DROP_GRACE": "1",
            "PERUDO_MIN_TURN_SECONDS": "0.1",
            # Many tests share one server and one address: the per-client limits are set out
            # of their way here; tests/server/test_security.py sets them tight.
            "PERUDO_TABLES_PER_CLIENT": "10000",
            "PERUDO_CREATES_PER_MINUTE": "100000",
            "PERUDO_CONNECTIONS_PER_CLIENT": "10000",
            "PERUDO_CLIENT_RATE_PER_SECOND": "100000",
            "PERUDO_CHAT_PER_SECOND": "1000",
            "PERUDO_TABLE_CHAT_PER_SECOND": "1000",
            "PERUDO_TABLE_SPECTATOR_RATE": "100000",
            "PERUDO_JOINS_PER_MINUTE": "100000",
            "PERUDO_JOINS_BURST": "10000",
            "PERUDO_INVITES_PER_MINUTE": "100000",
            "PERUDO_INVITES_BURST": "10000",
            "PERUDO_CONNECTIONS_PER_SECOND": "100000",
            "PERUDO_PRESENCE_DELAY": "0.05",
            "PERUDO_SPECTATOR_DELAY": "0.05",
            "PERUDO_SPECTATOR_COUNT_DELAY": "0.05",
            "PERUDO_LOG_LEVEL": "warning",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, seconds: float = 30) -> ServerProcess:
        """Start the server and wait (``seconds`` at most) until it answers."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "perudo", "serve", *self.args],
                cwd=self.workdir,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_healthy(
            self.proc, self.url + "/healthz", lambda: self.log.read_text()[-2000:], seconds
        )
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        stop_process(self.proc)

    # -- HTTP -----------------------------------------------------------------------------

    def http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as err:
            return {"status": err.code, **json.loads(err.read())}

    def create_table(self, **kw: Any) -> dict[str, Any]:
        body = {"name": "test table", "player": "Ann", "seats": 3, "dice": 2, **kw}
        out = self.http("POST", "/api/tables", body)
        assert "table_id" in out, out
        return out

    def join(self, table_id: str, name: str) -> dict[str, Any]:
        out = self.http("POST", f"/api/tables/{table_id}/join", {"name": name})
        assert "token" in out, out
        return out


def merged(
    before: dict[str, Any] | None, update: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An update's view with what it leaves out because its receiver holds it already put
    back, from the view ``before`` it, and the rounds it finished, whole, as docs/bot-api.md
    says a client adds them up: the round's actions are those of the view before, then the
    update's ``action`` events after its last ``round_resolved`` or ``round_started``; each
    finished round is its ``past_tail`` entry, the actions it had then and its
    ``round_resolved`` event (without its version) as its result."""
    view = update["view"]
    if view["actions"] is not None:  # a whole view
        return view, []
    actions = list(before["actions"]) if before else []
    infos = list(before["actions_info"]) if before else []
    rounds: list[dict[str, Any]] = []
    for e in update["events"]:
        if e["type"] == "action":
            actions.append([e["seat"], e["action"]])
            infos.append(e["action_info"])
        elif e["type"] in ("round_resolved", "round_started"):
            if e["type"] == "round_resolved" and len(rounds) < len(update["past_tail"]):
                result = {k: v for k, v in e.items() if k != "version"}
                tail = update["past_tail"][len(rounds)]
                rounds.append({**tail, "actions": actions, "actions_info": infos, "result": result})
            actions, infos = [], []
    return {**view, "actions": actions, "actions_info": infos}, rounds


class Client:
    """A WebSocket client at a table: records every message it receives (its ``view``: the
    latest, whole but for ``past``, ``rules`` and ``rolloff`` after an update)."""

    def __init__(self, server: ServerProcess, table_id: str, token: str | None = None) -> None:
        self.server = server
        self.table_id = table_id
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.cursor = 0
        self.version = 0
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()
        self.acted_at = -1
        self.acted_from = 0
        """Where this client's messages stood when it last acted (``play_until_over``)."""
        self.retried_at = -1
        """The version at which ``play_until_over`` last acted again after a refusal."""

    async def connect(self, last_version: int | None = None, hello: bool = True) -> Client:
        self.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/tables/{self.table_id}",
            max_size=None,
            ssl=getattr(self.server, "tls", None),  # wss:// through a balancer with TLS
        )
        self.cursor = len(self.messages)
        self._reader = asyncio.create_task(self._read())
        if hello:
            msg: dict[str, Any] = {"type": "hello", "token": self.token}
            if last_version is not None:
                msg["last_version"] = last_version
            await self.send(msg)
            await self.next(lambda m: m["type"] in ("snapshot", "update"))
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.raw.append(raw)
                m = json.loads(raw)
                self.messages.append(m)
                t = m["type"]
                if t == "snapshot":
                    self.seat = m["seat"]
                    self.table = m["table"]
                    self.view = m["view"]
                if t == "update" and m["view"] is not None:
                    self.view = merged(self.view, m)[0]
                    self.seat = m["view"]["seat"]
                if t == "table":
                    self.table = m["table"]
                if t in ("snapshot", "update", "table", "chat"):
                    self.version = max(self.version, m["version"])
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._arrived.set()

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    async def next(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 15.0
    ) -> dict[str, Any]:
        """The next message (after the cursor) matching ``pred``; moves the cursor past it."""
        deadline = time.monotonic() + timeout
        while True:
            while self.cursor < len(self.messages):
                m = self.messages[self.cursor]
                self.cursor += 1
                if pred(m):
                    return m
            if self._reader is not None and self._reader.done():
                raise ConnectionError("the connection closed")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message; last: {self.messages[-3:]}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def until(self, cond: Callable[[], bool], timeout: float = 15.0) -> None:
        """Wait until ``cond()`` holds for this client's latest state (view, table…)."""
        deadline = time.monotonic() + timeout
        while not cond():
            if self._reader is not None and self._reader.done():
                raise ConnectionError("the connection closed")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met; last: {self.messages[-2:]}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return await self.next(lambda m: m["type"] == "error", timeout)

    async def act(
        self, action: str, version: int | None = None, on: Any = "view", **more: Any
    ) -> None:
        """Send ``action`` at ``version`` (the last one seen unless told), answering ``on``:
        the ``[round, bid]`` of the latest view unless told (``None``: no ``on``, as a page
        from before it)."""
        msg: dict[str, Any] = {
            "type": "act",
            "action": action,
            "version": self.version if version is None else version,
        }
        if on == "view":
            on = [self.view["round"], self.view["bid"]] if self.view is not None else None
        if on is not None:
            msg["on"] = on
        await self.send({**msg, **more})

    async def ping(self) -> dict[str, Any]:
        await self.send({"type": "ping"})
        return await self.next(lambda m: m["type"] == "pong")

    def my_turn(self) -> bool:
        v = self.view
        return bool(
            v is not None
            and v["to_act"] == self.seat
            and legal_texts(v["legal"])
            and v["phase"] != "game_over"
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


async def heads_up(srv: ServerProcess, guest: str = "Bo", **table: Any) -> tuple[Client, Client]:
    """Ann creates a two-seat table (``table``: the creation's options), ``guest`` joins; both
    connect, Ann starts the game; once both see the first round's bidding: (the seat to
    move, the other)."""
    t = srv.create_table(seats=2, **table)
    j = srv.join(t["table_id"], guest)
    ann = await Client(srv, t["table_id"], t["token"]).connect()
    bo = await Client(srv, t["table_id"], j["token"]).connect()
    await ann.send({"type": "start"})
    for c in (ann, bo):
        await c.until(lambda c=c: c.view is not None and c.view["phase"] == "bidding")  # type: ignore[misc]
    return (ann, bo) if ann.my_turn() else (bo, ann)


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A quick test policy over the view's legal actions: dudo half the time when allowed,
    else the lowest raise (games with few dice end fast)."""
    legal = legal_texts(view["legal"])
    if "dudo" in legal and rng.random() < 0.5:
        return "dudo"
    return legal[0]


async def play_until_over(
    clients: list[Client],
    rng: random.Random,
    timeout: float = 60.0,
    policy: Callable[[dict[str, Any], random.Random], str] = choose,
) -> None:
    """Each seated client acts on its turn (with ``policy``) until the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        for c in clients:
            if c.view is not None and c.view["phase"] == "game_over":
                return
        acted = False
        for c in clients:
            if c.my_turn() and c.acted_at < c.version:
                c.acted_at = c.version
                c.acted_from = len(c.messages)
                assert c.view is not None
                await c.act(policy(c.view, rng))
                acted = True
            elif (
                c.my_turn()
                and c.acted_at == c.version
                and c.retried_at < c.version
                and any(
                    m["type"] == "error" and m.get("code") == "illegal"
                    for m in c.messages[c.acted_from :]
                )
            ):
                # The move was refused (memory mode offers bids to the dice at the start,
                # P-40, and the core refuses one above the dice in play, P-16): once, dudo
                # where there is a bid to doubt, else the lowest bid, rather than wait out the
                # turn timer.
                assert c.view is not None
                c.retried_at = c.version
                legal = legal_texts(c.view["legal"])
                await c.act("dudo" if "dudo" in legal else legal[0])
                acted = True
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not end in time")
        if not acted:
            await asyncio.sleep(0.01)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# -- the server's record ------------------------------------------------------------------


def _stored_game(srv: ServerProcess, game_key: str) -> tuple[Any, list[tuple[int | None, str]]]:
    with sqlite3.connect(srv.db) as db:
        game_id, rules, players, rolloff = db.execute(
            "select id, rules, players, rolloff from games where key = ?", (game_key,)
        ).fetchone()
        moves = db.execute(
            "select seat, action from game_actions where game_id = ? order by seq", (game_id,)
        ).fetchall()
    return (RuleSet.from_dict(json.loads(rules)), players, json.loads(rolloff)), moves


def replay_game(
    srv: ServerProcess, game_id: str
) -> tuple[Any, list[tuple[Any, ...]], list[RoundResolved]]:
    """Game ``game_id`` (its key, as the wire carries it) replayed in the core from the
    server's SQLite record (its rules, players, roll-off and every move in order): the state
    it reaches, every hand dealt as ``(seat, hand)``, and every round's result."""
    (rules, players, rolloff), moves = _stored_game(srv, game_id)
    state = start_game(rules, players, rolloff)
    dealt: list[tuple[Any, ...]] = []
    resolved: list[RoundResolved] = []
    for seat, text in moves:
        state, events = apply(state, parse_action(text), seat)
        for e in events:
            if isinstance(e, DiceDealt):
                dealt.append((e.seat, e.hand))
            if isinstance(e, RoundResolved):
                resolved.append(e)
    return state, dealt, resolved


_DIE_LIST_KEYS = {"hand", "dice"}
_OTHER_INT_LISTS = {
    "shown",  # dice set aside face up (V-9): public
    "rolloff",
    "dice_counts",
    "changes",
    "eliminated",
    "hidden",
    "palifico_used",
    "actions",
    "past",
    "reveals",
    "legal",
    "events",
    "seats",
    "players",
    "chat",
    "past_tail",
}


def die_lists(
    obj: Any, seat_ctx: int | None, out: list[tuple[str, int | None, tuple[int, ...]]]
) -> None:
    """Every list of dice in a message, with its key and the seat it belongs to, appended to
    ``out``; any other list of numbers must be under a key known to hold no dice."""
    if isinstance(obj, dict):
        ctx = obj.get("seat", seat_ctx) if isinstance(obj.get("seat"), int) else seat_ctx
        for key, value in obj.items():
            if key in _DIE_LIST_KEYS and isinstance(value, list):
                out.append((key, ctx, tuple(value)))
            elif isinstance(value, list) and value and all(isinstance(x, int) for x in value):
                assert key in _OTHER_INT_LISTS, f"unexpected list of numbers under {key!r}"
            else:
                die_lists(value, ctx, out)
    elif isinstance(obj, list):
        for item in obj:
            die_lists(item, seat_ctx, out)


def assert_no_unrevealed_die(
    srv: ServerProcess, game_id: str, clients: list[Client]
) -> tuple[int, list[RoundResolved]]:
    """Every die any of ``clients`` received (their whole message logs) checked against game
    ``game_id``'s record: a seat's own dice, or a hand lifted at the table (P-21, P-70); a
    spectator only the latter. Returns how many die lists were checked and the rounds'
    results."""
    _, dealt, resolved = replay_game(srv, game_id)
    revealed = {(r.seat, r.hand) for res in resolved for r in res.reveals}
    checked = 0
    for client in clients:
        own = {(s, h) for s, h in dealt if s == client.seat}
        for m in client.messages:
            found: list[tuple[str, int | None, tuple[int, ...]]] = []
            die_lists(m, None, found)
            for key, seat, dice in found:
                checked += 1
                if not dice:
                    continue
                assert seat is not None, f"dice without a seat in {m['type']}"
                if seat == client.seat:
                    assert (seat, dice) in own or (seat, dice) in revealed
                else:
                    assert (seat, dice) in revealed, (
                        f"seat {client.seat} received seat {seat}'s {key} {dice}, "
                        "never revealed (P-70)"
                    )
            if m["type"] == "update":
                for e in m["events"]:
                    if e["type"] == "dice_dealt":
                        assert e["seat"] == client.seat
    return checked, resolved
