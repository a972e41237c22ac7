"""Fixtures for the server tests: a real server process per module, or made per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.server.harness import ServerProcess


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
