"""Seats that follow people (issue 13): the host (starts the game, manages bots, removes an
absent player, passed on when the host leaves or stays away), leaving during a game (a bot plays
the seat to the end), and moving one's seat to another device with a private, expiring link.
Every check is at the WebSocket level against a real server; no device that lost a seat ever
receives a hidden die of it again, and the new device only its own (P-70)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from tests.server.harness import (
    Client,
    ServerProcess,
    die_lists,
    play_until_over,
    replay_game,
    run,
)

from perudo.server.hosting import qr_svg


def _table(c: Client) -> dict[str, Any]:
    assert c.table is not None
    return c.table


async def _started(c: Client) -> None:
    await c.until(lambda: c.view is not None and c.view["phase"] not in ("deal", "setup"))


def _refused(c: Client, code: str) -> bool:
    """Whether ``c`` was sent an error ``code`` (on connecting it comes before the snapshot)."""
    return any(m["type"] == "error" and m["code"] == code for m in c.messages)


def _seat_changes(c: Client) -> list[dict[str, Any]]:
    return [m for m in c.messages if m["type"] == "seat"]


def _assert_no_leak(
    srv: ServerProcess, game_id: int, client: Client, seat_before: int | None
) -> int:
    """Every die ``client`` received is its own seat's while it held it (``seat_before`` until
    a ``seat`` message took it away, or the one it was given) or one the game revealed (P-21,
    P-70). Returns how many lists of dice were checked."""
    _, dealt, resolved = replay_game(srv, game_id)
    revealed = {(r.seat, r.hand) for res in resolved for r in res.reveals}
    holding = seat_before
    checked = 0
    for m in client.messages:
        if m["type"] == "seat":
            holding = m["seat"]
            continue
        found: list[tuple[str, int | None, tuple[int, ...]]] = []
        die_lists(m, None, found)
        for key, seat, dice in found:
            checked += 1
            if not dice:
                continue
            if seat == holding and (seat, dice) in set(dealt):
                continue
            assert (seat, dice) in revealed, (
                f"a client holding seat {holding} received seat {seat}'s {key} {dice}, "
                "never revealed (P-70)"
            )
    return checked


async def _ann_and_bo(
    server: ServerProcess, *, bot: bool = False, start: bool = False, **table: Any
) -> tuple[dict[str, Any], dict[str, Any], Client, Client]:
    """A table of Ann (its creator and host, seat 0) and Bo (seat 1), both connected; an easy
    bot in seat 2 if ``bot``; the game started if ``start``. Returns both HTTP answers too."""
    t = server.create_table(**table)
    j = server.join(t["table_id"], "Bo")
    ann = await Client(server, t["table_id"], t["token"]).connect()
    bo = await Client(server, t["table_id"], j["token"]).connect()
    if bot:
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.until(lambda: _table(ann)["seats"][2] is not None)
    if start:
        await ann.send({"type": "start"})
        await _started(ann)
        await _started(bo)
    return t, j, ann, bo


# -- the host ------------------------------------------------------------------------------


def test_only_the_host_starts_the_game_and_manages_bots(server: ServerProcess) -> None:
    async def go() -> None:
        _, _, ann, bo = await _ann_and_bo(server, seats=4, dice=1)
        assert _table(bo)["host"] == 0
        assert [s["host"] for s in _table(bo)["seats"] if s] == [True, False]
        for msg in (
            {"type": "add_bot", "level": "easy"},
            {"type": "fill_bots", "level": "easy"},
            {"type": "start"},
            {"type": "make_host", "seat": 1},
        ):
            await bo.send(msg)
            err = await bo.error()
            assert err["code"] == "not_host" and "Ann" in err["message"], err
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.until(lambda: _table(ann)["seats"][2] is not None)
        await bo.send({"type": "remove_seat", "seat": 2})
        assert (await bo.error())["code"] == "not_host"
        # Nothing the guest asked for happened.
        assert [s and s["kind"] for s in _table(ann)["seats"]] == ["human", "human", "bot", None]
        await ann.send({"type": "start"})
        await _started(bo)
        await ann.close()
        await bo.close()

    run(go())


def test_the_host_changes_the_tables_options_in_the_waiting_room_and_everyone_sees_it(
    server: ServerProcess,
) -> None:
    """The odds hint, the turn timer, who takes a leaver's seat and memory mode (P-40) may
    change before the game (the host only, within bounds); every client gets the table again,
    the table's API says it, and the game plays by it. The rules stay."""

    async def go() -> None:
        t, _, ann, bo = await _ann_and_bo(server, seats=3, dice=2, turn_seconds=60)
        assert _table(bo)["odds"] == "auto" and not _table(bo)["memory"]
        await bo.send({"type": "set_options", "odds": "on"})
        assert (await bo.error())["code"] == "not_host"
        await ann.send({"type": "set_options", "turn_seconds": 0.01})  # under the minimum
        err = await ann.error()
        assert err["code"] == "bad_options" and "turn timer" in err["message"]
        assert _table(bo)["odds"] == "auto" and _table(bo)["turn_seconds"] == 60
        options = {"odds": "on", "turn_seconds": 0, "vacated": "nobody", "memory": True}
        await ann.send({"type": "set_options", **options})
        for c in (ann, bo):
            await c.until(lambda c=c: _table(c)["odds"] == "on")
            assert {k: _table(c)[k] for k in options} == options
            # Memory mode wins over the odds (they would tell the dice in play, P-40).
            assert not _table(c)["odds_shown"] and _table(c)["rules"]["dice_per_player"] == 2
        assert {k: server.http("GET", f"/api/tables/{t['table_id']}")[k] for k in options} == (
            options
        )
        await ann.send({"type": "start"})
        await _started(bo)
        # Memory mode now: Bo sees only his own count; the options are fixed during a game.
        assert [c is None for c in bo.view["dice_counts"]] == [True, False]  # type: ignore[index]
        await ann.send({"type": "set_options", "odds": "off"})
        assert (await ann.error())["code"] == "not_now"
        await ann.close()
        await bo.close()

    run(go())


