"""A table's whole life as a hypothesis state machine: random people joining, bots, spectators,
disconnects and reconnects (with any last version), seats left, games started, moves, rematches
and server restarts (the store on a real SQLite file, reopened). After every step: nobody ever
received a die they may not see (P-70: a dealt hand only to its seat, and only to the occupant
it was dealt to), no table is stuck (someone can always move it), and the stored log replays to
the live state. In process, on the real store, lobby and tables; bounded for CI."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from perudo.server import protocol as p
from perudo.server.connection import Connection
from perudo.server.lobby import Lobby
from perudo.server.settings import Settings
from perudo.server.store import Store
from perudo.server.tables import LiveTable, TableConfig, TableError

NAMES = ["Ann", "Bo", "Cy", "Di"]


class Watcher:
    """A client: what it was sent, checked for hidden dice as it arrives."""

    def __init__(self, machine: TableLife, token: str | None) -> None:
        self.machine = machine
        self.token = token
        self.conn = Connection(self._send, self._close, rate=1e9, burst=10**9)
        self.version = 0

    async def _send(self, text: str) -> None:
        pass

    async def _close(self, code: int) -> None:
        pass

    def received(self, text: str) -> None:
        m = json.loads(text)
        table = self.machine.table
        seat = self.conn.seat
        if m["type"] in ("snapshot", "update", "table", "chat"):
            self.version = max(self.version, m["version"])
        view = m.get("view") if m["type"] in ("snapshot", "update") else None
        if view is not None and view["hand"]:
            assert view["seat"] == seat and seat is not None, "a hand in another seat's view"
        for e in m.get("events", []):
            if e["type"] == "dice_dealt":
                assert seat is not None and e["seat"] == seat, "another seat's dice (P-70)"
                s = table.seats[seat]
                assert s is not None and e["version"] >= s.since, "an earlier occupant's dice"


class TableLife(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        # A fresh file for every example (``id(self)`` may come back once an example is gone).
        self.path = Path(TMP) / f"life-{next(_EXAMPLES)}.db"
        self.settings = Settings(
            database_url=f"sqlite+aiosqlite:///{self.path}",
            bot_delay=0,
            round_pause=0,
            drop_grace=0.05,
            presence_delay=0,
            spectator_count_delay=0,
            turn_seconds=0,
        )
        self.tokens: dict[str, str] = {}
        self.finished: set[str | None] = set()
        self.watchers: list[Watcher] = []
        self._open()
        cfg = TableConfig.build(preset="perudo", seats=4, dice=1, turn_seconds=0)
        table, _, token = self.run(
            self.lobby.create(name="life", player="Ann", config=cfg, private=True)
        )
        self.table_id = table.id
        self.tokens["Ann"] = token

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def _open(self) -> None:
        self.store = Store(self.settings.database_url)
        self.run(self.store.open())
        self.lobby = Lobby(self.store, self.settings)
        self.run(self.lobby.open())

    @property
    def table(self) -> LiveTable:
        return self.lobby.tables[self.table_id]

    def teardown(self) -> None:
        self.run(self.lobby.close())
        self.run(self.store.close())
        self.loop.close()

    def settle(self) -> None:
        self.run(asyncio.sleep(0.06))

    def attempt(self, coro: Any) -> None:
        with contextlib.suppress(TableError):  # refused: nothing changed
            self.run(coro)
        self.settle()

    # -- people and connections -------------------------------------------------------------

    @rule(name=st.sampled_from(NAMES[1:]))
    def join(self, name: str) -> None:
        if name in self.tokens:
            return
        try:
            _, token = self.run(self.lobby.join(self.table_id, name))
        except TableError:
            return
        self.tokens[name] = token

    @rule(i=st.integers(0, 10), last=st.integers(0, 60) | st.none())
    def connect(self, i: int, last: int | None) -> None:
        """Someone opens the table: a seated person (with their token) or, one time in a
        few, a spectator."""
        choices = [None, *sorted(self.tokens)]
        name = choices[i % len(choices)]
        token = None if name is None else self.tokens[name]
        w = Watcher(self, token)
        w.conn.send = w.received  # type: ignore[method-assign]
        self.watchers.append(w)
        self.attempt(
            self.table.hello(w.conn, p.Hello(type="hello", token=token, last_version=last))
        )

    @precondition(lambda self: self.watchers)
    @rule(i=st.integers(0, 20))
    def disconnect(self, i: int) -> None:
        w = self.watchers.pop(i % len(self.watchers))
        self.attempt(self.table.detach(w.conn))

    @precondition(lambda self: self.watchers)
    @rule(i=st.integers(0, 20), back=st.integers(0, 30))
    def resync(self, i: int, back: int) -> None:
        w = self.watchers[i % len(self.watchers)]
        self.attempt(self.table.sync(w.conn, max(0, w.version - back)))

    def seated(self) -> list[Watcher]:
        return [w for w in self.watchers if w.conn.seat is not None]

    @precondition(lambda self: self.seated())
    @rule(
        i=st.integers(0, 20),
        what=st.sampled_from(
            ["bot", "bot", "start", "start", "start", "leave", "rematch", "rematch"]
        ),
    )
    def manage(self, i: int, what: str) -> None:
        w = self.seated()[i % len(self.seated())]
        t = self.table
        if what == "bot":
            self.attempt(t.add_bot(w.conn, "easy", None))
        elif what == "start":
            self.attempt(t.start(w.conn))
        elif what == "leave":
            name = next((n for n, tok in self.tokens.items() if tok == w.token), None)
            self.attempt(t.leave(w.conn))
            if name is not None and t.status == "open":
                self.tokens.pop(name, None)
        else:
            self.attempt(t.rematch(w.conn))

    @precondition(lambda self: self.seated())
    @rule(i=st.integers(0, 20), dudo=st.booleans())
    def act(self, i: int, dudo: bool) -> None:
        t = self.table
        for w in self.seated():
            st_ = t.state
            if st_ is None or t.status != "playing" or st_.to_act != w.conn.seat:
                continue
            from perudo.core import view

            legal = [str(a) for a in view(st_, w.conn.seat).legal]
            if legal:
                choice = "dudo" if dudo and "dudo" in legal else legal[i % len(legal)]
                self.attempt(t.act(w.conn, choice, t.version))
            return

    @precondition(lambda self: self.seated())
    @rule()
    def play_round(self) -> None:
        """Steer towards whole games: at a finished table a rematch; at a waiting one a bot
        when the person is alone, then the start; in a game, the seated people play the
        round out (calling dudo as soon as they may, else the first legal move) while bots,
        chance and stand-ins take their turns."""
        t = self.table
        w = self.seated()[0]
        if t.status == "finished":
            self.attempt(t.rematch(w.conn))
            if t.status == "open":
                STATS["rematches"] += 1
        if t.status == "open":
            if sum(1 for s in t.seats if s is not None) < 2:
                self.attempt(t.add_bot(w.conn, "easy", None))
            self.attempt(t.start(w.conn))
        state = t.state
        if state is None or t.status != "playing":
            return
        rounds = len(state.past)
        from perudo.core import view

        for _ in range(60):
            t = self.table
            state = t.state
            if state is None or t.status != "playing" or len(state.past) > rounds:
                break
            seat = state.to_act
            me = next((w for w in self.seated() if seat is not None and w.conn.seat == seat), None)
            if me is None or seat is None:
                self.run(asyncio.sleep(0.02))  # a bot, chance or a stand-in moves
                continue
            legal = [str(a) for a in view(state, seat).legal]
            choice = "dudo" if "dudo" in legal else legal[0]
            self.attempt(t.act(me.conn, choice, t.version))

    @precondition(lambda self: self.lobby.tables[self.table_id].status == "playing")
    @rule()
    def restart(self) -> None:
        """The server stops and starts again: every connection is gone, the tables come
        back from the store."""
        self.run(self.lobby.close())
        self.run(self.store.close())
        self.watchers.clear()
        self._open()
        self.settle()

    @rule()
    def wait(self) -> None:
        self.run(asyncio.sleep(0.15))

    # -- after every step -------------------------------------------------------------------

    @invariant()
    def the_log_replays_to_the_live_state(self) -> None:
        t = self.lobby.tables.get(self.table_id)
        if t is None:
            return

        async def log_and_state() -> tuple[Any, Any]:
            # Under the table's lock no move is applied (every move takes it), so the log and
            # the state are read at one point of the game; bots keep moving while the loop runs.
            async with t.lock:
                if t.state is None or t.game_key is None:
                    return None, None
                return await self.store.game(t.game_key), t.state

        game, state = self.run(log_and_state())
        if state is None:
            return
        assert game is not None
        assert game.record().replay() == state

    @invariant()
    def count_games(self) -> None:
        t = self.lobby.tables.get(self.table_id)
        if t is not None and t.status == "finished" and t.game_key not in self.finished:
            self.finished.add(t.game_key)
            STATS["finished games"] += 1

    @invariant()
    def no_table_is_stuck(self) -> None:
        t = self.lobby.tables.get(self.table_id)
        if t is None or t.state is None or t.status != "playing" or t.state.is_over:
            return
        seat = t.state.to_act
        if seat is None:  # chance's turn: its roll is pending
            assert t.schedule.driver_task is not None and not t.schedule.driver_task.done()
            return
        s = t.seats[seat]
        assert s is not None
        moving = (
            (s.driver() is not None and t.schedule.driver_task is not None)
            or s.connections > 0
            or s.drop_timer is not None
        )
        assert moving, f"seat {seat} to act and nothing will move it: {s}"


TMP = ""
STATS = {"finished games": 0, "rematches": 0}
"""What the runs reached (the test asserts the machine plays whole games, not only their
openings)."""


_EXAMPLES = itertools.count()


def test_a_table_lives_through_anything_people_servers_and_bots_do(tmp_path: Path) -> None:
    global TMP
    TMP = str(tmp_path)
    STATS.update({"finished games": 0, "rematches": 0})
    run_state_machine_as_test(
        TableLife,
        settings=settings(
            max_examples=8,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        ),
    )
    # A floor of coverage, not of correctness: how many games end within the steps depends on
    # the servers' timing (a loaded CI machine reached 5 games and 1 rematch where an idle one
    # reaches 6 and 3), so the floor says only that whole games and a rematch were played.
    assert STATS["finished games"] >= 4 and STATS["rematches"] >= 1, STATS
