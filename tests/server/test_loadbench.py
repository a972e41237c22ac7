"""The load benchmark runs end to end on a small scale (figures are printed by
``perudo bench-load``; this test only checks that client bots play through the socket)."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from tests.server.harness import ServerProcess

from perudo.server.loadbench import LoadResult, run_load


def test_client_bots_play_through_the_socket_and_the_figures_are_reported(
    server: ServerProcess,
) -> None:
    result = asyncio.run(run_load(server.url, tables=2, seconds=2.0, think=0.05, warmup=0.5))
    assert isinstance(result, LoadResult)
    assert result.actions > 5 and len(result.latencies) == result.actions
    assert not result.errors
    text = result.report()
    assert "2 tables × 6 seats" in text and "p99" in text and "per second" in text
    # The bytes of a move's message to each seat (to the seat to act, and to the others).
    assert result.turn_bytes and result.other_bytes
    assert "bytes of a move's message per seat: to the seat to act median" in text


def test_the_side_by_side_benchmark_reads_the_figures_bench_load_prints() -> None:
    """``benchmarks/load_pair.py`` reads each run's server and clients' CPU per action and
    its rate from ``LoadResult.report()``'s own text (it fails loudly when they are missing)."""
    import importlib.util
    from pathlib import Path

    import pytest

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "load_pair.py"
    spec = importlib.util.spec_from_file_location("load_pair", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = LoadResult(tables=50, seconds=30.0, think=0.5, actions=2970, server_cpu=3.89)
    result.client_cpu = 3.5
    assert module._figures(result.report()) == (1.31, 1.18, 99.0)
    with pytest.raises(SystemExit, match="no figures"):
        module._figures(LoadResult(tables=1, seconds=1.0, think=0.5).report())


def test_bench_load_at_a_server_with_its_limits_says_which_settings_it_needs(
    tmp_path: Any,
) -> None:
    """``perudo bench-load --url`` at a server keeping its limits per client: the sixth table
    is refused (HTTP 429, ``PERUDO_TABLES_PER_CLIENT``); the benchmark stops in words naming
    the settings a loaded server must lift, exit status 1, no traceback (it stopped on a
    traceback of ``urllib``'s HTTPError)."""
    import subprocess
    import sys

    srv = ServerProcess(tmp_path, PERUDO_TABLES_PER_CLIENT="5").start()
    try:
        out = subprocess.run(
            [sys.executable, "-m", "perudo", "bench-load", "--url", srv.url, "--tables", "7"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        srv.stop()
    assert out.returncode == 1, out
    assert "Traceback" not in out.stderr, out.stderr
    assert "HTTP 429" in out.stderr and "client_limit" in out.stderr, out.stderr
    assert "PERUDO_TABLES_PER_CLIENT=" in out.stderr and "docs/scaling.md" in out.stderr


def test_signed_in_players_sign_up_and_take_their_seats_under_their_accounts(
    server: ServerProcess,
) -> None:
    """``perudo bench-load --signed-in`` (issue 27): every seat is a signed-up person's."""
    with sqlite3.connect(server.db) as db:
        (before,) = db.execute("SELECT count(*) FROM seats WHERE player_id IS NOT NULL").fetchone()
    result = asyncio.run(
        run_load(server.url, tables=1, seconds=1.0, think=0.05, warmup=0.5, signed_in=True)
    )
    assert result.actions > 0 and not result.errors
    with sqlite3.connect(server.db) as db:
        (after,) = db.execute("SELECT count(*) FROM seats WHERE player_id IS NOT NULL").fetchone()
    assert after - before == 6
