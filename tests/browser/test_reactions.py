"""Quick reactions at the table (real Chromium): the seated person taps an emote, it reaches
the table (a spectator on a plain WebSocket gets it) and floats up on the page named in the
page's language; muted, this table's reactions are not shown on this device, and the mute is
remembered after a reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    AFTER_FRAME,
    require_chromium,
    seated_page,
    serve,
    settle,
    start_with_bots,
    watch_socket,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()

SHOWN = "[data-testid=reactions-shown] .reaction"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "reactions", PERUDO_BOT_DELAY="0.05")


def test_a_reaction_floats_up_in_the_pages_language_and_a_muted_table_shows_none(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=5, turn_seconds=600, player="Ann")
    page = seated_page(browser, server, t, watch_socket, viewport=(390, 844), has_touch=True)
    watcher = start_with_bots(page, server, t)
    try:
        page.select_option("[data-testid=lang]", "ko")
        page.tap("[data-testid=emotes] [data-emote=haha]")
        page.wait_for_selector(f"{SHOWN}[data-emote=haha]")
        assert page.locator(SHOWN).first.inner_text().endswith("Ann: 하하")
        watcher.wait(lambda: len(watcher.reactions) == 1, "Ann's reaction")
        assert watcher.reactions == [{"type": "reaction", "seat": 0, "emote": "haha"}]
        # Muted: the next reaction reaches the table but this page shows none of them.
        page.check("[data-testid=mute-reactions]")
        page.wait_for_selector(SHOWN, state="detached")
        page.tap("[data-testid=emotes] [data-emote=gg]")
        watcher.wait(lambda: len(watcher.reactions) == 2, "Ann's second reaction")
        settle(page)  # the page has handled everything sent to it before: that reaction too
        page.evaluate(AFTER_FRAME)
        assert page.locator(SHOWN).count() == 0
        page.reload()
        page.wait_for_selector("[data-testid=mute-reactions]")
        assert page.is_checked("[data-testid=mute-reactions]")
        assert page.errors == []
    finally:
        watcher.close()
        page.context.close()
