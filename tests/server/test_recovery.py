"""Password reset by mail (perudo.server.accounts.recovery, docs/accounts.md#recovery), with a
real SMTP server (aiosmtpd, on loopback) receiving each mail: the link in it is followed as
the page follows it (the page at its path, then the token from its fragment posted).

Through the app's HTTP API (FastAPI's test client) on an SQLite file, cheap argon2id.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.smtp import Inbox, body, link, smtp_server

from perudo.server.accounts import recovery
from perudo.server.accounts.sessions import token_hash
from perudo.server.app import create_app
from perudo.server.settings import Settings

PASSWORD = "correct horse battery"
NEW = "staple gun lantern"
CHEAP: dict[str, int] = {"argon2_memory_kib": 8192, "argon2_time_cost": 1}


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as found:
        yield found


def _settings(db: Path, **more: Any) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{db}", **CHEAP, **more)


def _mail_settings(db: Path, port: int) -> Settings:
    return _settings(
        db,
        smtp_host="127.0.0.1",
        smtp_port=port,
        smtp_security="none",
        smtp_from="dice@example.org",
    )


def _body(message: Any) -> str:
    return body(message)


def _link(message: Any, purpose: str) -> tuple[str, str]:
    """The mailed link's path and its token."""
    url, token = link(message, purpose)
    assert url.startswith("http://testserver/account#")
    return "/account", token


def _drain(c: TestClient) -> None:
    """Wait until the mails asked for so far were looked up and sent."""
    portal = c.portal
    assert portal is not None
    portal.call(recovery.drain)


def _csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


def _browser(c: TestClient, jar: dict[str, str]) -> None:
    """Make ``c`` the browser whose cookies are ``jar`` (one app, several browsers: an app's
    lifespan runs once)."""
    c.cookies.clear()
    c.cookies.update(jar)


def _sign_up(c: TestClient, name: str) -> None:
    out = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert out.status_code == 201, out.text


def _confirm(c: TestClient, inbox: Inbox, address: str, lang: str = "en") -> None:
    """Add ``address`` to the signed-in account and follow the mailed link."""
    out = c.post("/api/account/email", json={"address": address, "lang": lang}, headers=_csrf(c))
    assert out.status_code == 202, out.text
    message = inbox.next()
    assert message["X-Envelope-To"] == address and message["From"] == "dice@example.org"
    path, token = _link(message, "confirm")
    assert c.get(path).status_code == 200  # the page the link opens
    done = c.post("/api/account/email/confirm", json={"token": token})
    assert done.status_code == 200 and done.json()["address"] == address


