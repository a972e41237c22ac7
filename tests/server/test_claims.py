"""A device's anonymous games claimed at sign-up and sign-in (perudo.server.accounts.claims,
docs/accounts.md): the seats whose tokens the device sends join the account's profile, and
nothing else does — a wrong token, another device's seat, a token sent with another table's id,
a seat another account holds, a rated game, a second seat of one game.

The games are written by a second store over the app's SQLite file, as a table's start and
end write them (seats with their tokens' hashes), as another process would."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from perudo.server.app import create_app
from perudo.server.settings import Settings
from perudo.server.store import SeatRow, Store
from perudo.server.tables.config import hash_token

CHEAP = {"argon2_memory_kib": 8192, "argon2_time_cost": 1}
PASSWORD = "long enough pw"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "perudo.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", **CHEAP))
    with TestClient(app) as c:
        yield c


def _games(
    db: Path, tokens: list[str], games: int, rated: bool = False, player: int | None = None
) -> str:
    """A table whose seats hold ``tokens`` (guests; seat 1 the account ``player``'s if given)
    played ``games`` finished games (a rematch keeps the seats and their tokens); its id."""
    table = uuid.uuid4().hex[:12]

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.open()
        try:
            seats = [
                SeatRow(i, "human", f"guest{i}", hash_token(t), None,
                        player_id=player if i == 1 else None)
                for i, t in enumerate(tokens)
            ]  # fmt: skip
            names = [s.name for s in seats]
            await store.create_table(table, "t", {"preset": "perudo"}, False, seats, 1)
            for n in range(games):
                players = {1: player} if player is not None else None
                gid, _ = await store.start_game(
                    table, {}, names, [[6, 2]], seats, 2 + 2 * n,
                    players=players, rated=rated, variant="perudo",
                )  # fmt: skip
                places = list(range(1, len(tokens) + 1))
                await store.finish_game(
                    table, gid, 0, 3 + 2 * n, places=places if rated else (), variant="perudo"
                )
        finally:
            await store.close()

    asyncio.run(go())
    return table


def _played(c: TestClient, name: str) -> list[int]:
    return [g["seat"] for g in c.get(f"/api/players/{name}/games").json()["games"]]


def test_signing_up_claims_the_devices_seats_and_nothing_else(client: TestClient, db: Path) -> None:
    mine, theirs = "tok-mine-" + uuid.uuid4().hex, "tok-theirs-" + uuid.uuid4().hex
    table = _games(db, [mine, theirs], games=2)  # two games: a rematch keeps the token
    other = _games(db, ["tok-elsewhere", mine + "x"], games=1)
    seats = [
        {"table": table, "token": mine},
        {"table": other, "token": mine},  # my token, but not of that table
        {"table": other, "token": "a guess"},
    ]
    out = client.post(
        "/api/account/signup", json={"name": "Ann", "password": PASSWORD, "seats": seats}
    )
    assert out.status_code == 201 and out.json()["claimed"] == 2
    assert _played(client, "Ann") == [0, 0]
    # Claiming again (signing in on the same device) adds nothing.
    client.cookies.clear()
    again = client.post(
        "/api/account/signin", json={"name": "Ann", "password": PASSWORD, "seats": seats}
    )
    assert again.status_code == 200 and again.json()["claimed"] == 0
    # Another person signing up with Ann's token claims no seat Ann's device claimed …
    client.cookies.clear()
    bob = {"name": "Bob", "password": PASSWORD, "seats": [{"table": table, "token": mine}]}
    assert client.post("/api/account/signup", json=bob).json()["claimed"] == 0
    # … and the other device's own token claims its own seat only.
    client.cookies.clear()
    cy = {"name": "Cyd", "password": PASSWORD, "seats": [{"table": table, "token": theirs}]}
    assert client.post("/api/account/signup", json=cy).json()["claimed"] == 2
    assert _played(client, "Cyd") == [1, 1]


def test_a_rated_game_a_seat_already_someones_and_a_second_seat_are_never_claimed(
    client: TestClient, db: Path
) -> None:
    out = client.post("/api/account/signup", json={"name": "Dee", "password": PASSWORD})
    assert out.status_code == 201
    dee = client.get("/api/players/Dee").json()
    assert dee["name"] == "Dee"
    client.cookies.clear()
    a, b = "tok-a-" + uuid.uuid4().hex, "tok-b-" + uuid.uuid4().hex
    rated = _games(db, [a, b], games=1, rated=True, player=1)
    held = _games(db, [a + "1", b + "1"], games=1, player=1)  # seat 1 is Dee's (player id 1)
    both = _games(db, [a + "2", b + "2"], games=1)  # one device holding both seats
    seats = [
        {"table": rated, "token": a},
        {"table": held, "token": b + "1"},
        {"table": held, "token": a + "1"},
        {"table": both, "token": a + "2"},
        {"table": both, "token": b + "2"},
    ]
    out = client.post(
        "/api/account/signup", json={"name": "Eve", "password": PASSWORD, "seats": seats}
    )
    # The unrated game with Dee (Eve's own seat 0) and one seat of the two-seat device's game.
    assert out.json()["claimed"] == 2
    assert sorted(_played(client, "Eve")) == [0, 0]
    assert _played(client, "Dee") == [1, 1]


def test_a_seat_moved_to_this_device_claims_the_tables_latest_game(
    client: TestClient, db: Path
) -> None:
    old, moved = "tok-old-" + uuid.uuid4().hex, "tok-new-" + uuid.uuid4().hex
    table = _games(db, [old, "tok-x-" + uuid.uuid4().hex], games=2)

    async def transfer() -> None:
        # The seat moved to another device after the second game began (a new token).
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.open()
        try:
            seats = [SeatRow(0, "human", "guest0", hash_token(moved), None)]
            await store.set_seats(table, seats, 10)
        finally:
            await store.close()

    asyncio.run(transfer())
    body = {"name": "Flo", "password": PASSWORD, "seats": [{"table": table, "token": moved}]}
    assert client.post("/api/account/signup", json=body).json()["claimed"] == 1
    assert _played(client, "Flo") == [0]
