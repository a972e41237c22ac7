"""The bot API (docs/bot-api.md) through a real server: an account becomes a bot account (only
before its first game), its token opens the bot API and the table sockets and no cookie does,
the bot account never signs in on the page, and `examples/botclient.py` plays whole games
against a person (a WebSocket client driven by the test). Revoking a token ends its access,
its open socket included."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
import websockets
from tests.server.harness import ROOT, Client, ServerProcess, choose
from tests.server.test_play_now import Waiting

from perudo.server.play.pool import POOL_GRACE

PASSWORD = "correct horse battery"
CHEAP_ARGON2 = {"PERUDO_ARGON2_MEMORY_KIB": "8192", "PERUDO_ARGON2_TIME_COST": "1"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("botapi"), **CHEAP_ARGON2).start()
    yield server
    server.stop()


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("botclient", ROOT / "examples" / "botclient.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _signed_up(srv: ServerProcess, name: str) -> httpx.Client:
    """A person signed up, their session's cookie sent with every request (it is ``Secure``
    on the loopback address, as browsers take it, which httpx keeps to HTTPS)."""
    out = httpx.post(f"{srv.url}/api/account/signup", json={"name": name, "password": PASSWORD})
    assert out.status_code == 201, out.text
    cookie = f"perudo_session={out.cookies['perudo_session']}"
    return httpx.Client(base_url=srv.url, timeout=10, headers={"Cookie": cookie})


def _bot_token(srv: ServerProcess, name: str) -> str:
    """A new account made a bot account through the API; its first token."""
    _signed_up(srv, name).close()
    out = httpx.post(
        f"{srv.url}/api/bot/account/upgrade",
        json={"name": name, "password": PASSWORD, "label": "test"},
    )
    assert out.status_code == 201, out.text
    token: str = out.json()["token"]["token"]
    return token


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _person_plays(person: Client, rng: random.Random) -> None:
    """The person acts on their turn until the game is over."""
    acted = [-1]

    def ready() -> bool:
        over = person.view is not None and person.view["phase"] == "game_over"
        return over or (person.my_turn() and acted[0] < person.version)

    while True:
        await person.until(ready)
        assert person.view is not None
        if person.view["phase"] == "game_over":
            return
        acted[0] = person.version
        await person.act(choose(person.view, rng))


def test_the_example_client_plays_whole_games_against_a_person(srv: ServerProcess) -> None:
    """A `perudo.bots` level and a plain function, each through examples/botclient.py, play a
    heads-up game to its end against a person; the seat list, the profile and the replay
    mark the bot account as a bot, and its rating lands on the bots' leaderboard only."""
    example = _example()
    token = _bot_token(srv, "Robo")

    async def game(decide: Any, calza: Any = lambda view: False) -> dict[str, Any]:
        t = srv.create_table(seats=2, dice=2, preset="perudo")
        person = await Client(srv, t["table_id"], t["token"]).connect()
        bot = asyncio.create_task(example.play(srv.url, token, t["table_id"], decide, calza))
        await person.until(
            lambda: person.table is not None and all(s is not None for s in person.table["seats"])
        )
        assert person.table is not None
        marks = [(s["name"], s["bot_account"]) for s in person.table["seats"]]
        assert marks == [("Ann", False), ("Robo", True)]
        await person.send({"type": "start"})
        await _person_plays(person, random.Random(3))
        end = await asyncio.wait_for(bot, 30)
        assert end["winner"] is not None and end["winner"] == person.view["winner"]  # type: ignore[index]
        # The rounds it added up from the updates are the whole view's (docs/bot-api.md).
        whole = await Client(srv, t["table_id"]).connect()
        assert whole.view is not None and len(end["past"]) >= 2
        assert end["past"] == [
            {**r, "result": {k: v for k, v in r["result"].items() if k != "version"}}
            for r in whole.view["past"]
        ]
        await whole.close()
        key = person.table["game_id"] if person.table["game_id"] else None
        await person.close()
        return {"end": end, "key": key, "table": t["table_id"]}

    from perudo.registry import make_bot

    level = make_bot("medium", 1)
    first = asyncio.run(game(level.act, level.call_calza))
    seen: list[Any] = []

    def lowest(view: Any) -> Any:
        seen.append(view)
        return view.legal[0]

    asyncio.run(game(lowest))
    assert seen and all(v.seat == 1 and len(v.hand) <= 2 for v in seen)

    profile = httpx.get(f"{srv.url}/api/players/Robo").json()
    assert profile["bot"] is True and profile["variants"]["perudo"]["played"] == 2
    assert httpx.get(f"{srv.url}/api/players/Ann").status_code == 404  # a guest: no profile
    info = httpx.get(f"{srv.url}/api/tables/{first['table']}").json()
    replay = httpx.get(f"{srv.url}/api/games/{info['game_id']}/replay").json()
    assert replay["bots"] == [1]


