"""Friends in a real Chromium (docs/server.md#friends): a third person follows the first from
her profile page, sees her online at her table in the lobby's friends card, and accepts her
invitation by name (it appears on the page they have open; accepting seats them at her table);
a player she blocked cannot join her table (refused in words); and the page's Web Push choices
subscribe this device per kind. Chromium's own push service (Google's) cannot be reached from
a machine offline, so the page is given a stand-in PushManager here: the subscription path
(page → ``POST /api/push``) is the page's real code, and the server → push endpoint path,
with the payload decrypted, is tests/server/test_push.py's. The service worker's ``push``
handler is driven for real through Chromium's DevTools protocol (as DevTools' "Push" button
does): the notice it shows has the server's words and no hand."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import CHEAP_ARGON2, new_page, require_chromium, serve
from tests.server.harness import ServerProcess

require_chromium()

PASSWORD = "correct horse battery staple"

FAKE_PUSH = """(() => {
  // A stand-in for the browser's push service (offline here): what subscribe() gives is what
  // a real PushManager gives, an endpoint on a push service and the device's keys.
  const sub = {
    endpoint: "https://fcm.googleapis.com/fcm/send/stand-in",
    keys: {
      p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8Q"
        + "cYP7DkM",
      auth: "tBHItJI5svbpez7KI4CCXg",
    },
  };
  const manager = {
    getSubscription: async () => window.__subscribed || null,
    subscribe: async (options) => {
      window.__subscribeOptions = options;
      window.__subscribed = { ...sub, toJSON: () => sub };
      return window.__subscribed;
    },
  };
  Object.defineProperty(ServiceWorkerContainer.prototype, "ready", {
    get: () => Promise.resolve({ pushManager: manager }),
  });
  Notification.requestPermission = async () => "granted";
})()"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "friends_page", **CHEAP_ARGON2)


def _person(browser: Any, srv: ServerProcess, prefix: str, **options: Any) -> tuple[Any, str]:
    """A signed-up person's page at the lobby, and their name."""
    name = prefix + secrets.token_hex(3)
    page = new_page(browser, **options)
    page.goto(srv.url + "/")
    status = page.evaluate(
        """async ([name, password]) => (await fetch("/api/account/signup", {method: "POST",
          headers: {"content-type": "application/json"},
          body: JSON.stringify({name, password})})).status""",
        [name, PASSWORD],
    )
    assert status == 201
    page.goto(srv.url + "/")
    return page, name


