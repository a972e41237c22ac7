"""The account page (/account, docs/accounts.md) in a real Chromium, in English, Korean and
Italian at a phone size and a laptop size: sign up with a password, find the session listed,
sign in from another browser context and revoke that session from the first, sign out, sign
in again, create a rated table from the lobby's form (seated under the account's name), download
the export of their data, and delete the account."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import CHEAP_ARGON2, page_in, require_chromium, serve
from tests.server.harness import ServerProcess

require_chromium()

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a different horse, a different battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "account_page", **CHEAP_ARGON2)


def _open(browser: Any, srv: ServerProcess, lang: str, viewport: tuple[int, int]) -> Any:
    page = page_in(browser, srv, lang, viewport)
    page.goto(srv.url + "/account")
    return page


def _credentials(page: Any, name: str, button: str, password: str = PASSWORD) -> None:
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", password)
    page.click(f"[data-testid={button}]")
    page.wait_for_selector("[data-testid=account]")


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", (1366, 900)), ("ko", (390, 844)), ("it", (390, 844))]
)
def test_sign_up_sign_in_elsewhere_revoke_sign_out_and_delete(
    browser: Any, server: ServerProcess, lang: str, viewport: tuple[int, int]
) -> None:
    name = "p" + secrets.token_hex(4)
    page = _open(browser, server, lang, viewport)
    # This site sends no mail: the page offers no reset and says so (docs/accounts.md#recovery).
    page.wait_for_selector("[data-testid=no-reset]")
    assert page.locator("[data-testid=forgot-form]").count() == 0
    _credentials(page, name, "sign-up-button")
    said = page.evaluate("n => window.__perudo.t('account.title_in', {name: n})", name)
    assert page.inner_text("[data-testid=account-title]") == said
    assert {"en": "Signed in", "ko": "로그인됨", "it": "Accesso come"}[lang] in said
    assert page.locator("[data-testid=sessions] li").count() == 1

    other = _open(browser, server, lang, viewport)
    _credentials(other, name, "sign-in-button")
    page.reload()
    page.wait_for_selector("[data-testid=account]")
    assert page.locator("[data-testid=sessions] li").count() == 2
    page.click("[data-testid=revoke]")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=sessions] li').length === 1"
    )
    other.reload()
    other.wait_for_selector("[data-testid=sign-in]")  # that session ended

    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=sign-in]")
    _credentials(page, name, "sign-in-button")

    # The lobby's form makes a rated table, and seats the signed-in person under their name.
    page.goto(server.url + "/")
    page.fill("[data-testid=player-name]", "someone")
    page.check("[data-testid=rated]")
    page.click("[data-testid=create]")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    info = server.http("GET", f"/api/tables/{table_id}")
    assert info["rated"] is True and info["seats"][0]["name"] == name, info

    page.goto(server.url + "/account")
    page.wait_for_selector("[data-testid=account]")
    with page.expect_download() as download:
        page.click("[data-testid=export]")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["name"] == name and exported["sessions"], exported
    # A new password, said changed in words; the person signs in with it.
    page.fill("[data-testid=old-password]", PASSWORD)
    page.fill("[data-testid=new-password]", NEW_PASSWORD)
    page.click("[data-testid=change-password]")
    said = page.evaluate("() => window.__perudo.t('account.password_changed')")
    page.wait_for_function(
        "t => [...document.querySelectorAll('.toast.ok')].some(e => e.textContent === t)", arg=said
    )
    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=sign-in]")
    _credentials(page, name, "sign-in-button", NEW_PASSWORD)
    page.fill("[data-testid=delete-password]", NEW_PASSWORD)
    page.click("[data-testid=delete-account]")
    page.wait_for_selector("[data-testid=sign-in]")
    assert server.http("GET", f"/api/players/{name}")["status"] == 404
    assert page.errors == [] and other.errors == []
