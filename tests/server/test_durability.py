"""Reconnects, turn timers, stand-in bots, and SIGKILL in the middle of games: tables come
back from the append-only log in the identical state, and no action is lost."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Callable
from typing import Any

from tests.server.harness import Client, ServerProcess, play_until_over, run

from perudo.core.views import legal_texts


def _without_past(view: dict[str, Any] | None) -> dict[str, Any]:
    assert view is not None
    # What only snapshots carry: the rounds before, the rules and the roll-off.
    return {k: v for k, v in view.items() if k not in ("past", "rules", "rolloff")}


async def _two_people(server: ServerProcess, **kw: Any) -> tuple[Client, Client, dict[str, Any]]:
    t = server.create_table(seats=2, dice=3, turn_seconds=kw.pop("turn_seconds", 0), **kw)
    j = server.join(t["table_id"], "Bo")
    a = await Client(server, t["table_id"], t["token"]).connect()
    b = await Client(server, t["table_id"], j["token"]).connect()
    await a.send({"type": "start"})
    for c in (a, b):
        await c.until(lambda c=c: c.view is not None and c.view["phase"] == "bidding")
    return a, b, {"table_id": t["table_id"], "tokens": [t["token"], j["token"]]}


def test_reconnecting_with_the_last_version_gets_the_missed_events_for_its_seat(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        a, b, _ = await _two_people(server)
        mover, waiter = (a, b) if a.my_turn() else (b, a)
        last = waiter.version
        token = waiter.token
        await waiter.close()
        await mover.act("1x2")
        await mover.until(lambda: mover.view is not None and mover.view["bid"] == "1x2")
        back = await Client(server, mover.table_id, token).connect(last_version=last)
        m = next(m for m in back.messages if m["type"] in ("update", "snapshot"))
        assert m["type"] == "update"
        assert [e["action"] for e in m["events"] if e["type"] == "action"] == ["1x2"]
        assert all(e["version"] > last for e in m["events"])
        assert "past" in m["view"] and m["view"]["hand"] == waiter.view["hand"]
        assert legal_texts(m["view"]["legal"]) and m["view"]["to_act"] == back.seat
        await back.close()
        await mover.close()

    run(go())


def test_sync_sends_the_missed_events_for_the_seat_then_the_table(
    server: ServerProcess,
) -> None:
    """A client that noticed it is behind (a pong ahead of it) asks with ``sync``: it gets the
    events after its version, filtered for its seat (P-70), and the table as it is now."""

    async def go() -> None:
        a, b, _ = await _two_people(server)
        mover, waiter = (a, b) if a.my_turn() else (b, a)
        last = waiter.version
        await mover.act("1x2")
        await mover.until(lambda: mover.view is not None and mover.view["bid"] == "1x2")
        pong = await waiter.ping()
        assert pong["version"] > last
        await waiter.send({"type": "sync", "last_version": last})
        update = await waiter.next(lambda m: m["type"] in ("update", "snapshot"))
        assert update["type"] == "update"
        assert all(e["version"] > last for e in update["events"])
        assert [e["action"] for e in update["events"] if e["type"] == "action"] == ["1x2"]
        assert update["view"]["bid"] == "1x2" and update["view"]["to_act"] == waiter.seat
        assert update["view"]["seat"] == waiter.seat
        assert update["view"]["hand"] == waiter.view["hand"]
        table = await waiter.next(lambda m: m["type"] == "table")
        assert table["version"] == pong["version"]
        assert table["table"]["status"] == "playing"
        assert [s["name"] for s in table["table"]["seats"]] == [
            s["name"] for s in mover.table["seats"]
        ]
        await a.close()
        await b.close()

    run(go())


def test_a_reload_restores_the_seat_and_the_view(server: ServerProcess) -> None:
    async def go() -> None:
        a, b, info = await _two_people(server)
        before = _without_past(a.view)
        await a.close()
        again = await Client(server, info["table_id"], info["tokens"][0]).connect()
        snap = next(m for m in again.messages if m["type"] == "snapshot")
        assert snap["seat"] == 0
        assert _without_past(snap["view"]) == before
        await again.close()
        await b.close()

    run(go())


def test_a_person_who_runs_out_of_time_gets_a_stand_in_until_they_are_back(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        a, b, _ = await _two_people(server, turn_seconds=1)
        slow, other = (a, b) if a.my_turn() else (b, a)
        seat = slow.seat
        assert seat is not None
        await slow.until(lambda: slow.table is not None and slow.table["seats"][seat]["away"], 10)
        # The stand-in bot acts for the slow seat (through the core, like anyone).
        await other.until(
            lambda: any(
                e["type"] == "action" and e["seat"] == seat
                for m in other.messages
                if m["type"] == "update"
                for e in m["events"]
            ),
            10,
        )
        await slow.send({"type": "back"})
        await slow.until(
            lambda: slow.table is not None and not slow.table["seats"][seat]["away"], 10
        )
        await a.close()
        await b.close()

    run(go())


def test_a_dropped_player_is_played_by_a_bot_and_gets_the_seat_back(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        a, b, info = await _two_people(server, turn_seconds=0)
        gone, stays = (a, b) if a.my_turn() else (b, a)
        seat = gone.seat
        assert seat is not None
        await gone.close()
        # After the grace period (1 s here) a stand-in plays the dropped seat.
        await stays.until(
            lambda: stays.table is not None and stays.table["seats"][seat]["away"], 10
        )
        await stays.until(
            lambda: any(
                e["type"] == "action" and e["seat"] == seat
                for m in stays.messages
                if m["type"] == "update"
                for e in m["events"]
            ),
            10,
        )
        back = await Client(server, info["table_id"], info["tokens"][seat]).connect()
        assert back.seat == seat
        await stays.until(
            lambda: stays.table is not None
            and not stays.table["seats"][seat]["away"]
            and stays.table["seats"][seat]["connected"],
            10,
        )
        await back.close()
        await stays.close()

    run(go())


def test_a_rematch_reopens_the_table_for_a_new_game(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(seats=2, dice=1)
        a = await Client(server, t["table_id"], t["token"]).connect()
        await a.send({"type": "fill_bots", "level": "easy"})
        await a.send({"type": "start"})
        await play_until_over([a], random.Random(5))
        await a.until(lambda: a.table is not None and a.table["status"] == "finished")
        first_game = a.table["game_id"] if a.table else None
        await a.send({"type": "rematch"})
        await a.until(lambda: a.table is not None and a.table["status"] == "open")
        await a.send({"type": "start"})
        await a.until(lambda: a.table is not None and a.table["status"] == "playing")
        assert a.table is not None and a.table["game_id"] != first_game
        await a.close()

    run(go())


def _logged_moves(srv: ServerProcess) -> dict[int, list[tuple[int | None, str]]]:
    with sqlite3.connect(srv.db) as db:
        rows = db.execute("select game_id, seat, action from game_actions order by game_id, seq")
        out: dict[int, list[tuple[int | None, str]]] = {}
        for game_id, seat, action in rows:
            out.setdefault(game_id, []).append((seat, action))
    return out


def _public_actions(client: Client) -> list[tuple[int, str]]:
    """Every player move a client saw, in the log's notation."""
    out = []
    for m in client.messages:
        if m["type"] != "update":
            continue
        for e in m["events"]:
            if e["type"] == "action":
                out.append((e["seat"], e["action"]))
            elif e["type"] == "palifico_chosen":
                out.append((e["seat"], "palifico" if e["palifico"] else "normal"))
    return out


