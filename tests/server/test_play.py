"""Whole games through the real server and real WebSocket clients: people, bots, spectators,
the P-34 choice, calza out of turn (P-50), memory mode (P-40), replays, and no leak (P-70)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from tests.server.harness import (
    Client,
    ServerProcess,
    assert_no_unrevealed_die,
    play_until_over,
    replay_game,
    run,
)

from perudo.core.views import legal_texts


def test_two_people_and_a_bot_play_a_whole_game_to_game_over(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(seats=3, dice=2)
        j = server.join(t["table_id"], "Bo")
        ann = await Client(server, t["table_id"], t["token"]).connect()
        bo = await Client(server, t["table_id"], j["token"]).connect()
        assert (ann.seat, bo.seat) == (0, 1)
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.next(lambda m: m["type"] == "table" and m["table"]["seats"][2] is not None)
        await ann.send({"type": "start"})
        await ann.next(lambda m: m["type"] == "update" and m["view"]["phase"] != "deal")
        await play_until_over([ann, bo], random.Random(1))
        assert ann.view is not None and ann.view["winner"] is not None
        await ann.next(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        game_id = ann.table["game_id"] if ann.table else None
        replay = server.http("GET", f"/api/games/{game_id}/replay")
        assert replay["frames"][-1]["view"]["winner"] == ann.view["winner"]
        state, _, _ = replay_game(server, game_id)
        assert state.winner == ann.view["winner"]
        await ann.close()
        await bo.close()

    run(go())


def test_a_person_plays_a_whole_game_against_an_expert_bot_seated_from_the_page_protocol(
    server: ServerProcess,
) -> None:
    """The expert level is one a host may seat (the wire's ``BotLevel`` is the registry's
    levels): heads up, it plays from the solved book and the abstraction tables, in the
    server's bot thread, to game over."""

    async def go() -> None:
        t = server.create_table(seats=2, dice=2)
        ann = await Client(server, t["table_id"], t["token"]).connect()
        await ann.send({"type": "add_bot", "level": "expert"})
        await ann.next(lambda m: m["type"] == "table" and m["table"]["seats"][1] is not None)
        assert ann.table is not None and ann.table["seats"][1]["level"] == "expert"
        await ann.send({"type": "start"})
        await ann.next(lambda m: m["type"] == "update" and m["view"]["phase"] != "deal")
        await play_until_over([ann], random.Random(2))
        assert ann.view is not None and ann.view["winner"] in (0, 1)
        await ann.close()

    run(go())


