"""Accounts, sessions and ratings over two ``perudo serve`` processes on one PostgreSQL and one
Redis (docs/accounts.md, docs/ratings.md, issue 27 point 9): a person signed up at one process
is signed in at the other; a session revoked at one is refused at the other; a rated game made
at one and played across both is rated once; and the owner of a rated table killed with
SIGKILL (``kill -9``) at the game's end, while its end is being written or right after it
was, is taken over by the other process and the game is rated exactly once.

Real parts (tests/server/cluster.py): Debian's PostgreSQL and Redis, real processes, clients
that reconnect as the page does. Heads-up with one die each, so the first ``dudo`` ends the
game.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import websockets
from tests.server.cluster import Endpoint, Player, Processes, plain_dsn, play_on
from tests.server.harness import run
from tests.server.rated import PASSWORD, Person

from perudo.core.views import legal_texts

CHEAP = {"PERUDO_ARGON2_MEMORY_KIB": "8192", "PERUDO_ARGON2_TIME_COST": "1"}


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[Processes]:
    procs = Processes(tmp_path, postgres_url, redis_url, 2, **CHEAP)
    try:
        yield procs.start()
    finally:
        procs.stop()


def _first_bid_then_dudo(view: dict[str, Any]) -> str:
    legal = legal_texts(view["legal"])
    return "dudo" if "dudo" in legal else legal[0]


async def _rated_pair(procs: Processes) -> tuple[str, Person, Person, Player, Player]:
    """Ann (her browser at the first process) makes a rated heads-up table there, one die
    each; Bo (his at the second) joins through the second; each plays at their own process;
    the game started and in its first round. (table id, Ann, Bo, her player, his player)"""
    a, b = procs.servers
    ann, bo = Person(a), Person(a).at(b)
    made = ann.post(
        "/api/tables", {"name": "r", "player": "x", "seats": 2, "dice": 1, "rated": True}
    ).json()
    assert "table_id" in made, made
    tid = made["table_id"]
    joined = bo.post(f"/api/tables/{tid}/join", {"name": "x"}).json()
    assert joined["seat"] == 1, joined
    her = await Player(Endpoint(a.ws_url), tid, made["token"]).connect()
    him = await Player(Endpoint(b.ws_url), tid, joined["token"]).connect()
    await her.send({"type": "start"})
    for p in (her, him):
        await p.until(lambda p=p: p.view is not None and p.view["phase"] == "bidding")  # type: ignore[misc]
    return tid, ann, bo, her, him


async def _rows(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(plain_dsn(url))
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def _rated_once(url: str, game_key: str, names: set[str]) -> None:
    """The game has one rating change per player, and each player's rating counts one game."""
    changes = await _rows(
        url,
        "SELECT p.name FROM rating_changes c JOIN games g ON g.id = c.game_id "
        "JOIN players p ON p.id = c.player_id WHERE g.key = $1",
        game_key,
    )
    assert sorted(r["name"] for r in changes) == sorted(names)
    ratings = await _rows(
        url,
        "SELECT p.name, r.games FROM ratings r JOIN players p ON p.id = r.player_id",
    )
    assert {r["name"]: r["games"] for r in ratings} == dict.fromkeys(names, 1)


def test_accounts_sessions_and_a_rated_game_behave_the_same_over_two_processes(
    cluster: Processes, postgres_url: str
) -> None:
    a, b = cluster.servers
    ann = Person(a)
    # Signed up at one process, signed in at the other.
    ann.at(b)
    me = ann.http.get("/api/account").json()
    assert me["name"] == ann.name and me["csrf"] == ann.csrf
    # A second browser signs in at the second process; the first revokes it at the first.
    phone = httpx.Client(base_url=b.url, timeout=20)
    out = phone.post("/api/account/signin", json={"name": ann.name, "password": PASSWORD})
    phone.headers["cookie"] = f"perudo_session={out.cookies['perudo_session']}"
    assert phone.get("/api/account").status_code == 200
    ann.at(a)
    (other,) = [s for s in ann.http.get("/api/account").json()["sessions"] if not s["current"]]
    revoked = ann.http.delete(
        f"/api/account/sessions/{other['id']}", headers={"X-CSRF-Token": ann.csrf}
    )
    assert revoked.status_code == 204
    assert phone.get("/api/account").status_code == 401
    # Signed out at the second process: refused at the first too.
    ann.at(b)
    assert ann.post("/api/account/signout", {}).status_code == 204
    assert ann.at(a).http.get("/api/account").status_code == 401

    async def go() -> None:
        tid, her_person, his_person, her, him = await _rated_pair(cluster)
        await play_on([her, him], _first_bid_then_dudo, lambda: False)
        for p in (her, him):
            await p.until(lambda p=p: bool(p.table and p.table["rating_changes"]))  # type: ignore[misc]
        assert her.table is not None and him.table is not None
        assert her.table["rating_changes"] == him.table["rating_changes"]
        await _rated_once(postgres_url, her.table["game_id"], {her_person.name, his_person.name})
        for p in (her, him):
            await p.close()

    run(go())


async def _owner_index(procs: Processes, tid: str) -> int:
    owner, _ = await procs.owner(tid)
    found = procs.index_of(owner)
    assert found is not None
    return found