def test_the_example_client_waits_in_play_now_and_plays_a_person_who_accepts_bots(
    srv: ServerProcess,
) -> None:
    """examples/botclient.py's ``play_now`` waits in an unrated Play-now pool as a bot account
    (its token on ``/ws/play``); a person waiting there who chose bots for the empty seats is
    seated with it at once, and the two play the game to its end. A bot account is refused a
    rated pool in words."""
    example = _example()
    token = _bot_token(srv, "Poolbot")

    async def go() -> None:
        person = await Waiting(srv.ws_url).open()
        await person.send(type="play_join", preset="perudo", seats=2, wait=600, bots="easy")
        await person.first("pool")
        level = make_bot("medium", 2)
        bot = asyncio.create_task(example.play_now(srv.url, token, level.act, level.call_calza))
        matched = await person.first("play_matched")
        await person.close()
        seated = await Client(srv, matched["table_id"], matched["token"]).connect()
        await seated.until(lambda: bool(seated.table and seated.table["status"] == "playing"))
        assert seated.table is not None
        marks = sorted((s["name"], s["bot_account"]) for s in seated.table["seats"])
        assert marks == [("Guest", False), ("Poolbot", True)]
        await _person_plays(seated, random.Random(5))
        end = await asyncio.wait_for(bot, 30)
        assert end["winner"] is not None and end["winner"] == seated.view["winner"]  # type: ignore[index]
        await seated.close()

        async with websockets.connect(
            srv.ws_url + "/ws/play", additional_headers=_auth(token)
        ) as ws:
            join = {"type": "play_join", "preset": "perudo", "seats": 2, "rated": True}
            await ws.send(json.dumps(join))
            refused = json.loads(await ws.recv())
        assert refused["type"] == "error" and refused["code"] == "pool_rated_bot_account"
        assert set(refused["texts"]) == {"en", "ko", "it"}

    from perudo.registry import make_bot

    asyncio.run(go())


def test_a_bot_account_is_made_before_any_game_and_never_signs_in_on_the_page(
    srv: ServerProcess,
) -> None:
    token = _bot_token(srv, "Botty")
    # Its page sign-in is refused, in words, whoever asks with the right password.
    out = httpx.post(f"{srv.url}/api/account/signin", json={"name": "Botty", "password": PASSWORD})
    assert out.status_code == 403 and out.json()["error"] == "bot_account"
    assert set(out.json()["texts"]) == {"en", "ko", "it"}
    # Its token opens the bot API.
    me = httpx.get(f"{srv.url}/api/bot/account", headers=_auth(token)).json()
    assert me["name"] == "Botty" and me["bot"] is True and len(me["tokens"]) == 1
    assert "token" not in me["tokens"][0]

    # A person's session cookie opens nothing of the bot API.
    person = _signed_up(srv, "Person")
    refused = person.get("/api/bot/account")
    assert refused.status_code == 401 and refused.json()["error"] == "bot_token_needed"
    assert "Authorization: Bearer <token>" in refused.json()["message"]
    assert refused.headers["www-authenticate"].startswith("Bearer ")
    assert person.post("/api/bot/tables", json={"name": "t"}).status_code == 401
    # An account that has played (here: sits at a table) cannot become a bot account.
    csrf = person.get("/api/account").json()["csrf"]
    made = person.post(
        "/api/tables",
        json={"name": "t", "player": "x", "seats": 2},
        headers={"X-CSRF-Token": csrf},
    )
    assert made.status_code == 200
    out = httpx.post(
        f"{srv.url}/api/bot/account/upgrade", json={"name": "Person", "password": PASSWORD}
    )
    assert out.status_code == 409 and out.json()["error"] == "played"
    assert person.get("/api/account").status_code == 200  # still a person, still signed in
    # A wrong password makes nothing.
    out = httpx.post(f"{srv.url}/api/bot/account/upgrade", json={"name": "Botty", "password": "x"})
    assert out.status_code == 401


