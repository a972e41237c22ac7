"""A rated heads-up game between two signed-in people, seen on the page (docs/ratings.md):
each person signs up in their own browser context (the cookie is the context's), creates or
joins a rated table with the session's CSRF token, and when the game ends each page's end
screen shows both seats' rating changes, in English, Korean and Italian, at a phone size and a
laptop size. The moves are played by the same seats' tokens over the websocket (the page's own
play is tested in tests/browser/test_page.py), in a thread of their own: Playwright's sync API
holds this thread's event loop."""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import CHEAP_ARGON2, page_in, require_chromium, serve
from tests.server.harness import Client, ServerProcess, play_until_over

require_chromium()

PASSWORD = "correct horse battery staple"
WORDS = {"en": "rating", "ko": "레이팅", "it": "punteggio"}
PROVISIONAL = {"en": "provisional", "ko": "잠정", "it": "provvisorio"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "rated_page", **CHEAP_ARGON2)


def _person(browser: Any, srv: ServerProcess, lang: str, viewport: tuple[int, int]) -> Any:
    page = page_in(browser, srv, lang, viewport)
    page.name = "p" + secrets.token_hex(4)
    out = page.request.post(
        srv.url + "/api/account/signup", data={"name": page.name, "password": PASSWORD}
    )
    assert out.status == 201, out.text()
    page.csrf = out.json()["csrf"]
    return page


def _post(page: Any, url: str, body: dict[str, Any]) -> dict[str, Any]:
    out = page.request.post(url, data=body, headers={"X-CSRF-Token": page.csrf})
    data: dict[str, Any] = out.json()
    assert "token" in data, data
    return data


def _play(srv: ServerProcess, table_id: str, tokens: list[str]) -> None:
    async def go() -> None:
        clients = [await Client(srv, table_id, t).connect() for t in tokens]
        await clients[0].send({"type": "start"})
        for c in clients:
            await c.until(lambda c=c: c.view is not None and c.view["phase"] != "waiting")  # type: ignore[misc]
        await play_until_over(clients, random.Random(5))
        for c in clients:
            await c.close()

    asyncio.run(go())


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", (1366, 900)), ("ko", (390, 844)), ("it", (390, 844))]
)
def test_the_end_screen_shows_each_players_rating_change(
    browser: Any, server: ServerProcess, lang: str, viewport: tuple[int, int]
) -> None:
    ann, bo = (_person(browser, server, lang, viewport) for _ in range(2))
    made = _post(
        ann,
        server.url + "/api/tables",
        {"name": "rated", "player": "x", "seats": 2, "dice": 1, "rated": True},
    )
    tid = made["table_id"]
    joined = _post(bo, f"{server.url}/api/tables/{tid}/join", {"name": "x"})
    for page, token in ((ann, made["token"]), (bo, joined["token"])):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"perudo.token.{tid}", token])
        page.goto(server.url + made["invite"])
        page.wait_for_selector("[data-testid=seats]")
    errors: list[BaseException] = []

    def play() -> None:
        try:
            _play(server, tid, [made["token"], joined["token"]])
        except BaseException as err:  # reported below, in the test's thread
            errors.append(err)

    player = threading.Thread(target=play)
    player.start()
    player.join(120)
    assert not player.is_alive() and not errors, errors
    for page in (ann, bo):
        page.wait_for_selector("[data-testid=game-over]")
        for seat in (0, 1):
            change = page.locator(f"[data-testid=rating-change-{seat}]")
            change.wait_for()
            text = change.inner_text()
            assert WORDS[lang] in text and PROVISIONAL[lang] in text, text
        deltas = [
            int(page.get_attribute(f"[data-testid=rating-change-{s}]", "data-delta"))
            for s in (0, 1)
        ]
        assert sorted(d > 0 for d in deltas) == [False, True], deltas
        assert page.errors == []
    # The profile: one game played, the heads-up rating (provisional) and its chart, the game
    # linking to its replay; the leaderboard lists no provisional player.
    ann.goto(f"{server.url}/@/{ann.name}")
    ann.wait_for_selector("[data-testid=profile]")
    tally = ann.inner_text("[data-testid=tally-perudo]")
    said = "n => window.__perudo.t('profile.tally', {played: 1, won: n})"
    assert tally in (ann.evaluate(said, 0), ann.evaluate(said, 1)), tally
    rating = ann.inner_text("[data-testid=rating-perudo-duel]")
    assert PROVISIONAL[lang] in rating
    assert ann.locator("[data-testid=rating-perudo-duel] [data-testid=rating-chart]").count() == 1
    assert ann.get_attribute("[data-testid=recent] a", "href").startswith("/replay/")
    bo.goto(f"{server.url}/?player={ann.name}")
    bo.wait_for_function(
        "() => document.querySelectorAll('[data-testid=game-list] li').length === 1"
    )
    bo.goto(f"{server.url}/leaderboard")
    bo.wait_for_selector("[data-testid=board-empty]")
    assert ann.errors == [] and bo.errors == []
