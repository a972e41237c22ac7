"""Your turn reaches you: the turn banner stays in view wherever the page is scrolled (real
Chromium, on a 360x640 and a 390x844 phone).

On the person's turn, with the page scrolled down to the chat, the banner is inside the
viewport, below the header (not hidden under it); a tap on it brings the person's move back
into view, and with the move in view the banner is gone (it never covers the move).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import AFTER_FRAME, require_chromium, seated_page, serve, start_with_bots
from tests.server.harness import ServerProcess

sync_api = require_chromium()

IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const b = el.getBoundingClientRect();
  const head = document.querySelector('header.top').getBoundingClientRect().bottom;
  return { left: b.left, top: b.top, right: b.right, bottom: b.bottom, head,
           w: window.innerWidth, h: window.innerHeight };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "turn", PERUDO_BOT_DELAY="0.02", PERUDO_ROUND_PAUSE="0.1")


def _inside(r: dict[str, float]) -> bool:
    return (
        r["left"] >= 0 and r["right"] <= r["w"] and r["top"] >= r["head"] and r["bottom"] <= r["h"]
    )


@pytest.mark.parametrize("size", [(360, 640), (390, 844)])
def test_the_turn_banner_is_in_view_with_the_page_scrolled_to_the_chat(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    t = server.create_table(seats=6, dice=5, turn_seconds=600, player="Ann")
    page = seated_page(browser, server, t, viewport=size, has_touch=True, is_mobile=True)
    watcher = start_with_bots(page, server, t)
    try:
        page.wait_for_selector("[data-testid=your-turn]", timeout=20_000)
        # The move in view (at the top of the page): no banner over it.
        page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate(AFTER_FRAME)
        assert page.locator("[data-testid=turn-banner]").count() == 0
        page.evaluate(
            "() => document.querySelector('[data-testid=chat-input]')"
            ".scrollIntoView({block: 'end'})"
        )
        page.wait_for_selector("[data-testid=turn-banner]", timeout=5_000)
        page.evaluate(AFTER_FRAME)
        chat = page.evaluate(IN_VIEW, "[data-testid=chat-input]")
        assert (
            chat is not None and chat["bottom"] <= chat["h"]
        ), "the page is not scrolled to the chat"
        assert (
            page.evaluate(IN_VIEW, "[data-testid=your-turn]")["bottom"] <= chat["head"]
        ), "the turn line is still in view"
        banner = page.evaluate(IN_VIEW, "[data-testid=turn-banner]")
        assert _inside(banner), f"the turn banner is not in the viewport at {size}: {banner}"
        assert page.locator("[data-testid=turn-banner]").inner_text().startswith("Your turn")
        # A tap brings the move back; the banner goes.
        page.tap("[data-testid=turn-banner]")
        page.wait_for_selector("[data-testid=turn-banner]", state="detached", timeout=5_000)
        move = page.evaluate(IN_VIEW, "[data-testid=actions] [data-action]")
        assert move is not None and _inside(move), f"the move is not in view after the tap: {move}"
        assert page.evaluate(
            "() => document.activeElement.matches('[data-testid=actions] [data-action]')"
        )
    finally:
        watcher.close()
        page.context.close()
