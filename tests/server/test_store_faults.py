"""A store that refuses a write once, then recovers: nothing is half-applied and no table is
stuck. The server runs in this process (uvicorn in a thread, the real app and its SQLite
store) so a test can make one store call fail; every check is at the WebSocket level."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from tests.server.harness import Client, ServerProcess, heads_up, replay_game, run

from perudo.core.views import legal_texts
from perudo.i18n import LANGS, load_catalog
from perudo.server import create_app
from perudo.server.settings import Settings
from perudo.server.store import Store, StoreError


class InProcessServer(ServerProcess):
    """The app served by uvicorn in a thread of this process; :attr:`store` is its store."""

    def start(self) -> InProcessServer:
        env = {k: v for k, v in self.env.items() if k.startswith("PERUDO_")}
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            settings = Settings()
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        self.app = create_app(settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.02)
        return self

    @property
    def store(self) -> Store:
        store: Store = self.app.state.store
        return store

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(15)


@pytest.fixture
def make_inproc(tmp_path: Path) -> Iterator[Callable[..., InProcessServer]]:
    made: list[InProcessServer] = []

    def make(**env: str) -> InProcessServer:
        srv = InProcessServer(tmp_path, **env).start()
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()


def fail_once(
    srv: InProcessServer, method: str, when: Callable[..., bool] = lambda *a, **k: True
) -> list[int]:
    """The store's ``method`` raises a StoreError the first time ``when(*args)`` holds, then
    works again; returns a list that counts the refusals."""
    real = getattr(srv.store, method)
    failed: list[int] = []

    async def patched(*args: Any, **kw: Any) -> Any:
        if not failed and when(*args, **kw):
            failed.append(1)
            raise StoreError("database write failed: disk I/O error (test)")
        return await real(*args, **kw)

    setattr(srv.store, method, patched)
    return failed


def _always(*args: Any, **kw: Any) -> bool:
    return True


def _concedes(*args: Any, **kw: Any) -> bool:
    """The write holds a concession (P-24)."""
    return any(action == "concede" for _, action in _moves(*args, **kw))


def _moves(*args: Any, **kw: Any) -> list[tuple[int | None, str]]:
    return list(args[2])


# -- the table moves on after a failed write (the scheduler tries again) ----------------------


@pytest.mark.parametrize(
    ("method", "when"),
    [
        ("append_actions", lambda *a, **k: _moves(*a)[0][0] is None),  # the deal at start
        ("append_actions", lambda *a, **k: _moves(*a)[0][0] is not None),  # a bot's move
        ("finish_game", lambda *a, **k: True),  # the game's last move and its end
    ],
    ids=["deal", "bot_move", "finish"],
)
def test_a_write_refused_once_is_tried_again_and_the_game_ends(
    make_inproc: Callable[..., InProcessServer], method: str, when: Callable[..., bool]
) -> None:
    srv = make_inproc()

    async def go() -> None:
        t = srv.create_table(seats=2, dice=2)
        ann = await Client(srv, t["table_id"], t["token"]).connect()
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.until(lambda: ann.table is not None and ann.table["seats"][1] is not None)
        failed = fail_once(srv, method, when)
        await ann.send({"type": "start"})
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "playing")
        # Ann hands her seat to a bot: the bots play the game to its end on their own.
        await ann.send({"type": "leave"})
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "finished", 30)
        assert failed == [1]
        assert not [m for m in ann.messages if m["type"] == "error"], "the refusal reached Ann"
        assert ann.view is not None and ann.view["winner"] is not None
        state, _, _ = replay_game(srv, ann.table["game_id"])
        assert state.is_over and state.winner == ann.view["winner"]
        await ann.close()

    run(go())


def test_a_persons_move_refused_by_the_store_changes_nothing(
    make_inproc: Callable[..., InProcessServer],
) -> None:
    srv = make_inproc()

    async def go() -> None:
        mover, other = await heads_up(srv, dice=1, turn_seconds=0)
        # One die each: the first dudo ends the game (the move and the end are one write).
        await mover.act(legal_texts(mover.view["legal"])[0] if mover.view else "")  # type: ignore[index]
        await other.until(other.my_turn)
        fail_once(srv, "finish_game")
        v = other.version
        await other.act("dudo")
        err = await other.error()
        assert err["code"] == "store_error"
        assert (await other.ping())["version"] == v
        assert other.view is not None and other.view["phase"] == "bidding"
        assert other.table is not None and other.table["status"] == "playing"
        await other.act("dudo")
        await other.until(lambda: other.table is not None and other.table["status"] == "finished")
        state, _, _ = replay_game(srv, other.table["game_id"])
        assert state.is_over
        await mover.close()
        await other.close()

    run(go())


def test_a_store_refusal_says_try_again_in_each_language_and_hides_the_database_s_text(
    make_inproc: Callable[..., InProcessServer], caplog: pytest.LogCaptureFixture
) -> None:
    """The database's own error (it names files, tables, hosts) never reaches a player: the
    socket's and the HTTP refusal say in English, Korean and Italian that the game could not
    be saved and to try again; the operator's log keeps the detail."""
    srv = make_inproc()
    detail = "disk I/O error (test)"
    said = {lang: load_catalog(lang).t("server.store_error") for lang in LANGS}
    assert len(set(said.values())) == 3 and all(detail not in t for t in said.values())

    async def go() -> None:
        t = srv.create_table(seats=3, dice=1, turn_seconds=0)
        ann = await Client(srv, t["table_id"], t["token"]).connect()
        fail_once(srv, "add_chat")
        await ann.send({"type": "chat", "text": "hello"})
        err = await ann.error()
        assert err["code"] == "store_error" and err["texts"] == said, err
        assert detail not in json.dumps(err, ensure_ascii=False)
        fail_once(srv, "set_seats")
        out = srv.http("POST", f"/api/tables/{t['table_id']}/join", {"name": "Bo"})
        assert out["status"] == 503 and out["error"] == "store_error", out
        assert out["texts"] == said and detail not in json.dumps(out, ensure_ascii=False)
        await ann.close()

    with caplog.at_level(logging.ERROR, logger="perudo.server"):
        run(go())
    logged = [r.getMessage() for r in caplog.records if r.name == "perudo.server"]
    assert sum(detail in m for m in logged) == 2, logged


