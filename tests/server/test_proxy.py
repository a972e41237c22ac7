"""Behind a reverse proxy: forwarded headers believed only from PERUDO_TRUSTED_PROXIES, and
invite links absolute on PERUDO_PUBLIC_URL (or on the address the request came to).

The client-address checks run in process (Starlette's test client lets a test choose the peer's
address, which a real socket on loopback cannot); the invite links are checked on a real server
process, which also shows that uvicorn's own proxy-header handling (trusting 127.0.0.1 by
default) is off."""

from __future__ import annotations

import asyncio
import json
import urllib.request
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI, Request, WebSocket
from pydantic import ValidationError
from tests.server.harness import Client, ServerProcess

from perudo.server import create_app
from perudo.server.hosting import qr_svg
from perudo.server.proxy import client_host
from perudo.server.settings import Settings

with warnings.catch_warnings():
    # Starlette asks for "httpx2" in place of httpx; the test client works the same with either.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

FORWARDED = {"x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https"}


def _app(trusted: str) -> FastAPI:
    """The real app (create_app) with two probe routes that say who they think called."""
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:", trusted_proxies=trusted))

    @app.get("/probe")
    async def probe(request: Request) -> dict[str, str]:
        return {"client": client_host(request), "scheme": request.url.scheme}

    @app.websocket("/probe-ws")
    async def probe_ws(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_json({"client": client_host(ws), "scheme": ws.url.scheme})
        await ws.close()

    return app


def _ask(app: FastAPI, peer: str, headers: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    client = TestClient(app, client=(peer, 40000))
    http = client.get("/probe", headers=headers).json()
    with client.websocket_connect("/probe-ws", headers=headers) as ws:
        sock = ws.receive_json()
    return http, sock


def test_forwarded_headers_are_believed_from_a_trusted_proxy() -> None:
    http, sock = _ask(_app("10.0.0.1, 192.168.5.0/24"), "192.168.5.9", FORWARDED)
    assert http == {"client": "203.0.113.7", "scheme": "https"}
    assert sock == {"client": "203.0.113.7", "scheme": "wss"}


def test_forwarded_headers_from_anyone_else_are_ignored() -> None:
    http, sock = _ask(_app("10.0.0.1"), "10.0.0.2", FORWARDED)
    assert http == {"client": "10.0.0.2", "scheme": "http"}
    assert sock == {"client": "10.0.0.2", "scheme": "ws"}


def test_no_proxy_is_trusted_by_default_not_even_loopback() -> None:
    http, sock = _ask(_app(""), "127.0.0.1", FORWARDED)
    assert http == {"client": "127.0.0.1", "scheme": "http"}
    assert sock == {"client": "127.0.0.1", "scheme": "ws"}


def test_a_chain_of_proxies_gives_the_first_untrusted_address() -> None:
    """A spoofed address put in front by the client is not believed: the nearest address
    that is not a trusted proxy is the client."""
    headers = {"x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.1"}
    http, _ = _ask(_app("10.0.0.0/8"), "10.0.0.2", headers)
    assert http["client"] == "198.51.100.4"


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("trusted_proxies", "127.0.0.1, nginx", "'nginx' is not an IP address or network"),
        ("trusted_proxies", "10.0.0.0/33", "'10.0.0.0/33' is not an IP address or network"),
        ("public_url", "dice.example.org", "is not an http:// or https:// address"),
        ("public_url", "https://dice.example.org/perudo", "root of its host name"),
        ("public_url", "https://dice.example.org:99999", "Port out of range"),
    ],
)
def test_bad_hosting_settings_are_refused_by_name(field: str, value: str, words: str) -> None:
    with pytest.raises(ValidationError, match=words):
        Settings(**{field: value})


# -- a real server process -----------------------------------------------------------------


def _post(srv: ServerProcess, path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    req = urllib.request.Request(
        srv.url + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json", **headers},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _get(srv: ServerProcess, path: str, headers: dict[str, str]) -> Any:
    req = urllib.request.Request(srv.url + path, headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


TABLE = {"name": "friends", "player": "Ann", "seats": 3}


def test_invite_links_are_absolute_on_the_public_url(
    make_server: Callable[..., ServerProcess],
) -> None:
    srv = make_server(PERUDO_PUBLIC_URL="https://dice.example.org/").start()
    t = _post(srv, "/api/tables", TABLE, {})
    want = f"https://dice.example.org/t/{t['table_id']}"
    assert t["invite"] == f"/t/{t['table_id']}"
    assert t["invite_url"] == want
    assert _get(srv, f"/api/tables/{t['table_id']}", {})["invite_url"] == want
    assert [e["invite_url"] for e in _get(srv, "/api/tables", {})["tables"]] == [want]
    joined = _post(srv, f"/api/tables/{t['table_id']}/join", {"name": "Bea"}, {})
    assert joined["invite_url"] == want

    async def table_over_socket() -> dict[str, Any]:
        c = await Client(srv, t["table_id"], t["token"]).connect()
        await c.ws.close()
        assert c.table is not None
        return c.table

    assert asyncio.run(table_over_socket())["invite_url"] == want
    # The invite link as a QR code for phones, on the public URL too.
    with urllib.request.urlopen(f"{srv.url}/api/tables/{t['table_id']}/invite.svg") as r:
        assert r.headers["content-type"] == "image/svg+xml"
        assert r.read().decode() == qr_svg(want)
    assert srv.http("GET", "/api/tables/nope/invite.svg")["status"] == 404


def test_without_a_public_url_links_follow_the_address_the_request_came_to(
    make_server: Callable[..., ServerProcess],
) -> None:
    srv = make_server(PERUDO_TRUSTED_PROXIES="127.0.0.1").start()
    headers = {"host": "dice.example.org", "x-forwarded-proto": "https"}
    t = _post(srv, "/api/tables", TABLE, headers)
    assert t["invite_url"] == f"https://dice.example.org/t/{t['table_id']}"
    plain = _post(srv, "/api/tables", TABLE, {})
    assert plain["invite_url"] == f"{srv.url}/t/{plain['table_id']}"


def test_a_server_that_trusts_no_loopback_proxy_ignores_forwarded_proto(
    make_server: Callable[..., ServerProcess],
) -> None:
    """Uvicorn alone would believe X-Forwarded-Proto from 127.0.0.1; the app must not."""
    srv = make_server(PERUDO_TRUSTED_PROXIES="10.9.9.9").start()
    headers = {"host": "dice.example.org", "x-forwarded-proto": "https"}
    t = _post(srv, "/api/tables", TABLE, headers)
    assert t["invite_url"] == f"http://dice.example.org/t/{t['table_id']}"
