"""Players keep playing while analyses run (issue 28's load test, small: the figures come from
``benchmarks/analysis_load.py``): the load benchmark's bots play through the socket while every
analysis of a finished game is computed in the server's worker processes, and both finish."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import urllib.error
import urllib.request
from typing import Any

from tests.server.harness import ServerProcess, heads_up, play_until_over, run

from perudo.server.loadbench import run_load


def _ask(srv: ServerProcess, path: str, token: str | None) -> tuple[int, Any]:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    req = urllib.request.Request(srv.url + path, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_load_benchmarks_players_play_on_while_a_games_analyses_run(
    server: ServerProcess,
) -> None:
    async def play() -> tuple[str, dict[int, str]]:
        a, b = await heads_up(server, dice=3, turn_seconds=0)
        await play_until_over([a, b], random.Random(11), timeout=120)
        for c in (a, b):
            await c.until(lambda c=c: c.table is not None and c.table["status"] == "finished")  # type: ignore[misc]
        assert a.table is not None
        tokens = {c.seat or 0: c.token or "" for c in (a, b)}
        for c in (a, b):
            await c.close()
        return a.table["game_id"], tokens

    game_id, tokens = run(play())
    answers: dict[str, list[int]] = {}
    finished: dict[str, Any] = {}

    def ask_all() -> None:
        for seat in (None, 0, 1):
            path = f"/api/games/{game_id}/analysis" + ("" if seat is None else f"?seat={seat}")
            seen = answers.setdefault(path, [])
            for _ in range(600):
                status, body = _ask(server, path, None if seat is None else tokens[seat])
                seen.append(status)
                if status != 202:
                    finished[path] = body
                    break

    thread = threading.Thread(target=ask_all, daemon=True)
    thread.start()
    result = asyncio.run(run_load(server.url, tables=2, seconds=3.0, think=0.05, warmup=0.5))
    thread.join(timeout=300)
    assert not thread.is_alive(), "the analyses did not finish"
    # The players were answered throughout: every move of the load's bots came back.
    assert not result.errors, result.errors
    assert result.actions > 5 and len(result.latencies) == result.actions
    # Each analysis ran to its end: the public one and each seat's own, from its own view.
    assert len(finished) == 3, answers
    # The public analysis was still running (202, its progress) while the load played.
    assert 202 in answers[f"/api/games/{game_id}/analysis"], answers
    for path, body in finished.items():
        assert answers[path][-1] == 200, (path, body)
        assert set(answers[path]) <= {200, 202}, answers[path]
        seat = body["analysis"]["viewer"]
        assert seat == (None if "seat=" not in path else int(path[-1]))
        assert body["analysis"]["decisions"], body