def test_a_host_who_leaves_before_the_game_passes_the_role_on(server: ServerProcess) -> None:
    async def go() -> None:
        _, _, ann, bo = await _ann_and_bo(server, seats=3, dice=1)
        await ann.send({"type": "leave"})
        await bo.until(lambda: _table(bo)["seats"][0] is None)
        assert _table(bo)["host"] == 1
        await ann.until(lambda: ann.seat is None)
        assert _seat_changes(ann) == [
            {"type": "seat", "seat": None, "token": None, "reason": "left"}
        ]
        await bo.send({"type": "add_bot", "level": "easy"})
        await bo.send({"type": "start"})
        await _started(bo)
        await ann.close()
        await bo.close()

    run(go())


def test_an_absent_host_passes_the_role_to_someone_here(server: ServerProcess) -> None:
    """The harness's drop grace is 1 s: a host gone that long hands the role on."""

    async def go() -> None:
        t, _, ann, bo = await _ann_and_bo(server, seats=3, dice=1)
        tid = t["table_id"]
        await ann.close()
        await bo.until(lambda: _table(bo)["host"] == 1, timeout=10)
        # Ann comes back: she is a guest now, and the host can hand the role back.
        ann = await Client(server, tid, t["token"]).connect()
        await ann.send({"type": "start"})
        assert (await ann.error())["code"] == "not_host"
        await bo.send({"type": "make_host", "seat": 0})
        await ann.until(lambda: _table(ann)["host"] == 0)
        await bo.send({"type": "make_host", "seat": 5})
        assert (await bo.error())["code"] == "not_host"
        await ann.close()
        await bo.close()

    run(go())


