"""The store on a real database file: the append-only log refuses a move written twice, one
bad write does not sink the others committed with it, and tables load back.

The checks marked with ``kind`` run on SQLite and on a real PostgreSQL (Debian's, started by
tests/server/services.py on loopback, a fresh database per test) through the same code path.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from perudo.server.store import ChatRow, SeatRow, Store, StoreError

URLS = ["sqlite", "postgres"]


@pytest.fixture
def url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database of a ``kind``-parametrized test: a new SQLite file, or a fresh database of
    the session's PostgreSQL (skipped without Debian's PostgreSQL)."""
    if kind == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite+aiosqlite:///{tmp_path / 'nested' / 'dir' / 'perudo.db'}"


@pytest.mark.parametrize("kind", URLS)
def test_the_action_log_is_append_only_and_unique_per_game_and_seq(kind: str, url: str) -> None:
    async def go() -> None:
        store = Store(url)
        await store.open()
        try:
            tid = uuid.uuid4().hex[:12]
            seats = [
                SeatRow(0, "human", "Ann", "h" * 64, None),
                SeatRow(1, "bot", "B", None, "easy"),
            ]
            await store.create_table(tid, "t", {"preset": "perudo"}, False, seats, 1)
            gid, key = await store.start_game(
                tid, {"dice_per_player": 1}, ["Ann", "B"], [[6, 2]], seats, 2
            )
            await store.append_actions(gid, 0, [(None, "deal 3 5")], 5)
            await store.append_actions(gid, 1, [(0, "1x3")], 6)
            # The same (game_id, seq) again is refused, and a write queued beside it lands.
            results = await asyncio.gather(
                store.append_actions(gid, 1, [(1, "dudo")], 7),
                store.add_chat(tid, ChatRow(0, "Ann", "hi", 0.0, 8)),
                return_exceptions=True,
            )
            assert isinstance(results[0], StoreError)
            assert results[1] is None
            game = await store.game(key)
            assert game is not None
            assert game.moves == [(None, "deal 3 5"), (0, "1x3")]
            await store.finish_game(tid, gid, 0, 9)
            (row,) = [r for r in await store.load_tables(0.0) if r.id == tid]
            assert row.status == "finished" and row.version == 9
            assert [s.name for s in row.seats] == ["Ann", "B"]
            assert row.chat[0].text == "hi"
            assert row.game is not None and row.game.id == gid
        finally:
            await store.close()

    asyncio.run(go())


def test_the_lobby_forgets_finished_tables_nobody_watches_but_the_store_keeps_them(
    tmp_path: Path,
) -> None:
    from perudo.server.lobby import KEEP_FINISHED_FOR, Lobby
    from perudo.server.settings import Settings
    from perudo.server.tables import TableConfig

    async def go() -> None:
        settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'l.db'}")
        store = Store(settings.database_url)
        await store.open()
        lobby = Lobby(store, settings)
        await lobby.open()
        try:
            cfg = TableConfig.build(preset="perudo", seats=2)
            done, _, _ = await lobby.create(name="done", player="Ann", config=cfg, private=False)
            live, _, _ = await lobby.create(name="live", player="Bo", config=cfg, private=False)
            done.status, done.finished_at = "finished", 0.0
            assert lobby.sweep(KEEP_FINISHED_FOR / 2) == 0
            assert lobby.sweep(KEEP_FINISHED_FOR + 1) == 1
            assert set(lobby.tables) == {live.id}
            assert {r.id for r in await store.load_tables(0.0)} == {done.id, live.id}
        finally:
            await lobby.close()
            await store.close()

    asyncio.run(go())


