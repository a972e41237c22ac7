"""Analyses across the processes of the multi-process mode (perudo.server.analysis): asked at
any process, an analysis runs once, in one process's workers; its progress and its result are
in the database, where every process finds them; a run whose process died is taken over."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy import insert, update
from tests.server.cluster import Processes, plain_dsn
from tests.server.harness import ServerProcess, heads_up, play_until_over, run
from tests.strategies import random_play

from perudo.core import PRESETS, GameRecord
from perudo.server.analysis import STALE, Analyses
from perudo.server.store import Store
from perudo.server.store.schema import analyses_t


def _record() -> GameRecord:
    rules = replace(PRESETS["perudo"], dice_per_player=1)
    return GameRecord.from_state(random_play(rules, 2, 11).final)


async def _until_done(analyses: Analyses, key: str, record: GameRecord) -> dict[str, Any]:
    for _ in range(600):
        out = await analyses.status(key, None, record, wait=1.0)
        if out["status"] != "running":
            return out
    raise AssertionError("the analysis did not finish")


def test_an_analysis_runs_once_its_progress_and_result_shared_through_the_database(
    postgres_url: str,
) -> None:
    """Two servers' analyses on one PostgreSQL: a run another process owns is followed, not
    repeated (its progress read from the row); once its owner stops beating it is taken over;
    the result, written to the row, is read by the other without running anything."""

    async def go() -> None:
        stores = [Store(postgres_url), Store(postgres_url)]
        for s in stores:
            await s.open()
        first, second = (Analyses(1, store=s) for s in stores)
        record = _record()
        try:
            now = time.time()
            row = {"game_key": "g1", "viewer": -1, "status": "running", "done": 3, "total": 10}
            async with stores[0]._engine().begin() as conn:
                await conn.execute(
                    insert(analyses_t).values(**row, result=None, owner="gone", updated_at=now)
                )
            # Running at a process that beats: its progress, and nothing started here.
            out = await second.status("g1", None, record)
            assert out == {"status": "running", "done": 3, "total": 10}
            assert second._pool is None and not second._running
            # Its process died (no write for longer than STALE): the next one asked runs it.
            async with stores[0]._engine().begin() as conn:
                await conn.execute(
                    update(analyses_t)
                    .where(analyses_t.c.game_key == "g1")
                    .values(updated_at=now - STALE - 1)
                )
            done = await _until_done(first, "g1", record)
            assert done["status"] == "done" and done["analysis"]["viewer"] is None
            # The other process reads the result from the database and runs nothing.
            again = await second.status("g1", None, record)
            assert again == done
            assert second._pool is None and not second._running
        finally:
            first.close()
            second.close()
            for s in stores:
                await s.close()

    asyncio.run(go())


def _get(srv: ServerProcess, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(srv.url + path, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_two_processes_asked_for_one_analysis_run_it_once(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Two ``perudo serve`` processes on PostgreSQL and Redis: a game played at the first,
    its analysis asked of both in turn until both answer it: the same analysis, run by one of
    them only (one "analysing" line in the two logs, the row's owner), the progress each
    answers while it runs never past its total."""
    procs = Processes(tmp_path, postgres_url, redis_url, 2, PERUDO_ROUND_PAUSE="0").start()
    try:
        a, b = procs.servers

        async def play() -> str:
            mover, other = await heads_up(a, dice=1, turn_seconds=0)
            await play_until_over([mover, other], random.Random(9), timeout=60)
            await mover.until(
                lambda: mover.table is not None and mover.table["status"] == "finished"
            )
            assert mover.table is not None
            for c in (mover, other):
                await c.close()
            return str(mover.table["game_id"])

        game_id = run(play())
        answers: dict[int, Any] = {}
        for i in range(600):
            srv = (b, a)[i % 2]
            status, body = _get(srv, f"/api/games/{game_id}/analysis")
            if status == 200:
                answers[srv.port] = body
                if len(answers) == 2:
                    break
            else:
                assert status == 202 and body["done"] <= max(body["total"], 1), body
        assert len(answers) == 2
        first, second = answers.values()
        assert first == second and first["analysis"]["viewer"] is None
        runs = [procs.log(i).count(f"analysing game {game_id}") for i in (0, 1)]
        assert sorted(runs) == [0, 1], runs

        async def owner() -> str:
            conn = await asyncpg.connect(plain_dsn(postgres_url))
            try:
                return str(
                    await conn.fetchval(
                        "SELECT owner FROM analyses WHERE game_key = $1 AND viewer = -1", game_id
                    )
                )
            finally:
                await conn.close()

        ran = runs.index(1)
        assert f"(owner {run(owner())})" in procs.log(ran)
    finally:
        procs.stop()
