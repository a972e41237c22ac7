"""The table at every screen size, in every language, for 2, 6 and 10 seats (real Chromium).

For each table size one page session is resized through 360x640, 390x844, 768x1024,
1366x768 and 1920x1080 and switched through English, Korean and Italian while it is the
person's turn, and each time the test ASSERTS: no horizontal scroll; no two boxes of the page
(head, table middle, panel, each seat, log, chat…) overlap; the person's dice, the standing
bid, the raise buttons and Dudo are all inside the viewport without scrolling. A screenshot of
each viewport x language goes to ``artifacts/browser/layout/``. On a phone a raise is one tap
(the lowest raise of a face) or two (a step up, then the face), and the bid reaches the server.

Names are any Unicode: the avatar shows the first grapheme (an emoji with its skin tone and
joiners whole), and the whole name is on the seat's title. The first-game guide is dismissed
and stays dismissed after a reload.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    AFTER_FRAME,
    ARTIFACTS,
    require_chromium,
    seated_page,
    serve,
    start_with_bots,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()

VIEWPORTS = [(360, 640), (390, 844), (768, 1024), (1366, 768), (1920, 1080)]
PHONES = {(360, 640), (390, 844)}
LANGS = {"en": "Your turn", "ko": "내 차례", "it": "Tocca a te"}
NAME = "👩🏽‍🚀 Åsa-Łucja Fernández"

# What must be on screen on the person's turn, and the boxes that must not overlap.
GEOMETRY = """() => {
  const r = (el) => {
    const b = el.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const must = {
    hand: document.querySelector('[data-testid=my-hand]'),
    bid: document.querySelector('[data-testid=current-bid]'),
    raise: document.querySelector('[data-testid=bids]'),
    dudo: document.querySelector('[data-testid=actions] [data-action=dudo]'),
  };
  const boxes = [...document.querySelectorAll('[data-box]')]
    .filter((el) => el.getClientRects().length)
    .map((el) => ({ name: el.dataset.box + (el.dataset.seat || ''), rect: r(el), el }));
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
    const w = Math.min(a.rect[2], b.rect[2]) - Math.max(a.rect[0], b.rect[0]);
    const h = Math.min(a.rect[3], b.rect[3]) - Math.max(a.rect[1], b.rect[1]);
    if (w > 1 && h > 1) overlaps.push(`${a.name} x ${b.name}`);
  }
  return {
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    height: window.innerHeight,
    scrollY: window.scrollY,
    must: Object.fromEntries(Object.entries(must).map(([k, el]) => [k, el ? r(el) : null])),
    overlaps,
    boxes: boxes.length,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "layout", PERUDO_BOT_DELAY="0.02", PERUDO_ROUND_PAUSE="0.1")


def _my_turn_with_a_bid(page: Any) -> None:
    """Wait until it is the person's turn with a standing bid (opening with the lowest raise
    if the person opens)."""
    for _ in range(3):
        page.wait_for_selector("[data-testid=your-turn]", timeout=20_000)
        if page.locator("[data-testid=current-bid]").count():
            return
        page.locator("[data-testid=bids] [data-action]").first.click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=current-bid]')"
            " || !document.querySelector('[data-testid=your-turn]')"
        )
    raise AssertionError("never the person's turn with a bid standing")


@pytest.mark.parametrize("seats", [2, 6, 10])
def test_the_table_fits_every_viewport_and_language_on_the_persons_turn(
    server: ServerProcess, browser: Any, seats: int
) -> None:
    t = server.create_table(seats=seats, dice=5, turn_seconds=600, player=NAME)
    page = seated_page(browser, server, t, viewport=(1366, 768), has_touch=True)
    errors = page.errors
    watcher = start_with_bots(page, server, t)
    try:
        _my_turn_with_a_bid(page)
        # Names: the avatar shows the first grapheme whole; the name is whole on hover.
        me = page.locator("[data-testid=felt] .seat.me")
        assert me.locator(".avatar").inner_text().strip() == "👩🏽‍🚀"
        assert me.locator(".nm").get_attribute("title") == NAME
        # Your turn in the tab's title (set by an effect, a frame after the turn is drawn).
        page.wait_for_function("() => document.title.startsWith('● ')", timeout=5_000)
        assert page.title().startswith("● ")
        out = ARTIFACTS / "layout"
        out.mkdir(parents=True, exist_ok=True)
        for lang, your_turn in LANGS.items():
            page.select_option("[data-testid=lang]", lang)
            page.get_by_text(your_turn).first.wait_for()
            for w, h in VIEWPORTS:
                page.set_viewport_size({"width": w, "height": h})
                page.evaluate("() => window.scrollTo(0, 0)")
                page.evaluate(AFTER_FRAME)  # drawn at the new size
                g = page.evaluate(GEOMETRY)
                where = f"{seats} seats, {w}x{h}, {lang}"
                page.screenshot(path=str(out / f"table-{seats}-seats-{w}x{h}-{lang}.png"))
                assert g["scrollWidth"] <= g["width"], f"horizontal scroll at {where}"
                assert not g["overlaps"], f"boxes overlap at {where}: {g['overlaps']}"
                assert g["boxes"] >= seats + 3
                for what, rect in g["must"].items():
                    assert rect is not None, f"no {what} at {where}"
                    left, top, right, bottom = rect
                    assert (
                        left >= 0 and top >= 0 and right <= w and bottom <= h
                    ), f"{what} is not in the viewport at {where}: {rect}"
        # A raise on a phone: a step up, then a face (two taps); the server has the bid.
        page.select_option("[data-testid=lang]", "en")
        page.set_viewport_size({"width": 390, "height": 844})
        # The first face offered: after an easy bot's 27 aces of 49 dice, aces are the only
        # raise (an ordinary face would need 55: P-15), and a face-6 button never came (CI of
        # 0a41147).
        face = page.locator("[data-testid=bids] button[data-face]").first.get_attribute("data-face")
        first = page.locator(f"[data-testid=bids] button[data-face='{face}']")
        lowest = first.get_attribute("data-action")
        page.tap("[data-testid=step-up]")
        raised = first.get_attribute("data-action")
        assert lowest is not None and raised is not None
        assert int(raised.split("x")[0]) == int(lowest.split("x")[0]) + 1
        first.tap()
        # Read from the events: a spectator's update gathers the moves of half a second, so the
        # bot's dudo and the next round may come with the raise (CI of d02249f).
        watcher.wait(
            lambda: any(
                e["type"] == "action" and e["seat"] == 0 and e["action"] == raised
                for _, e in watcher.events
            ),
            f"the raise {raised} after two taps",
        )
        # The first-game guide: dismissed once, it stays dismissed.
        # The bots keep playing meanwhile: a round's end can move the button under the click
        # (CI of 521076c: the guide was still there once in three runs), so click again until
        # the guide has gone.
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for _ in range(3):
            if not page.locator("[data-testid=guide]").count():
                break
            page.click("[data-testid=guide-dismiss]")
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_selector("[data-testid=guide]", state="detached", timeout=3_000)
        assert page.locator("[data-testid=guide]").count() == 0, "the guide stayed"
        page.reload()
        page.wait_for_selector("[data-testid=felt]")
        assert page.locator("[data-testid=guide]").count() == 0
        assert not errors, errors
    finally:
        watcher.close()
        page.context.close()
