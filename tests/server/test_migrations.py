"""The schema's Alembic revisions (perudo.server.migrations), on SQLite and on a real
PostgreSQL: a new database gets exactly the store's tables; a database the server wrote
before it had revisions (main at 450075a, kept as fixtures made then: fixtures/
make_main_db.py) upgrades in place with every row kept; one older still (before the
games' keys, the seats' host, the fencing tokens) gets the columns it lacks.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from tests.server.services import PG_BIN, PG_USER, PostgresServer

from perudo.server import migrations
from perudo.server.store import Store, metadata

FIXTURES = Path(__file__).parent / "fixtures"


def _differences(conn: Any) -> list[Any]:
    """What the database's schema lacks or has beyond the store's tables (Alembic's
    comparison, as ``alembic revision --autogenerate`` would see it)."""

    def ours(obj: Any, name: str | None, kind: str, reflected: bool, _compare_to: Any) -> bool:
        # alembic_version is Alembic's own; table_leases and its indexes are the cluster
        # mode's (perudo.server.cluster.lease, installed at its start).
        return not (kind == "table" and name in ("alembic_version", "table_leases"))

    ctx = MigrationContext.configure(conn, opts={"include_object": ours})
    return list(compare_metadata(ctx, metadata))


async def _schema(url: str) -> tuple[str | None, list[Any]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rev = await conn.run_sync(migrations.current)
            diff = await conn.run_sync(_differences)
        return rev, diff
    finally:
        await engine.dispose()


def _restore(pg: PostgresServer, url: str, dump: Path) -> None:
    """Load a ``pg_dump`` file into the (empty) database of ``url`` with psql."""
    database = url.rsplit("/", 1)[1]
    subprocess.run(
        [
            str(PG_BIN / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
            "-p", str(pg.port), "-U", PG_USER, "-d", database, "-f", str(dump),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip


@pytest.fixture(params=["sqlite", "postgres"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def empty_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if kind == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}"


@pytest.fixture
def main_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database as main at 450075a wrote it (before revisions)."""
    if kind == "postgres":
        url = str(request.getfixturevalue("postgres_url"))
        _restore(request.getfixturevalue("pg_server"), url, FIXTURES / "main-450075a.postgres.sql")
        return url
    path = tmp_path / "perudo.db"
    shutil.copy(FIXTURES / "main-450075a.db", path)
    return f"sqlite+aiosqlite:///{path}"


def test_a_new_database_gets_exactly_the_stores_tables(empty_url: str) -> None:
    asyncio.run(_a_new_database_gets_exactly_the_stores_tables(empty_url))


async def _a_new_database_gets_exactly_the_stores_tables(empty_url: str) -> None:
    store = Store(empty_url)
    await store.open()
    await store.close()
    rev, diff = await _schema(empty_url)
    assert rev == migrations.head()
    assert diff == []
    # A second start finds it at the head and changes nothing.
    store = Store(empty_url)
    await store.open()
    await store.close()
    assert await _schema(empty_url) == (rev, [])


def test_a_database_made_before_revisions_upgrades_with_every_row_kept(
    main_url: str,
) -> None:
    asyncio.run(_a_database_made_before_revisions_upgrades_with_every_row_kept(main_url))


async def _a_database_made_before_revisions_upgrades_with_every_row_kept(
    main_url: str,
) -> None:
    before = await _schema(main_url)
    assert before[0] is None  # no revision yet: made by create_all
    store = Store(main_url)
    await store.open()
    try:
        loaded = {t.id: t for t in await store.load_tables(0.0)}
        # The closed table is never loaded; the three others are, as they were.
        assert set(loaded) == {"waiting01", "private01", "playing01"}
        waiting = loaded["waiting01"]
        assert [(s.kind, s.name, s.level, s.host) for s in waiting.seats] == [
            ("human", "Ann", None, True),
            ("bot", "Medium bot", "medium"),
        ][:1] + [("bot", "Medium bot", "medium", False)]
        assert waiting.seats[0].token_hash == "a" * 64
        done = loaded["private01"]
        assert done.status == "finished" and done.private
        assert done.game is not None and done.game.winner == 0
        assert done.game.moves == [(None, "deal 12345 23456"), (0, "2x3"), (1, "dudo")]
        playing = loaded["playing01"]
        assert playing.status == "playing" and playing.config == {"preset": "calza"}
        assert playing.game is not None and playing.game.finished_at is None
        assert playing.game.moves == [(None, "deal 11111 22222"), (1, "3x2")]
        assert [(c.name, c.text) for c in playing.chat] == [("Ann", "ciao 안녕")]
        # Games keep their keys: a replay's address stays valid.
        again = await store.game(playing.game.key)
        assert again is not None and again.moves == playing.game.moves
        assert [g["table_id"] for g in await store.finished_games()] == []  # private only
    finally:
        await store.close()
    assert await _schema(main_url) == (migrations.head(), [])


def test_an_older_database_gets_the_columns_it_lacks(tmp_path: Path) -> None:
    asyncio.run(_an_older_database_gets_the_columns_it_lacks(tmp_path))


async def _an_older_database_gets_the_columns_it_lacks(tmp_path: Path) -> None:
    """Made before games had keys, seats a host and rows a fencing token (what the store's
    hand-written migration did, now revision 0001)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        for ddl in (
            "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80) NOT NULL,"
            " config TEXT NOT NULL, status VARCHAR(16) NOT NULL, private BOOLEAN NOT NULL,"
            " version INTEGER NOT NULL, created_at FLOAT NOT NULL)",
            "CREATE TABLE seats (table_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL,"
            " kind VARCHAR(8) NOT NULL, name VARCHAR(40) NOT NULL, token_hash VARCHAR(64),"
            " level VARCHAR(16), PRIMARY KEY (table_id, seat))",
            "CREATE TABLE games (id INTEGER PRIMARY KEY, table_id VARCHAR(32) NOT NULL,"
            " rules TEXT NOT NULL, players INTEGER NOT NULL, names TEXT NOT NULL,"
            " rolloff TEXT NOT NULL, started_at FLOAT NOT NULL, finished_at FLOAT,"
            " winner INTEGER)",
            "INSERT INTO tables VALUES ('t1', 'Old', '{}', 'finished', 0, 3, 1.0)",
            "INSERT INTO seats VALUES ('t1', 0, 'human', 'Ann', NULL, NULL)",
            "INSERT INTO games VALUES (1, 't1', '{}', 2, '[\"Ann\", \"B\"]', '[]', 1.0, 2.0, 1)",
        ):
            await conn.execute(text(ddl))
    await engine.dispose()
    store = Store(url)
    await store.open()
    try:
        (table,) = await store.load_tables(0.0)
        assert table.seats[0].host is False
        assert table.game is not None and table.game.winner == 1 and len(table.game.key) == 16
    finally:
        await store.close()
    rev, diff = await _schema(url)
    # Its hand-made tables lack the foreign keys and indexes create_all made: only the
    # columns are compared here.
    assert rev == migrations.head()
    assert [d for d in diff if isinstance(d, tuple) and d[0].endswith("_column")] == []
