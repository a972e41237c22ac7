"""Rated tables played through the real server (docs/ratings.md): signed-in people seated
under their accounts, a rated heads-up and a rated four-seat game, each rated once, the end
message carrying every seat's change; a bot, a guest and a second seat of one person refused
at a rated table in words; a leaver finishing last among those still in; an unrated game of
signed-in people on their profiles; a rated game killed mid-way and restored."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.harness import Client, ServerProcess, play_until_over, run
from tests.server.rated import Person
from tests.server.rated import play as _play
from tests.server.rated import rated_table as _rated_table


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(
        tmp_path_factory.mktemp("rated"),
        PERUDO_ARGON2_MEMORY_KIB="8192",
        PERUDO_ARGON2_TIME_COST="1",
    ).start()
    yield server
    server.stop()


def _changes(c: Client) -> list[dict[str, Any]]:
    assert c.table is not None
    changes: list[dict[str, Any]] = c.table["rating_changes"]
    return changes


def _rating_rows(srv: ServerProcess, game_key: str) -> list[tuple[int, int]]:
    with sqlite3.connect(srv.db) as db:
        return db.execute(
            "select c.seat, c.place from rating_changes c join games g on g.id = c.game_id "
            "where g.key = ? order by c.seat",
            (game_key,),
        ).fetchall()


@pytest.mark.parametrize("seats", [2, 4])
def test_a_rated_game_is_rated_once_and_its_end_message_shows_each_change(
    srv: ServerProcess, seats: int
) -> None:
    people = [Person(srv) for _ in range(seats)]

    async def go() -> None:
        clients = _rated_table(srv, people)
        await _play(clients, seats)
        changes = _changes(clients[0])
        assert all(_changes(c) == changes for c in clients)
        assert sorted(c["seat"] for c in changes) == list(range(seats))
        assert clients[0].view is not None
        winner = clients[0].view["winner"]
        by_seat = {c["seat"]: c for c in changes}
        assert by_seat[winner]["place"] == 1
        assert by_seat[winner]["after"] > by_seat[winner]["before"] == 1500
        last = max(c["place"] for c in changes)
        assert all(c["after"] < c["before"] for c in changes if c["place"] == last)
        assert all(c["provisional"] for c in changes)
        key = clients[0].table["game_id"]  # type: ignore[index]
        assert _rating_rows(srv, key) == [(c["seat"], c["place"]) for c in changes]
        for c in clients:
            await c.close()

    run(go())
    pool = "duel" if seats == 2 else "table"
    for p in people:
        profile = p.http.get(f"/api/players/{p.name}").json()
        assert profile["variants"]["perudo"]["played"] == 1, profile
        assert profile["variants"]["perudo"]["ratings"][pool]["provisional"] is True


def test_a_rated_table_refuses_a_guest_a_bot_and_a_second_seat_in_words(
    srv: ServerProcess,
) -> None:
    ann, bo = Person(srv), Person(srv)
    guest = srv.http(
        "POST", "/api/tables", {"name": "r", "player": "Gus", "seats": 3, "rated": True}
    )
    assert guest["error"] == "rated_signed_in"
    made = ann.post("/api/tables", {"name": "r", "player": "x", "seats": 3, "rated": True}).json()
    tid = made["table_id"]
    assert srv.http("POST", f"/api/tables/{tid}/join", {"name": "Gus"})["error"] == (
        "rated_signed_in"
    )
    # Without the CSRF token the cookie seats nobody under the account: a guest, refused.
    assert bo.post(f"/api/tables/{tid}/join", {"name": "x"}, csrf=False).json()["error"] == (
        "rated_signed_in"
    )
    assert ann.post(f"/api/tables/{tid}/join", {"name": "x"}).json()["error"] == "rated_seated"
    no_timer = ann.post(
        "/api/tables", {"name": "r", "player": "x", "rated": True, "turn_seconds": 0}
    ).json()
    assert no_timer["error"] == "bad_rules" and "turn timer" in no_timer["message"]

    async def go() -> None:
        host = await Client(srv, tid, made["token"]).connect()
        for msg in ({"type": "add_bot", "level": "easy"}, {"type": "fill_bots"}):
            await host.send(msg)
            err = await host.error()
            assert err["code"] == "rated_no_bots"
            assert "no bots" in err["message"]
        assert host.table is not None and host.table["seats"][1:] == [None, None]
        await host.close()

    run(go())


def test_a_leaver_of_a_rated_game_finishes_last_among_those_still_in(srv: ServerProcess) -> None:
    people = [Person(srv) for _ in range(3)]

    async def go() -> None:
        clients = _rated_table(srv, people)
        for c in clients:
            await c.connect()
        await clients[0].send({"type": "start"})
        for c in clients:
            await c.until(lambda c=c: c.view is not None and c.view["phase"] != "waiting")  # type: ignore[misc]
        leaver = clients[1]
        await leaver.send({"type": "leave"})
        await leaver.next(lambda m: m["type"] == "seat" and m["reason"] == "left")
        await play_until_over([clients[0], clients[2]], random.Random(7))
        for c in (clients[0], clients[2]):
            await c.until(lambda c=c: c.table is not None and c.table["rating_changes"] is not None)  # type: ignore[misc]
        places = {c["seat"]: c["place"] for c in _changes(clients[0])}
        assert places[1] == 3
        assert sorted(places.values()) == [1, 2, 3]
        for c in clients:
            await c.close()

    run(go())


def test_an_unrated_game_of_signed_in_people_is_on_their_profiles(srv: ServerProcess) -> None:
    ann = Person(srv)
    made = ann.post("/api/tables", {"name": "u", "player": "x", "seats": 2, "dice": 1}).json()
    assert made["table"]["rated"] is False

    async def go() -> None:
        host = await Client(srv, made["table_id"], made["token"]).connect()
        await host.send({"type": "fill_bots", "level": "easy"})
        await host.until(lambda: host.table is not None and host.table["seats"][1] is not None)
        await host.send({"type": "start"})
        await host.until(lambda: host.view is not None and host.view["phase"] != "waiting")
        await play_until_over([host], random.Random(3))
        await host.until(lambda: host.table is not None and host.table["status"] == "finished")
        assert host.table is not None and host.table["rating_changes"] is None
        await host.close()

    run(go())
    profile = ann.http.get(f"/api/players/{ann.name}").json()
    assert profile["variants"]["perudo"]["played"] == 1, profile
    assert profile["variants"]["perudo"].get("ratings", {}) == {}
    # The finished games filtered by player: theirs only; a name that is no player's, 404.
    theirs = srv.http("GET", f"/api/games?player={ann.name}")["games"]
    assert [g["id"] for g in theirs] == [profile["recent"][0]["id"]]
    assert srv.http("GET", f"/api/games?player={Person(srv).name}")["games"] == []
    assert srv.http("GET", "/api/games?player=nobody-here")["error"] == "no_player"
    # The person's export: the account, its sessions (no secret), the game, no rating.
    out = ann.http.get("/api/account/export")
    assert out.headers["content-disposition"].startswith("attachment")
    mine = out.json()
    assert mine["name"] == ann.name and [g["id"] for g in mine["games"]] == [theirs[0]["id"]]
    assert mine["ratings"] == [] and len(mine["sessions"]) == 1
    assert ann.csrf not in out.text and "token" not in out.text
    assert srv.http("GET", "/api/account/export")["error"] == "signed_out"


def test_a_person_who_times_out_of_a_rated_game_concedes_and_finishes_last(
    srv: ServerProcess,
) -> None:
    people = [Person(srv) for _ in range(2)]

    async def go() -> None:
        clients = _rated_table(srv, people, turn_seconds=0.5)
        for c in clients:
            await c.connect()
        await clients[0].send({"type": "start"})
        for c in clients:
            await c.until(lambda c=c: c.view is not None and c.view["phase"] == "bidding")  # type: ignore[misc]
        assert clients[0].view is not None
        late = clients[0].view["to_act"]
        # Nobody acts: the seat to act runs out of time and concedes (no stand-in bot).
        for c in clients:
            await c.until(lambda c=c: c.table is not None and c.table["rating_changes"] is not None)  # type: ignore[misc]
        places = {c["seat"]: c["place"] for c in _changes(clients[0])}
        assert places == {late: 2, 1 - late: 1}
        for c in clients:
            await c.close()

    run(go())


def test_a_rated_game_killed_and_restored_is_rated_with_the_knock_outs_before_the_crash(
    tmp_path: Path,
) -> None:
    """The seats' accounts (``seats.player_id``) and the knock-outs so far (replayed from the
    log) survive a SIGKILL: the leaver before the crash still finishes last."""
    srv = ServerProcess(
        tmp_path, PERUDO_ARGON2_MEMORY_KIB="8192", PERUDO_ARGON2_TIME_COST="1"
    ).start()
    try:
        people = [Person(srv) for _ in range(3)]

        async def first() -> tuple[str, list[str]]:
            clients = _rated_table(srv, people)
            for c in clients:
                await c.connect()
            await clients[0].send({"type": "start"})
            for c in clients:
                await c.until(lambda c=c: c.view is not None and c.view["phase"] == "bidding")  # type: ignore[misc]
            await clients[1].send({"type": "leave"})
            await clients[1].next(lambda m: m["type"] == "seat" and m["reason"] == "left")
            for c in clients:
                await c.close()
            return clients[0].table_id, [str(c.token) for c in clients]

        table_id, tokens = run(first())
        srv.kill()
        srv.start()

        async def second() -> list[dict[str, Any]]:
            clients = [await Client(srv, table_id, tokens[i]).connect() for i in (0, 2)]
            await play_until_over(clients, random.Random(11))
            await clients[0].until(
                lambda: clients[0].table is not None
                and clients[0].table["rating_changes"] is not None
            )
            changes = _changes(clients[0])
            for c in clients:
                await c.close()
            return changes

        places = {c["seat"]: c["place"] for c in run(second())}
        assert places[1] == 3 and sorted(places.values()) == [1, 2, 3]
    finally:
        srv.stop()