def test_a_host_who_never_comes_passes_the_role_to_the_first_who_does(
    server: ServerProcess,
) -> None:
    """The creator made the table over HTTP and never connected (as after a restart, when
    nobody is connected): the first person here becomes host after the drop grace."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=1)
        j = server.join(t["table_id"], "Bo")
        bo = await Client(server, t["table_id"], j["token"]).connect()
        assert _table(bo)["host"] == 0
        await bo.until(lambda: _table(bo)["host"] == 1, timeout=10)
        await bo.send({"type": "add_bot", "level": "easy"})
        await bo.until(lambda: _table(bo)["seats"][2] is not None)
        await bo.close()

    run(go())


def test_the_host_removes_only_an_absent_player_and_a_bot_plays_their_seat(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        t, j, ann, bo = await _ann_and_bo(server, bot=True, start=True, seats=3, dice=2)
        tid = t["table_id"]
        await ann.send({"type": "remove_seat", "seat": 1})
        err = await ann.error()
        assert err["code"] == "not_absent" and "Bo" in err["message"]
        await ann.send({"type": "remove_seat", "seat": 2})
        assert (await ann.error())["code"] == "not_now"
        await bo.close()
        await ann.until(lambda: not _table(ann)["seats"][1]["connected"])
        await ann.send({"type": "remove_seat", "seat": 1})
        await ann.until(lambda: _table(ann)["seats"][1]["kind"] == "bot")
        assert _table(ann)["seats"][1]["name"] == "Bo"
        # Bo's token is dead: coming back, Bo watches.
        back = await Client(server, tid, j["token"]).connect()
        assert back.seat is None and _refused(back, "bad_token")
        await play_until_over([ann], random.Random(3))
        await back.close()
        await ann.close()

    run(go())


# -- leaving during a game ------------------------------------------------------------------


def test_leaving_during_a_game_hands_the_seat_to_a_bot_and_leaks_nothing(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        _, _, ann, bo = await _ann_and_bo(server, bot=True, start=True, seats=3, dice=2)
        assert bo.view is not None and bo.view["hand"]
        await bo.send({"type": "leave"})
        await bo.next(lambda m: m["type"] == "seat")
        await bo.until(lambda: bo.seat is None)
        assert bo.view is not None and bo.view["hand"] == []
        await ann.until(lambda: _table(ann)["seats"][1]["kind"] == "bot")
        # A person who left cannot act for the seat any more.
        await bo.act("dudo")
        assert (await bo.error())["code"] == "no_seat"
        await play_until_over([ann], random.Random(4))
        await bo.until(lambda: bo.view is not None and bo.view["phase"] == "game_over")
        game_id = _table(ann)["game_id"]
        assert _assert_no_leak(server, game_id, bo, seat_before=1) > 5
        assert _assert_no_leak(server, game_id, ann, seat_before=0) > 5
        await ann.close()
        await bo.close()

    run(go())


def test_the_host_leaving_during_a_game_passes_the_role_on(server: ServerProcess) -> None:
    async def go() -> None:
        _, _, ann, bo = await _ann_and_bo(server, start=True, seats=2, dice=1)
        await ann.send({"type": "leave"})
        await bo.until(lambda: _table(bo)["host"] == 1 and _table(bo)["seats"][0]["kind"] == "bot")
        await play_until_over([bo], random.Random(5))
        await ann.close()
        await bo.close()

    run(go())


def test_at_a_table_where_nobody_takes_the_seat_leaving_concedes(server: ServerProcess) -> None:
    """P-24 through the one action path: the leaver is out with their dice, the round is void
    (no hand revealed), the others play on; with two left, the other wins at once."""

    async def go() -> None:
        _, _, ann, bo = await _ann_and_bo(
            server, bot=True, start=True, seats=3, dice=2, vacated="nobody"
        )
        assert _table(ann)["vacated"] == "nobody"
        await bo.send({"type": "leave"})
        conceded = await ann.next(
            lambda m: m["type"] == "update"
            and any(e["type"] == "round_resolved" for e in m["events"])
        )
        (result,) = [e for e in conceded["events"] if e["type"] == "round_resolved"]
        assert result["kind"] == "concede" and result["caller"] == 1 and result["reveals"] == []
        await ann.until(lambda: ann.view is not None and ann.view["dice_counts"][1] == 0)
        await ann.until(lambda: not _table(ann)["seats"][1]["connected"])
        seat = _table(ann)["seats"][1]
        assert (seat["kind"], seat["name"], seat["connected"]) == ("human", "Bo", False)
        await bo.until(lambda: bo.seat is None)
        await play_until_over([ann], random.Random(7))
        game_id = _table(ann)["game_id"]
        assert _assert_no_leak(server, game_id, bo, seat_before=1) > 3
        # Two players: the one who stays wins when the other leaves.
        _, _, ann2, cy = await _ann_and_bo(server, start=True, seats=2, dice=2, vacated="nobody")
        # Conceding is leaving (the table decides what it means), not a move of the game; with
        # no bot at this table nothing moves meanwhile, so the version cannot go stale.
        await cy.act("concede")
        assert "leave your seat" in (await cy.error())["message"]
        await ann2.send({"type": "leave"})
        await cy.until(lambda: cy.view is not None and cy.view["winner"] == 1)
        await cy.until(lambda: _table(cy)["status"] == "finished" and _table(cy)["host"] == 1)
        for c in (ann, bo, ann2, cy):
            await c.close()

    run(go())


# -- moving a seat to another device --------------------------------------------------------


def test_a_seat_moves_to_another_device_and_the_old_one_watches(server: ServerProcess) -> None:
    async def go() -> None:
        t, _, laptop, bo = await _ann_and_bo(server, bot=True, start=True, seats=3, dice=2)
        tid = t["table_id"]
        watcher = await Client(server, tid).connect()
        await laptop.send({"type": "transfer_seat"})
        offer = await laptop.next(lambda m: m["type"] == "seat_transfer")
        assert offer["seat"] == 0 and offer["expires_in"] == 600
        assert offer["path"].startswith(f"/t/{tid}#transfer=")
        assert offer["url"] == server.url + offer["path"]
        assert offer["qr"] == qr_svg(offer["url"]) and offer["qr"].startswith("<svg")
        secret = offer["path"].split("#transfer=", 1)[1]
        await asyncio.sleep(0.2)
        # The link goes to the seat holder's own connection only.
        assert not any(secret in raw for raw in bo.raw + watcher.raw)

        phone = Client(server, tid)
        await phone.connect(hello=False)
        await phone.send({"type": "hello", "transfer": secret})
        moved = await phone.next(lambda m: m["type"] == "seat")
        assert moved["seat"] == 0 and moved["reason"] == "transferred_in"
        await phone.until(lambda: phone.seat == 0 and phone.view is not None)
        assert phone.view is not None
        assert len(phone.view["hand"]) == phone.view["dice_counts"][0] > 0
        gone = await laptop.next(lambda m: m["type"] == "seat")
        assert gone == {"type": "seat", "seat": None, "token": None, "reason": "transferred_out"}
        await laptop.until(lambda: laptop.seat is None)
        assert laptop.view is not None and laptop.view["hand"] == []
        # The old device and the old token no longer act; the link works once.
        await laptop.act("dudo")
        assert (await laptop.error())["code"] == "no_seat"
        stale = await Client(server, tid, t["token"]).connect()
        assert stale.seat is None and _refused(stale, "bad_token")
        again = await Client(server, tid).connect(hello=False)
        await again.send({"type": "hello", "transfer": secret})
        assert (await again.error())["code"] == "bad_transfer"
        # The new token holds the seat, across a reconnect too.
        phone2 = await Client(server, tid, moved["token"]).connect()
        assert phone2.seat == 0
        await phone2.close()
        await play_until_over([phone, bo], random.Random(6))
        game_id = _table(phone)["game_id"]
        assert _assert_no_leak(server, game_id, laptop, seat_before=0) > 5
        assert _assert_no_leak(server, game_id, phone, seat_before=None) > 5
        assert _assert_no_leak(server, game_id, watcher, seat_before=None) > 5
        for c in (laptop, bo, watcher, phone, stale, again):
            await c.close()

    run(go())


def test_a_seat_open_on_two_devices_is_counted_for_everyone_to_see(server: ServerProcess) -> None:
    """Each seat says how many live connections hold it (``devices``): the page warns both
    devices of a seat open twice, and stops once one of them closes."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=2)
        tid = t["table_id"]
        laptop = await Client(server, tid, t["token"]).connect()
        await laptop.until(
            lambda: laptop.table is not None and laptop.table["seats"][0]["devices"] == 1
        )
        phone = await Client(server, tid, t["token"]).connect()
        assert phone.seat == 0
        for c in (laptop, phone):
            await c.until(lambda c=c: _table(c)["seats"][0]["devices"] == 2)  # type: ignore[misc]
        await phone.close()
        await laptop.until(lambda: _table(laptop)["seats"][0]["devices"] == 1)
        await laptop.close()

    run(go())


