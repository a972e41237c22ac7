"""Play now in real Chromium: two people on two devices (browser contexts) press Play now for
heads-up; the first, waiting, sees the queue in her language (herself as a guest, her time
counting); when the second presses, both land at one table, its game started."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import new_page, require_chromium, serve
from tests.server.harness import ServerProcess

require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "playnow", PERUDO_BOT_DELAY="0.05")


def press_play_now(page: Any, srv: ServerProcess, name: str, lang: str) -> None:
    page.goto(srv.url + "/")
    page.select_option("[data-testid=lang]", lang)
    page.fill("[data-testid=player-name]", name)
    page.select_option("[data-testid=playnow-seats]", "2")
    page.select_option("[data-testid=playnow-wait]", "600")
    page.click("[data-testid=playnow-go]")


def test_two_people_press_play_now_heads_up_and_land_at_one_table(
    server: ServerProcess, browser: Any
) -> None:
    ann = new_page(browser, viewport=(390, 844))
    bo = new_page(browser)
    try:
        press_play_now(ann, server, "Ann", "ko")
        ann.wait_for_selector("[data-testid=playnow-list] li")
        assert (
            ann.locator("[data-testid=playnow-list] li").first.inner_text().startswith("손님 (나)")
        )
        press_play_now(bo, server, "Bo", "it")
        ann.wait_for_url("**/t/*")
        bo.wait_for_url("**/t/*")
        assert ann.url == bo.url
        for page in (ann, bo):
            page.wait_for_selector("[data-testid=felt] .seat")
            names = page.locator("[data-testid=felt] .seat").all_inner_texts()
            assert any("Ann" in n for n in names) and any("Bo" in n for n in names), names
            assert page.errors == []
    finally:
        ann.context.close()
        bo.context.close()
