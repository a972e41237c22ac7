"""Profiles and leaderboards as JSON (perudo.server.accounts.players): a player's games per
variant, played and won, ratings per pool with their history and provisional flag, recent
games linking to their replays, paging and the variant filter; the leaderboard's
established players; private tables' games left out; a deleted player has no profile.

The games are written by the store (as a table's end writes them) on the database the app
serves, from a second store over the same SQLite file, as another process would."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from perudo.ratings import Rating, display, update
from perudo.server.accounts.players import PAGE
from perudo.server.app import create_app
from perudo.server.settings import Settings
from perudo.server.store import SeatRow, Store

CHEAP = {"argon2_memory_kib": 8192, "argon2_time_cost": 1}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "perudo.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", **CHEAP))
    with TestClient(app) as c:
        yield c


def _sign_up(c: TestClient, name: str) -> None:
    out = c.post("/api/account/signup", json={"name": name, "password": "long enough pw"})
    assert out.status_code == 201, out.text
    c.cookies.clear()


def _play(db: Path, games: list[tuple[str, bool, bool, list[int]]]) -> None:
    """Each game (variant, rated, private, places of Ann and Bob) started and finished."""

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.open()
        try:
            ann = await store.player_by_key("ann")
            bob = await store.player_by_key("bob")
            assert ann is not None and bob is not None
            seats = [SeatRow(i, "human", n, n[0] * 64, None) for i, n in enumerate(["Ann", "Bob"])]
            for variant, rated, private, places in games:
                tid = uuid.uuid4().hex[:12]
                await store.create_table(tid, "t", {"preset": variant}, private, seats, 1)
                gid, _ = await store.start_game(
                    tid, {}, ["Ann", "Bob"], [[6, 2]], seats, 2,
                    players={0: ann.id, 1: bob.id}, rated=rated, variant=variant,
                )  # fmt: skip
                winner = places.index(1)
                await store.finish_game(tid, gid, winner, 3, places=places, variant=variant)
        finally:
            await store.close()

    asyncio.run(go())


def test_a_profile_counts_games_per_variant_with_ratings_history_and_replays(
    client: TestClient, db: Path
) -> None:
    _sign_up(client, "Ann")
    _sign_up(client, "Bob")
    _play(
        db,
        [
            ("perudo", True, False, [1, 2]),
            ("perudo", True, False, [2, 1]),
            ("perudo", True, False, [1, 2]),
            ("calza", False, False, [1, 2]),
            ("perudo", False, True, [1, 2]),  # a private table's game: never shown
        ],
    )
    ann = client.get("/api/players/Ann").json()
    assert ann["name"] == "Ann"
    assert {v: (e["played"], e["won"]) for v, e in ann["variants"].items()} == {
        "perudo": (3, 2),
        "calza": (1, 1),
    }
    duel = ann["variants"]["perudo"]["ratings"]["duel"]
    a = b = Rating()
    shown = []
    for places in ([1, 2], [2, 1], [1, 2]):
        a, b = update([a, b], places)
        shown.append(display(a))
    assert duel["games"] == 3 and duel["provisional"] is True
    assert [h["rating"] for h in duel["history"]] == shown
    assert duel["rating"] == shown[-1] > 1500
    assert ann["variants"]["calza"]["ratings"] == {}
    assert len(ann["recent"]) == 4
    assert all(g["replay"] == f"/replay/{g['id']}" for g in ann["recent"])
    replay = client.get(f"/api/games/{ann['recent'][0]['id']}/replay")
    assert replay.status_code == 200
    assert client.get("/api/players/Nobody").status_code == 404


def test_a_players_games_are_paged_and_filtered_by_variant(client: TestClient, db: Path) -> None:
    _sign_up(client, "Ann")
    _sign_up(client, "Bob")
    _play(db, [("perudo", False, False, [1, 2])] * (PAGE + 3) + [("calza", False, False, [2, 1])])
    first = client.get("/api/players/Ann/games").json()
    assert (first["total"], first["pages"], len(first["games"])) == (PAGE + 4, 2, PAGE)
    assert first["games"][0]["variant"] == "calza" and first["games"][0]["won"] is False
    second = client.get("/api/players/Ann/games", params={"page": 2}).json()
    assert len(second["games"]) == 4
    ids = {g["id"] for g in first["games"]} | {g["id"] for g in second["games"]}
    assert len(ids) == PAGE + 4
    calza = client.get("/api/players/Bob/games", params={"variant": "calza"}).json()
    assert calza["total"] == 1 and calza["games"][0]["won"] is True
    assert client.get("/api/players/Ann/games", params={"page": 0}).status_code == 400


def test_the_leaderboard_lists_established_players_best_first(client: TestClient, db: Path) -> None:
    _sign_up(client, "Ann")
    _sign_up(client, "Bob")
    _play(db, [("perudo", True, False, [1, 2] if i % 3 else [2, 1]) for i in range(4)])
    board = client.get("/api/leaderboard", params={"variant": "perudo", "pool": "duel"}).json()
    assert board["players"] == []  # both still provisional
    _play(db, [("perudo", True, False, [1, 2] if i % 3 else [2, 1]) for i in range(14)])
    board = client.get("/api/leaderboard", params={"variant": "perudo", "pool": "duel"}).json()
    assert [p["name"] for p in board["players"]] == ["Ann", "Bob"]
    ann = client.get("/api/players/Ann").json()["variants"]["perudo"]["ratings"]["duel"]
    assert board["players"][0]["rating"] == ann["rating"] and not ann["provisional"]
    assert board["players"][0]["games"] == 18
    assert client.get("/api/leaderboard", params={"pool": "table"}).json()["players"] == []
    assert client.get("/api/leaderboard", params={"variant": "nope"}).status_code == 404


def test_a_deleted_player_has_no_profile_and_their_games_show_deleted_player(
    client: TestClient, db: Path
) -> None:
    """Issue 27: a deleted account's games stay, and show it as "deleted player" everywhere
    (a profile's game list, the lobby's finished games, the replay), never its old name, which
    another may take."""
    _sign_up(client, "Bob")
    out = client.post("/api/account/signup", json={"name": "Ann", "password": "long enough pw"})
    csrf = out.json()["csrf"]
    _play(db, [("perudo", False, False, [1, 2])])
    assert client.get("/api/players/Ann").status_code == 200
    out = client.post(
        "/api/account/delete", json={"password": "long enough pw"}, headers={"X-CSRF-Token": csrf}
    )
    assert out.status_code == 204
    assert client.get("/api/players/Ann").status_code == 404
    game = client.get("/api/players/Bob/games").json()["games"][0]
    assert game["names"] == ["deleted player", "Bob"]
    listed = client.get("/api/games").json()["games"]
    assert [g["names"] for g in listed] == [["deleted player", "Bob"]]
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert "Ann" not in json.dumps(replay)
    assert display(Rating()) == 1500
