"""The account page's mail (docs/accounts.md#recovery) in a real Chromium, against a server
whose ``PERUDO_SMTP_*`` point at a real SMTP server in this test (aiosmtpd): add an address
and open the mailed link that confirms it, sign out, ask for a reset by the name, open the
mailed link, choose a new password, sign in with it. In English (laptop), Korean and Italian
(phone), each mail in the page's language."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import CHEAP_ARGON2, page_in, require_chromium, serve
from tests.server.harness import ServerProcess
from tests.server.smtp import Inbox, body, link, smtp_server

require_chromium()

PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a different horse, a different battery"
GREETING = {"en": "Hello", "ko": "안녕하세요", "it": "Ciao"}


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]
) -> Iterator[ServerProcess]:
    yield from serve(
        tmp_path_factory,
        "mail_page",
        PERUDO_SMTP_HOST="127.0.0.1",
        PERUDO_SMTP_PORT=str(inbox[1]),
        PERUDO_SMTP_SECURITY="none",
        PERUDO_SMTP_FROM="dice@example.org",
        **CHEAP_ARGON2,
    )


def _toast(page: Any, key: str, **fields: str) -> None:
    said = page.evaluate("([k, f]) => window.__perudo.t(k, f)", [key, fields])
    page.wait_for_function(
        "t => [...document.querySelectorAll('.toast.ok')].some(e => e.textContent === t)", arg=said
    )


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", (1366, 900)), ("ko", (390, 844)), ("it", (390, 844))]
)
def test_confirm_an_address_by_mail_then_reset_the_password_by_mail(
    browser: Any,
    server: ServerProcess,
    inbox: tuple[Inbox, int],
    lang: str,
    viewport: tuple[int, int],
) -> None:
    mails = inbox[0]
    name = "m" + secrets.token_hex(4)
    address = f"{name}@example.org"
    page = page_in(browser, server, lang, viewport)
    page.goto(server.url + "/account")
    page.wait_for_selector("[data-testid=forgot-form]")
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=sign-up-button]")
    page.wait_for_selector("[data-testid=email-form]")

    page.fill("[data-testid=email-input]", address)
    page.click("[data-testid=email-add]")
    _toast(page, "account.email_sent", address=address)
    mail = mails.next()
    assert mail["X-Envelope-To"] == address and GREETING[lang] in body(mail)
    url, _ = link(mail, "confirm")
    assert url.startswith(server.url)
    page.goto(url)
    _toast(page, "account.email_confirmed", address=address)
    page.wait_for_function(
        "a => document.querySelector('[data-testid=email-address]')?.textContent === a",
        arg=address,
    )
    assert "#" not in page.url  # the token left the address bar

    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=forgot-form]")
    page.fill("[data-testid=forgot-who]", name)
    page.click("[data-testid=forgot-button]")
    _toast(page, "account.forgot_sent")
    mail = mails.next()
    assert mail["X-Envelope-To"] == address and GREETING[lang] in body(mail)
    url, _ = link(mail, "reset")
    page.goto(url)
    page.fill("[data-testid=reset-password]", NEW_PASSWORD)
    page.click("[data-testid=reset-button]")
    _toast(page, "account.reset_done")
    page.wait_for_selector("[data-testid=sign-in]")
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", NEW_PASSWORD)
    page.click("[data-testid=sign-in-button]")
    page.wait_for_selector("[data-testid=account]")
    assert page.errors == []