async def _end_after_kill(
    procs: Processes, url: str, kill_at: Callable[[Processes, str, int, Callable[[], Any]], Any]
) -> None:
    """Play a rated heads-up game up to its last move; ``kill_at(procs, game key, owner's
    index, end)`` calls ``end()`` (the move that ends the game: dudo), kills the owner at its
    chosen moment and says whether the end was committed. If not, the other process takes
    the table over and the player sends the last move again; either way the players,
    reconnecting to the live process, see the end and its rating changes, and the game is
    rated exactly once."""
    tid, ann, bo, her, him = await _rated_pair(procs)
    assert her.table is not None
    key = her.table["game_id"]
    dead = await _owner_index(procs, tid)
    old, _ = await procs.owner(tid)
    await play_on([her, him], _first_bid_then_dudo, lambda: _dudo_next(her, him))
    on_turn = next(p for p in (her, him) if _dudo_next(p))

    async def end() -> None:
        on_turn.acted_at = on_turn.version
        await on_turn.act("dudo")

    if not await kill_at(procs, key, dead, end):
        # The end was lost with the owner: the other process takes the table over.
        await procs.wait_owner(tid, not_=old)
    # The dead process's player comes back through the live one (as through the balancer).
    live = Endpoint(procs.servers[1 - dead].ws_url)
    for p in (her, him):
        p.endpoint = p.server = live  # type: ignore[assignment]
    await _end_again(her, him, on_turn)
    for p in (her, him):
        await p.until(lambda p=p: bool(p.table and p.table["rating_changes"]), 30)  # type: ignore[misc]
    assert her.table is not None and him.table is not None
    assert her.table["rating_changes"] == him.table["rating_changes"]
    assert sorted(c["seat"] for c in her.table["rating_changes"]) == [0, 1]
    await _rated_once(url, key, {ann.name, bo.name})
    for p in (her, him):
        await p.close()


async def _end_again(her: Player, him: Player, on_turn: Player, timeout: float = 60) -> None:
    """Until both players see the game over: reconnect a closed socket (to the live
    process), and, while ``on_turn`` still has the last move to make (the dead owner never
    wrote it), send it again, once per refusal (the table may still be moving)."""
    deadline = time.monotonic() + timeout
    while not (_over(her) and _over(him)):
        assert time.monotonic() < deadline, (
            her.messages[-3:],
            him.messages[-3:],
            ("close codes", her.closes, him.closes),
        )
        for p in (her, him):
            if not p.alive:
                await p.resume()
        if _dudo_next(on_turn):
            await _send_end(on_turn)
        else:
            for p in (her, him):
                with contextlib.suppress(TimeoutError, ConnectionError):
                    await p.until(lambda p=p: _over(p), 1)  # type: ignore[misc]


def _over(p: Player) -> bool:
    return p.view is not None and p.view["phase"] == "game_over"


async def _send_end(p: Player) -> None:
    """Send dudo; wait for a new version or a refusal (5 s at most). A socket the live
    process closes as it takes the table over (1012, CI of 521076c) is reconnected by the
    caller's next pass, as :func:`play_on` does."""
    sent, at = len(p.messages), p.version
    try:
        await p.act("dudo")
    except websockets.ConnectionClosed:
        await asyncio.sleep(0.05)
        return
    with contextlib.suppress(TimeoutError, ConnectionError):
        await p.until(
            lambda: p.version > at or any(m["type"] == "error" for m in p.messages[sent:]), 5
        )


def _dudo_next(*players: Player) -> bool:
    """Whether the player on turn would now end the game (one die each: dudo does)."""
    return any(
        p.my_turn() and p.view is not None and "dudo" in legal_texts(p.view["legal"])
        for p in players
    )


async def _kill_while_the_end_is_written(
    procs: Processes, key: str, dead: int, end: Callable[[], Any]
) -> bool:
    """Hold the table's row locked, so the owner's write of the game's end (the last move,
    the game over, the ratings, then the table's status, in one transaction) waits at its
    last statement; SIGKILL the owner there, then let the lock go: nothing of the end is
    committed."""
    conn = await asyncpg.connect(plain_dsn(procs.database_url))
    watch = await asyncpg.connect(plain_dsn(procs.database_url))
    try:
        tx = conn.transaction()
        await tx.start()
        await conn.execute(
            "SELECT 1 FROM tables t JOIN games g ON g.table_id = t.id WHERE g.key = $1 "
            "FOR UPDATE OF t",
            key,
        )
        await end()
        deadline = time.monotonic() + 20
        # (From another connection: pg_stat_activity is read once per transaction.)
        while not await watch.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) "
            "AND query ILIKE 'UPDATE tables%'",
            conn.get_server_pid(),
        ):
            assert time.monotonic() < deadline, "the owner's write of the end never came"
            await asyncio.sleep(0.01)
        procs.servers[dead].kill()
        await tx.rollback()
        finished = await conn.fetchval("SELECT finished_at FROM games WHERE key = $1", key)
        assert finished is None, "the end was committed before the kill"
        return False
    finally:
        await conn.close()
        await watch.close()


async def _kill_right_after_the_end_is_written(
    procs: Processes, key: str, dead: int, end: Callable[[], Any]
) -> bool:
    """SIGKILL the owner as soon as its write of the game's end is committed (the moment it
    turns to telling the players), watching the database every millisecond or so."""
    conn = await asyncpg.connect(plain_dsn(procs.database_url))
    try:
        await end()
        deadline = time.monotonic() + 20
        while await conn.fetchval("SELECT finished_at FROM games WHERE key = $1", key) is None:
            assert time.monotonic() < deadline, "the owner's write of the end never came"
        procs.servers[dead].kill()
        return True
    finally:
        await conn.close()


@pytest.mark.parametrize(
    "kill_at",
    [_kill_while_the_end_is_written, _kill_right_after_the_end_is_written],
    ids=["while-written", "right-after"],
)
def test_kill_9_of_the_owner_at_a_rated_games_end_rates_it_exactly_once(
    cluster: Processes,
    postgres_url: str,
    kill_at: Callable[[Processes, str, int, Callable[[], Any]], Any],
) -> None:
    run(_end_after_kill(cluster, postgres_url, kill_at))