def test_a_revoked_token_ends_the_bots_access_and_its_open_socket(srv: ServerProcess) -> None:
    token = _bot_token(srv, "Shorty")
    second = httpx.post(f"{srv.url}/api/bot/tokens", json={"label": "b"}, headers=_auth(token))
    assert second.status_code == 201
    spare = second.json()["token"]
    t = srv.create_table(seats=3)
    seat = httpx.post(f"{srv.url}/api/bot/tables/{t['table_id']}/join", headers=_auth(token))
    assert seat.status_code == 200, seat.text

    async def go() -> None:
        url = f"{srv.ws_url}/ws/tables/{t['table_id']}"
        # The seat's token alone, on a page's socket, does not hold a bot account's seat.
        page = await Client(srv, t["table_id"], seat.json()["token"]).connect()
        codes = [m.get("code") for m in page.messages if m["type"] == "error"]
        assert codes == ["bot_seat"] and page.seat is None
        await page.close()
        async with websockets.connect(url, additional_headers=_auth(token)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat.json()["token"]}))
            snapshot = await _next(ws, "snapshot")
            assert snapshot["seat"] == 1
            listed = httpx.get(f"{srv.url}/api/bot/tokens", headers=_auth(spare)).json()
            first = next(x["id"] for x in listed["tokens"] if x["label"] == "test")
            gone = httpx.delete(f"{srv.url}/api/bot/tokens/{first}", headers=_auth(spare))
            assert gone.status_code == 204
            closed = await _next(ws, "error")
            assert closed["code"] == "bot_token_revoked"
            with pytest.raises(websockets.ConnectionClosed):
                await _next(ws, "never")
        # The revoked token opens nothing any more, neither the API nor a socket.
        out = httpx.get(f"{srv.url}/api/bot/account", headers=_auth(token))
        assert out.status_code == 401 and out.json()["error"] == "bad_bot_token"
        async with websockets.connect(url, additional_headers=_auth(token)) as ws:
            assert (await _next(ws, "error"))["code"] == "bad_bot_token"

    asyncio.run(go())


async def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] == kind:
            return msg


def test_a_persons_rated_table_seats_no_bot_account(srv: ServerProcess, tmp_path: Path) -> None:
    """lichess's rule (docs/bot-api.md): a bot plays rated games only at a table a bot made,
    where the people who sit down accept it; a person's rated table never seats one."""
    token = _bot_token(srv, "Rater")
    person = _signed_up(srv, "Human")
    csrf = person.get("/api/account").json()["csrf"]
    made = person.post(
        "/api/tables",
        json={"name": "r", "player": "x", "seats": 2, "rated": True},
        headers={"X-CSRF-Token": csrf},
    ).json()
    out = httpx.post(f"{srv.url}/api/bot/tables/{made['table_id']}/join", headers=_auth(token))
    assert out.status_code == 400 and out.json()["error"] == "rated_people"
    own = httpx.post(
        f"{srv.url}/api/bot/tables", json={"name": "b", "seats": 2, "rated": True},
        headers=_auth(token),
    )  # fmt: skip
    assert own.status_code == 200, own.text
    joined = person.post(
        f"/api/tables/{own.json()['table_id']}/join", json={"name": "x"},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    assert joined.status_code == 200, joined.text


def test_bots_and_people_have_leaderboards_of_their_own(tmp_path: Path) -> None:
    """`/api/leaderboard` lists people only, `?bots=1` bot accounts only (the store's query,
    over one database: an established rating each)."""
    from sqlalchemy import insert

    from perudo.server.accounts.bots import become_bot
    from perudo.server.store import Store
    from perudo.server.store.schema import ratings_t

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}")
        await store.open()
        try:
            ids = [await store.create_player(n, n.lower(), None) for n in ("Ann", "Robo")]
            assert None not in ids
            done = await become_bot(store, ids[1], "t")  # type: ignore[arg-type]
            assert done.token is not None
            async with store._engine().begin() as conn:
                for player_id in ids:
                    await conn.execute(
                        insert(ratings_t).values(
                            player_id=player_id, variant="perudo", pool="duel", mu=30.0,
                            sigma=1.0, games=40, updated_at=time.time(),
                        )
                    )  # fmt: skip
            people = await store.leaderboard("perudo", "duel", 0.0, 5.0, 10)
            bots = await store.leaderboard("perudo", "duel", 0.0, 5.0, 10, bots=True)
            assert [n for n, _, _ in people] == ["Ann"]
            assert [n for n, _, _ in bots] == ["Robo"]
        finally:
            await store.close()

    asyncio.run(go())


