"""Bad input and faults: every refusal is an error message to the sender, nothing changes,
and the connection and the table live on."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.server.harness import Client, ServerProcess, run

from perudo.core.views import legal_texts


async def _two_seat_game(server: ServerProcess, **kw: Any) -> tuple[Client, Client]:
    t = server.create_table(seats=2, dice=3, turn_seconds=0, **kw)
    j = server.join(t["table_id"], "Bo")
    a = await Client(server, t["table_id"], t["token"]).connect()
    b = await Client(server, t["table_id"], j["token"]).connect()
    await a.send({"type": "start"})
    await a.until(lambda: a.view is not None and a.view["phase"] == "bidding")
    await b.until(lambda: b.view is not None and b.view["phase"] == "bidding")
    return a, b


async def _unchanged_and_alive(c: Client, version: int) -> None:
    pong = await c.ping()
    assert pong["version"] == version, "a refused message changed the table"


def test_malformed_json_unknown_types_and_bad_fields_get_errors_and_change_nothing(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        a, b = await _two_seat_game(server)
        v = a.version
        for raw, code, words in [
            ("{not json", "bad_json", "JSON"),
            ("[1, 2]", "bad_json", "JSON object"),
            ('{"type": "teleport"}', "unknown_type", "unknown message type 'teleport'"),
            ('{"no": "type"}', "unknown_type", "unknown message type None"),
            ('{"type": "act", "action": "3x5"}', "bad_message", "version"),
            ('{"type": "act", "action": "3x5", "version": -1}', "bad_message", "version"),
            ('{"type": "chat", "text": ""}', "bad_message", "text"),
            ('{"type": "add_bot", "level": "godlike"}', "bad_message", "level"),
            ('{"type": "act", "action": "3x5", "version": 1, "extra": 1}', "bad_message", "extra"),
        ]:
            await a.send(raw)
            err = await a.error()
            assert err["code"] == code and words in err["message"], (raw, err)
            await _unchanged_and_alive(a, v)
        await a.close()
        await b.close()

    run(go())


def test_an_oversized_message_is_refused_and_the_connection_lives_on(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        a, b = await _two_seat_game(server)
        v = a.version
        await a.send(json.dumps({"type": "chat", "text": "x" * 20_000}))
        err = await a.error()
        assert err["code"] == "too_large" and "4096" in err["message"]
        await _unchanged_and_alive(a, v)
        await a.close()
        await b.close()

    run(go())


def test_illegal_out_of_turn_stale_and_chance_actions_are_refused_naming_the_rule(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        a, b = await _two_seat_game(server)
        first = a if a.my_turn() else b
        second = b if first is a else a
        v = first.version
        # P-10: no opening on aces.
        await first.act("2x1")
        err = await first.error()
        assert err["code"] == "illegal" and "P-10" in err["message"]
        # Out of turn: the other seat may not bid now.
        await second.act("1x2")
        err = await second.error()
        assert err["code"] == "illegal" and "turn" in err["message"]
        # Dudo with no bid standing.
        await first.act("dudo")
        err = await first.error()
        assert err["code"] == "illegal" and "no bid to challenge" in err["message"]
        # A chance move is not a player's.
        await first.act("deal 123 456")
        err = await first.error()
        assert err["code"] == "illegal"
        # Notation errors name what to write.
        await first.act("three fives")
        err = await first.error()
        assert err["code"] == "notation" and "3x5" in err["message"]
        await _unchanged_and_alive(first, v)
        # A legal bid, then the P-12 raise rule.
        await first.act("2x3")
        await second.until(lambda: second.view is not None and second.view["bid"] == "2x3")
        stale = first.version - 1
        await second.act("2x2")
        err = await second.error()
        assert err["code"] == "illegal" and "P-12" in err["message"]
        # Stale version: acting on a view older than the last change.
        await second.act("3x3", version=stale)
        err = await second.error()
        assert err["code"] == "stale"
        await _unchanged_and_alive(second, second.version)
        await second.act("3x3")
        await first.until(lambda: first.view is not None and first.view["bid"] == "3x3")
        await a.close()
        await b.close()

    run(go())


def test_a_wrong_token_gets_an_error_and_only_a_spectators_view(server: ServerProcess) -> None:
    async def go() -> None:
        a, b = await _two_seat_game(server)
        tid = a.table_id
        intruder = await Client(server, tid, "not-the-token").connect()
        err = next(m for m in intruder.messages if m["type"] == "error")
        assert err["code"] == "bad_token"
        assert intruder.seat is None and intruder.view is not None
        assert intruder.view["hand"] == [] and legal_texts(intruder.view["legal"]) == []
        await intruder.act("dudo")
        err = await intruder.error()
        assert err["code"] == "no_seat"
        # Before hello, nothing but hello and ping is accepted.
        raw = await Client(server, tid).connect(hello=False)
        await raw.act("1x2", version=0)
        err = await raw.error()
        assert err["code"] == "hello_first"
        await _unchanged_and_alive(a, a.version)
        for c in (a, b, intruder, raw):
            await c.close()

    run(go())


def test_a_flood_is_rate_limited_and_the_connection_recovers(server: ServerProcess) -> None:
    async def go() -> None:
        a, b = await _two_seat_game(server)
        for _ in range(120):
            await a.send({"type": "ping"})
        await a.until(lambda: any(m.get("code") == "rate_limited" for m in a.messages))
        pongs = sum(1 for m in a.messages if m["type"] == "pong")
        assert 25 <= pongs < 120
        await asyncio.sleep(1.2)
        await _unchanged_and_alive(a, a.version)
        # The other player never noticed.
        await _unchanged_and_alive(b, b.version)
        await a.close()
        await b.close()

    run(go())


def test_a_socket_for_a_table_that_does_not_exist_gets_an_error_then_closes(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        c = await Client(server, "no-such-table").connect(hello=False)
        err = await c.error()
        assert err["code"] == "no_table"
        await c.until(lambda: c._reader is not None and c._reader.done())

    run(go())


def test_before_the_game_seats_are_managed_only_by_seated_players(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(seats=4)
        a = await Client(server, t["table_id"], t["token"]).connect()
        w = await Client(server, t["table_id"]).connect()
        await w.send({"type": "fill_bots", "level": "easy"})
        assert (await w.error())["code"] == "no_seat"
        await w.send({"type": "start"})
        assert (await w.error())["code"] == "no_seat"
        await a.send({"type": "start"})
        err = await a.error()
        assert err["code"] == "not_ready" and "P-1" in err["message"]
        await a.send({"type": "add_bot", "level": "hard", "seat": 3})
        await a.until(lambda: a.table is not None and a.table["seats"][3] is not None)
        assert a.table is not None and a.table["seats"][3]["level"] == "hard"
        await a.send({"type": "remove_seat", "seat": 0})
        assert (await a.error())["code"] == "bad_seat"
        await a.send({"type": "remove_seat", "seat": 3})
        await a.until(lambda: a.table is not None and a.table["seats"][3] is None)
        # Start with an empty seat: empty seats are dropped, the game is for those seated.
        await a.send({"type": "add_bot", "level": "easy"})
        await a.send({"type": "start"})
        await a.until(lambda: a.view is not None and a.view["phase"] == "bidding")
        assert len(a.view["dice_counts"]) == 2
        assert a.table is not None and a.table["seat_count"] == 2
        out = server.http("POST", f"/api/tables/{t['table_id']}/join", {"name": "Late"})
        assert out["status"] == 409 and out["error"] == "not_now"
        await a.close()
        await w.close()

    run(go())
