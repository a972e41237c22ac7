"""Passkeys (perudo.server.accounts.passkeys, docs/accounts.md): sign up with a name and a
passkey, sign in with it (a new session each time), a second passkey added, listed and
removed (never the last way to sign in), the account deleted on a passkey's word; and the
attacks of docs/security.md's passkey rows: a replayed ceremony, another origin or RP id, a
credential nobody has, a signature count that went back (a cloned authenticator), an
authenticator that did not verify its user, another site's page, CSRF, and the sign-in limits.

Through the app's HTTP API (FastAPI's test client: the site is ``http://testserver``, so its
RP id is ``testserver``) with a software authenticator (tests/server/authenticator.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.authenticator import Authenticator

from perudo.server.accounts import access
from perudo.server.accounts.sessions import COOKIE, token_hash
from perudo.server.app import create_app
from perudo.server.settings import Settings

ORIGIN = "http://testserver"
CHEAP: dict[str, int] = {"argon2_memory_kib": 8192, "argon2_time_cost": 1}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "perudo.db"


def _client(db: Path, peer: str = "203.0.113.5") -> TestClient:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", **CHEAP))
    return TestClient(app, client=(peer, 40000))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with _client(db) as c:
        yield c


def _sign_up(c: TestClient, key: Authenticator, name: str = "Ann") -> dict[str, Any]:
    opts = c.post("/api/account/passkey/signup/options", json={"name": name})
    assert opts.status_code == 200, opts.text
    body = opts.json()
    answer = key.create(body["options"], ORIGIN)
    out = c.post(
        "/api/account/passkey/signup", json={"ceremony": body["ceremony"], "credential": answer}
    )
    assert out.status_code == 201, out.text
    made: dict[str, Any] = out.json()
    return made


def _sign_in_answer(c: TestClient, key: Authenticator, **kw: Any) -> dict[str, Any]:
    body = c.post("/api/account/passkey/signin/options").json()
    origin = kw.pop("origin", ORIGIN)
    return {"ceremony": body["ceremony"], "credential": key.get(body["options"], origin, **kw)}


def _csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


def test_sign_up_with_a_passkey_then_sign_in_with_it_on_a_new_session(
    client: TestClient, db: Path
) -> None:
    key = Authenticator()
    opts = client.post("/api/account/passkey/signup/options", json={"name": "Ann"}).json()
    o = opts["options"]
    assert o["rp"]["id"] == "testserver" and o["user"]["name"] == "Ann"
    assert o["authenticatorSelection"]["residentKey"] == "required"
    assert o["authenticatorSelection"]["userVerification"] == "required"
    answer = key.create(o, ORIGIN)
    out = client.post(
        "/api/account/passkey/signup", json={"ceremony": opts["ceremony"], "credential": answer}
    )
    assert out.status_code == 201 and out.json()["name"] == "Ann"
    me = client.get("/api/account").json()
    assert me["password"] is False and [k["id"] for k in me["passkeys"]] == [answer["id"]]
    first = client.cookies[COOKIE]
    raw = sqlite3.connect(db)
    assert raw.execute("select password_hash from players").fetchone() == (None,)
    assert raw.execute("select count(*) from webauthn_challenges").fetchone() == (0,)

    # Signing in: the options name no account (the same for everyone).
    signin = client.post("/api/account/passkey/signin/options").json()
    assert signin["options"]["allowCredentials"] == []
    assert signin["options"]["rpId"] == "testserver"
    done = client.post(
        "/api/account/passkey/signin",
        json={"ceremony": signin["ceremony"], "credential": key.get(signin["options"], ORIGIN)},
    )
    assert done.status_code == 200 and done.json()["name"] == "Ann"
    # A new session; the one the browser came with is ended (no fixation).
    assert client.cookies[COOKIE] != first
    ids = [r[0] for r in raw.execute("select id from sessions")]
    assert ids == [token_hash(client.cookies[COOKIE])]
    # The name is taken now, whichever way it was signed up.
    taken = client.post("/api/account/passkey/signup/options", json={"name": "ANN"})
    assert taken.status_code == 409 and taken.json()["error"] == "name_taken"
    words = client.post("/api/account/passkey/signup/options", json={"name": "Bot7"}).json()
    assert words["error"] == "name_refused" and set(words["texts"]) == {"en", "ko", "it"}


def test_a_replayed_ceremony_is_refused(client: TestClient) -> None:
    key = Authenticator()
    opts = client.post("/api/account/passkey/signup/options", json={"name": "Ann"}).json()
    answer = {"ceremony": opts["ceremony"], "credential": key.create(opts["options"], ORIGIN)}
    assert client.post("/api/account/passkey/signup", json=answer).status_code == 201
    again = client.post("/api/account/passkey/signup", json=answer)
    assert again.status_code == 400 and again.json()["error"] == "passkey_expired"
    signin = _sign_in_answer(client, key)
    assert client.post("/api/account/passkey/signin", json=signin).status_code == 200
    # The same answer again (its challenge was taken), even with a higher count signed.
    replayed = client.post("/api/account/passkey/signin", json=signin)
    assert replayed.status_code == 401 and replayed.json()["error"] == "sign_in_failed"
    # A ceremony made for one purpose never finishes another.
    add = client.post("/api/account/passkeys/options", headers=_csrf(client)).json()
    wrong = {"ceremony": add["ceremony"], "credential": key.get(add["options"], ORIGIN)}
    assert client.post("/api/account/passkey/signin", json=wrong).status_code == 401


def test_another_origin_or_rp_id_an_unknown_credential_a_cloned_key_get_one_answer(
    client: TestClient,
) -> None:
    key = Authenticator()
    _sign_up(client, key)
    answers = []
    # Another site's page (phishing): the browser signs that site's origin.
    answers.append(_sign_in_answer(client, key, origin="https://perudo.example.net"))
    # Another RP id: a credential made for another site.
    other = Authenticator()
    opts = client.post("/api/account/passkey/signin/options").json()
    other.create({"rp": {"id": "example.net"}, "challenge": "x"}, ORIGIN, rp_id="example.net")
    # (registered nowhere: unknown here as well as for another RP id)
    answers.append({"ceremony": opts["ceremony"], "credential": other.get(opts["options"], ORIGIN)})
    # A signature count that went back: a copy of the key used after the original.
    assert (
        client.post("/api/account/passkey/signin", json=_sign_in_answer(client, key)).status_code
        == 200
    )
    answers.append(_sign_in_answer(client, key, count=1))
    # An authenticator that did not verify its user.
    key.verified = False
    answers.append(_sign_in_answer(client, key))
    key.verified = True
    refusals = [client.post("/api/account/passkey/signin", json=a) for a in answers]
    assert [r.status_code for r in refusals] == [401] * 4
    assert len({r.text for r in refusals}) == 1
    assert refusals[0].json()["error"] == "sign_in_failed"
    # The key itself still signs in (its count kept where it was).
    assert (
        client.post("/api/account/passkey/signin", json=_sign_in_answer(client, key)).status_code
        == 200
    )


def test_a_registration_for_another_origin_or_without_user_verification_is_refused(
    client: TestClient,
) -> None:
    for origin, verified in (("https://perudo.example.net", True), (ORIGIN, False)):
        key = Authenticator(verified=verified)
        opts = client.post("/api/account/passkey/signup/options", json={"name": "Ann"}).json()
        answer = {"ceremony": opts["ceremony"], "credential": key.create(opts["options"], origin)}
        out = client.post("/api/account/passkey/signup", json=answer)
        assert out.status_code == 400 and out.json()["error"] == "passkey_failed"
    assert client.get("/api/account").status_code == 401


def test_a_second_passkey_is_added_listed_and_removed_but_never_the_last_way_in(
    client: TestClient,
) -> None:
    phone, laptop = Authenticator(), Authenticator()
    _sign_up(client, phone)
    # Without the CSRF token (another site's page could send the cookie): refused.
    assert client.post("/api/account/passkeys/options").status_code == 403
    opts = client.post("/api/account/passkeys/options", headers=_csrf(client)).json()
    excluded = [c["id"] for c in opts["options"]["excludeCredentials"]]
    assert excluded == [client.get("/api/account").json()["passkeys"][0]["id"]]
    answer = {"ceremony": opts["ceremony"], "credential": laptop.create(opts["options"], ORIGIN)}
    assert client.post("/api/account/passkeys", json=answer).status_code == 403
    added = client.post("/api/account/passkeys", json=answer, headers=_csrf(client))
    assert added.status_code == 201
    ids = [k["id"] for k in client.get("/api/account").json()["passkeys"]]
    assert len(ids) == 2 and ids[1] == added.json()["id"]
    # Either signs in.
    for key in (phone, laptop):
        assert (
            client.post(
                "/api/account/passkey/signin", json=_sign_in_answer(client, key)
            ).status_code
            == 200
        )
    assert client.delete(f"/api/account/passkeys/{ids[0]}").status_code == 403
    assert (
        client.delete(f"/api/account/passkeys/{ids[0]}", headers=_csrf(client)).status_code == 204
    )
    last = client.delete(f"/api/account/passkeys/{ids[1]}", headers=_csrf(client))
    assert last.status_code == 409 and last.json()["error"] == "last_sign_in"
    gone = client.delete(f"/api/account/passkeys/{ids[0]}", headers=_csrf(client))
    assert gone.status_code == 404
    refused = client.post("/api/account/passkey/signin", json=_sign_in_answer(client, phone))
    assert refused.status_code == 401
    assert (
        client.post("/api/account/passkey/signin", json=_sign_in_answer(client, laptop)).status_code
        == 200
    )


def test_a_password_account_adds_a_passkey_and_may_then_remove_it(client: TestClient) -> None:
    out = client.post("/api/account/signup", json={"name": "Bea", "password": "long enough pw"})
    assert out.status_code == 201
    key = Authenticator()
    opts = client.post("/api/account/passkeys/options", headers=_csrf(client)).json()
    answer = {"ceremony": opts["ceremony"], "credential": key.create(opts["options"], ORIGIN)}
    added = client.post("/api/account/passkeys", json=answer, headers=_csrf(client)).json()
    assert (
        client.post("/api/account/passkey/signin", json=_sign_in_answer(client, key)).json()["name"]
        == "Bea"
    )
    removed = client.delete(f"/api/account/passkeys/{added['id']}", headers=_csrf(client))
    assert removed.status_code == 204  # the password remains


def test_the_account_is_deleted_on_a_passkeys_word_and_not_on_a_replay(client: TestClient) -> None:
    key = Authenticator()
    _sign_up(client, key)
    bad = client.post(
        "/api/account/delete", json={"password": "whatever it is"}, headers=_csrf(client)
    )
    assert bad.status_code == 403
    opts = client.post("/api/account/passkey/confirm/options", headers=_csrf(client)).json()
    assert [c["id"] for c in opts["options"]["allowCredentials"]] == [
        client.get("/api/account").json()["passkeys"][0]["id"]
    ]
    # A sign-in's assertion is no confirmation.
    signin = _sign_in_answer(client, key)
    wrong = client.post("/api/account/delete", json={"passkey": signin}, headers=_csrf(client))
    assert wrong.status_code == 403 and wrong.json()["error"] == "passkey_failed"
    answer = {"ceremony": opts["ceremony"], "credential": key.get(opts["options"], ORIGIN)}
    done = client.post("/api/account/delete", json={"passkey": answer}, headers=_csrf(client))
    assert done.status_code == 204
    assert client.get("/api/players/Ann").status_code == 404
    assert (
        client.post("/api/account/passkey/signin", json=_sign_in_answer(client, key)).status_code
        == 401
    )


def test_passkey_sign_ins_are_limited_per_address_and_per_account(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(access, "PER_ADDRESS", 4)
    monkeypatch.setattr(access, "PER_NAME", 3)
    key = Authenticator()
    with _client(db, "198.51.100.1") as a:
        _sign_up(a, key)
        stranger = Authenticator()
        stranger.create({"rp": {"id": "testserver"}, "challenge": "x"}, ORIGIN)
        tries = [_sign_in_answer(a, stranger) for _ in range(5)]
        codes = [a.post("/api/account/passkey/signin", json=t).status_code for t in tries]
        assert codes == [401, 401, 401, 401, 429]
        assert a.post("/api/account/passkey/signin/options").status_code == 429
    # Ann's own credential with bad signatures (wrong origin) from three other addresses.
    for n in range(3):
        with _client(db, f"198.51.100.{10 + n}") as c:
            bad = _sign_in_answer(c, key, origin="https://evil.example")
            assert c.post("/api/account/passkey/signin", json=bad).status_code == 401
    with _client(db, "198.51.100.20") as c:
        right = c.post("/api/account/passkey/signin", json=_sign_in_answer(c, key))
        assert right.status_code == 429 and right.json()["error"] == "too_many_attempts"


def test_another_sites_page_cannot_start_or_finish_a_ceremony(client: TestClient) -> None:
    evil = {"Origin": "https://evil.example"}
    for path, body in (
        ("/api/account/passkey/signup/options", {"name": "Ann"}),
        ("/api/account/passkey/signin/options", None),
        ("/api/account/passkey/signin", {"ceremony": "x", "credential": {}}),
        ("/api/account/passkey/signup", {"ceremony": "x", "credential": {}}),
    ):
        out = client.post(path, json=body, headers=evil)
        assert out.status_code == 403, path
    garbage = client.post(
        "/api/account/passkey/signin", json={"ceremony": "x", "credential": {"id": 5}}
    )
    assert garbage.status_code == 401


def _confirmation(c: TestClient, key: Authenticator, action: str | None) -> dict[str, Any]:
    body = {} if action is None else {"action": action}
    opts = c.post("/api/account/passkey/confirm/options", json=body, headers=_csrf(c)).json()
    return {"ceremony": opts["ceremony"], "credential": key.get(opts["options"], ORIGIN)}


def test_a_passkey_only_account_sets_a_first_password_on_a_passkeys_word_only(
    client: TestClient, db: Path
) -> None:
    key = Authenticator()
    _sign_up(client, key)
    with _client(db) as other:  # a second session of Ann's, which the new password ends
        assert (
            other.post("/api/account/passkey/signin", json=_sign_in_answer(other, key)).status_code
            == 200
        )
        path, new = "/api/account/password/set", "a long enough secret"

        def set_(body: dict[str, Any], **headers: str) -> Any:
            return client.post(path, json={"new": new, **body}, headers=headers)

        csrf = _csrf(client)
        # No confirmation at all, or an attempt nobody made.
        assert set_({}, **csrf).status_code == 400
        fake = {"ceremony": "made-up", "credential": {"id": "x"}}
        assert set_({"passkey": fake}, **csrf).json()["error"] == "passkey_failed"
        # A sign-in's assertion, or a confirmation made for the deletion, confirms no password.
        assert set_({"passkey": _sign_in_answer(client, key)}, **csrf).status_code == 403
        deleting = _confirmation(client, key, None)
        refused_ = set_({"passkey": deleting}, **csrf)
        assert refused_.status_code == 403 and refused_.json()["error"] == "passkey_failed"
        # ... and a password's confirmation deletes nothing.
        wrong = client.post(
            "/api/account/delete",
            json={"passkey": _confirmation(client, key, "password")},
            headers=csrf,
        )
        assert wrong.status_code == 403
        # Without the CSRF token, or from another site's page: refused before any ceremony.
        confirming = _confirmation(client, key, "password")
        assert set_({"passkey": confirming}).json()["error"] == "forbidden"
        evil = {**csrf, "Origin": "https://evil.example"}
        assert set_({"passkey": confirming}, **evil).json()["error"] == "forbidden"
        # A password refused as too short says so before the confirmation is spent.
        short = client.post(path, json={"new": "short", "passkey": confirming}, headers=csrf)
        assert short.status_code == 400 and short.json()["error"] == "password_refused"
        assert client.get("/api/account").json()["password"] is False
        assert set_({"passkey": confirming}, **csrf).status_code == 204
        me = client.get("/api/account").json()
        assert me["password"] is True and len(me["sessions"]) == 1
        assert other.get("/api/account").status_code == 401
    with _client(db) as fresh:
        signin = fresh.post("/api/account/signin", json={"name": "Ann", "password": new})
        assert signin.status_code == 200, signin.text
    # A second "first" password is refused, even confirmed: the change route is for that.
    again = set_({"passkey": _confirmation(client, key, "password")}, **_csrf(client))
    assert again.status_code == 409 and again.json()["error"] == "has_password"
    changed = client.post(
        "/api/account/password",
        json={"old": new, "new": "another long secret"},
        headers=_csrf(client),
    )
    assert changed.status_code == 204