@pytest.mark.parametrize("kind", URLS)
def test_the_public_list_of_finished_games_is_full_when_private_games_are_newer(
    kind: str, url: str
) -> None:
    """Private games are filtered in the query, before its LIMIT: three public games finished
    before five private ones still fill a list of three."""

    async def go() -> None:
        store = Store(url)
        await store.open()
        try:
            seats = [
                SeatRow(0, "human", "Ann", "h" * 64, None),
                SeatRow(1, "bot", "B", None, "easy"),
            ]
            public: list[str] = []
            for private in [False] * 3 + [True] * 5:
                tid = uuid.uuid4().hex[:12]
                await store.create_table(tid, "t", {"preset": "perudo"}, private, seats, 1)
                gid, key = await store.start_game(tid, {}, ["Ann", "B"], [[6, 2]], seats, 2)
                await store.finish_game(tid, gid, 0, 3)
                if not private:
                    public.append(key)
            listed = await store.finished_games(limit=3)
            assert sorted(g["id"] for g in listed) == sorted(public)
        finally:
            await store.close()

    asyncio.run(go())


def test_a_database_from_before_the_host_column_opens_and_gains_it(tmp_path: Path) -> None:
    """An older ./data/perudo.db (seats without ``host``) keeps working: Store.open adds the
    missing column with its default, and the tables load back (their creator not yet host)."""
    import sqlite3

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            """
            CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80) NOT NULL,
                config TEXT NOT NULL, status VARCHAR(16) NOT NULL, private BOOLEAN NOT NULL,
                version INTEGER NOT NULL, created_at FLOAT NOT NULL);
            CREATE TABLE seats (table_id VARCHAR(32) NOT NULL REFERENCES tables (id),
                seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL, name VARCHAR(40) NOT NULL,
                token_hash VARCHAR(64), level VARCHAR(16),
                CONSTRAINT seats_pk PRIMARY KEY (table_id, seat));
            INSERT INTO tables VALUES ('old', 'Old table', '{"preset": "perudo"}', 'open', 0, 3,
                1.0);
            INSERT INTO seats VALUES ('old', 0, 'human', 'Ann', NULL, NULL);
            """
        )

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.open()
        try:
            (row,) = await store.load_tables(0.0)
            assert row.seats == [SeatRow(0, "human", "Ann", None, None, False)]
            await store.set_seats("old", [SeatRow(0, "human", "Ann", None, None, True)], 4)
            (row,) = await store.load_tables(0.0)
            assert row.seats[0].host is True
        finally:
            await store.close()

    asyncio.run(go())


def test_games_of_a_database_from_before_game_keys_get_unguessable_keys(tmp_path: Path) -> None:
    """An older database (games without ``key``) opens: every game gets a random key, the
    only id a client sees, and is found by it; the old integer id finds nothing."""
    import sqlite3

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            """
            CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80) NOT NULL,
                config TEXT NOT NULL, status VARCHAR(16) NOT NULL, private BOOLEAN NOT NULL,
                version INTEGER NOT NULL, created_at FLOAT NOT NULL);
            CREATE TABLE games (id INTEGER PRIMARY KEY, table_id VARCHAR(32) NOT NULL
                REFERENCES tables (id), rules TEXT NOT NULL, players INTEGER NOT NULL,
                names TEXT NOT NULL, rolloff TEXT NOT NULL, started_at FLOAT NOT NULL,
                finished_at FLOAT, winner INTEGER);
            INSERT INTO tables VALUES ('old', 'Old table', '{"preset": "perudo"}', 'finished',
                0, 3, 1.0);
            INSERT INTO games VALUES (1, 'old', '{}', 2, '["Ann", "Bo"]', '[[6, 2]]', 1.0, 2.0,
                0);
            INSERT INTO games VALUES (2, 'old', '{}', 2, '["Ann", "Bo"]', '[[6, 2]]', 3.0, 4.0,
                1);
            """
        )

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.open()
        try:
            listed = await store.finished_games()
            keys = [g["id"] for g in listed]
            assert len(keys) == 2 and len(set(keys)) == 2
            assert all(isinstance(k, str) and len(k) >= 16 for k in keys)
            game = await store.game(keys[0])
            assert game is not None and game.id == 2 and game.key == keys[0]
            assert await store.game("1") is None
        finally:
            await store.close()

    asyncio.run(go())
