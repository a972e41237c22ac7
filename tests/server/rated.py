"""Signed-in people at rated tables of a real server, through its HTTP API and its socket
protocol (shared by the rated-table, leaderboard and multi-process tests)."""

from __future__ import annotations

import random
import secrets
from typing import Any, Protocol

import httpx
from tests.server.harness import Client, ServerProcess, play_until_over

PASSWORD = "correct horse battery staple"


class HasUrl(Protocol):
    @property
    def url(self) -> str: ...


class Person:
    """A browser of a signed-up person: its cookie and CSRF token. ``at`` moves the browser
    to another address of the same site (another process of a cluster), cookie and all."""

    def __init__(self, srv: HasUrl, name: str | None = None) -> None:
        self.name = name or "p" + secrets.token_hex(4)
        self.http = httpx.Client(base_url=srv.url, timeout=20)
        out = self.http.post("/api/account/signup", json={"name": self.name, "password": PASSWORD})
        assert out.status_code == 201, out.text
        self.csrf: str = out.json()["csrf"]
        # The cookie is Secure (on loopback too); the cookie jar keeps it for https only.
        self.http.headers["cookie"] = f"perudo_session={out.cookies['perudo_session']}"

    def at(self, srv: HasUrl) -> Person:
        self.http.base_url = httpx.URL(srv.url)
        return self

    def post(self, path: str, body: dict[str, Any], csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf else {}
        return self.http.post(path, json=body, headers=headers)


def rated_table(srv: ServerProcess, people: list[Person], **table: Any) -> list[Client]:
    """A rated table made by ``people[0]`` and joined by the others (each through the address
    its browser is at), as socket clients of ``srv``, in seat order."""
    host, *others = people
    body = {"name": "rated", "player": "ignored", "seats": len(people), "dice": 2, "rated": True}
    made = host.post("/api/tables", {**body, **table}).json()
    assert "table" in made, made
    assert made["table"]["rated"] is True
    # Seated under the account's name, whatever name the form carried.
    assert made["table"]["seats"][0]["name"] == host.name
    tokens = [made["token"]]
    for p in others:
        joined = p.post(f"/api/tables/{made['table_id']}/join", {"name": "x"}).json()
        tokens.append(joined["token"])
    return [Client(srv, made["table_id"], t) for t in tokens]


async def play(clients: list[Client], seed: int) -> None:
    """Connect, start, play to the end, and wait for every client's rating changes."""
    for c in clients:
        await c.connect()
    await clients[0].send({"type": "start"})
    for c in clients:
        await c.until(lambda c=c: c.view is not None and c.view["phase"] != "waiting")  # type: ignore[misc]
    await play_until_over(clients, random.Random(seed))
    for c in clients:
        await c.until(lambda c=c: c.table is not None and c.table["rating_changes"] is not None)  # type: ignore[misc]