def test_an_address_confirmed_by_its_mailed_link_then_a_reset_by_mail_ends_every_session(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    db = tmp_path / "perudo.db"
    with TestClient(create_app(_mail_settings(db, port))) as c:
        assert c.get("/api/account/mail").json() == {"enabled": True, "address": None}
        c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        ann = dict(c.cookies)
        _browser(c, {})
        c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        laptop = dict(c.cookies)
        assert c.get("/api/account").status_code == 200

        # An address is not used before its link is followed: a reset asked for meanwhile
        # mails nobody.
        _browser(c, ann)
        out = c.post("/api/account/email", json={"address": "ann@example.org"}, headers=_csrf(c))
        assert out.status_code == 202 and "ann@example.org" in out.json()["texts"]["ko"]
        pending = inbox.next()
        assert c.get("/api/account/mail").json()["address"] is None
        _browser(c, {})
        c.post("/api/account/forgot", json={"who": "Ann"})
        _drain(c)
        assert inbox.empty()
        _, token = _link(pending, "confirm")
        done = c.post("/api/account/email/confirm", json={"token": token})
        assert done.json() == {"name": "Ann", "address": "ann@example.org"}
        _browser(c, ann)
        assert c.get("/api/account/mail").json()["address"] == "ann@example.org"
        # Used once.
        again = c.post("/api/account/email/confirm", json={"token": token})
        assert again.status_code == 400 and again.json()["error"] == "bad_token"

        # Forgot: asked by name (any case) in Korean, the mail is in Korean.
        _browser(c, {})
        out = c.post("/api/account/forgot", json={"who": "ANN", "lang": "ko"})
        assert out.status_code == 202
        message = inbox.next()
        assert message["X-Envelope-To"] == "ann@example.org"
        assert "비밀번호" in _body(message)
        path, token = _link(message, "reset")
        assert c.get(path).status_code == 200
        # The database keeps only the token's hash.
        raw = sqlite3.connect(db)
        assert raw.execute("SELECT id FROM mail_tokens").fetchall() == [(token_hash(token),)]
        assert token not in "\n".join(raw.iterdump())
        # A refused password changes nothing and keeps the link.
        short = c.post("/api/account/reset", json={"token": token, "password": "Ann"})
        assert short.json()["error"] == "password_refused" and short.json()["texts"]["it"]
        out = c.post("/api/account/reset", json={"token": token, "password": NEW})
        assert out.status_code == 200 and out.json() == {"name": "Ann"}
        # Every session ended, on each browser; the old password no longer works.
        assert raw.execute("SELECT count(*) FROM sessions").fetchone() == (0,)
        for jar in (ann, laptop):
            _browser(c, jar)
            assert c.get("/api/account").status_code == 401
        old = c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert old.status_code == 401
        # The link works once.
        twice = c.post("/api/account/reset", json={"token": token, "password": PASSWORD})
        assert twice.status_code == 400 and twice.json()["error"] == "bad_token"
        assert c.post("/api/account/signin", json={"name": "Ann", "password": NEW}).is_success

        # Asked by address, in Italian.
        c.post("/api/account/forgot", json={"who": "Ann@Example.org", "lang": "it"})
        message = inbox.next()
        assert "Ciao Ann" in _body(message)
        # That link no longer works once the password was changed another way; with the
        # address removed, a reset mails nobody.
        _, stale = _link(message, "reset")
        csrf = _csrf(c)
        changed = c.post("/api/account/password", json={"old": NEW, "new": PASSWORD}, headers=csrf)
        assert changed.status_code == 204
        gone = c.post("/api/account/reset", json={"token": stale, "password": NEW})
        assert gone.json()["error"] == "bad_token"
        assert c.delete("/api/account/email", headers=csrf).status_code == 204
        assert c.get("/api/account/mail").json()["address"] is None
        c.post("/api/account/forgot", json={"who": "Ann"})
        _drain(c)
        assert inbox.empty()


def test_forgot_answers_the_same_for_a_name_an_address_and_nobody(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    with TestClient(create_app(_mail_settings(tmp_path / "perudo.db", port))) as c:
        _sign_up(c, "Ann")
        _confirm(c, inbox, "ann@example.org")
        _browser(c, {})
        answers = [
            c.post("/api/account/forgot", json={"who": who})
            for who in ("Ann", "ann@example.org", "Nobody", "nobody@example.org")
        ]
        assert {(a.status_code, a.text) for a in answers} == {(202, answers[0].text)}
        assert set(answers[0].json()["texts"]) == {"en", "ko", "it"}
        _drain(c)
        sent = [inbox.next()["X-Envelope-To"] for _ in range(2)]
        assert sent == ["ann@example.org", "ann@example.org"] and inbox.empty()


def test_mails_are_limited_per_player_and_per_client(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    with TestClient(create_app(_mail_settings(tmp_path / "perudo.db", port))) as c:
        _sign_up(c, "Ann")
        _confirm(c, inbox, "ann@example.org")  # one mail asked from this client, one to Ann
        _browser(c, {})
        answers = [
            c.post("/api/account/forgot", json={"who": "Ann"}).status_code
            for _ in range(recovery.MAILS_PER_CLIENT)
        ]
        assert answers == [202] * (recovery.MAILS_PER_CLIENT - 1) + [429]
        limited = c.post("/api/account/forgot", json={"who": "Ann"})
        assert limited.json()["error"] == "too_many_mails"
        _drain(c)
        got = 0
        while not inbox.empty():
            inbox.next()
            got += 1
        assert got == recovery.MAILS_PER_PLAYER - 1


def test_without_smtp_there_is_no_reset_by_mail(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path / "perudo.db"))) as c:
        assert c.get("/api/account/mail").json() == {"enabled": False, "address": None}
        _sign_up(c, "Ann")
        for method, path, body in (
            ("POST", "/api/account/forgot", {"who": "Ann"}),
            ("POST", "/api/account/reset", {"token": "x", "password": NEW}),
            ("POST", "/api/account/email", {"address": "ann@example.org"}),
            ("POST", "/api/account/email/confirm", {"token": "x"}),
        ):
            out = c.request(method, path, json=body, headers=_csrf(c))
            assert out.status_code == 404 and out.json()["error"] == "no_mail", path
            assert set(out.json()["texts"]) == {"en", "ko", "it"}


def test_mail_settings_need_a_sender() -> None:
    with pytest.raises(ValueError, match="PERUDO_SMTP_FROM"):
        Settings(smtp_host="mail.example.org")