WAITING_OPTIONS = {"odds": "on", "turn_seconds": 0, "vacated": "nobody", "memory": True}


def test_sigkill_with_games_in_flight_loses_nothing_and_the_tables_resume(
    make_server: Callable[..., ServerProcess],
) -> None:
    srv = make_server(PERUDO_BOT_DELAY="0.05", PERUDO_DROP_GRACE="30").start()
    state: dict[str, Any] = {}

    async def before() -> None:
        a, b, info = await _two_people(srv)
        mover = a if a.my_turn() else b
        await mover.act("1x3")
        for c in (a, b):
            await c.until(lambda c=c: c.view is not None and c.view["bid"] == "1x3")
        # A fresh snapshot for each seat, the state the restart must reproduce.
        snaps = []
        for tok in info["tokens"]:
            c = await Client(srv, info["table_id"], tok).connect()
            snaps.append(next(m for m in c.messages if m["type"] == "snapshot"))
            await c.close()
        # A table of bots, and one person whose turn timer runs out at once so that a
        # stand-in plays for them: it plays on its own.
        t2 = srv.create_table(seats=4, dice=3, turn_seconds=0.2)
        host = await Client(srv, t2["table_id"], t2["token"]).connect()
        await host.send({"type": "fill_bots", "level": "easy"})
        await host.until(lambda: host.table is not None and None not in host.table["seats"])
        watcher = await Client(srv, t2["table_id"]).connect()
        await host.send({"type": "start"})
        await watcher.until(lambda: len(_public_actions(watcher)) >= 6, 20)
        # A waiting table whose host changed its options (set_options): they are stored.
        t3 = srv.create_table(seats=3, dice=2, turn_seconds=60)
        host3 = await Client(srv, t3["table_id"], t3["token"]).connect()
        await host3.send({"type": "set_options", **WAITING_OPTIONS})
        await host3.until(lambda: host3.table is not None and host3.table["memory"])
        await host3.close()
        state.update(
            t3=t3["table_id"],
            info=info,
            snaps=snaps,
            t2=t2,
            seen=_public_actions(watcher),
            host_token=t2["token"],
        )
        srv.kill()  # SIGKILL while table 2's bots are moving
        for c in (a, b, host, watcher):
            await c.close()

    asyncio.run(before())
    # Write before broadcast: every action a client saw is in the log.
    logged = _logged_moves(srv)
    t2_game = max(logged)
    player_moves = [(s, act) for s, act in logged[t2_game] if s is not None]
    seen = state["seen"]
    assert player_moves[: len(seen)] == seen

    srv.start()  # same database, same port

    async def after() -> None:
        waiting = srv.http("GET", f"/api/tables/{state['t3']}")
        assert {k: waiting[k] for k in WAITING_OPTIONS} == WAITING_OPTIONS
        info = state["info"]
        for seat, tok in enumerate(info["tokens"]):
            c = await Client(srv, info["table_id"], tok).connect()
            snap = next(m for m in c.messages if m["type"] == "snapshot")
            old = state["snaps"][seat]
            assert snap["version"] == old["version"]
            assert snap["view"] == old["view"], "table 1 did not come back identical"
            await c.close()
        # Table 2 resumes: the person is away (no connection) and a stand-in plays for them
        # after the grace period; here they come back and play to the end.
        host = await Client(srv, state["t2"]["table_id"], state["host_token"]).connect()
        await play_until_over([host], random.Random(9), timeout=90)
        await host.until(lambda: host.table is not None and host.table["status"] == "finished")
        game_id = host.table["game_id"] if host.table else None
        replay = srv.http("GET", f"/api/games/{game_id}/replay")
        assert replay["frames"][-1]["view"]["winner"] == host.view["winner"]
        await host.close()

    asyncio.run(after())
    logged_after = _logged_moves(srv)
    assert logged_after[t2_game][: len(logged[t2_game])] == logged[t2_game]
