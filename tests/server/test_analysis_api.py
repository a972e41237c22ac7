"""``GET /api/games/{id}/analysis``: a finished game judged in the server's worker processes,
from a seat's view only with that seat's token, else from public information (P-70)."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from typing import Any

from tests.server.harness import (
    Client,
    ServerProcess,
    assert_no_unrevealed_die,
    heads_up,
    play_until_over,
    replay_game,
    run,
)

from perudo.analysis import every_hand
from perudo.core import GameRecord
from perudo.core.views import legal_texts


def _get(srv: ServerProcess, path: str, token: str | None = None) -> tuple[int, Any]:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    req = urllib.request.Request(srv.url + path, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _analysis(srv: ServerProcess, path: str, token: str | None = None) -> dict[str, Any]:
    """Ask until the analysis is done (each answer while it runs is 202 with its progress;
    the server holds each request a moment, so this is no busy loop)."""
    for _ in range(600):
        status, body = _get(srv, path, token)
        if status == 200:
            return body  # type: ignore[no-any-return]
        assert status == 202, body
        assert body["status"] == "running" and body["done"] <= max(body["total"], 1)
    raise AssertionError("the analysis did not finish")


def test_analysis_of_a_finished_game_by_seat_and_in_public(server: ServerProcess) -> None:
    async def play() -> tuple[str, list[str], list[dict[str, Any]]]:
        mover, other = await heads_up(server, dice=1, turn_seconds=0)
        await play_until_over([mover, other], random.Random(4), timeout=60)
        for c in (mover, other):
            await c.until(lambda c=c: c.table is not None and c.table["status"] == "finished")  # type: ignore[misc]
        assert mover.table is not None
        clients = sorted((mover, other), key=lambda c: c.seat or 0)
        views = [c.view or {} for c in clients]
        for c in clients:
            await c.close()
        return mover.table["game_id"], [c.token or "" for c in clients], views

    game_id, tokens, views = run(play())
    public = _analysis(server, f"/api/games/{game_id}/analysis")
    assert public["status"] == "done"
    assert public["analysis"]["viewer"] is None
    assert public["analysis"]["chart"][-1]["wins"] in ([1.0, 0.0], [0.0, 1.0])

    # A seat's own analysis needs the seat's token.
    status, body = _get(server, f"/api/games/{game_id}/analysis?seat=0")
    assert status == 403 and body["error"] == "not_your_seat"
    status, body = _get(server, f"/api/games/{game_id}/analysis?seat=0", tokens[1])
    assert status == 403 and body["error"] == "not_your_seat"
    status, body = _get(server, f"/api/games/{game_id}/analysis?seat=7", tokens[0])
    assert status == 400 and body["error"] == "bad_seat"

    own = _analysis(server, f"/api/games/{game_id}/analysis?seat=0", tokens[0])["analysis"]
    assert own["viewer"] == 0 and own["seats"] == [0]
    decisions = [d for d in own["decisions"] if d["hand"] is not None]
    assert decisions, own
    for d in decisions:
        assert d["seat"] == 0
        assert len(d["hand"]) == 1
        # One die each: every turn of the round is in the shipped book (when played under the
        # preset's rules) or judged by rollouts; either way it carries its loss and label.
        assert d["label"] in ("good", "inaccuracy", "mistake", "blunder")


def test_analysis_of_an_unknown_or_unfinished_game_is_refused(server: ServerProcess) -> None:
    status, body = _get(server, "/api/games/nosuchgame/analysis")
    assert status == 404 and body["error"] == "no_game"


def test_show_every_hand_at_the_end_shows_them_after_the_game_and_never_during_it(
    server: ServerProcess,
) -> None:
    """A table created with "show every hand at the end" (a table agreement outside the
    rules; off by default, P-21): during play no client receives a die it could not see and
    the replay, the record and the analysis are refused (not_now); once the game is over the
    replay, the record and the public analysis show every hand of every round to anyone. A
    table without it keeps them hidden: the record is refused in words (hands_hidden)."""

    async def play(show: bool) -> str:
        mover, other = await heads_up(server, dice=2, turn_seconds=0, show_hands=show)
        assert mover.table is not None and mover.table["show_hands"] is show
        watcher = await Client(server, mover.table_id).connect()
        game_id = mover.table["game_id"]
        for path in ("replay", "record", "analysis"):
            status, body = _get(server, f"/api/games/{game_id}/{path}", other.token)
            assert status == 409 and body["error"] == "not_now", (path, body)
        await play_until_over([mover, other], random.Random(6), timeout=60)
        await watcher.until(
            lambda: watcher.table is not None and watcher.table["status"] == "finished"
        )
        assert_no_unrevealed_die(server, game_id, [mover, other, watcher])
        for c in (mover, other, watcher):
            await c.close()
        return str(game_id)

    shown = run(play(True))
    state, _, _ = replay_game(server, shown)
    record = GameRecord.from_json(_get(server, f"/api/games/{shown}/record")[1])
    assert record.replay() == state
    truth = every_hand(record)
    replay = server.http("GET", f"/api/games/{shown}/replay")
    assert {h["round"]: tuple(map(tuple, h["hands"])) for h in replay["hands"]} == truth
    public = _analysis(server, f"/api/games/{shown}/analysis")["analysis"]
    assert public["show_hands"] is True and public["calls"]
    for call in public["calls"]:
        assert call["hands"] == [list(h) for h in truth[call["round"]]]
        assert isinstance(call["true_count"], int)

    hidden = run(play(False))
    assert server.http("GET", f"/api/games/{hidden}/replay")["hands"] is None
    status, body = _get(server, f"/api/games/{hidden}/record")
    assert status == 403 and body["error"] == "hands_hidden"
    assert "hands nobody lifted" in body["texts"]["en"] and body["texts"]["ko"]
    public = _analysis(server, f"/api/games/{hidden}/analysis")["analysis"]
    assert public["show_hands"] is False
    assert all("hands" not in call for call in public["calls"])


def test_a_seats_analysis_is_for_the_person_who_played_it_not_the_seats_next_occupant(
    server: ServerProcess,
) -> None:
    """P-70: seat 0's analysis of a game needs a device token that held seat 0 during that
    game (or the signed-in account that sat there). After the game its player leaves and a
    newcomer takes the seat: the newcomer's token is refused in words, and the player's own
    token, which holds no seat any more, still opens it."""

    async def play() -> tuple[str, str, str]:
        mover, other = await heads_up(server, dice=1, turn_seconds=0)
        ann = mover if mover.seat == 0 else other
        await play_until_over([mover, other], random.Random(8), timeout=60)
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "finished")
        assert ann.table is not None
        game_id = str(ann.table["game_id"])
        await ann.send({"type": "rematch"})
        await ann.until(lambda: ann.table is not None and ann.table["status"] == "open")
        await ann.send({"type": "leave"})
        await other.until(lambda: other.table is not None and other.table["seats"][0] is None)
        cy = server.join(ann.table_id, "Cy")
        assert cy["seat"] == 0
        for c in (mover, other):
            await c.close()
        return game_id, ann.token or "", cy["token"]

    game_id, ann_token, cy_token = run(play())
    status, body = _get(server, f"/api/games/{game_id}/analysis?seat=0", cy_token)
    assert status == 403 and body["error"] == "not_your_seat", body
    assert body["texts"]["en"] == "Only the person who played that seat may see its analysis."
    assert body["texts"]["ko"] and body["texts"]["it"]
    own = _analysis(server, f"/api/games/{game_id}/analysis?seat=0", ann_token)["analysis"]
    assert own["viewer"] == 0


def test_the_explain_panel_is_for_a_person_playing_bots_only_and_refused_among_people(
    server: ServerProcess,
) -> None:
    """The live explain panel (issue 28, point 6): against a bot, the seat's decision now
    (the chance the standing bid holds, the expert's choice) and, after it acts, its last
    decision judged (loss and label); at a table with another person it is refused in words
    (it would be help the other lacks), and nobody but the seat's player may open it."""

    async def go() -> None:
        t = server.create_table(seats=2, dice=2, turn_seconds=0)
        ann = await Client(server, t["table_id"], t["token"]).connect()
        await ann.send({"type": "add_bot", "level": "easy"})
        await ann.next(lambda m: m["type"] == "table" and m["table"]["seats"][1] is not None)
        await ann.send({"type": "start"})
        await ann.until(lambda: ann.view is not None and ann.view["phase"] == "bidding")
        await ann.until(ann.my_turn)
        path = f"/api/tables/{t['table_id']}/explain"
        status, body = _get(server, path, t["token"])
        assert status == 200, body
        assert body["current"]["expert_info"] is not None and body["current"]["hand"]
        status, body = _get(server, path)
        assert status == 403 and body["error"] == "not_seated" and body["texts"]["it"]
        assert ann.view is not None
        await ann.act(legal_texts(ann.view["legal"])[0])
        await ann.until(lambda: ann.view is not None and len(ann.view["actions"]) > 0)
        status, body = _get(server, path, t["token"])
        assert status == 200 and body["last"]["seat"] == 0, body
        assert body["last"]["label"] in ("good", "inaccuracy", "mistake", "blunder")
        await ann.close()

        mover, other = await heads_up(server, dice=1, turn_seconds=0)
        for c in (mover, other):
            status, body = _get(server, f"/api/tables/{c.table_id}/explain", c.token)
            assert status == 403 and body["error"] == "explain_people", body
            assert "every" in body["texts"]["en"] and body["texts"]["ko"] and body["texts"]["it"]
            await c.close()

    run(go())
