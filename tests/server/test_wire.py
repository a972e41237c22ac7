"""The wire, typed end to end: every message a real server sends in whole games (to a seat and
to a spectator, with calza, memory mode and refusals) and every replay it serves are valid
against the JSON Schema it publishes at ``/api/protocol.schema.json`` (exported from the
pydantic models of :mod:`perudo.server.protocol` and :mod:`perudo.server.payloads`), checked
with ``jsonschema``, independent of pydantic."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import jsonschema
from tests.server.harness import Client, ServerProcess, heads_up, merged, play_until_over, run

from perudo.core.views import legal_texts
from perudo.server.protocol import json_schema

RULE_ID = re.compile(r"\b[PV]-\d+\b")


def _validator(server: ServerProcess, root: str) -> jsonschema.Draft202012Validator:
    schema = server.http("GET", "/api/protocol.schema.json")
    assert schema == json.loads(json.dumps(json_schema()))
    jsonschema.Draft202012Validator.check_schema(schema)
    rooted = {k: v for k, v in schema.items() if k != "oneOf"}
    return jsonschema.Draft202012Validator({**rooted, "$ref": f"#/$defs/{root}"})


def _check_all(validator: jsonschema.Draft202012Validator, messages: list[dict[str, Any]]) -> None:
    for m in messages:
        errors = sorted(validator.iter_errors(m), key=str)
        assert not errors, f"{m['type']} message off the schema: {errors[0].message}"


def test_every_message_of_whole_games_and_every_replay_match_the_published_schema(
    server: ServerProcess,
) -> None:
    sent = _validator(server, "ServerMessage")
    replay = _validator(server, "ReplayData")

    async def go() -> None:
        for preset, memory in (("perudo_calza", False), ("bluff", False), ("perudo", True)):
            t = server.create_table(seats=4, dice=2, preset=preset, memory=memory)
            ann = await Client(server, t["table_id"], t["token"]).connect()
            spectator = await Client(server, t["table_id"]).connect()
            await ann.send({"type": "fill_bots", "level": "easy"})
            await ann.send({"type": "chat", "text": "¡Hola! 안녕 👋🏽"})
            await ann.send({"type": "start"})
            await ann.act("99x9", version=0)  # a stale version: refused
            await ann.error()
            await ann.send({"type": "ping"})
            await play_until_over([ann], random.Random(3))
            await ann.next(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
            await ann.close()
            await spectator.close()
            kinds = {m["type"] for m in ann.messages}
            assert {"snapshot", "update", "table", "chat", "error", "pong"} <= kinds
            _check_all(sent, ann.messages + spectator.messages)
            # A round's result travels once: as the update's round_resolved event, not again
            # in its past_tail (the page reads it from the event).
            tails = 0
            for m in ann.messages + spectator.messages:
                if m["type"] == "update" and m["past_tail"]:
                    resolved = [e for e in m["events"] if e["type"] == "round_resolved"]
                    assert len(resolved) == len(m["past_tail"])
                    assert all("result" not in r for r in m["past_tail"])
                    tails += 1
            assert tails or memory
            # The schema is strict: a field the page does not know of is off it.
            snap = next(m for m in ann.messages if m["type"] == "update" and m["view"])
            assert not sent.is_valid({**snap, "view": {**snap["view"], "total_dice": 8}})
            assert ann.table is not None
            data = server.http("GET", f"/api/games/{ann.table['game_id']}/replay")
            errors = list(replay.iter_errors(data))
            assert not errors, errors[0].message

    run(go())


def test_p40_memory_mode_never_sends_the_total_of_dice_in_play(server: ServerProcess) -> None:
    """P-40: other seats' counts are hidden, and so is the total (with two players left it
    gives the other's count away), the odds computed from it and the story of the earlier
    rounds, in every message."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=3, memory=True)
        ann = await Client(server, t["table_id"], t["token"]).connect()
        await ann.send({"type": "fill_bots", "level": "easy"})
        await ann.send({"type": "start"})
        await play_until_over([ann], random.Random(5))
        for raw in ann.raw:
            assert "total_dice" not in raw
        rounds = 0
        for m in ann.messages:
            if m["type"] in ("snapshot", "update"):
                assert m["hint"] is None
                # Nor the story of every round (each die lost, each round's opener: the loser,
                # P-22): only the latest finished round travels, whole each time.
                assert not m.get("past_tail")
                if m["view"] is not None:
                    assert len(m["view"]["past"]) <= 1
                    rounds = max(rounds, m["view"]["round"])
                if m["view"] is not None and m["view"]["phase"] != "game_over":
                    counts = m["view"]["dice_counts"]
                    assert all(c is None or c == 0 for i, c in enumerate(counts) if i != ann.seat)
        assert rounds >= 3
        await ann.close()

    run(go())


