"""A friend on another address joins from the invite link (issue 13's hosting): the server
listens beyond loopback with ``PERUDO_PUBLIC_URL`` set, the host opens the page on 127.0.0.1,
and the friend opens the invite link, which points at 127.0.0.2 (standing in for the machine's
public address), in another browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import join_as, new_page, require_chromium, shot
from tests.server.harness import ServerProcess

require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("public"), PERUDO_HOST="0.0.0.0")
    srv.env["PERUDO_PUBLIC_URL"] = f"http://127.0.0.2:{srv.port}"
    srv.start()
    yield srv
    srv.stop()


def test_a_friend_on_another_address_joins_from_the_invite_link(
    server: ServerProcess, browser: Any
) -> None:
    public = f"http://127.0.0.2:{server.port}"
    host, friend = new_page(browser), new_page(browser)
    host.goto(server.url + "/")
    host.fill("[data-testid=player-name]", "Ann")
    host.fill("[data-testid=table-name]", "Friends far away")
    host.click("[data-testid=create]")
    host.wait_for_selector("ul[data-testid=seats]")
    invite = host.input_value("[data-testid=invite-link]")
    # The link the host copies is on the public address, not the 127.0.0.1 in her address bar.
    assert invite.startswith(f"{public}/t/"), invite
    join_as(friend, invite, "Bo")
    assert friend.url == invite
    host.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=seats] .seatrow:not(.emptyseat)')]"
        ".map((r) => r.textContent).join('|').includes('Bo')"
    )
    friend.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=seats] .seatrow:not(.emptyseat)')]"
        ".map((r) => r.textContent).join('|').includes('Ann')"
    )
    shot(friend, "hosting-friend-joined")
    assert host.errors == [] and friend.errors == []
