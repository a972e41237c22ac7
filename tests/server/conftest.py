"""Fixtures for the server tests: a real server process per module, or made per test; the
session's PostgreSQL and Redis (tests/server/services.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.server.harness import ServerProcess
from tests.server.services import PostgresServer, RedisServer, require_postgres, require_redis


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for a test module (bots without delay, drop grace 1 s)."""
    srv = ServerProcess(tmp_path_factory.mktemp("srv")).start()
    yield srv
    srv.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    made: list[ServerProcess] = []

    def make(**env: str) -> ServerProcess:
        srv = ServerProcess(tmp_path, **env)
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()


# -- PostgreSQL and Redis (tests/server/services.py) --------------------------------------


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL (skips when Debian's binaries are missing). A test may
    stop or restart it; the next test that needs it finds it running again."""
    require_postgres()
    srv = PostgresServer().start()
    yield srv
    srv.close()


@pytest.fixture
def postgres_url(pg_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database of the session's PostgreSQL, as the app's URL."""
    if not pg_server.running:
        pg_server.start()
    name = pg_server.create_database()
    yield pg_server.database_url(name)
    pg_server.drop_database(name)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """The session's Redis (skips when Debian's redis-server is missing)."""
    require_redis()
    srv = RedisServer().start()
    yield srv
    srv.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, running and emptied for this test."""
    if not redis_server.running:
        redis_server.start()
    redis_server.flush()
    return redis_server.url
