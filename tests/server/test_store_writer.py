"""The store's group-commit writer (perudo.server.store.writer) on a real SQLite file: a commit of
moves alone made on the event loop's thread writes what SQLAlchemy's insert writes, and a
refused row leaves none of its transaction's rows and keeps the writer's connection."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from perudo.server.store import ChatRow, SeatRow, Store, StoreError
from perudo.server.store.schema import players_t


def test_sqlite_commits_moves_alone_on_the_loop_thread_writing_the_rows_sqlalchemy_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite a commit of moves alone is made on the event loop's thread, with no call to
    aiosqlite's thread (``writer.append_on_sqlite``, docs/scaling.md), and its rows are those
    SQLAlchemy's insert writes when the same moves are committed beside another write (the
    general path): every column alike."""
    import threading

    from sqlalchemy import select

    from perudo.server.store import game_actions_t
    from perudo.server.store import writer as writer_module

    threads: list[int] = []
    real_append = writer_module.append_on_sqlite

    def traced(driver: object, rows: list[dict[str, object]]) -> None:
        threads.append(threading.get_ident())
        real_append(driver, rows)

    monkeypatch.setattr(writer_module, "append_on_sqlite", traced)

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
        await store.open()
        try:
            tid = uuid.uuid4().hex[:12]
            seats = [SeatRow(0, "human", "Ann", "h" * 64, None), SeatRow(1, "bot", "B", None, None)]
            await store.create_table(tid, "t", {"preset": "perudo"}, False, seats, 1)
            fast, _ = await store.start_game(tid, {}, ["Ann", "B"], [[6, 2]], seats, 2)
            general, _ = await store.start_game(tid, {}, ["Ann", "B"], [[6, 2]], seats, 3)
            await store.append_actions(fast, 0, [(None, "deal 3 5")], 4)  # the driver, found
            writer = store.writer
            assert writer is not None
            driver = writer.sqlite_driver
            assert driver is not None
            calls: list[object] = []
            real = driver._execute

            async def counted(fn: object, *args: object) -> object:
                calls.append(fn)
                return await real(fn, *args)

            driver._execute = counted
            commits = store.commits
            await store.append_actions(fast, 1, [(0, "1x3"), (1, "dudo")], 5)
            assert calls == [] and store.commits == commits + 1
            assert threads and set(threads) == {threading.get_ident()}
            moves = [(0, "1x3"), (1, "dudo")]
            await asyncio.gather(
                store.append_actions(general, 1, moves, 5),
                store.add_chat(tid, ChatRow(0, "Ann", "hi", 0.0, 6)),  # same batch: general path
            )
            await store.append_actions(general, 0, [(None, "deal 3 5")], 4)
            assert store.engine is not None
            async with store.engine.connect() as conn:
                rows = (
                    await conn.execute(select(game_actions_t).order_by(game_actions_t.c.seq))
                ).all()
            by_game = {
                g: [r._asdict() | {"game_id": 0, "at": 0.0} for r in rows if r.game_id == g]
                for g in (fast, general)
            }
            assert len(by_game[fast]) == 3 and by_game[fast] == by_game[general]
            assert all(type(r.at) is float and r.fence is None for r in rows)
        finally:
            await store.close()

    asyncio.run(go())


def test_sqlite_a_refused_row_among_moves_leaves_none_of_them_and_the_writer_goes_on(
    tmp_path: Path,
) -> None:
    """A commit of two moves whose second is refused (its seq is taken) writes neither (one
    transaction), the caller is told, and the next write lands on the same connection."""

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}")
        await store.open()
        try:
            tid = uuid.uuid4().hex[:12]
            seats = [SeatRow(0, "human", "Ann", "h" * 64, None), SeatRow(1, "bot", "B", None, None)]
            await store.create_table(tid, "t", {"preset": "perudo"}, False, seats, 1)
            gid, key = await store.start_game(tid, {}, ["Ann", "B"], [[6, 2]], seats, 2)
            await store.append_actions(gid, 0, [(None, "deal 3 5"), (0, "1x3")], 4)
            writer = store.writer
            assert writer is not None
            driver = writer.sqlite_driver
            # seq -1 is free, seq 0 is taken: the first row is inserted, then rolled back.
            with pytest.raises(StoreError, match="UNIQUE"):
                await store.append_actions(gid, -1, [(1, "2x3"), (0, "dudo")], 5)
            await store.append_actions(gid, 2, [(1, "2x3")], 6)
            assert writer.sqlite_driver is driver  # the connection was kept
            game = await store.game(key)
            assert game is not None
            assert game.moves == [(None, "deal 3 5"), (0, "1x3"), (1, "2x3")]
        finally:
            await store.close()

    asyncio.run(go())


def test_sqlite_a_write_that_reads_first_waits_for_another_process_rather_than_failing(
    tmp_path: Path,
) -> None:
    """Two processes over one SQLite file, each writing what it read first (a passkey player
    made only when the name is free). CI once saw ``database is locked`` there: a deferred
    transaction reads a snapshot, the other process commits, and the stale snapshot can no
    longer become a write, whatever the busy timeout. The writer's transactions take the
    write lock as they begin (``BEGIN IMMEDIATE``): the second waits its turn and sees the
    first one's row."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'two.db'}"

    async def go() -> None:
        store, other = Store(url), Store(url)
        await store.open()
        await other.open()
        try:
            reading, release = asyncio.Event(), asyncio.Event()
            runs = 0

            async def read_wait_write(conn: Any) -> int:
                nonlocal runs
                runs += 1
                # As the store's own writes do (a passkey player): read, then write, under a
                # savepoint, whose SAVEPOINT opens SQLite's transaction before the read.
                async with conn.begin_nested():
                    await conn.execute(select(players_t.c.id).where(players_t.c.name_key == "e"))
                    reading.set()
                    await release.wait()
                    done = await conn.execute(
                        insert(players_t).values(name="Eve", name_key="e", created_at=1.0)
                    )
                return int(done.inserted_primary_key[0])

            first = asyncio.create_task(other._write(read_wait_write))
            await reading.wait()
            # The other process's write: before the fix it committed at once (its reader's
            # snapshot went stale); with it, it waits for the lock the first one holds.
            second = asyncio.create_task(store.create_passkey_player("Ann", "ann", "k1", "pk", 0))
            await asyncio.wait([second], timeout=0.5)
            release.set()
            eve = await first
            ann = await second
            assert ann is not None and ann != eve
            assert runs == 1, "the first write was refused (and then tried again alone)"
            assert await store.player_by_key("e") is not None
            assert await other.player_by_key("ann") is not None
        finally:
            await other.close()
            await store.close()

    asyncio.run(go())