def test_no_client_ever_receives_a_die_that_p21_or_p70_keeps_hidden(
    server: ServerProcess,
) -> None:
    """Record every message each client receives through a whole game with three people, a
    bot and a spectator; compare every die in them against the server's own record."""

    async def go() -> None:
        t = server.create_table(seats=4, dice=2)
        tid = t["table_id"]
        tokens = [t["token"], server.join(tid, "Bo")["token"], server.join(tid, "Cy")["token"]]
        people = [await Client(server, tid, tok).connect() for tok in tokens]
        watcher = await Client(server, tid).connect()
        await people[0].send({"type": "add_bot", "level": "medium"})
        await people[0].send({"type": "start"})
        await people[0].next(lambda m: m["type"] == "update" and m["view"]["phase"] != "deal")
        await play_until_over(people, random.Random(2))
        await watcher.next(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        game_id = watcher.table["game_id"] if watcher.table else None
        checked, resolved = assert_no_unrevealed_die(server, game_id, [*people, watcher])
        assert watcher.seat is None
        assert checked > 50
        # P-21: some hands really stayed hidden in the record, and none of them leaked above.
        assert all(res.reveals for res in resolved)
        for c in [*people, watcher]:
            await c.close()

    run(go())


def test_a_spectator_sees_the_public_view_only(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(seats=2, dice=1)
        ann = await Client(server, t["table_id"], t["token"]).connect()
        watcher = await Client(server, t["table_id"]).connect()
        await ann.send({"type": "fill_bots", "level": "easy"})
        await ann.send({"type": "start"})
        await play_until_over([ann], random.Random(3))
        await watcher.next(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
        updates = [m for m in watcher.messages if m["type"] == "update"]
        assert updates
        for m in updates:
            assert (
                m["view"]["hand"] == []
                and legal_texts(m["view"]["legal"]) == []
                and m["hint"] is None
            )
            assert all(e["type"] not in ("dice_dealt", "dice_rerolled") for e in m["events"])
        await ann.close()
        await watcher.close()

    run(go())


def test_p34_two_players_the_one_die_opener_chooses_palifico_through_the_page_protocol(
    server: ServerProcess,
) -> None:
    async def go() -> None:
        t = server.create_table(seats=2, dice=2, turn_seconds=0)
        j = server.join(t["table_id"], "Bo")
        a = await Client(server, t["table_id"], t["token"]).connect()
        b = await Client(server, t["table_id"], j["token"]).connect()
        await a.send({"type": "start"})
        await a.next(lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding")
        clients = {0: a, 1: b}
        opener = clients[a.view["to_act"]]
        other = clients[1 - a.view["to_act"]]
        await opener.until(opener.my_turn)
        await opener.act(legal_texts(opener.view["legal"])[0])
        await other.next(lambda m: m["type"] == "update" and m["view"]["to_act"] == other.seat)
        await other.act("dudo")
        # Someone lost a die and now holds one: with two players, they choose (P-34).
        for c in (a, b):
            m = await c.next(lambda m: m["type"] == "update" and m["view"]["phase"] != "bidding")
            assert m["view"]["phase"] == "choose_palifico"
        chooser = clients[m["view"]["to_act"]]
        assert chooser.view is not None
        assert sorted(legal_texts(chooser.view["legal"])) == ["normal", "palifico"]
        # The other seat may not choose for them.
        watcher_seat = clients[1 - chooser.seat]
        await watcher_seat.act("palifico")
        err = await watcher_seat.error()
        assert err["code"] == "illegal"
        await chooser.act("palifico")
        m = await a.next(lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding")
        assert m["view"]["palifico"] is True
        assert any(e["type"] == "palifico_chosen" for e in m["events"]) or any(
            e["type"] == "palifico_chosen"
            for x in a.messages
            if x["type"] == "update"
            for e in x["events"]
        )
        await a.close()
        await b.close()

    run(go())


def test_p50_a_person_calls_calza_out_of_turn(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(seats=3, dice=2, preset="perudo_calza", turn_seconds=0)
        tid = t["table_id"]
        toks = [t["token"], server.join(tid, "Bo")["token"], server.join(tid, "Cy")["token"]]
        cs = [await Client(server, tid, tok).connect() for tok in toks]
        await cs[0].send({"type": "start"})
        await cs[0].next(lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding")
        opener = cs[0].view["to_act"]
        await cs[opener].until(cs[opener].my_turn)
        await cs[opener].act("2x3")
        # The seat after the next one may call calza out of turn (P-50); the next may not.
        nxt, third = (opener + 1) % 3, (opener + 2) % 3
        m = await cs[third].next(
            lambda m: m["type"] == "update" and "calza" in legal_texts(m["view"]["legal"])
        )
        assert m["view"]["to_act"] == nxt
        await cs[third].act("calza")
        m = await cs[nxt].next(
            lambda m: m["type"] == "update"
            and any(e["type"] == "round_resolved" for e in m["events"])
        )
        res = next(e for e in m["events"] if e["type"] == "round_resolved")
        assert res["kind"] == "calza" and res["caller"] == third
        # P-51: calza reveals everyone.
        assert len(res["reveals"]) == 3 and res["hidden"] == []
        for c in cs:
            await c.close()

    run(go())


def test_p50_a_calza_tapped_on_a_bid_that_was_raised_meanwhile_is_refused_not_judged(
    server: ServerProcess,
) -> None:
    """A calza names the bid it answers (``on``): one sent after a raise it had not seen is
    refused in words (``bid_changed``), even at the newest version (a page sent the version
    it had received, not the one it had drawn); one without ``on`` (a page from before it)
    is refused in every language (``old_page``); nothing changes either way (P-50)."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=2, preset="perudo_calza", turn_seconds=0)
        tid = t["table_id"]
        toks = [t["token"], server.join(tid, "Bo")["token"], server.join(tid, "Cy")["token"]]
        cs = [await Client(server, tid, tok).connect() for tok in toks]
        await cs[0].send({"type": "start"})
        await cs[0].next(lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding")
        opener = cs[0].view["to_act"]
        nxt, third = (opener + 1) % 3, (opener + 2) % 3
        await cs[opener].until(cs[opener].my_turn)
        await cs[opener].act("1x5")
        await cs[third].until(lambda: "calza" in legal_texts(cs[third].view["legal"]))
        seen = [cs[third].view["round"], cs[third].view["bid"]]
        assert seen[1] == "1x5"
        await cs[nxt].until(cs[nxt].my_turn)
        await cs[nxt].act("3x4")
        await cs[third].until(lambda: cs[third].view["bid"] == "3x4")
        # The calza meant for 1x5 arrives at the newest version: refused, not judged on 3x4.
        await cs[third].act("calza", on=seen)
        err = await cs[third].error()
        assert err["code"] == "bid_changed", err
        assert "1x5" in err["message"] and "3x4" in err["message"]
        # A page from before `on`: refused in the reader's words, never applied.
        await cs[third].act("calza", on=None)
        err = await cs[third].error()
        assert err["code"] == "old_page", err
        assert set(err["texts"]) == {"en", "ko", "it"} and "reload" in err["texts"]["en"]
        await cs[third].act("1x5", on=[seen[0], "dudo"])
        assert (await cs[third].error())["code"] == "notation"
        # Nothing changed: 3x4 still stands, and a calza on it (now from the opener, no longer
        # the bidder nor next) is judged on it.
        version = cs[third].version
        await cs[third].ping()
        assert cs[third].view["bid"] == "3x4" and cs[third].version == version
        await cs[opener].until(lambda: cs[opener].view["bid"] == "3x4")
        await cs[opener].act("calza")
        m = await cs[third].next(
            lambda m: m["type"] == "update"
            and any(e["type"] == "round_resolved" for e in m["events"])
        )
        res = next(e for e in m["events"] if e["type"] == "round_resolved")
        assert res["kind"] == "calza" and res["caller"] == opener and res["bid"] == "3x4"
        for c in cs:
            await c.close()

    run(go())


def test_p40_memory_mode_hides_other_seats_dice_counts(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table(seats=3, dice=2, memory=True)
        a = await Client(server, t["table_id"], t["token"]).connect()
        w = await Client(server, t["table_id"]).connect()
        await a.send({"type": "fill_bots", "level": "easy"})
        await a.send({"type": "start"})
        m = await a.next(lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding")
        assert m["view"]["dice_counts"] == [2, None, None]
        # Nor the total (which, with two players left, would give the other's count away),
        # nor the odds, computed from it.
        assert "total_dice" not in m["view"] and m["hint"] is None
        started = next(e for e in m["events"] if e["type"] == "round_started")
        assert started["dice_counts"] == [2, None, None]
        mw = await w.next(lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding")
        assert mw["view"]["dice_counts"] == [None, None, None]
        await a.close()
        await w.close()

    run(go())


def test_chat_reaches_everyone_at_the_table_with_a_version(server: ServerProcess) -> None:
    async def go() -> None:
        t = server.create_table()
        a = await Client(server, t["table_id"], t["token"]).connect()
        w = await Client(server, t["table_id"]).connect()
        await a.send({"type": "chat", "text": "  hola   amigos "})
        m = await w.next(lambda m: m["type"] == "chat")
        assert m["entry"]["text"] == "hola amigos" and m["entry"]["name"] == "Ann"
        assert m["version"] == m["entry"]["version"] > 0
        await a.close()
        await w.close()

    run(go())


def test_lobby_lists_open_tables_and_hides_private_ones(server: ServerProcess) -> None:
    public = server.create_table(name="public one")
    private = server.create_table(name="secret one", private=True)
    ids = {t["id"] for t in server.http("GET", "/api/tables")["tables"]}
    assert public["table_id"] in ids and private["table_id"] not in ids
    # The invite link still works for the private table.
    assert server.http("GET", f"/api/tables/{private['table_id']}")["name"] == "secret one"


def test_creating_a_table_with_rules_the_core_refuses_names_the_rule(
    server: ServerProcess,
) -> None:
    out = server.http(
        "POST",
        "/api/tables",
        {"name": "x", "player": "Ann", "preset": "liars_dice_openspiel", "seats": 4},
    )
    assert out["status"] == 400 and "P-1" in out["message"]
    out = server.http("POST", "/api/tables", {"name": "x", "player": "Ann", "preset": "chess"})
    assert out["status"] == 400 and "unknown rule set" in out["message"]
    out = server.http("POST", "/api/tables", {"name": "x", "player": "   "})
    assert out["status"] == 400


@pytest.mark.parametrize("dice", [3, 2])
def test_the_next_rounds_turn_timer_starts_only_after_the_reveal_has_been_shown(
    make_server: Any, dice: int
) -> None:
    """A round's result stays on the table for ``round_pause`` seconds before the next deal,
    and no turn timer runs meanwhile: the next round's timer starts whole after the reveal.
    With two dice each, the loser is down to one and chooses the next round at once (P-34):
    that choice's timer gets the reveal's time on top."""
    srv = make_server(PERUDO_ROUND_PAUSE="1.5").start()

    async def go() -> None:
        t = srv.create_table(seats=2, dice=dice, turn_seconds=30)
        j = srv.join(t["table_id"], "Bo")
        ann = await Client(srv, t["table_id"], t["token"]).connect()
        bo = await Client(srv, t["table_id"], j["token"]).connect()
        await ann.send({"type": "start"})
        await ann.until(lambda: ann.view is not None and ann.view["phase"] == "bidding")
        first, second = (ann, bo) if ann.my_turn() else (bo, ann)
        await first.until(first.my_turn)  # its view of the deal, whatever the load
        await first.act("1x2")
        await second.until(second.my_turn)
        await second.act("dudo")
        shown = await ann.next(
            lambda m: m["type"] == "update"
            and any(e["type"] == "round_resolved" for e in m["events"])
        )
        at = time.monotonic()
        if shown["view"]["phase"] == "choose_palifico":
            assert shown["timer"] is not None and shown["timer"] >= 31.3
        else:
            assert shown["timer"] is None, "a turn timer runs while the reveal is shown"
            dealt = await ann.next(
                lambda m: m["type"] == "update" and m["view"]["phase"] == "bidding", timeout=10
            )
            assert time.monotonic() - at >= 1.3
            assert dealt["timer"] is not None and dealt["timer"] >= 29.5
        await ann.close()
        await bo.close()

    run(go())


@pytest.mark.parametrize(
    ("odds", "people", "shown"),
    [("auto", 1, True), ("auto", 2, False), ("on", 2, True), ("off", 1, False)],
)
def test_the_odds_hint_is_a_table_option_off_by_default_among_people(
    server: ServerProcess, odds: str, people: int, shown: bool
) -> None:
    """The odds of the standing bid take the judgement out of a bluffing game among people:
    ``auto`` shows them only while one person sits at the table (with bots)."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=3, turn_seconds=0, odds=odds)
        ann = await Client(server, t["table_id"], t["token"]).connect()
        clients = [ann]
        if people == 2:
            j = server.join(t["table_id"], "Bo")
            clients.append(await Client(server, t["table_id"], j["token"]).connect())
        await ann.send({"type": "fill_bots", "level": "easy"})
        await ann.send({"type": "start"})
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "playing")
        assert ann.table is not None and ann.table["odds_shown"] is shown
        # Whoever is to act with a bid standing has the odds exactly when the table shows them.
        await play_until_over(clients, random.Random(2))
        deciding = [
            m
            for c in clients
            for m in c.messages
            if m["type"] in ("update", "snapshot")
            and m["view"] is not None
            and m["view"]["bid"] is not None
            and legal_texts(m["view"]["legal"])
        ]
        assert deciding
        assert all((m["hint"] is not None) is shown for m in deciding)
        for c in clients:
            await c.close()

    run(go())
