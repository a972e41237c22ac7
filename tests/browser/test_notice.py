"""Noticing the table on a phone (real Chromium at 390×844, touch): the sound and the
vibration of "your turn" happen only when the player turned them on (the page's audio and
``navigator.vibrate`` are stubbed to count their calls); a name cut short on screen shows
whole on a tap; the waiting room shows the invite link's QR code for a friend in the room,
while a friend who opened the link sees the form to sit down first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    Watcher,
    drawn,
    fill_and_start,
    new_page,
    require_chromium,
    seated_page,
    serve,
    shot,
    start_with_bots,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()

PHONE = (390, 844)

# Counts what the page asks of the speaker and the vibration motor, in place of the real ones.
STUBS = """
window.__notice = { tones: 0, vibrations: [] };
class FakeAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const node = { frequency: { value: 0 }, connect: (n) => n,
                   start: () => { window.__notice.tones += 1; }, stop: () => {} };
    return node;
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n };
  }
}
window.AudioContext = FakeAudio;
window.webkitAudioContext = FakeAudio;
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__notice.vibrations.push(pattern); return true; },
});
"""

LONG_NAME = "Maximiliana Wolkenstein"

# Seats of the waiting room whose name or "empty seat" is squeezed: its box narrower than a
# word or two, or its text running out of its box (under the buttons beside it).
ROW_SQUEEZED = """() => [...document.querySelectorAll('[data-testid=seats] .seatrow > .grow')]
  .filter((g) => {
    const box = g.getBoundingClientRect();
    if (box.width < 100) return true;
    const out = (el) => el.getBoundingClientRect().right > box.right + 1;
    return [...g.querySelectorAll('*')].some(out);
  })
  .map((g) => g.closest('.seatrow').dataset.seat)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "notice", PERUDO_BOT_DELAY="0.05", PERUDO_ROUND_PAUSE="0.2")


def _notices(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => window.__notice"))


def _play_until_my_turn_again(page: Any, watcher: Watcher) -> None:
    """Ann (seat 0) plays her turn (dudo if she may, else the lowest raise); then the server
    says it is hers again (or the game is over), and so does the page."""
    mine = lambda: sum(1 for _, e in watcher.events if e["type"] == "action" and e["seat"] == 0)  # noqa: E731
    before = mine()
    dudo = page.locator("[data-testid=actions] [data-action=dudo]")
    (dudo if dudo.count() else page.locator("[data-testid=bids] [data-action]").first).click()

    def again() -> bool:
        v = watcher.view
        return mine() > before and v is not None and (v["to_act"] == 0 or v["winner"] is not None)

    watcher.wait(again, "Ann's move, then her turn again")
    # The page has drawn that turn, and so run the turn's effects (sound, vibration), which
    # run with the note of what was drawn.
    drawn(page, watcher.version)
    page.wait_for_selector("[data-testid=your-turn], [data-testid=game-over]")


def test_sound_and_vibration_on_your_turn_only_when_turned_on(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=5, turn_seconds=0)
    ann = seated_page(
        browser, server, t, lambda ctx: ctx.add_init_script(STUBS), viewport=PHONE, has_touch=True
    )
    watcher = start_with_bots(ann, server, t)
    try:
        ann.wait_for_selector("[data-testid=your-turn]", timeout=20_000)
        _play_until_my_turn_again(ann, watcher)
        # Off by default: Ann's turns came and went in silence.
        assert _notices(ann) == {"tones": 0, "vibrations": []}
        ann.locator("[data-testid=pref-sound]").check()
        _play_until_my_turn_again(ann, watcher)
        got = _notices(ann)
        assert got["tones"] >= 1 and got["vibrations"] == []  # sound only
        ann.locator("[data-testid=pref-vibrate]").check()
        _play_until_my_turn_again(ann, watcher)
        got = _notices(ann)
        assert got["tones"] >= 2 and got["vibrations"] and got["vibrations"][0] == [120, 60, 120]
        # Both are remembered in this browser, and turned off again they stay quiet.
        ann.reload()
        ann.wait_for_selector("[data-testid=pref-sound]:checked")
        ann.locator("[data-testid=pref-sound]").uncheck()
        ann.locator("[data-testid=pref-vibrate]").uncheck()
        before = _notices(ann)
        _play_until_my_turn_again(ann, watcher)
        assert _notices(ann) == before
        assert not ann.errors, ann.errors
    finally:
        watcher.close()
        ann.context.close()


def test_a_name_cut_short_shows_whole_on_a_tap_and_the_waiting_room_shows_the_invite_qr(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=10, dice=1, turn_seconds=0, player=LONG_NAME)
    ann = seated_page(browser, server, t, viewport=PHONE, has_touch=True)
    try:
        # The invite link's QR code, for a friend in the room to scan from this screen.
        qr = ann.locator("[data-testid=invite-qr]")
        qr.wait_for()
        assert qr.get_attribute("alt")
        ann.wait_for_function(  # the image loaded (an SVG from /api/tables/<id>/invite.svg)
            "() => document.querySelector('[data-testid=invite-qr]').naturalWidth > 0"
        )
        svg = ann.request.get(server.url + f"/api/tables/{t['table_id']}/invite.svg")
        assert svg.ok and svg.headers["content-type"].startswith("image/svg+xml")
        # Ten seats on a phone: no seat's name is squeezed (the add-a-bot buttons go under
        # "empty seat" rather than beside it), and the host's buttons come first, no scrolling
        # to fill or start.
        squeezed = ann.evaluate(ROW_SQUEEZED)
        assert squeezed == [], squeezed
        for button in ("fill-bots", "start"):
            box = ann.locator(f"[data-testid={button}]").bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE[1], (button, box)
        shot(ann, "phone-waiting-room-qr", full_page=False)
        # A friend who opened the link has no use for it: the form to sit down comes first,
        # in the first screen, with no QR code and no "on your turn" switches (no turn yet).
        friend = new_page(browser, viewport=PHONE, has_touch=True)
        try:
            friend.goto(server.url + t["invite"])
            join = friend.locator("[data-testid=join-name]")
            join.wait_for()
            box = join.bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE[1], box
            assert friend.locator("[data-testid=invite-qr], [data-testid=pref-sound]").count() == 0
            shot(friend, "phone-friend-opens-invite", full_page=False)
        finally:
            friend.context.close()
        fill_and_start(ann)
        # On the felt the long name is cut short; a tap shows it whole, a second cuts it again.
        name = ann.locator("[data-testid=felt] .seat.me .nm")
        cut = "(el) => el.scrollWidth > el.clientWidth + 1"
        assert name.evaluate(cut), "the name fits: the test needs a name cut short"
        name.tap()
        assert not name.evaluate(cut)
        assert LONG_NAME in name.inner_text()
        shot(ann, "phone-name-tapped", full_page=False)
        name.tap()
        assert name.evaluate(cut)
        assert not ann.errors, ann.errors
    finally:
        ann.context.close()