def test_a_bot_account_sits_at_ten_tables_at_most(srv: ServerProcess) -> None:
    """PERUDO_BOT_TABLES (10): the eleventh seat at a table waiting or playing is refused,
    in words, and nothing is taken."""
    token = _bot_token(srv, "Greedy")
    tables = [srv.create_table(seats=2)["table_id"] for _ in range(11)]
    for table in tables[:10]:
        out = httpx.post(f"{srv.url}/api/bot/tables/{table}/join", headers=_auth(token))
        assert out.status_code == 200, out.text
    out = httpx.post(f"{srv.url}/api/bot/tables/{tables[10]}/join", headers=_auth(token))
    assert out.status_code == 429 and out.json()["error"] == "bot_tables"
    assert set(out.json()["texts"]) == {"en", "ko", "it"}
    assert httpx.get(f"{srv.url}/api/tables/{tables[10]}").json()["seats"][1] is None


def test_the_lobby_marks_bots_and_a_bot_account_deletes_itself_with_its_password(
    srv: ServerProcess,
) -> None:
    """The lobby's table list says which seats are bots (a house bot, a bot account); a bot
    account is deleted through the bot API with its password (a token alone deletes
    nothing): its tokens stop opening anything, its open socket closes, its name is free."""
    token = _bot_token(srv, "Leaver")
    t = srv.create_table(seats=3)

    async def go() -> None:
        host = await Client(srv, t["table_id"], t["token"]).connect()
        await host.send({"type": "add_bot", "level": "easy"})
        seat = httpx.post(f"{srv.url}/api/bot/tables/{t['table_id']}/join", headers=_auth(token))
        assert seat.status_code == 200, seat.text
        listed = next(
            x
            for x in httpx.get(f"{srv.url}/api/tables").json()["tables"]
            if x["id"] == t["table_id"]
        )
        assert len(listed["players"]) == 3 and listed["players"][0] == "Ann"
        assert listed["bots"] == [None, "level", "account"]

        url = f"{srv.ws_url}/ws/tables/{t['table_id']}"
        async with websockets.connect(url, additional_headers=_auth(token)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat.json()["token"]}))
            assert (await _next(ws, "snapshot"))["seat"] == 2
            # A wrong password deletes nothing, and says so.
            wrong = httpx.post(
                f"{srv.url}/api/bot/account/delete", json={"password": "not it at all"},
                headers=_auth(token),
            )  # fmt: skip
            assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_password"
            assert set(wrong.json()["texts"]) == {"en", "ko", "it"}
            assert httpx.get(f"{srv.url}/api/bot/account", headers=_auth(token)).status_code == 200
            # Without the token, the password alone opens nothing of the bot API either.
            bare = httpx.post(f"{srv.url}/api/bot/account/delete", json={"password": PASSWORD})
            assert bare.status_code == 401 and bare.json()["error"] == "bot_token_needed"
            gone = httpx.post(
                f"{srv.url}/api/bot/account/delete", json={"password": PASSWORD},
                headers=_auth(token),
            )  # fmt: skip
            assert gone.status_code == 204, gone.text
            assert (await _next(ws, "error"))["code"] == "bot_token_revoked"
            with pytest.raises(websockets.ConnectionClosed):
                await _next(ws, "never")
        out = httpx.get(f"{srv.url}/api/bot/account", headers=_auth(token))
        assert out.status_code == 401 and out.json()["error"] == "bad_bot_token"
        assert httpx.get(f"{srv.url}/api/players/Leaver").status_code == 404
        # The name is free again: a person may take it.
        _signed_up(srv, "Leaver").close()
        await host.close()

    asyncio.run(go())


