"""The reverse-proxy example of docs/hosting.md, run: Debian's nginx with
``deploy/nginx/perudo.conf`` and a self-signed certificate, in front of a real server that
trusts it (``PERUDO_TRUSTED_PROXIES=127.0.0.1``).

The client connects from 127.0.0.3 and nginx from 127.0.0.1, so the server's access log shows
whose address it took: the forwarded one (the client's), never one the client made up.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from tests.server.harness import ServerProcess
from tests.server.nginx import HOSTNAME, Nginx, require_nginx

CLIENT = "127.0.0.3"


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Nginx]]:
    require_nginx()
    work = tmp_path_factory.mktemp("nginx")
    srv = ServerProcess(work, PERUDO_TRUSTED_PROXIES="127.0.0.1", PERUDO_LOG_LEVEL="debug").start()
    proxy = Nginx(work, srv.port)
    try:
        proxy.start()
        yield srv, proxy
    finally:
        proxy.stop()
        srv.stop()


def _request(
    proxy: Nginx,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    tls: bool = True,
) -> tuple[int, dict[str, str], bytes]:
    if tls:
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1",
            proxy.https_port,
            source_address=(CLIENT, 0),
            context=proxy.tls(),
            timeout=10,
        )
    else:
        conn = http.client.HTTPConnection(
            "127.0.0.1", proxy.http_port, source_address=(CLIENT, 0), timeout=10
        )
    data = None if body is None else json.dumps(body).encode()
    all_headers = {"content-type": "application/json", **(headers or {})}
    try:
        conn.request(method, path, body=data, headers=all_headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_plain_http_is_sent_to_https(proxied: tuple[ServerProcess, Nginx]) -> None:
    _, proxy = proxied
    status, headers, _ = _request(proxy, "GET", "/t/abc", headers={"host": HOSTNAME}, tls=False)
    assert status == 301
    assert headers["location"] == f"https://{HOSTNAME}/t/abc"


def test_the_page_and_the_api_answer_over_https_with_https_links(
    proxied: tuple[ServerProcess, Nginx], tmp_path: Path
) -> None:
    srv, proxy = proxied
    status, headers, page = _request(proxy, "GET", "/")
    assert status == 200 and b"<html" in page.lower()
    assert headers["strict-transport-security"] == "max-age=31536000"
    host = f"{HOSTNAME}:{proxy.https_port}"
    status, _, body = _request(
        proxy,
        "POST",
        "/api/tables",
        {"name": "through nginx", "player": "Ann", "seats": 2},
        headers={"host": host, "x-forwarded-for": "6.6.6.6"},
    )
    assert status == 200, body
    t = json.loads(body)
    # X-Forwarded-Proto from the trusted proxy: the app knows the client came over HTTPS.
    assert t["invite_url"] == f"https://{host}/t/{t['table_id']}"
    log = srv.log.read_text()
    # X-Forwarded-For from the trusted proxy: the client's own address, not nginx's 127.0.0.1,
    # and not the 6.6.6.6 the client claimed (nginx replaces the header with $remote_addr).
    assert re.search(rf'{re.escape(CLIENT)}:\d+ - "POST /api/tables HTTP/1.1" 200', log), log
    assert "6.6.6.6" not in log


def test_a_table_socket_upgrades_through_nginx_and_plays(
    proxied: tuple[ServerProcess, Nginx],
) -> None:
    srv, proxy = proxied
    _, _, body = _request(
        proxy, "POST", "/api/tables", {"name": "wss", "player": "Ann", "seats": 2, "dice": 1}
    )
    t = json.loads(body)

    async def play() -> dict[str, Any]:
        url = f"wss://127.0.0.1:{proxy.https_port}/ws/tables/{t['table_id']}"
        async with websockets.connect(url, ssl=proxy.tls(), local_addr=(CLIENT, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": t["token"]}))
            snap = json.loads(await ws.recv())
            assert snap["type"] == "snapshot" and snap["seat"] == 0
            await ws.send(json.dumps({"type": "add_bot", "level": "easy"}))
            await ws.send(json.dumps({"type": "start"}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 15))
                if m["type"] == "update" and m["view"] is not None and m["view"]["hand"]:
                    return dict(m["view"])

    view = asyncio.run(play())
    assert view["seat"] == 0 and len(view["hand"]) == 1
    log = srv.log.read_text()
    # (debug: below it the per-socket lines are not written, docs/server.md; at every level
    # the table's id, its invite, is written {id} in uvicorn's lines: TableIdFilter)
    socket_line = '"WebSocket /ws/tables/{id}" [accepted]'
    assert re.search(rf"{re.escape(CLIENT)}:\d+ - {re.escape(socket_line)}", log), log
