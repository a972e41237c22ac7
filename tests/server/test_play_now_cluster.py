"""Play now across processes, on real PostgreSQL and Redis: a person waits in the heads-up pool
at one process, which is killed with ``kill -9``; another person presses Play now at the
other process, which seats them both (the dead process's entry lives on for its grace); the
first person's page, reconnecting at the living process with its ticket, gets that seat. Both
land at one started table, and the pool is left empty: nobody stranded, nobody seated twice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from tests.server.cluster import Endpoint, Player, Processes
from tests.server.harness import run
from tests.server.test_play_now import Waiting


@pytest.fixture
def cluster(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> Iterator[Callable[..., Processes]]:
    made: list[Processes] = []

    def make(count: int = 2, **env: str) -> Processes:
        procs = Processes(tmp_path, postgres_url, redis_url, count, **env)
        made.append(procs)
        return procs.start()

    yield make
    for procs in made:
        procs.stop()


def test_play_now_after_kill_9_nobody_is_stranded_nor_seated_twice(
    cluster: Callable[..., Processes],
) -> None:
    procs = cluster(2)
    a, b = procs.servers

    async def go() -> None:
        ann = await Waiting(a.ws_url).open()
        await ann.send(type="play_join", preset="perudo", seats=2, wait=600, name="Ann")
        ticket = (await ann.first("pool"))["ticket"]
        a.kill()
        await ann.closed()
        bo = await Waiting(b.ws_url).open()
        await bo.send(type="play_join", preset="perudo", seats=2, wait=600, name="Bo")
        seated = await bo.first("play_matched")
        back = await Waiting(b.ws_url).open()  # Ann's page reconnects, at the living process
        await back.send(
            type="play_join", preset="perudo", seats=2, wait=600, name="Ann", ticket=ticket
        )
        hers = await back.first("play_matched")
        assert hers["table_id"] == seated["table_id"] and {hers["seat"], seated["seat"]} == {0, 1}
        at_b = Endpoint(b.ws_url)
        people = [
            await Player(at_b, seated["table_id"], seated["token"]).connect(),
            await Player(at_b, hers["table_id"], hers["token"]).connect(),
        ]
        for p in people:
            await p.until(lambda p=p: bool(p.table and p.table["status"] == "playing"))
        assert {s["name"] for s in people[0].table["seats"]} == {"Ann", "Bo"}  # type: ignore[index]
        redis = aioredis.from_url(procs.redis_url)
        try:
            assert await redis.hlen("perudo:pool:perudo:2:casual") == 0  # type: ignore[misc]
        finally:
            await redis.aclose()
        for p in people:
            await p.close()
        await bo.close()
        await back.close()

    run(go())