def test_the_pool_socket_tells_a_bad_token_and_a_revoked_bot_leaves_its_pool_at_once(
    srv: ServerProcess,
) -> None:
    """``/ws/play`` with a token that opens nothing says ``bad_bot_token`` and closes (1008);
    revoking a waiting bot's token closes its pool socket as it closes its table sockets, and
    its place goes at once: a person who accepts bots is not matched with it."""
    token = _bot_token(srv, "Quitter")

    async def go() -> None:
        async with websockets.connect(
            srv.ws_url + "/ws/play", additional_headers=_auth("not a token")
        ) as ws:
            said = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert said["type"] == "error" and said["code"] == "bad_bot_token"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

        async with websockets.connect(
            srv.ws_url + "/ws/play", additional_headers=_auth(token)
        ) as ws:
            join = {"type": "play_join", "preset": "perudo_calza", "seats": 2, "wait": 600}
            await ws.send(json.dumps(join))
            assert (await _next(ws, "pool"))["waiting"]
            listed = httpx.get(f"{srv.url}/api/bot/tokens", headers=_auth(token)).json()
            gone = httpx.delete(
                f"{srv.url}/api/bot/tokens/{listed['tokens'][0]['id']}", headers=_auth(token)
            )
            assert gone.status_code == 204
            assert (await _next(ws, "error"))["code"] == "bot_token_revoked"
            with pytest.raises(websockets.ConnectionClosed):
                await _next(ws, "never")
            closed_at = time.monotonic()
        person = await Waiting(srv.ws_url).open()
        await person.send(type="play_join", preset="perudo_calza", seats=2, wait=600, bots="easy")
        # Its place is gone well within the reconnection's grace (POOL_GRACE, 15 s), which a
        # bot closed by a network fault keeps: the person waits alone, matched with nobody.
        deadline = closed_at + POOL_GRACE - 2
        while True:
            pools = [m for m in person.messages if m["type"] == "pool"]
            if pools and [(w["name"], w["bot"]) for w in pools[-1]["waiting"]] == [(None, False)]:
                break
            left = deadline - time.monotonic()
            assert left > 0, pools[-1:] or person.messages
            person._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(person._arrived.wait(), left)
        assert not [m for m in person.messages if m["type"] == "play_matched"]
        await person.close()

    asyncio.run(go())


def test_a_bot_accounts_seat_is_never_played_by_a_stand_in_a_bot_gone_concedes(
    srv: ServerProcess,
) -> None:
    """A person's seat left without a connection is played by a stand-in after the drop grace;
    a bot account's never is (its record is its program's, docs/bot-api.md): a bot that is
    gone past the grace concedes (P-24), so the person wins and the bot's record says a loss
    it took itself, not a stand-in's game."""
    token = _bot_token(srv, "Absent")
    t = srv.create_table(seats=2, dice=2)
    seat = httpx.post(f"{srv.url}/api/bot/tables/{t['table_id']}/join", headers=_auth(token))
    assert seat.status_code == 200, seat.text

    async def go() -> None:
        person = await Client(srv, t["table_id"], t["token"]).connect()
        await person.send({"type": "start"})
        # The bot never connects: once the grace is over it is out of the game, conceding.
        await person.until(lambda: bool(person.view and person.view["phase"] == "game_over"))
        assert person.view is not None and person.view["winner"] == person.seat
        await person.until(lambda: bool(person.table and person.table["status"] == "finished"))
        assert person.table is not None
        # Nobody acted for the bot's seat: its one move is its concession (P-24).
        events = [e for m in person.messages if m["type"] == "update" for e in m["events"]]
        assert not [e for e in events if e["type"] == "action" and e["seat"] == 1], events
        ends = [(e["kind"], e["caller"]) for e in events if e["type"] == "round_resolved"]
        assert ends[-1] == ("concede", 1), events
        await person.close()

    asyncio.run(go())
    profile = httpx.get(f"{srv.url}/api/players/Absent").json()
    assert profile["variants"]["perudo"]["played"] == 1
    assert profile["variants"]["perudo"]["won"] == 0


