"""The argon2 thread (perudo.server.accounts.passwords, docs/security.md#sign-in-floods): its
one-thread hashes are argon2's own, it runs at the lowest CPU priority, and past
``WAITING`` waiting computations a sign-in, a sign-up or a password change is refused at
once, in words, with nothing changed."""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from pathlib import Path

import pytest
from argon2 import Parameters, PasswordHasher, Type
from argon2.exceptions import VerificationError
from argon2.low_level import ARGON2_VERSION, hash_secret_raw
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.server.test_accounts import PASSWORD, _app_client, _csrf, _sign_up

from perudo.i18n import LANGS, load_catalog
from perudo.server.accounts import passwords


@settings(max_examples=12, deadline=None)
@given(
    password=st.text(max_size=40),
    salt=st.binary(min_size=8, max_size=24),
    lanes=st.integers(1, 4),
    passes=st.integers(1, 2),
)
def test_a_hash_computed_by_one_thread_is_argon2s_own_for_any_lanes(
    password: str, salt: bytes, lanes: int, passes: int
) -> None:
    p = Parameters(Type.ID, ARGON2_VERSION, len(salt), 32, passes, 8 * lanes * 4, lanes)
    secret = password.encode()
    mine = passwords._raw(p, salt, secret)
    assert mine == hash_secret_raw(secret, salt, passes, p.memory_cost, lanes, 32, Type.ID)


def test_the_stored_hash_reads_both_ways_with_argon2_cffis_hasher() -> None:
    h = PasswordHasher(time_cost=1, memory_cost=256, parallelism=4)
    mine = passwords._hash_now(h, "pässword one")
    assert h.verify(mine, "pässword one")
    with pytest.raises(VerificationError):
        h.verify(mine, "pässword two")
    theirs = h.hash("pässword one")
    assert passwords._verify_now(theirs, "pässword one")
    assert not passwords._verify_now(theirs, "pässword two")
    for broken in ("", "not a hash", theirs[:-4] + "!!!!", theirs.replace("m=256", "m=x")):
        assert not passwords._verify_now(broken, "pässword one")
    assert passwords._check(h, None, "pässword one") is False


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own nice value is Linux's")
def test_the_argon2_thread_and_any_thread_it_starts_run_at_the_lowest_priority() -> None:
    def priority() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def started_here() -> int:
        seen: list[int] = []
        t = threading.Thread(target=lambda: seen.append(priority()))
        t.start()
        t.join()
        return seen[0]

    assert passwords._submit(priority).result() == passwords.NICE == 19
    assert passwords._submit(started_here).result() == 19
    assert priority() == os.getpriority(os.PRIO_PROCESS, 0)  # the caller's own is untouched


def test_past_the_waiting_computations_sign_in_sign_up_and_a_change_are_refused_in_words(
    db: Path,
) -> None:
    with _app_client(db) as client:
        _sign_up(client, "Ann")
        csrf = _csrf(client)
        gate = threading.Event()
        held = [passwords._submit(gate.wait) for _ in range(passwords.WAITING + 1)]
        try:
            assert passwords.busy()
            answers = [
                client.post(
                    "/api/account/password",
                    json={"old": PASSWORD, "new": "another one"},
                    headers=csrf,
                ),
                client.post("/api/account/signin", json={"name": "Ann", "password": "wrong-one"}),
                client.post("/api/account/signup", json={"name": "Bo", "password": PASSWORD}),
            ]
        finally:
            gate.set()
            for f in held:
                f.result()
        words = {lang: load_catalog(lang).t("account.busy") for lang in LANGS}
        for out in answers:
            assert out.status_code == 429, out.text
            assert out.json() == {"error": "busy", "message": words["en"], "texts": words}
            assert out.headers["retry-after"] == "1"
        assert not passwords.busy()
        # Nothing changed: no failure counted, no player made, the old password still works.
        raw = sqlite3.connect(db)
        assert raw.execute("SELECT count(*) FROM sign_in_failures").fetchone() == (0,)
        assert raw.execute("SELECT name FROM players").fetchall() == [("Ann",)]
        client.cookies.clear()
        again = client.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert again.status_code == 200


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "perudo.db"