def test_a_transfer_link_expires(make_server: Callable[..., ServerProcess]) -> None:
    srv = make_server(PERUDO_TRANSFER_SECONDS="1").start()

    async def go() -> None:
        t = srv.create_table(seats=2)
        ann = await Client(srv, t["table_id"], t["token"]).connect()
        await ann.send({"type": "transfer_seat"})
        offer = await ann.next(lambda m: m["type"] == "seat_transfer")
        await asyncio.sleep(1.3)
        late = await Client(srv, t["table_id"]).connect(hello=False)
        await late.send({"type": "hello", "transfer": offer["path"].split("#transfer=")[1]})
        err = await late.error()
        assert err["code"] == "bad_transfer" and "expired" in err["message"]
        await late.until(lambda: late.seat is None and late.view is None and late.table is not None)
        assert ann.seat == 0 and not _seat_changes(ann)
        # A spectator has no seat to move.
        await late.send({"type": "transfer_seat"})
        assert (await late.error())["code"] == "no_seat"
        await ann.close()
        await late.close()

    run(go())


# -- seats left during a game end with it ----------------------------------------------------


def test_a_seat_left_to_a_bot_is_empty_in_the_rematch(server: ServerProcess) -> None:
    """ "A bot plays it to the end": the end of that game, not the next one; the person's token
    died with their leaving, so the rematch has the seat free for someone else."""

    async def go() -> None:
        t, _, ann, bo = await _ann_and_bo(server, bot=True, start=True, seats=3, dice=1)
        await bo.send({"type": "leave"})
        await ann.until(lambda: _table(ann)["seats"][1]["kind"] == "bot")
        await play_until_over([ann], random.Random(8))
        await ann.until(lambda: _table(ann)["status"] == "finished")
        assert _table(ann)["seats"][1]["name"] == "Bo"
        await ann.send({"type": "rematch"})
        await ann.until(lambda: _table(ann)["status"] == "open")
        assert [s and s["kind"] for s in _table(ann)["seats"]] == ["human", None, "bot"]
        di = server.join(t["table_id"], "Di")
        assert di["seat"] == 1
        await ann.send({"type": "start"})
        await _started(ann)
        assert ann.view is not None and len(ann.view["dice_counts"]) == 3
        await ann.close()
        await bo.close()

    run(go())


