"""A rated game's rating update, applied by the store exactly once, in the transaction that
ends the game (perudo.server.store.Store.finish_game), on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from perudo.ratings import Rating, update


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}"


def test_a_rated_games_update_is_written_with_its_end_and_only_once(url: str) -> None:
    from perudo.server.store import SeatRow, Store

    async def go() -> None:
        store = Store(url)
        await store.open()
        try:
            ids = []
            for name in ("Ann", "Bob", "Cid"):
                made = await store.create_player(name, name.lower(), None)
                assert made is not None
                ids.append(made)
            seats = [SeatRow(i, "human", n, "h" * 64, None) for i, n in enumerate("ABC")]

            async def game(rated: bool, places: list[int]) -> int:
                tid = uuid.uuid4().hex[:12]
                await store.create_table(tid, "t", {"preset": "perudo"}, False, seats, 1)
                gid, _ = await store.start_game(
                    tid, {}, ["Ann", "Bob", "Cid"], [[6, 2, 1]], seats, 2,
                    players=dict(enumerate(ids)), rated=rated,
                )  # fmt: skip
                await store.finish_game(
                    tid, gid, places.index(1), 9, places=places, variant="perudo"
                )
                # Finishing it again (a retry after a lost answer) changes nothing.
                await store.finish_game(
                    tid, gid, places.index(1), 9, places=places, variant="perudo"
                )
                return gid

            unrated = await game(False, [1, 2, 3])
            assert await store.rating_changes(unrated) == []
            assert await store.ratings_of(ids[0]) == {}
            rated = await game(True, [2, 1, 3])
            changes = await store.rating_changes(rated)
            assert [(c["player"], c["place"]) for c in changes] == [
                ("Ann", 2), ("Bob", 1), ("Cid", 3),
            ]  # fmt: skip
            expected = update([Rating()] * 3, [2, 1, 3])
            assert [c["after"] for c in changes] == expected
            assert await store.ratings_of(ids[1]) == {("perudo", "table"): (expected[1], 1)}
            again = await game(True, [1, 3, 2])
            second = await store.rating_changes(again)
            assert [c["before"] for c in second] == expected
            assert (await store.ratings_of(ids[0]))[("perudo", "table")][1] == 2
        finally:
            await store.close()

    asyncio.run(go())
