"""The store's account rows on SQLite and on a real PostgreSQL, through the same code path:
a name taken once (two sign-ups of one name at once included), sessions made, read, replaced
and ended, failed sign-ins counted in a window, a deleted player's rows."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from perudo.server.store import Store


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}"


def test_account_rows_behave_the_same_on_both_databases(url: str) -> None:
    async def go() -> None:
        store, other = Store(url), Store(url)
        await store.open()
        await other.open()
        try:
            # Two processes signing up one name at once: exactly one gets it.
            made = await asyncio.gather(
                store.create_player("Ann", "ann", "h1"), other.create_player("ANN", "ann", "h2")
            )
            assert sorted(m is None for m in made) == [False, True]
            (ann,) = [m for m in made if m is not None]
            # Either may win the race: the name is the winner's as typed.
            name = "Ann" if made[0] is not None else "ANN"
            found = await store.player_by_key("ann")
            assert found is not None and found.id == ann
            await store.create_session("s1", "p1", ann, "c1", 3600, "Firefox")
            await other.create_session("s2", "p2", ann, "c2", 3600, "Phone", replacing="s1")
            assert await store.session("s1") is None  # replaced: no fixation
            got = await store.session("s2")
            assert got is not None and got.player.name == name and got.csrf == "c2"
            await store.create_session("s3", "p3", ann, "c3", 3600, "Laptop")
            await store.create_session("old", "p4", ann, "c4", -1, "Expired")
            assert {s.public_id for s in await other.sessions_of(ann)} == {"p2", "p3"}
            assert await store.end_sessions(ann, public_id="p3") == 1
            assert await store.end_sessions(ann, public_id="p3") == 0
            await store.set_password(ann, "h3", keeping="s2")
            assert (await store.player_by_key("ann")).password_hash == "h3"  # type: ignore[union-attr]
            # Failed sign-ins, counted by both processes, in one window.
            start = time.time() - 1
            for s in (store, other, store):
                await s.note_sign_in_failure(["name:ann", "addr:1.2.3.4"], start - 900)
            counts = await other.sign_in_failures(["name:ann", "addr:1.2.3.4", "x"], start - 900)
            assert counts == {"name:ann": 3, "addr:1.2.3.4": 3}
            # A window that began before window_from starts again at one.
            await store.note_sign_in_failure(["name:ann"], time.time() + 1)
            assert (await store.sign_in_failures(["name:ann"], start))["name:ann"] == 1
            await store.clear_sign_in_failures("name:ann")
            assert await store.sign_in_failures(["name:ann"], 0) == {}
            await other.delete_player(ann, "deleted player")
            assert await store.session("s2") is None
            assert await store.player_by_key("ann") is None
            assert await store.create_player("Ann", "ann", "h4") is not None
        finally:
            await other.close()
            await store.close()

    asyncio.run(go())


def test_passkey_rows_and_challenges_behave_the_same_on_both_databases(url: str) -> None:
    """Two processes over one database: a ceremony's attempt taken once (by either, at once),
    a passkey player made once per name, a credential stored once, a signature count moved
    by one use only, the last way to sign in never removed when two removals race."""

    async def go() -> None:
        store, other = Store(url), Store(url)
        await store.open()
        await other.open()
        try:
            await store.create_challenge("c1", "signin", "abc", 300)
            taken = await asyncio.gather(
                store.take_challenge("c1", "signin"), other.take_challenge("c1", "signin")
            )
            assert sorted(t is None for t in taken) == [False, True]
            await store.create_challenge("c2", "signin", "abc", -1)  # past its time
            assert await other.take_challenge("c2", "signin") is None
            await store.create_challenge("c3", "add", "abc", 300, player_id=7)
            assert await other.take_challenge("c3", "signin") is None  # another purpose
            assert await other.take_challenge("c3", "add") is None  # and it is gone

            made = await asyncio.gather(
                store.create_passkey_player("Ann", "ann", "k1", "pk", 0),
                other.create_passkey_player("ANN", "ann", "k2", "pk", 0),
            )
            (ann,) = [m for m in made if m is not None]
            key = "k1" if made[0] is not None else "k2"
            assert await other.create_passkey_player("Bob", "bob", key, "pk", 0) is None
            assert await store.player_by_key("bob") is None  # nothing of Bob written
            assert await store.add_passkey(ann, "k3", "pk", 5)
            assert not await other.add_passkey(ann, "k3", "pk", 5)
            used = await asyncio.gather(
                store.use_passkey("k3", 5, 6), other.use_passkey("k3", 5, 6)
            )
            assert sorted(used) == [False, True]
            assert (await other.passkey("k3")).sign_count == 6  # type: ignore[union-attr]
            removed = await asyncio.gather(
                store.remove_passkey(ann, key), other.remove_passkey(ann, "k3")
            )
            assert sorted(removed) == ["last", "removed"]
            assert len(await store.passkeys_of(ann)) == 1
            assert await store.remove_passkey(ann, "nope") == "none"
        finally:
            await other.close()
            await store.close()

    asyncio.run(go())
