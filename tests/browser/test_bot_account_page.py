"""Bot accounts on the page (docs/bot-api.md), in a real Chromium: a person makes their
account a bot account from /account (the token shown once, the page signed out); the bot sits
at a table through the bot API and its socket, and the table's page marks its seat as a bot's
in the waiting room and at the table; its profile says "Bot account"; the leaderboard switches
to the bots' own."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.browser.support import CHEAP_ARGON2, page_in, require_chromium, seated_page, serve
from tests.server.harness import ServerProcess
from websockets.sync.client import connect

require_chromium()

PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "bot_account_page", **CHEAP_ARGON2)


@pytest.mark.parametrize("lang", ["ko"])
def test_an_account_becomes_a_bot_and_is_marked_as_one(
    browser: Any, server: ServerProcess, lang: str
) -> None:
    name = "b" + secrets.token_hex(4)
    page = page_in(browser, server, lang, (390, 844))
    page.goto(server.url + "/account")
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=sign-up-button]")
    page.wait_for_selector("[data-testid=bot-form]")
    page.fill("[data-testid=bot-password]", PASSWORD)
    page.check("[data-testid=bot-confirm]")
    page.click("[data-testid=bot-upgrade]")
    token = page.inner_text("[data-testid=bot-token]").strip()
    assert page.evaluate("() => window.__perudo.t('account.bot_token')") in page.inner_text(
        "[data-testid=bot-token-card]"
    )
    page.reload()
    page.wait_for_selector("[data-testid=sign-in]")  # signed out, for good
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx.get(f"{server.url}/api/bot/account", headers=auth).json()["name"] == name

    # A person's table; the bot sits down through the bot API and its socket.
    t = server.create_table(seats=2, dice=2)
    person = seated_page(browser, server, t, viewport=(390, 844))
    person.evaluate("l => localStorage.setItem('perudo.lang', l)", lang)
    seat = httpx.post(f"{server.url}/api/bot/tables/{t['table_id']}/join", headers=auth).json()
    with connect(f"{server.ws_url}/ws/tables/{t['table_id']}", additional_headers=auth) as ws:
        ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        person.reload()
        mark = person.locator("[data-testid=seats] [data-testid=bot-account]")
        mark.wait_for()
        assert mark.inner_text() == person.evaluate("() => window.__perudo.t('seat.bot_account')")
        person.click("[data-testid=start]")
        person.locator(f".seat[data-seat='{seat['seat']}'] [data-testid=bot-account]").wait_for()

    profile = page_in(browser, server, lang, (390, 844))
    profile.goto(f"{server.url}/@/{name}")
    profile.locator("[data-testid=profile-bot]").wait_for()

    profile.goto(server.url + "/leaderboard?bots=1")
    profile.wait_for_selector("[data-testid=board-bots][aria-pressed=true]")
    profile.click("[data-testid=board-people]")
    profile.wait_for_selector("[data-testid=board-people][aria-pressed=true]")
    assert profile.url.endswith("/leaderboard")
    assert not page.errors and not person.errors and not profile.errors