def test_follow_see_online_accept_an_invitation_by_name_and_a_blocked_player_cannot_join(
    browser: Any, server: ServerProcess
) -> None:
    ann, ann_name = _person(browser, server, "ann")
    bo, bo_name = _person(browser, server, "bo")
    cy, cy_name = _person(browser, server, "cy", viewport=(390, 844))
    cy.context.add_init_script(FAKE_PUSH)

    # Ann makes a table (seated under her account) and opens it.
    made = ann.evaluate(
        """async () => {
          const me = await (await fetch("/api/account")).json();
          const res = await fetch("/api/tables", {method: "POST", headers: {"content-type":
            "application/json", "X-CSRF-Token": me.csrf}, body: JSON.stringify({name: "Friday",
            player: "x", seats: 3, dice: 2})});
          return res.json();
        }"""
    )
    ann.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"perudo.token.{made['table_id']}", made["token"]],
    )
    ann.goto(server.url + made["invite"])
    ann.wait_for_selector("[data-testid=invite-form]")

    # Cy follows Ann from her profile page; the lobby's friends card shows her at her table.
    cy.goto(f"{server.url}/@/{ann_name}")
    cy.click("[data-testid=follow]")
    cy.wait_for_selector("[data-testid=unfollow]")
    cy.goto(server.url + "/")
    friend = cy.locator(f"[data-testid=friend][data-name={ann_name}]")
    friend.locator("[data-testid=friend-table]").wait_for()
    assert friend.locator("[data-testid=friend-online]").inner_text() == "online"
    assert friend.locator("[data-testid=friend-table]").inner_text() == "at Friday"

    # Ann invites Cy by name; it appears on Cy's open page, and accepting seats Cy there.
    ann.fill("[data-testid=invite-name]", cy_name)
    ann.click("[data-testid=invite-send]")
    invitation = cy.locator("[data-testid=invitation]")
    invitation.wait_for()
    assert invitation.locator("p").inner_text() == f"{ann_name} invites you to Friday."
    invitation.locator("[data-testid=accept-invitation]").click()
    cy.wait_for_url(server.url + made["invite"])
    cy.wait_for_selector("[data-testid=wait-host]")
    ann.wait_for_function(
        "n => document.querySelector('[data-testid=seats]').innerText.includes(n)", arg=cy_name
    )
    assert cy.locator("[data-testid=invitation]").count() == 0

    # Ann blocks Bo from his profile; Bo cannot sit at her table: told why in words.
    ann.goto(f"{server.url}/@/{bo_name}")
    ann.click("[data-testid=block]")
    ann.wait_for_selector("[data-testid=unblock]")
    bo.goto(server.url + made["invite"])
    bo.fill("[data-testid=join-name]", "Bo")
    bo.click("[data-testid=join]")
    bo.wait_for_selector(".toast-box .toast")
    said = bo.locator(".toast-box .toast").inner_text()
    assert said == "A player at this table has blocked you: you cannot sit here."
    assert bo.locator("[data-testid=wait-host]").count() == 0

    # Cy's Web Push choices on this device: "you are invited", subscribed through the page.
    cy.wait_for_selector("[data-testid=push-invite]")
    cy.check("[data-testid=push-invite]")
    device = cy.evaluate("localStorage.getItem('perudo.device')")
    cy.wait_for_function(
        """async (device) => (await (await fetch(`/api/push?device=${device}`)).json())
          .subscribed.join() === "invite" """,
        arg=device,
    )
    key = cy.evaluate("Array.from(window.__subscribeOptions.applicationServerKey).length")
    assert key == 65 and cy.evaluate("window.__subscribeOptions.userVisibleOnly") is True
    for page in (ann, bo, cy):
        assert page.errors == []


def test_the_service_worker_shows_a_pushed_notice_with_the_servers_words(
    browser: Any, server: ServerProcess
) -> None:
    page = new_page(browser)
    page.context.grant_permissions(["notifications"], origin=server.url)
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.goto(server.url + "/")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")

    def mine() -> list[dict[str, Any]]:
        return [
            r for r in registrations if r["scopeURL"] == server.url + "/" and not r["isDeleted"]
        ]

    if not mine():  # the report still on its way: the next call to the page brings it
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    reg = mine()[0]
    notice = {
        "kind": "invite",
        "table": "t1",
        "url": "/t/t1",
        "names": {"from": "Ann", "table": "Friday"},
        "title": "Perudo",
        "body": "Ann invites you to Friday.",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": server.url, "registrationId": reg["registrationId"], "data": json.dumps(notice)},
    )
    # Read in the page until the worker has shown it (wait_for_function's predicate must be
    # synchronous: a promise it returned would count as a truthy answer at once).
    page.evaluate(
        """() => {
          window.__shown = null;
          (async function poll() {
            const list = await (await navigator.serviceWorker.ready).getNotifications();
            if (!list.length) return setTimeout(poll, 20);
            const n = list[0];
            window.__shown = {title: n.title, body: n.body, tag: n.tag, url: n.data.url};
          })();
        }"""
    )
    shown = page.wait_for_function("() => window.__shown").json_value()
    assert shown == {
        "title": "Perudo",
        "body": "Ann invites you to Friday.",
        "tag": "invite-t1",
        "url": "/t/t1",
    }
    assert page.errors == []
