"""Accounts (perudo.server.accounts, docs/accounts.md): sign up, sign in and out, sessions
listed and revoked, the password changed, the account deleted; and the attacks of
docs/security.md's account table: credential stuffing (limits per account and per address),
enumeration (one answer for a wrong password and an unknown name), CSRF (token and
``Origin``), session fixation, a deleted account's sessions, secrets in the logs.

Through the app's HTTP API (FastAPI's test client) on an SQLite file; the two-process check
opens two apps on one database file, as two processes would.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo.server.accounts import names, passwords, routes
from perudo.server.accounts.sessions import COOKIE, token_hash
from perudo.server.app import create_app
from perudo.server.settings import Settings

PASSWORD = "correct horse battery"
ANOTHER = "203.0.113.9"
"""Another browser's address (on another app over the same database: another process)."""
CHEAP: dict[str, int] = {"argon2_memory_kib": 8192, "argon2_time_cost": 1}
"""argon2id at its cheapest here (the same code; these tests run dozens of checks)."""


def _app_client(db: Path, peer: str = "203.0.113.5") -> TestClient:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", **CHEAP))
    return TestClient(app, client=(peer, 40000))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "perudo.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with _app_client(db) as c:
        yield c


def _sign_up(c: TestClient, name: str = "Ann", password: str = PASSWORD) -> str:
    out = c.post("/api/account/signup", json={"name": name, "password": password})
    assert out.status_code == 201, out.text
    csrf: str = out.json()["csrf"]
    return csrf


def _csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


def test_sign_up_gives_an_httponly_lax_cookie_backed_by_a_row_that_holds_no_secret(
    client: TestClient, db: Path
) -> None:
    out = client.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
    assert out.status_code == 201 and out.json()["name"] == "Ann"
    cookie = out.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Path=/" in cookie
    token = client.cookies[COOKIE]
    me = client.get("/api/account").json()
    assert me["name"] == "Ann" and [s["current"] for s in me["sessions"]] == [True]
    raw = sqlite3.connect(db)
    (stored,) = raw.execute("SELECT password_hash FROM players").fetchone()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    (sid,) = raw.execute("SELECT id FROM sessions").fetchone()
    assert sid == token_hash(token) and token not in sid
    dump = "\n".join(raw.iterdump())
    assert token not in dump and PASSWORD not in dump


def test_the_cookie_is_secure_over_https_and_on_loopback(db: Path) -> None:
    with TestClient(
        create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", **CHEAP)),
        base_url="https://dice.example.org",
    ) as c:
        out = c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        assert "Secure" in out.headers["set-cookie"]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Al", "length"),
        ("Ann Lee", "chars"),
        ("ann<b>", "chars"),
        ("p\u0430ypal", "mixed"),
        ("Bot", "reserved"),
        ("bot42", "reserved"),
        ("Spectator", "reserved"),
        ("관전자", "reserved"),
        ("Esperto", "reserved"),
        ("어려운", "reserved"),
        ("ann\u202ebob", "invisible"),
        ("a\u200db\u200dc", "invisible"),
    ],
)
def test_a_refused_name_says_why_in_three_languages_and_nothing_is_made(
    client: TestClient, db: Path, name: str, code: str
) -> None:
    out = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert out.status_code == 400
    body = out.json()
    assert body["error"] == "name_refused"
    assert set(body["texts"]) == {"en", "ko", "it"}
    assert (
        body["message"] == body["texts"]["en"] == names.load_catalog("en").t(f"account.name.{code}")
    )
    assert COOKIE not in client.cookies
    assert sqlite3.connect(db).execute("SELECT count(*) FROM players").fetchone() == (0,)


@pytest.mark.parametrize(
    ("twin", "error"),
    [
        ("coco", "name_taken"),
        ("COCO", "name_taken"),
        ("ｃｏｃｏ", "name_taken"),  # full width: NFKC
        ("C0C0", "name_taken"),  # zeros for o's
        ("СОСО", "name_taken"),  # all Cyrillic, shaped as Latin
        ("Сoco", "name_refused"),  # a Cyrillic С among Latin letters: mixed
    ],
)
def test_a_name_compared_after_nfkc_case_folding_and_lookalikes_is_taken(
    client: TestClient, twin: str, error: str, db: Path
) -> None:
    _sign_up(client, "Coco")
    with _app_client(db, ANOTHER) as other:
        out = other.post("/api/account/signup", json={"name": twin, "password": PASSWORD})
    assert out.json()["error"] == error
    assert out.status_code == (409 if error == "name_taken" else 400)