def test_the_example_client_hosts_a_table_its_bot_made_and_starts_it_when_full(
    srv: ServerProcess,
) -> None:
    """`examples/botclient.py --table=ID` at a table the bot account made (it sits there
    already: the join gives its seat back with a new token), run from the clone's root with a
    ``module:Class`` bot; it starts the game once a person has sat down and plays it to the
    end. A bad token stops it in words, exit status 1, with no traceback."""
    import subprocess
    import sys

    token = _bot_token(srv, "Hostbot")
    made = httpx.post(
        f"{srv.url}/api/bot/tables", json={"name": "hosted", "seats": 2, "dice": 1},
        headers=_auth(token),
    )  # fmt: skip
    assert made.status_code == 200, made.text
    table = made.json()["table_id"]
    client = [sys.executable, "examples/botclient.py", srv.url]
    bot = subprocess.Popen(
        [*client, token, "examples.mybot:MyBot", f"--table={table}"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:

        async def go() -> None:
            # The bot is connected (and still the host: the harness's drop grace is 1 s)
            # before Pat sits down.
            # A generous wait: under CI's load a fresh interpreter takes a while to start; a
            # client that died instead fails the test with what it printed.
            watch = await Client(srv, table).connect()
            await watch.until(
                lambda: bot.poll() is not None
                or bool(watch.table and watch.table["seats"][0]["connected"]),
                timeout=60.0,
            )
            assert bot.poll() is None, bot.communicate()
            await watch.close()
            joined = srv.join(table, "Pat")
            person = await Client(srv, table, joined["token"]).connect()
            await person.until(lambda: bool(person.table and person.table["status"] != "open"))
            await _person_plays(person, random.Random(8))
            await person.close()

        asyncio.run(go())
        out, err = bot.communicate(timeout=60)
    finally:
        bot.kill()
    assert bot.returncode == 0, err
    assert "game over: the bot" in out and "Traceback" not in err

    bad = subprocess.run(
        [*client, "not-a-token", "medium", f"--table={table}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 1 and "Traceback" not in bad.stderr, bad.stderr
    assert bad.stderr.startswith("stopped: ") and "token" in bad.stderr, bad.stderr


def test_a_bot_that_leaves_a_game_concedes_and_its_seat_limit_spares_its_own_seat(
    tmp_path: Path,
) -> None:
    """A bot account that leaves during a game concedes (P-24), whatever the table chose for
    people who leave (a stand-in, by default); and at its ``PERUDO_BOT_TABLES`` limit it may
    still ask for its own seat again (its program restarted), not for another table's."""
    srv = ServerProcess(tmp_path, PERUDO_BOT_TABLES="1", **CHEAP_ARGON2).start()
    try:
        token = _bot_token(srv, "Quitbot")
        t = srv.create_table(seats=2, dice=2)
        join = f"{srv.url}/api/bot/tables/{t['table_id']}/join"
        seat = httpx.post(join, headers=_auth(token))
        assert seat.status_code == 200, seat.text
        again = httpx.post(join, headers=_auth(token))  # at its limit: its own seat, back
        assert again.status_code == 200 and again.json()["seat"] == seat.json()["seat"]
        other = srv.create_table(seats=2, dice=2, player="Cy")
        more = httpx.post(
            f"{srv.url}/api/bot/tables/{other['table_id']}/join", headers=_auth(token)
        )
        assert more.status_code == 429 and more.json()["error"] == "bot_tables"

        async def go() -> None:
            person = await Client(srv, t["table_id"], t["token"]).connect()
            url = f"{srv.ws_url}/ws/tables/{t['table_id']}"
            async with websockets.connect(url, additional_headers=_auth(token)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": again.json()["token"]}))
                await _next(ws, "snapshot")
                await person.send({"type": "start"})
                await person.until(lambda: bool(person.view and person.view["phase"] == "bidding"))
                await ws.send(json.dumps({"type": "leave"}))
                await person.until(
                    lambda: bool(person.view and person.view["phase"] == "game_over")
                )
            events = [e for m in person.messages if m["type"] == "update" for e in m["events"]]
            assert not [e for e in events if e["type"] == "action" and e["seat"] == 1], events
            ends = [(e["kind"], e["caller"]) for e in events if e["type"] == "round_resolved"]
            assert ends[-1] == ("concede", 1), events
            await person.close()

        asyncio.run(go())
    finally:
        srv.stop()
