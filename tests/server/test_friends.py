"""Friends (perudo.server.social, docs/server.md#friends) through a real server: follow and
unfollow, the friends list with who is online and at which public table; an invitation by
name delivered live on the invited person's notice socket, accepted (seated under their
account) or declined (the inviter is told); and blocks (docs/security.md#blocks): a blocked
player cannot invite the blocker nor take a seat at a table where the blocker sits (refused
in words), and the blocker is sent none of their chat lines or reactions."""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from tests.server.harness import Client, ServerProcess, run

PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(
        tmp_path_factory.mktemp("friends"),
        PERUDO_ARGON2_MEMORY_KIB="8192",
        PERUDO_ARGON2_TIME_COST="1",
    ).start()
    yield server
    server.stop()


class Person:
    """A browser of a signed-up person: its cookie and CSRF token."""

    def __init__(self, srv: ServerProcess, prefix: str = "p") -> None:
        self.srv = srv
        self.name = prefix + secrets.token_hex(4)
        self.http = httpx.Client(base_url=srv.url, timeout=20)
        out = self.http.post("/api/account/signup", json={"name": self.name, "password": PASSWORD})
        assert out.status_code == 201, out.text
        self.csrf: str = out.json()["csrf"]
        self.cookie = f"perudo_session={out.cookies['perudo_session']}"
        self.http.headers["cookie"] = self.cookie

    def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return self.http.request(method, path, json=body, headers={"X-CSRF-Token": self.csrf})

    def table(self, seats: int = 3, name: str = "Friday") -> dict[str, Any]:
        out = self.call(
            "POST", "/api/tables", {"name": name, "player": "x", "seats": seats, "dice": 2}
        ).json()
        assert "table_id" in out, out
        return out

    def friends(self) -> dict[str, Any]:
        out: dict[str, Any] = self.http.get("/api/friends").json()
        return out

    async def notices(self) -> Notices:
        ws = await websockets.connect(
            f"{self.srv.ws_url}/ws/me", additional_headers={"cookie": self.cookie}
        )
        n = Notices(ws)
        assert (await n.next())["type"] == "hello"
        return n


