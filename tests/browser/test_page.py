"""The page in a real browser: Debian's Chromium driven by Playwright against a real server.

Two people in two browser contexts and two bots play a whole game to the end through the
page, in English and in Korean; screenshots go to ``artifacts/browser/`` (git-ignored). The
browser is never downloaded: without ``/usr/bin/chromium`` (``make chromium`` installs it)
these tests skip and say so.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    fill_and_start,
    fill_bots,
    join_as,
    new_page,
    require_chromium,
    seated_page,
    serve,
    shot,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(
        tmp_path_factory,
        "browser",
        PERUDO_BOT_DELAY="0.05",
        PERUDO_ROUND_PAUSE="0.2",
        PERUDO_DROP_GRACE="20",
    )


def _try_click(page: Any, selector: str) -> bool:
    try:
        page.click(selector, timeout=1500)
        return True
    except sync_api.Error:
        return False


def _play_turn(page: Any, rng: random.Random, seen: dict[str, bool], tag: str) -> bool:
    """One step for one person: click one of the legal action buttons. Returns whether the
    game-over screen is showing."""
    if page.locator("[data-testid=game-over]").count():
        return True
    if page.locator("[data-testid=reveal]").count() and not seen.get("reveal"):
        # The reveal is on the table itself, never in the way: a screenshot, and play on.
        seen["reveal"] = True
        page.wait_for_timeout(1000)  # let the revealed hands animate in
        shot(page, f"{tag}-reveal", full_page=False)
    buttons = page.locator("[data-testid=actions] [data-action]")
    n = buttons.count()
    if not n:
        return False
    actions = [buttons.nth(k).get_attribute("data-action") for k in range(n)]
    if not seen.get("turn"):
        seen["turn"] = True
        shot(page, f"{tag}-my-turn")
    if "dudo" in actions and rng.random() < 0.45:
        choice = "dudo"
    elif "palifico" in actions:
        choice = "palifico"
    else:
        choice = actions[0]
    _try_click(page, f"[data-testid=actions] [data-action='{choice}']")
    return False


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_two_people_and_two_bots_play_a_whole_game_through_the_page(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    words = {
        "en": {"over": "Game over", "turn": "Your turn", "lobby": "Open tables"},
        "ko": {"over": "게임 끝", "turn": "내 차례", "lobby": "열린 테이블"},
    }[lang]
    ann, bo = new_page(browser), new_page(browser)
    # Ann opens the lobby, switches the language in the page, and creates a table.
    ann.goto(server.url + "/")
    ann.select_option("[data-testid=lang]", lang)
    ann.get_by_role("heading", name=words["lobby"]).wait_for()
    ann.fill("[data-testid=player-name]", "Ann" if lang == "en" else "안나")
    ann.fill("[data-testid=table-name]", f"Friday dice ({lang})")
    ann.select_option("[data-testid=dice]", "2")
    ann.select_option("[data-testid=seats]", "4")
    ann.select_option("[data-testid=timer]", "0")
    shot(ann, f"{lang}-1-lobby")
    ann.click("[data-testid=create]")
    ann.wait_for_selector("ul[data-testid=seats]")
    invite = ann.input_value("[data-testid=invite-link]")
    assert "/t/" in invite
    # Bo follows the invite link in another browser, switches language, and sits down.
    join_as(bo, invite, "Bo" if lang == "en" else "보라", lang)
    ann.wait_for_function(
        "() => document.querySelectorAll('[data-testid=seats] .seatrow:not(.emptyseat)')"
        ".length === 2"
    )
    # Ann fills the two empty seats with easy bots, and starts.
    fill_bots(ann)
    shot(ann, f"{lang}-2-seats")
    ann.click("[data-testid=start]")
    ann.wait_for_selector("[data-testid=felt]")
    bo.wait_for_selector("[data-testid=felt]")
    # A reload in the middle of the game restores Bo's seat and dice.
    bo.reload()
    bo.wait_for_selector("[data-testid=felt] .seat.me")
    rng = random.Random(7)
    seen_a: dict[str, bool] = {}
    seen_b: dict[str, bool] = {}
    deadline = time.monotonic() + 150
    over = [False, False]
    while not all(over):
        assert time.monotonic() < deadline, "the game did not finish through the page"
        over[0] = _play_turn(ann, rng, seen_a, f"{lang}-3-ann")
        over[1] = _play_turn(bo, rng, seen_b, f"{lang}-3-bo")
        ann.wait_for_timeout(60)
    shot(ann, f"{lang}-4-game-over-ann", full_page=False)
    shot(bo, f"{lang}-4-game-over-bo", full_page=False)
    winner_a = ann.inner_text("[data-testid=winner]")
    winner_b = bo.inner_text("[data-testid=winner]")
    assert winner_a and winner_b
    assert words["over"] in ann.inner_text("[data-testid=game-over]")
    assert seen_a.get("turn") or seen_b.get("turn"), "no person ever had a turn"
    # The end screen links each person's own analysis of the game (docs/analysis.md).
    href = ann.get_attribute("[data-testid=analysis-link]", "href") or ""
    assert href.startswith("/analysis/") and "?seat=" in href and "&table=" in href, href
    # The replay of the finished game, from its record.
    ann.click("[data-testid=replay-link]")
    ann.wait_for_selector("[data-testid=replay-slider]")
    ann.click("[data-testid=replay-end]")
    ann.wait_for_selector("[data-testid=felt]")
    shot(ann, f"{lang}-5-replay")
    assert not ann.errors and not bo.errors, ann.errors + bo.errors
    ann.context.close()
    bo.context.close()


def test_the_page_switches_language_and_every_catalog_has_the_same_keys(
    server: ServerProcess, browser: Any
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    keys = page.evaluate(
        "() => Object.fromEntries(Object.entries(window.__perudo.MESSAGES)"
        ".map(([l, m]) => [l, Object.keys(m).sort()]))"
    )
    assert keys["en"] == keys["ko"] == keys["it"]
    page.select_option("[data-testid=lang]", "it")
    page.get_by_text("Crea un tavolo").first.wait_for()
    page.select_option("[data-testid=lang]", "ko")
    page.get_by_text("테이블 만들기").first.wait_for()
    # The choice is remembered.
    page.reload()
    page.get_by_text("테이블 만들기").first.wait_for()
    shot(page, "ko-lobby-after-reload")
    assert not page.errors
    page.context.close()


def test_a_spectator_on_the_invite_link_sees_no_hand_and_no_buttons(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=2, dice=1, turn_seconds=0)
    host = seated_page(browser, server, t)
    fill_and_start(host)
    watcher = new_page(browser)
    watcher.goto(server.url + t["invite"])
    watcher.wait_for_selector("[data-testid=felt]")
    assert watcher.locator("[data-testid=actions]").count() == 0
    assert watcher.locator("[data-testid=my-hand]").count() == 0
    assert watcher.locator(".seat.me").count() == 0
    shot(watcher, "en-spectator")
    host.context.close()
    watcher.context.close()


def test_a_double_tap_on_start_or_on_a_bid_counts_once_and_says_nothing_wrong(
    server: ServerProcess, browser: Any
) -> None:
    """A phone's double tap sends the move once: the second tap, before the server answered,
    is dropped (it used to come back refused: "Not now…", "The game moved on…")."""
    t = server.create_table(seats=2, dice=3, turn_seconds=0)
    ann = seated_page(browser, server, t, viewport=(390, 844), has_touch=True)
    sent: list[str] = []
    ann.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    ann.reload()  # the socket opens again, now watched
    fill_bots(ann)
    ann.dblclick("[data-testid=start]")
    ann.wait_for_selector("[data-testid=felt]")
    bids = "[data-testid=bids] .bidbtn[data-action]"
    for _ in range(3):  # three of Ann's turns, each bid double-tapped
        ann.wait_for_selector("[data-testid=your-turn]")
        ann.wait_for_selector(bids)
        ann.dblclick(bids)
        ann.wait_for_function("() => !document.querySelector('[data-testid=your-turn]')")
        ann.wait_for_timeout(300)
        if ann.locator("[data-testid=game-over]").count():
            break
    assert sum('"type":"start"' in f for f in sent) == 1, sent
    acts = [f for f in sent if '"type":"act"' in f]
    assert len(acts) == len({f for f in acts}), acts  # no move sent twice at one version
    body = ann.inner_text("body")
    assert "Not now" not in body and "moved on before your move" not in body, body
    assert ann.locator("[data-testid=refusal]").count() == 0
    assert not ann.errors
    ann.context.close()


def test_an_invite_to_a_full_waiting_table_says_every_seat_is_taken(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=2, dice=2, turn_seconds=0)
    host = seated_page(browser, server, t)
    fill_bots(host)
    visitor = new_page(browser, viewport=(390, 844), has_touch=True)
    visitor.goto(server.url + t["invite"])
    visitor.select_option("[data-testid=lang]", "ko")
    visitor.get_by_test_id("full").wait_for()
    assert "자리가 모두 찼습니다" in visitor.inner_text("[data-testid=full]")
    assert visitor.locator("[data-testid=join-name]").count() == 0
    assert not visitor.errors
    host.context.close()
    visitor.context.close()


def test_a_wrong_address_says_there_is_no_such_page(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser, viewport=(390, 844), has_touch=True)
    for path in ("/nonsense/page", "/t/%3Cscript%3E"):
        page.goto(server.url + path)
        page.get_by_test_id("no-page").wait_for()
        assert "There is no such page" in page.inner_text("[data-testid=no-page]")
    page.select_option("[data-testid=lang]", "it")
    assert "Questa pagina non esiste" in page.inner_text("[data-testid=no-page]")
    page.click("[data-testid=no-page] a")
    page.wait_for_selector("[data-testid=create-form]")
    assert not page.errors
    page.context.close()


def test_a_name_of_spaces_is_asked_for_again_and_makes_no_table(
    server: ServerProcess, browser: Any
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.fill("[data-testid=player-name]", "   ")
    page.fill("[data-testid=table-name]", "Spaces only")
    page.click("[data-testid=create]")
    # Said in words (it used to be "some of the form's values are not accepted"), and nothing
    # was made: still the lobby, no such table listed.
    page.get_by_text("Choose a name").first.wait_for()
    assert page.locator("[data-testid=create-form]").count() == 1
    names = [t["name"] for t in server.http("GET", "/api/tables")["tables"]]
    assert "Spaces only" not in names
    assert not page.errors
    page.context.close()


def test_an_invite_link_to_a_table_that_does_not_exist_says_so(
    server: ServerProcess, browser: Any
) -> None:
    page = new_page(browser)
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(server.url + "/t/no-such-table")
    page.get_by_text("There is no such table").wait_for()
    # The answer is final: the page does not ask again (it used to reconnect three times a
    # second for as long as it stayed open, saying "connection lost" each time).
    page.wait_for_timeout(2500)
    assert len(sockets) == 1
    assert page.get_by_text("Connection lost").count() == 0
    assert not page.errors
    page.context.close()
