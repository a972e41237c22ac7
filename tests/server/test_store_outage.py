"""PostgreSQL restarting under a running game (one ``perudo serve`` process on Debian's
PostgreSQL, tests/server/services.py): a move made while the database is down is refused with
``store_error`` and changes nothing, the store reconnects by itself once the database is back,
play resumes, and the stored log is the game every client saw (a restarted process shows each
seat the same view)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.harness import Client, ServerProcess, heads_up, run
from tests.server.services import PostgresServer

from perudo.core.views import legal_texts
from perudo.server.store import Store


@pytest.fixture
def pg_app(tmp_path: Path, postgres_url: str) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path, PERUDO_DATABASE_URL=postgres_url)
    yield srv.start()
    srv.stop()


async def _stored_state(url: str, game_key: str) -> Any:
    store = Store(url)
    await store.open()
    try:
        game = await store.game(game_key)
        assert game is not None
        return game.record().replay()
    finally:
        await store.close()


def test_a_move_during_a_postgres_restart_is_refused_and_play_resumes_after(
    pg_app: ServerProcess, pg_server: PostgresServer, postgres_url: str
) -> None:
    srv = pg_app

    async def go() -> None:
        mover, other = await heads_up(srv, dice=3, turn_seconds=0)
        assert mover.view is not None
        before_moves = [legal_texts(mover.view["legal"])[0]]
        await mover.act(before_moves[0])
        await other.until(other.my_turn)

        assert srv.http("GET", "/api/games") == {"games": []}  # a pooled connection, used
        pg_server.stop()
        # A read while the database is down: a clear 503, not a bare 500.
        down = srv.http("GET", "/api/games")
        assert down["status"] == 503 and down["error"] == "store_error"
        assert other.view is not None
        before, version = other.view, other.version
        await other.act(legal_texts(other.view["legal"])[0])
        err = await other.error()
        assert err["code"] == "store_error"
        # Nothing moved: same version, same view, still this seat's turn, for both players.
        assert (await other.ping())["version"] == version
        assert (await mover.ping())["version"] == version
        assert other.view == before and other.my_turn()

        pg_server.start()
        # The pool's connections died with the server: each is tested before use and
        # replaced, so the first read after the restart answers.
        assert srv.http("GET", "/api/games") == {"games": []}
        # The same move again, once the database is back: the store reconnected by itself.
        await other.act(legal_texts(other.view["legal"])[0])
        await mover.until(lambda: mover.version > version and mover.my_turn())
        assert not [m for m in other.messages[other.cursor :] if m["type"] == "error"]
        await mover.act("dudo")
        # The round is resolved and the next one dealt (no pause between rounds here).
        for c in (mover, other):
            await c.until(
                lambda c=c: c.view is not None
                and c.view["round"] == 2
                and c.view["phase"] == "bidding"
            )
        assert mover.table is not None
        state = await _stored_state(postgres_url, mover.table["game_id"])
        # The log holds the accepted moves, the refused one once (when it was accepted).
        assert [(seat, str(a)) for seat, a in state.moves() if seat is not None] == [
            (mover.seat, before_moves[0]),
            (other.seat, legal_texts(before["legal"])[0]),
            (mover.seat, "dudo"),
        ]
        seen = {c.seat: c.view for c in (mover, other)}
        await mover.close()
        await other.close()

        # A fresh load from the stored log shows each seat the game it saw.
        srv.stop()
        srv.start()
        for token in (mover.token, other.token):
            again = await Client(srv, mover.table_id, token).connect()
            # ``past`` (the rounds before), the rules and the roll-off come with a snapshot
            # only, never with an update: read the snapshot itself (an update may follow it
            # at once, a presence change, and replace the client's latest view).
            view = next(m for m in again.messages if m["type"] == "snapshot")["view"]
            assert view["past"][0]["actions"][-1] == [mover.seat, "dudo"]
            once = {"past": None, "rules": None, "rolloff": None}
            assert {**view, **once} == seen[again.seat]
            await again.close()

    run(go())