class Notices:
    """A page's notice socket ``/ws/me``."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def next(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
        return m

    async def ping(self) -> None:
        """Everything sent to this socket before is in (its messages keep their order)."""
        await self.ws.send(json.dumps({"type": "ping"}))

    async def close(self) -> None:
        await self.ws.close()


def test_follow_see_online_at_a_public_table_invite_accept_and_decline(
    srv: ServerProcess,
) -> None:
    ann, cy, dee = Person(srv, "ann"), Person(srv, "cy"), Person(srv, "dee")

    async def go() -> None:
        assert cy.call("POST", f"/api/friends/{ann.name}/follow").status_code == 204
        assert cy.call("POST", f"/api/friends/{ann.name}/follow").status_code == 204  # once
        assert cy.friends()["following"] == [{"name": ann.name, "online": False, "tables": []}]
        # Following needs the session's CSRF token; nobody follows themself.
        assert cy.http.post(f"/api/friends/{dee.name}/follow").status_code == 403
        assert cy.call("POST", f"/api/friends/{cy.name}/follow").json()["error"] == "yourself"
        assert cy.call("POST", "/api/friends/nobody_here/follow").status_code == 404

        t = ann.table()
        # Ann's page at her table, opened with her cookie: she is online, at that table.
        table_ws = await websockets.connect(
            f"{srv.ws_url}/ws/tables/{t['table_id']}", additional_headers={"cookie": ann.cookie}
        )
        await table_ws.send(json.dumps({"type": "hello", "token": t["token"]}))
        assert json.loads(await table_ws.recv())["type"] == "snapshot"
        ann_notices = await ann.notices()
        (friend,) = cy.friends()["following"]
        assert friend["online"] is True
        assert friend["tables"] == [{"id": t["table_id"], "name": "Friday"}]

        # Ann invites Cy by name: Cy's open page gets it at once, and accepts: seated.
        cy_notices = await cy.notices()
        out = ann.call(
            "POST", "/api/invitations", {"name": cy.name.upper(), "table": t["table_id"]}
        )
        assert out.status_code == 201 and out.json()["delivered"] == 1, out.text
        got = await cy_notices.next()
        assert got["type"] == "invited"
        invitation = got["invitation"]
        assert invitation["from"] == ann.name and invitation["table"] == t["table_id"]
        assert [i["id"] for i in cy.friends()["invitations"]] == [invitation["id"]]
        accepted = cy.call("POST", f"/api/invitations/{invitation['id']}/accept").json()
        assert accepted["table"] == t["table_id"] and accepted["seat"] == 1 and accepted["token"]
        info = srv.http("GET", f"/api/tables/{t['table_id']}")
        assert info["seats"][1]["name"] == cy.name
        assert (await ann_notices.next()) == {
            "type": "accepted",
            "by": cy.name,
            "table": t["table_id"],
            "table_name": "Friday",
        }
        # Once only; and nobody else may accept it.
        again = cy.call("POST", f"/api/invitations/{invitation['id']}/accept")
        assert again.status_code == 404 and again.json()["error"] == "no_invitation"
        assert set(again.json()["texts"]) == {"en", "ko", "it"}

        # Dee declines: Ann is told. A person without a seat at the table cannot invite.
        out = ann.call("POST", "/api/invitations", {"name": dee.name, "table": t["table_id"]})
        inv = out.json()["id"]
        assert out.json()["delivered"] == 0  # Dee has no page open: it waits for her
        assert (
            dee.call("POST", f"/api/invitations/{inv}/accept".replace(inv, "x" * 16)).status_code
            == 404
        )
        assert dee.call("POST", f"/api/invitations/{inv}/decline").status_code == 204
        declined = await ann_notices.next()
        assert declined["type"] == "declined" and declined["by"] == dee.name
        refused = dee.call("POST", "/api/invitations", {"name": ann.name, "table": t["table_id"]})
        assert refused.status_code == 403 and refused.json()["error"] == "not_seated"

        assert cy.call("DELETE", f"/api/friends/{ann.name}/follow").status_code == 204
        assert cy.friends()["following"] == []
        for ws in (table_ws, ann_notices, cy_notices):
            await ws.close()

    run(go())


def test_a_blocked_player_cannot_invite_nor_sit_with_the_blocker_and_is_not_heard(
    srv: ServerProcess,
) -> None:
    ann, bo, cy = Person(srv, "ann"), Person(srv, "bo"), Person(srv, "cy")
    assert bo.call("POST", f"/api/friends/{ann.name}/follow").status_code == 204
    assert ann.call("POST", f"/api/friends/{bo.name}/block").status_code == 204
    assert ann.friends()["blocked"] == [bo.name]
    assert bo.friends()["following"] == []  # a block ends the follow

    # Bo cannot invite Ann, nor take a seat at her table: refused in words.
    bos = bo.table()
    out = bo.call("POST", "/api/invitations", {"name": ann.name, "table": bos["table_id"]})
    assert out.status_code == 403 and out.json()["error"] == "blocked"
    anns = ann.table()
    out = bo.call("POST", f"/api/tables/{anns['table_id']}/join", {"name": "Bo"})
    assert out.status_code == 403 and out.json()["error"] == "blocked"
    texts = out.json()["texts"]
    assert set(texts) == {"en", "ko", "it"} and "blocked" in texts["en"]
    assert (
        cy.call("POST", f"/api/tables/{anns['table_id']}/join", {"name": "Cy"}).status_code == 200
    )

    async def go() -> None:
        # At Bo's table (Ann may sit there): Bo's chat and reactions never reach Ann.
        tid = bos["table_id"]
        a = ann.call("POST", f"/api/tables/{tid}/join", {"name": "Ann"}).json()
        c = cy.call("POST", f"/api/tables/{tid}/join", {"name": "Cy"}).json()
        b_client = await Client(srv, tid, bos["token"]).connect()
        a_client = await Client(srv, tid, a["token"]).connect()
        c_client = await Client(srv, tid, c["token"]).connect()
        await b_client.send({"type": "chat", "text": "from Bo"})
        await b_client.send({"type": "react", "emote": "haha"})
        await c_client.send({"type": "chat", "text": "from Cy"})
        await c_client.send({"type": "react", "emote": "gg"})
        chat = await a_client.next(lambda m: m["type"] == "chat")
        assert chat["entry"]["text"] == "from Cy"
        reaction = await a_client.next(lambda m: m["type"] == "reaction")
        assert reaction["seat"] == c_client.seat
        texts = [m["entry"]["text"] for m in c_client.messages if m["type"] == "chat"]
        await c_client.until(
            lambda: len([m for m in c_client.messages if m["type"] == "reaction"]) == 2
        )
        assert "from Bo" in texts or (await c_client.next(lambda m: m["type"] == "chat"))
        # A snapshot (a page reloaded) carries Bo's line to Cy, not to Ann.
        again = await Client(srv, tid, a["token"]).connect()
        snap = next(m for m in again.messages if m["type"] == "snapshot")
        assert [e["text"] for e in snap["chat"]] == ["from Cy"]
        other = await Client(srv, tid, c["token"]).connect()
        snap = next(m for m in other.messages if m["type"] == "snapshot")
        assert [e["text"] for e in snap["chat"]] == ["from Bo", "from Cy"]
        assert not any(
            m["type"] == "chat" and m["entry"]["text"] == "from Bo" for m in a_client.messages
        )
        for x in (a_client, b_client, c_client, again, other):
            await x.close()

    run(go())
    # Unblocked, Bo may sit at Ann's table again.
    assert ann.call("DELETE", f"/api/friends/{bo.name}/block").status_code == 204
    assert ann.friends()["blocked"] == []
    out = bo.call("POST", f"/api/tables/{anns['table_id']}/join", {"name": "Bo"})
    assert out.status_code == 200, out.text


def test_a_deleted_account_leaves_no_follow_block_or_push_device_and_the_export_lists_them(
    srv: ServerProcess,
) -> None:
    ann, bo, cy = Person(srv, "ann"), Person(srv, "bo"), Person(srv, "cy")
    assert ann.call("POST", f"/api/friends/{bo.name}/follow").status_code == 204
    assert ann.call("POST", f"/api/friends/{cy.name}/block").status_code == 204
    assert bo.call("POST", f"/api/friends/{ann.name}/follow").status_code == 204
    device = {
        "device": "ann-laptop-1",
        "lang": "ko",
        "kinds": ["turn"],
        "subscription": {
            "endpoint": "https://fcm.googleapis.com/fcm/send/ann",
            "keys": {"p256dh": "BPk", "auth": "x"},
        },
    }
    assert ann.call("POST", "/api/push", device).status_code == 204
    mine = ann.http.get("/api/account/export").json()
    assert mine["following"] == [bo.name] and mine["blocked"] == [cy.name]
    assert mine["push_devices"] == [{"device": "ann-laptop-1", "kinds": ["turn"], "lang": "ko"}]
    raw = sqlite3.connect(srv.db)
    (player_id,) = raw.execute("SELECT id FROM players WHERE name = ?", (ann.name,)).fetchone()
    out = ann.call("POST", "/api/account/delete", {"password": PASSWORD})
    assert out.status_code == 204
    assert bo.friends()["following"] == []
    for table, column in (
        ("follows", "player_id"),
        ("follows", "followed_id"),
        ("blocks", "player_id"),
        ("push_subscriptions", "player_id"),
    ):
        query = f"SELECT count(*) FROM {table} WHERE {column} = ?"
        assert raw.execute(query, (player_id,)).fetchone() == (0,), table