def test_a_conceded_seat_never_takes_the_host_role_and_is_empty_in_the_rematch(
    server: ServerProcess,
) -> None:
    """At a table where nobody takes a seat left during the game (P-24), the seat stays out
    of that game only: the host role skips it (even when the only other person is away) and
    the rematch deals it no dice."""

    async def go() -> None:
        t, _, ann, bo = await _ann_and_bo(server, seats=4, dice=2, vacated="nobody")
        tid = t["table_id"]
        j = server.join(tid, "Cy")
        cy = await Client(server, tid, j["token"]).connect()
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.until(lambda: _table(ann)["seats"][3] is not None)
        await ann.send({"type": "start"})
        await _started(cy)
        await bo.send({"type": "leave"})
        await ann.until(lambda: ann.view is not None and ann.view["dice_counts"][1] == 0)
        await cy.close()
        await ann.until(lambda: not _table(ann)["seats"][2]["connected"])
        await ann.send({"type": "leave"})
        await bo.until(
            lambda: _table(bo)["host"] is not None and _table(bo)["seats"][0]["host"] is False
        )
        # Bo's seat holds nobody: the role goes to Cy, who is away but still holds a seat.
        assert _table(bo)["host"] == 2
        assert [s["host"] for s in _table(bo)["seats"]] == [False, False, True, False]
        await bo.until(lambda: _table(bo)["status"] == "finished", timeout=60)
        cy = await Client(server, tid, j["token"]).connect()
        assert cy.seat == 2
        await cy.send({"type": "rematch"})
        await cy.until(lambda: _table(cy)["status"] == "open")
        assert [s and s["kind"] for s in _table(cy)["seats"]] == [None, None, "human", "bot"]
        assert _table(cy)["host"] == 2
        await cy.send({"type": "start"})
        await _started(cy)
        assert cy.view is not None and len(cy.view["dice_counts"]) == 2
        for c in (ann, bo, cy):
            await c.close()

    run(go())


def test_a_refused_transfer_link_leaves_the_seated_device_its_seat(server: ServerProcess) -> None:
    async def go() -> None:
        _, _, ann, bo = await _ann_and_bo(server, bot=True, start=True, seats=3, dice=2)
        await ann.send({"type": "hello", "transfer": "no-such-link"})
        err = await ann.error()
        assert err["code"] == "bad_transfer" and "keep your seat" in err["message"]
        snap = await ann.next(lambda m: m["type"] == "snapshot")
        assert snap["seat"] == 0 and snap["view"]["hand"]
        assert not _seat_changes(ann)
        # The seat still answers to this device.
        await ann.send({"type": "transfer_seat"})
        assert (await ann.next(lambda m: m["type"] == "seat_transfer"))["seat"] == 0
        await ann.close()
        await bo.close()

    run(go())


def test_a_waiting_table_its_last_person_leaves_leaves_the_lobby_at_once(
    server: ServerProcess,
) -> None:
    """Nobody can start a waiting table with no person at it (bots of the house alone): once
    its last person leaves, it is closed and leaves the lobby at once, not after
    ``PERUDO_WAITING_TABLE_SECONDS`` (it stood there for 30 minutes with no one seated)."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=1, name="left alone")
        ann = await Client(server, t["table_id"], t["token"]).connect()
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.until(lambda: _table(ann)["seats"][1] is not None)
        listed = [x["id"] for x in server.http("GET", "/api/tables")["tables"]]
        assert t["table_id"] in listed
        await ann.send({"type": "leave"})
        # Ann watches on as a spectator: she is told the table closed (and disconnected).
        assert (await ann.error())["code"] == "table_deserted"
        listed = [x["id"] for x in server.http("GET", "/api/tables")["tables"]]
        assert t["table_id"] not in listed
        assert server.http("GET", f"/api/tables/{t['table_id']}")["error"] == "no_table"
        await ann.close()

    run(go())
