"""Passkeys on the account page (/account, docs/accounts.md) in a real Chromium with its
virtual authenticator (the DevTools protocol's WebAuthn domain: a platform authenticator that
keeps discoverable credentials and verifies its user): a guest plays a game on this device,
then signs up with a name and a passkey (the device's game claimed, said in words and listed
on the profile), signs out, signs in with the passkey, adds a second passkey from another
authenticator and signs in with that one, then sets a first password (confirmed by the passkey)
and signs in with it.

WebAuthn needs a secure context and an RP id that is a domain: the page is opened at
``http://localhost:<port>`` (Chromium counts localhost as secure)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import CHEAP_ARGON2, Watcher, new_page, require_chromium, serve
from tests.server.harness import ServerProcess

from perudo.core.views import legal_texts

require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "passkey_page", **CHEAP_ARGON2)


def _authenticator(cdp: Any) -> str:
    out = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    return str(out["authenticatorId"])


def _guest_game(server: ServerProcess) -> dict[str, Any]:
    """A guest's finished heads-up game against a bot (one die each: one round)."""
    t = server.create_table(player="Guest", seats=2, dice=1)
    me = Watcher(server, t["table_id"], t["token"])
    me.wait(lambda: me.table is not None, "the table")
    me.ws.send('{"type": "add_bot", "level": "easy"}')
    me.wait(lambda: me.table is not None and all(me.table["seats"]), "the bot seated")
    me.ws.send('{"type": "start"}')
    acted = -1
    while True:
        me.wait(
            lambda acted=acted: me.view is not None  # type: ignore[misc]
            and (
                me.view["phase"] == "game_over" or (me.view["to_act"] == 0 and me.version > acted)
            ),
            "the guest's turn or the end",
        )
        assert me.view is not None
        if me.view["phase"] == "game_over":
            break
        acted = me.version
        legal = legal_texts(me.view["legal"])
        me.act("dudo" if "dudo" in legal else legal[0])
    me.close()
    return t


def test_sign_up_with_a_passkey_claim_the_devices_game_sign_in_add_a_second_set_a_password(
    browser: Any, server: ServerProcess
) -> None:
    played = _guest_game(server)
    site = server.url.replace("127.0.0.1", "localhost")
    page = new_page(browser)
    page.goto(site + "/")
    page.evaluate(
        "([k, v]) => { localStorage.setItem('perudo.lang', 'en'); localStorage.setItem(k, v); }",
        [f"perudo.token.{played['table_id']}", played["token"]],
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    first = _authenticator(cdp)
    page.goto(site + "/account")

    name = "p" + secrets.token_hex(4)
    page.fill("[data-testid=account-name]", name)
    page.click("[data-testid=passkey-sign-up]")
    page.wait_for_selector("[data-testid=account]")
    said = page.evaluate("() => window.__perudo.t('account.claimed', {n: 1})")
    page.wait_for_function(
        "t => [...document.querySelectorAll('.toast.ok')].some(e => e.textContent === t)", arg=said
    )
    assert page.locator("[data-testid=passkeys] li").count() == 1
    assert page.locator("[data-testid=password-form]").count() == 0  # no password to change
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": first})["credentials"]
    assert len(creds) == 1 and creds[0]["isResidentCredential"] and creds[0]["rpId"] == "localhost"
    profile = server.http("GET", f"/api/players/{name}")
    assert [g["seat"] for g in profile["recent"]] == [0], profile

    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=sign-in]")
    page.click("[data-testid=passkey-sign-in]")  # no name typed: the passkey names the account
    page.wait_for_selector("[data-testid=account]")
    assert name in page.inner_text("[data-testid=account-title]")

    # A second passkey, on another authenticator (the first refuses: it holds one already).
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
    _authenticator(cdp)
    page.click("[data-testid=add-passkey]")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=passkeys] li').length === 2"
    )
    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=sign-in]")
    page.click("[data-testid=passkey-sign-in]")
    page.wait_for_selector("[data-testid=account]")
    assert name in page.inner_text("[data-testid=account-title]")

    # A first password, confirmed by the passkey; then the change form replaces this one.
    secret = "a long enough secret"
    page.fill("[data-testid=first-password]", secret)
    page.click("[data-testid=set-password]")
    page.wait_for_selector("[data-testid=password-form]")
    assert page.locator("[data-testid=set-password-form]").count() == 0
    signed = server.http("POST", "/api/account/signin", {"name": name, "password": secret})
    assert signed["name"] == name, signed
    page.goto(f"{site}/@/{name}")
    page.wait_for_selector(f"a[href='/replay/{profile['recent'][0]['id']}']")
    assert page.errors == []