@given(
    st.text(alphabet=st.characters(categories=["L", "Nd"]), min_size=1, max_size=8),
    st.sampled_from(list("\u202e\u202d\u2066\u2067\u200b\u200c\u200d\u2060\ufeff")),
    st.integers(0, 8),
)
@settings(max_examples=200, deadline=None)
def test_a_name_holding_a_bidi_control_or_zero_width_character_is_refused(
    base: str, hidden: str, at: int
) -> None:
    at = min(at, len(base))
    assert names.refusal(base[:at] + hidden + base[at:]) == "invisible"


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer_after_the_same_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _sign_up(client, "Ann")
    client.cookies.clear()
    checked: list[str | None] = []
    real = passwords._check

    def counting(h: PasswordHasher, stored: str | None, password: str) -> bool:
        checked.append(stored)
        return real(h, stored, password)

    monkeypatch.setattr(passwords, "_check", counting)
    wrong = client.post("/api/account/signin", json={"name": "Ann", "password": "nope-nope"})
    unknown = client.post("/api/account/signin", json={"name": "Zed", "password": "nope-nope"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"] == "sign_in_failed"
    # Both ran argon2 (the unknown name against the dummy hash).
    assert len(checked) == 2 and checked[1] is None
    assert COOKIE not in client.cookies


def test_sign_in_attempts_are_limited_per_account_whoever_tries_and_the_same_for_no_account(
    db: Path,
) -> None:
    with _app_client(db, "198.51.100.1") as ann:
        _sign_up(ann, "Ann")
    for name in ("Ann", "Nobody"):
        for i in range(routes.PER_NAME):
            # Each from another address: the account's own limit is what stops them.
            with _app_client(db, f"192.0.2.{i + 1}") as c:
                out = c.post("/api/account/signin", json={"name": name, "password": f"guess{i}xx"})
                assert out.status_code == 401
        with _app_client(db, "198.51.100.77") as c:
            out = c.post("/api/account/signin", json={"name": name, "password": PASSWORD})
            # Refused even with the right password, and the same for a name nobody has.
            assert out.status_code == 429 and out.json()["error"] == "too_many_attempts"


def test_sign_in_attempts_are_limited_per_address_over_many_names(db: Path) -> None:
    with _app_client(db, "198.51.100.1") as ann:
        _sign_up(ann, "Ann")
    with _app_client(db, "192.0.2.200") as stuffer:
        for i in range(routes.PER_ADDRESS):
            out = stuffer.post(
                "/api/account/signin", json={"name": f"user{i}", "password": "hunter22"}
            )
            assert out.status_code == 401
        out = stuffer.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert out.status_code == 429
    with _app_client(db, "198.51.100.2") as elsewhere:
        out = elsewhere.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert out.status_code == 200


def test_changes_need_the_csrf_token_and_this_sites_origin(client: TestClient) -> None:
    csrf = _sign_up(client)
    assert client.post("/api/account/signout").status_code == 403
    forged = {"X-CSRF-Token": "x" * 43}
    assert client.post("/api/account/signout", headers=forged).status_code == 403
    evil = {"X-CSRF-Token": csrf, "Origin": "https://evil.example"}
    assert client.post("/api/account/signout", headers=evil).status_code == 403
    assert client.get("/api/account").status_code == 200  # still signed in
    ok = {"X-CSRF-Token": csrf, "Origin": "http://testserver"}
    assert client.post("/api/account/signout", headers=ok).status_code == 204
    assert client.get("/api/account").status_code == 401
    # A sign-in posted from another site's page is refused too (login CSRF).
    out = client.post(
        "/api/account/signin",
        json={"name": "Ann", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert out.status_code == 403


def test_signing_in_replaces_the_session_the_browser_came_with(
    client: TestClient, db: Path
) -> None:
    _sign_up(client, "Ann")
    planted = client.cookies[COOKIE]
    out = client.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
    assert out.status_code == 200
    fresh = client.cookies[COOKIE]
    assert fresh != planted
    ids = {r[0] for r in sqlite3.connect(db).execute("SELECT id FROM sessions")}
    assert ids == {token_hash(fresh)}
    with _app_client(db, ANOTHER) as attacker:
        attacker.cookies.set(COOKIE, planted)
        assert attacker.get("/api/account").status_code == 401


def test_sessions_are_listed_and_one_revoked_from_another(client: TestClient, db: Path) -> None:
    _sign_up(client, "Ann")
    with _app_client(db, ANOTHER) as phone:
        assert (
            phone.post(
                "/api/account/signin", json={"name": "Ann", "password": PASSWORD}
            ).status_code
            == 200
        )
        listed = client.get("/api/account").json()["sessions"]
        assert len(listed) == 2
        (other,) = [s for s in listed if not s["current"]]
        out = client.delete(f"/api/account/sessions/{other['id']}", headers=_csrf(client))
        assert out.status_code == 204
        assert phone.get("/api/account").status_code == 401
        assert client.get("/api/account").status_code == 200
        again = client.delete(f"/api/account/sessions/{other['id']}", headers=_csrf(client))
        assert again.status_code == 404


def test_a_password_change_ends_every_other_session(client: TestClient, db: Path) -> None:
    _sign_up(client, "Ann")
    with _app_client(db, ANOTHER) as stolen:
        stolen.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert stolen.get("/api/account").status_code == 200
        wrong = client.post(
            "/api/account/password",
            json={"old": "not-it-at-all", "new": "a new password"},
            headers=_csrf(client),
        )
        assert wrong.status_code == 403
        out = client.post(
            "/api/account/password",
            json={"old": PASSWORD, "new": "a new password"},
            headers=_csrf(client),
        )
        assert out.status_code == 204
        assert stolen.get("/api/account").status_code == 401
        assert client.get("/api/account").status_code == 200
        assert (
            stolen.post(
                "/api/account/signin", json={"name": "Ann", "password": PASSWORD}
            ).status_code
            == 401
        )
        assert (
            stolen.post(
                "/api/account/signin", json={"name": "Ann", "password": "a new password"}
            ).status_code
            == 200
        )


def test_a_deleted_accounts_sessions_end_and_its_name_is_free_again(
    client: TestClient, db: Path
) -> None:
    _sign_up(client, "Ann")
    with _app_client(db, ANOTHER) as laptop:
        laptop.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        kept = laptop.cookies[COOKIE]
        out = client.post("/api/account/delete", json={"password": PASSWORD}, headers=_csrf(client))
        assert out.status_code == 204
        assert client.get("/api/account").status_code == 401
        laptop.cookies.set(COOKIE, kept)
        assert laptop.get("/api/account").status_code == 401
        assert (
            laptop.post(
                "/api/account/signin", json={"name": "Ann", "password": PASSWORD}
            ).status_code
            == 401
        )
    rows = sqlite3.connect(db).execute("SELECT name, name_key, password_hash FROM players")
    assert rows.fetchall() == [("deleted player", None, None)]
    _sign_up(client, "Ann")  # the name is free again


def test_sessions_are_shared_by_two_processes_on_one_database(db: Path) -> None:
    with _app_client(db) as one, _app_client(db, "203.0.113.6") as two:
        _sign_up(one, "Ann")
        two.cookies.set(COOKIE, one.cookies[COOKIE])
        assert two.get("/api/account").json()["name"] == "Ann"
        out = two.post("/api/account/signout", headers=_csrf(two))
        assert out.status_code == 204
        assert one.get("/api/account").status_code == 401


def test_no_password_nor_token_is_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        _sign_up(client, "Ann", "s3cret-passphrase-1")
        token = client.cookies[COOKIE]
        client.post("/api/account/signin", json={"name": "Ann", "password": "s3cret-wrong-2"})
        client.post("/api/account/signin", json={"name": "Ann", "password": "s3cret-passphrase-1"})
        client.post(
            "/api/account/password",
            json={"old": "s3cret-passphrase-1", "new": "s3cret-passphrase-3"},
            headers=_csrf(client),
        )
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for secret in ("s3cret", token, client.cookies[COOKIE]):
        assert secret not in logged


def test_the_table_socket_refuses_another_sites_page_carrying_the_cookie(
    client: TestClient,
) -> None:
    from starlette.websockets import WebSocketDisconnect

    _sign_up(client, "Ann")
    made = client.post("/api/tables", json={"name": "t", "player": "Ann"}).json()
    path = f"/ws/tables/{made['table_id']}"
    evil = {"Origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(path, headers=evil) as ws:
        ws.receive_text()
    # This site's page (or no Origin: no browser) opens it.
    with client.websocket_connect(path, headers={"Origin": "http://testserver"}) as ws:
        ws.send_text('{"type": "hello"}')
        assert ws.receive_json()
