"""A leaderboard with players on it (docs/ratings.md, docs/accounts.md#profiles-and-leaderboards):
rated heads-up games played through the server's real protocol (one die each, so a game is one
round; cheap argon2) until two signed-in players are established, while a third, with one
rated game, stays provisional. ``GET /api/leaderboard`` and the ``/leaderboard`` page, in
English (laptop), Korean and Italian (phone), list the two best first, each with the rating
and the number of games their profile shows, and leave the provisional player out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import CHEAP_ARGON2, page_in, require_chromium, serve
from tests.server.harness import ServerProcess, run
from tests.server.rated import Person, play, rated_table

require_chromium()

MOST_GAMES = 40
"""Heads-up games the two players play at most before both are established (about 12 do)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "leaderboard", **CHEAP_ARGON2)


def _rating(p: Person) -> dict[str, Any]:
    found: dict[str, Any] = p.http.get(f"/api/players/{p.name}").json()["variants"]["perudo"]
    rating: dict[str, Any] = found["ratings"]["duel"]
    return rating


def _game(srv: ServerProcess, people: list[Person], seed: int) -> None:
    async def go() -> None:
        clients = rated_table(srv, people, dice=1)
        await play(clients, seed)
        for c in clients:
            await c.close()

    run(go())


@pytest.fixture(scope="module")
def players(server: ServerProcess) -> tuple[Person, Person, Person]:
    ann, bob, cid = Person(server), Person(server), Person(server)
    _game(server, [cid, ann], 0)
    for seed in range(1, MOST_GAMES + 1):
        # Who sits first alternates (the P-2 roll-off decides who starts anyway).
        _game(server, [ann, bob] if seed % 2 else [bob, ann], seed)
        if not _rating(ann)["provisional"] and not _rating(bob)["provisional"]:
            break
    else:
        raise AssertionError(f"still provisional after {MOST_GAMES} games")
    assert _rating(cid)["provisional"] and _rating(cid)["games"] == 1
    return ann, bob, cid


def test_the_api_lists_established_players_best_first_without_the_provisional_one(
    server: ServerProcess, players: tuple[Person, Person, Person]
) -> None:
    ann, bob, cid = players
    board = server.http("GET", "/api/leaderboard?variant=perudo&pool=duel")
    listed = board["players"]
    assert {p["name"] for p in listed} == {ann.name, bob.name}, board
    assert listed[0]["rating"] >= listed[1]["rating"]
    for p in (ann, bob):
        (row,) = [r for r in listed if r["name"] == p.name]
        mine = _rating(p)
        assert (row["rating"], row["games"]) == (mine["rating"], mine["games"])
        assert row["games"] >= 10
    assert cid.name not in {p["name"] for p in listed}
    # The other pool has nobody: no rated game of three or more was played.
    assert server.http("GET", "/api/leaderboard?variant=perudo&pool=table")["players"] == []


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", (1366, 900)), ("ko", (390, 844)), ("it", (390, 844))]
)
def test_the_page_lists_them_in_the_same_order(
    browser: Any,
    server: ServerProcess,
    players: tuple[Person, Person, Person],
    lang: str,
    viewport: tuple[int, int],
) -> None:
    board = server.http("GET", "/api/leaderboard?variant=perudo&pool=duel")["players"]
    page = page_in(browser, server, lang, viewport)
    page.goto(server.url + "/leaderboard")
    page.wait_for_selector("[data-testid=board] li")
    rows = page.locator("[data-testid=board] li")
    assert rows.count() == 2
    for k, p in enumerate(board):
        text = rows.nth(k).inner_text()
        said = page.evaluate("n => window.__perudo.t('board.games', {n})", p["games"])
        assert p["name"] in text and str(p["rating"]) in text and said in text, text
    assert players[2].name not in page.inner_text("[data-testid=leaderboard]")
    # A name links to the profile.
    rows.nth(0).locator("a").click()
    page.wait_for_selector("[data-testid=profile-name]")
    assert page.inner_text("[data-testid=profile-name]") == board[0]["name"]
    assert page.errors == []
