"""The load benchmark runs end to end on a small scale (figures are printed by
``perudo bench-load``; this test only checks that client bots play through the socket)."""

from __future__ import annotations

import asyncio

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
