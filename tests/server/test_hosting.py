"""``perudo serve --public``: listening beyond loopback, the addresses friends can use, a QR code
of the lobby, and invite links on the machine's network address; bad hosting settings refused
in words, without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.server.harness import ServerProcess

from perudo.server.hosting import interface_addresses, lobby_urls, qr_text


def test_serve_public_listens_beyond_loopback_and_says_where_friends_can_join(
    tmp_path: Path,
) -> None:
    srv = ServerProcess(tmp_path, args=("--public",)).start()
    try:
        # Bound beyond 127.0.0.1: another address of the machine answers (127.0.0.2 stands in
        # for the network's; a server on 127.0.0.1 alone would refuse it).
        other = f"http://127.0.0.2:{srv.port}"
        with urllib.request.urlopen(other + "/healthz", timeout=5) as r:
            assert json.loads(r.read())["ok"] is True
        body = json.dumps({"name": "lan", "player": "Ann", "seats": 2}).encode()
        req = urllib.request.Request(
            other + "/api/tables", data=body, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            t = json.loads(r.read())
    finally:
        srv.stop()
    out = srv.log.read_text()
    assert f"Perudo is at http://127.0.0.1:{srv.port}" in out
    urls = lobby_urls("0.0.0.0", srv.port, interface_addresses())
    if urls:
        # Every address of the machine's interfaces that is up, and invite links on the first.
        assert "Friends on your network can open:" in out
        for u in urls:
            assert f"\n  {u}\n" in out
        assert t["invite_url"] == f"{urls[0]}/t/{t['table_id']}"
        assert f"Invite links start with {urls[0]}." in out
        assert qr_text(urls[0] + "/") in out
    else:
        assert "No network address found" in out
        assert t["invite_url"] == f"http://127.0.0.2:{srv.port}/t/{t['table_id']}"


def test_serve_public_with_a_public_url_prints_its_qr_code(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path, args=("--public", "--public-url", "https://dice.example.org"))
    srv.start().stop()
    out = srv.log.read_text()
    assert "Invite links start with https://dice.example.org." in out
    assert qr_text("https://dice.example.org/") in out


def test_serve_on_loopback_says_only_this_machine_can_reach_it(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path)
    srv.start().stop()
    out = srv.log.read_text()
    assert "Only this machine can reach it: `perudo serve --public` lets friends in." in out
    assert "Scan to open the lobby" not in out


def test_a_bad_hosting_setting_is_refused_in_words(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "perudo", "serve", "--public-url", "dice.example.org/perudo"],
        cwd=tmp_path,
        env={"PERUDO_TRUSTED_PROXIES": "127.0.0.1,proxy", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "PERUDO_PUBLIC_URL: Value error, 'dice.example.org/perudo' is not an http://" in (
        run.stderr
    )
    assert "PERUDO_TRUSTED_PROXIES: Value error, 'proxy' is not an IP address" in run.stderr
    assert not (tmp_path / "data").exists()


def test_the_access_log_names_the_routes_but_never_a_table_id(tmp_path: Path) -> None:
    """At ``info`` the access log has a line per request; a table's id is its invite, so a
    private table's join, invite page, QR code and details are logged as ``/…/{id}/…``."""
    srv = ServerProcess(tmp_path, PERUDO_LOG_LEVEL="info").start()

    def call(path: str, body: dict[str, object] | None = None) -> bytes:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            srv.url + path, data=data, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            out: bytes = r.read()
        return out

    try:
        made = json.loads(call("/api/tables", {"name": "ours", "player": "Ann", "private": True}))
        table_id = made["table_id"]
        call(f"/api/tables/{table_id}/join", {"name": "Bea"})
        call(f"/t/{table_id}")
        call(f"/api/tables/{table_id}")
        call(f"/api/tables/{table_id}/invite.svg")
    finally:
        srv.stop()
    log = srv.log.read_text()
    assert table_id not in log
    for line in (
        '"POST /api/tables HTTP/1.1" 200',
        '"POST /api/tables/{id}/join HTTP/1.1" 200',
        '"GET /t/{id} HTTP/1.1" 200',
        '"GET /api/tables/{id} HTTP/1.1" 200',
        '"GET /api/tables/{id}/invite.svg HTTP/1.1" 200',
    ):
        assert line in log, line