# -- leaving is all or nothing --------------------------------------------------------------


@pytest.mark.parametrize("method", ["set_seats", "append_actions"])
def test_leaving_refused_by_the_store_keeps_the_seat_its_dice_and_one_host(
    make_inproc: Callable[..., InProcessServer], method: str
) -> None:
    """At a table where nobody takes a seat left during the game, a leave the store refuses
    (the seats, or the concession P-24) leaves everything as it was: no concession stands,
    the person keeps the seat, and the host role is not doubled."""
    srv = make_inproc()

    async def go() -> None:
        t = srv.create_table(seats=3, dice=2, vacated="nobody", turn_seconds=0)
        tid = t["table_id"]
        j = srv.join(tid, "Bo")
        ann = await Client(srv, tid, t["token"]).connect()
        bo = await Client(srv, tid, j["token"]).connect()
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.until(lambda: ann.table is not None and ann.table["seats"][2] is not None)
        await ann.send({"type": "start"})
        await bo.until(lambda: bo.view is not None and bo.view["phase"] == "bidding")
        # Only the leave's own write is refused: a bot's move may be written meanwhile.
        failed = fail_once(srv, method, _concedes if method == "append_actions" else _always)
        await ann.send({"type": "leave"})
        err = await ann.error()
        assert err["code"] == "store_error" and failed == [1]
        await asyncio.sleep(0.3)
        assert not any(
            e["type"] == "round_resolved"
            for m in bo.messages
            if m["type"] == "update"
            for e in m["events"]
        ), "a concession stands though the leave was refused"
        info = srv.http("GET", f"/api/tables/{tid}")
        info = info.get("table", info)
        assert [s["host"] for s in info["seats"]] == [True, False, False]
        assert info["seats"][0]["kind"] == "human"
        assert ann.seat == 0 and ann.view is not None and ann.view["dice_counts"][0] == 2
        # The seat still answers to Ann's token.
        back = await Client(srv, tid, t["token"]).connect()
        assert back.seat == 0
        await back.close()
        # Tried again, the leave goes through.
        await ann.send({"type": "leave"})
        await bo.until(lambda: bo.table is not None and bo.table["host"] == 1)
        await bo.until(lambda: bo.view is not None and bo.view["dice_counts"][0] == 0)
        await ann.close()
        await bo.close()

    run(go())


# -- a closed table lets nobody in ------------------------------------------------------------


def test_a_join_or_hello_queued_while_the_table_expires_is_refused(
    make_inproc: Callable[..., InProcessServer],
) -> None:
    srv = make_inproc(PERUDO_WAITING_TABLE_SECONDS="0.5")
    closing = threading.Event()
    real = srv.store.set_status

    async def slow_close(table_id: str, status: str, version: int) -> None:
        if status == "closed":
            closing.set()
            await asyncio.sleep(1.0)  # the table's lock is held meanwhile
        await real(table_id, status, version)

    srv.store.set_status = slow_close  # type: ignore[method-assign]

    async def go() -> None:
        t = srv.create_table(seats=3)  # its creator never connects: nobody attends it
        tid = t["table_id"]
        assert await asyncio.to_thread(closing.wait, 10)
        watcher = Client(srv, tid)
        await watcher.connect(hello=False)
        await watcher.send({"type": "hello"})
        joined = await asyncio.to_thread(
            srv.http, "POST", f"/api/tables/{tid}/join", {"name": "Bo"}
        )
        assert joined.get("status") == 410 and joined["error"] == "table_closed", joined
        err = await watcher.error()
        assert err["code"] == "table_closed"
        assert watcher.view is None and watcher.seat is None
        assert srv.http("GET", f"/api/tables/{tid}").get("status") == 404
        await watcher.close()

    run(go())