def test_p40_memory_mode_offers_bids_to_the_starting_dice_and_refuses_without_the_count(
    server: ServerProcess,
) -> None:
    """P-40 with P-16: the highest quantity offered would tell the total of dice in play, so in
    memory mode the bids offered run to the dice at the start of the game; a bid above the
    dice in play is refused by the core as always, in words (and params, and the developer
    message of the "why?" detail) that state no count."""

    async def go() -> None:
        t = server.create_table(seats=3, dice=3, memory=True, turn_seconds=0)
        ann = await Client(server, t["table_id"], t["token"]).connect()
        await ann.send({"type": "fill_bots", "level": "easy"})
        await ann.send({"type": "start"})
        rng = random.Random(3)

        def after_a_loss() -> bool:  # Ann to bid, with fewer dice in play than at the start
            v = ann.view
            return bool(v and v["round"] >= 2 and ann.my_turn() and v["phase"] == "bidding")

        while not after_a_loss():
            await ann.until(lambda: ann.my_turn() or after_a_loss(), timeout=30)
            if after_a_loss():
                break
            v = ann.view
            assert v is not None
            quantities = [high for _, _, high in v["legal"]["bids"]]
            assert not quantities or max(quantities) == 9  # round 1: 9 dice in play
            legal = legal_texts(v["legal"])
            await ann.act("dudo" if "dudo" in legal else rng.choice(legal))
            await ann.until(lambda v=v: not ann.my_turn() or ann.view is not v)
        v = ann.view
        assert v is not None
        bids = v["legal"]["bids"]
        assert max(high for _, _, high in bids) == 9  # 3 seats × 3 dice, not the dice in play
        face = next(face for face, _, high in bids if high == 9)
        too_many = {"quantity": 9, "face": face}
        await ann.act(f"9x{face}")
        err = await ann.error()
        assert err["code"] == "illegal" and err["refusal"] == "bid.too_many"
        assert "total" not in err["params"]
        # One die is lost in round 1 (no calza): 8 in play, said nowhere.
        assert "P-16" in err["message"] and not re.findall(r"\d+", RULE_ID.sub("", err["message"]))
        assert set(err["texts"]) == {"en", "ko", "it"}
        for text in err["texts"].values():  # only the bid's own numbers
            assert set(re.findall(r"\d+", text)) <= {"9", str(too_many["face"])}, text
        assert "claims more dice than there are in play" in err["texts"]["en"]
        assert ann.view is v  # nothing changed
        await ann.close()

    run(go())


def test_a_refusal_of_the_rules_reaches_the_player_in_every_language_without_rule_ids(
    server: ServerProcess,
) -> None:
    """The core's refusal (its code and params) is said by perudo.i18n in English, Korean and
    Italian, naming the players; the English developer message keeps the rule id for the
    page's "why?" detail, the players' texts have none."""

    async def go() -> None:
        # Both see the bidding before anyone acts (a seat still at the deal's version would
        # be refused as stale, with no rule refusal: seen once on a loaded machine).
        mover, waiting = await heads_up(server, guest="보라", dice=2, turn_seconds=0)
        await waiting.act("1x3")  # not their turn (P-11)
        turn = await waiting.error()
        await mover.act("1x1")  # an opening bid on aces (P-10)
        aces = await mover.error()
        await mover.act("0x3")  # not a bid
        notation = await mover.error()
        for err in (turn, aces, notation):
            assert err["refusal"] and err["code"] in ("illegal", "notation")
            assert set(err["texts"]) == {"en", "ko", "it"}
            assert len(set(err["texts"].values())) == 3, err["texts"]
            for text in err["texts"].values():
                assert text and "P-" not in text and "V-" not in text
        assert "P-11" in turn["message"] and "P-10" in aces["message"]
        names = {"Ann", "보라"}
        assert any(n in turn["texts"]["ko"] for n in names), turn["texts"]
        await mover.close()
        await waiting.close()

    run(go())


def test_no_message_of_a_move_at_a_six_seat_table_is_above_2_kb_and_the_past_still_adds_up(
    server: ServerProcess,
) -> None:
    """A six-seat ``perudo_calza`` game of five dice each, played through the server's socket:
    every update a seat receives after a move is at most 2,048 bytes. The round's actions
    travelled in every update's view, and again in a round-end update's ``past_tail``: 3 KB
    and more by a long round's end, where the receiver holds them already (its view before,
    the update's ``action`` events). What a seat adds up from its updates is what a whole
    view of the end says: the view, and every round."""

    async def go() -> None:
        t = server.create_table(seats=6, dice=5, preset="perudo_calza", turn_seconds=0)
        seats = [await Client(server, t["table_id"], t["token"]).connect()]
        for i in range(5):
            j = server.join(t["table_id"], f"Guest {i}")
            seats.append(await Client(server, t["table_id"], j["token"]).connect())
        await seats[0].send({"type": "start"})
        await play_until_over(seats, random.Random(7), timeout=120, policy=long_rounds)
        sizes, rounds = [], 0
        for c in seats:
            await c.until(lambda c=c: c.view is not None and c.view["phase"] == "game_over")  # type: ignore[misc]
            past: list[dict[str, Any]] = []
            view: dict[str, Any] | None = None
            for raw, m in zip(c.raw, c.messages, strict=True):
                if m["type"] == "snapshot":
                    view = m["view"]
                if m["type"] != "update" or m["view"] is None:
                    continue
                sizes.append(len(raw.encode()))
                view, finished = merged(view, m)
                past += finished
            again = await Client(server, t["table_id"], c.token).connect()
            assert again.view is not None
            whole = [{**r, "result": _unversioned(r["result"])} for r in again.view["past"]]
            assert past == whole
            assert view is not None
            assert {**view, "rules": None, "past": None, "rolloff": None} == {
                **again.view,
                "rules": None,
                "past": None,
                "rolloff": None,
            }
            rounds = max(rounds, len(past))
            await again.close()
            await c.close()
        assert rounds >= 10 and len(sizes) > 6 * 100
        assert max(sizes) <= 2048, sorted(sizes)[-5:]

    run(go())


def _unversioned(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "version"}


def long_rounds(view: dict[str, Any], rng: random.Random) -> str:
    """Rounds of many bids, as people play them: dudo a sixth of the time, else one of the
    three lowest raises."""
    legal = view["legal"]
    if any(a["text"] == "dudo" for a in legal["actions"]) and rng.random() < 1 / 6:
        return "dudo"
    lowest = sorted((low, face) for face, low, _ in legal["bids"])[:3]
    if lowest:
        quantity, face = rng.choice(lowest)
        return f"{quantity}x{face}"
    return str(legal["actions"][0]["text"])
