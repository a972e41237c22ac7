"""Seats that follow people, on the page (real Chromium): only the host sees the controls
that start the game and manage bots (a guest is told whom the table waits for); the odds hint
is off as soon as two people sit at the table (a table option); a seat moves to another device
through its private link (QR code shown), the old page then watching; and leaving during a
game hands the seat to a bot while the person watches."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    join_as,
    new_page,
    require_chromium,
    seated_page,
    serve,
    shot,
    start_with_bots,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "seats", PERUDO_BOT_DELAY="0.05", PERUDO_ROUND_PAUSE="0.2")


def test_host_controls_odds_a_seat_moved_to_another_device_and_leaving_mid_game(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=3, turn_seconds=0)
    ann = seated_page(browser, server, t)
    bo = new_page(browser)
    join_as(bo, server.url + t["invite"], "Bo")
    # The guest sees whom the table waits for, and no start or bot controls.
    assert "Ann" in bo.inner_text("[data-testid=wait-host]")
    assert bo.locator("[data-testid=start], [data-testid=fill-bots]").count() == 0
    assert ann.locator("[data-testid=host-badge]").count() == 1
    watcher = start_with_bots(ann, server, t)
    try:
        # Two people at the table: the odds hint (auto) is not shown to either.
        for page in (ann, bo):
            page.wait_for_selector("[data-testid=felt]")
        watcher.wait(
            lambda: watcher.table is not None and watcher.table["odds_shown"] is False,
            "the odds off",
        )
        assert ann.locator("[data-testid=hint]").count() == 0
        # Ann moves her seat to another device: the link and its QR code, on her page only.
        ann.click("[data-testid=transfer]")
        ann.wait_for_selector("[data-testid=transfer-link] svg")
        link = ann.input_value("[data-testid=transfer-link] input")
        assert "#transfer=" in link and bo.locator("[data-testid=transfer-link]").count() == 0
        shot(ann, "en-seat-transfer", full_page=False)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        other = phone.new_page()
        other_errors: list[str] = []
        other.on("pageerror", lambda e: other_errors.append(str(e)))
        other.goto(link)
        other.wait_for_selector("[data-testid=my-hand] .die", timeout=10_000)
        assert "#transfer" not in other.url
        ann.wait_for_function(
            "() => !document.querySelector('[data-testid=my-hand]')", timeout=10_000
        )
        assert ann.locator("[data-testid=panel]").inner_text().strip() != ""
        # Bo leaves during the game: confirmed in two taps; a bot plays his seat, he watches.
        bo.click("[data-testid=leave-table]")
        bo.click("[data-testid=leave-confirm]")
        bo.wait_for_function("() => !document.querySelector('[data-testid=my-hand]')")
        watcher.wait(
            lambda: watcher.table is not None and watcher.table["seats"][1]["kind"] == "bot",
            "a bot in Bo's seat",
        )
        assert not ann.errors and not bo.errors and not other_errors
        phone.close()
    finally:
        watcher.close()
        ann.context.close()
        bo.context.close()


def test_the_host_changes_the_odds_and_the_timer_in_the_waiting_room_and_the_guest_sees_it(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=3, turn_seconds=60)
    ann = seated_page(browser, server, t)
    bo = new_page(browser, viewport=(390, 844), has_touch=True)
    try:
        join_as(bo, server.url + t["invite"], "Bo")
        summary = bo.locator("[data-testid=options-summary]")
        summary.wait_for()
        assert "only when one person plays" in summary.inner_text()
        assert bo.locator("[data-testid=table-options]").count() == 0  # the host's only
        ann.click("[data-testid=table-options] summary")
        ann.select_option("[data-testid=opt-odds]", "on")
        bo.wait_for_function(
            "() => /Odds hint: on\\b/.test("
            "document.querySelector('[data-testid=options-summary]').textContent)"
        )
        ann.select_option("[data-testid=opt-timer]", "30")
        # The options show what the server holds: the timer's change comes back to Ann's page
        # and draws the checkbox again from the server's (still unchecked) memory mode. So it
        # is ticked once that has come back, not while it may undo the tick.
        ann.locator(".tablehead .pill", has_text="30 s").wait_for()
        ann.check("[data-testid=opt-memory]")
        bo.locator(".tablehead .pill", has_text="memory mode").wait_for()
        bo.locator(".tablehead .pill", has_text="30 s").wait_for()
        shot(bo, "phone-guest-sees-options", full_page=False)
        # The page shows what the server holds.
        table = server.http("GET", f"/api/tables/{t['table_id']}")
        assert (table["odds"], table["turn_seconds"], table["memory"]) == ("on", 30, True)
        assert not ann.errors and not bo.errors, ann.errors + bo.errors
    finally:
        bo.context.close()
        ann.context.close()


def test_a_name_already_at_the_table_is_refused_in_the_pages_language_not_as_a_bare_refusal(
    server: ServerProcess, browser: Any
) -> None:
    """An HTTP refusal (here joining under a name already seated) reaches the friend in words
    for what went wrong, in the page's language; the page read the code from a field the
    server never sends and said only "refused"."""
    t = server.create_table(seats=3, dice=3)
    ann = seated_page(browser, server, t)
    bo = new_page(browser, viewport=(390, 844), has_touch=True)
    try:
        bo.goto(server.url + t["invite"])
        bo.select_option("[data-testid=lang]", "it")
        bo.fill("[data-testid=join-name]", "ann")
        bo.click("[data-testid=join]")
        toast = bo.locator(".toast-box .toast").first
        toast.wait_for()
        said = toast.inner_text()
        assert "nome" in said, said
        assert "Rifiutato" not in said, said
        assert bo.locator("[data-testid=wait-host]").count() == 0  # nothing changed
        assert bo.errors == []
    finally:
        bo.context.close()
        ann.context.close()


def test_a_seat_open_on_two_devices_warns_on_both_in_their_words_until_one_closes(
    server: ServerProcess, browser: Any
) -> None:
    """Ann's seat open on her laptop and her phone at once used to say nothing (a move from
    either counts): both now say so, each in its own language, until one of them closes."""
    t = server.create_table(seats=3, dice=2, turn_seconds=0)
    laptop = seated_page(browser, server, t)
    laptop.wait_for_selector("ul[data-testid=seats]")
    assert laptop.get_by_test_id("two-devices").count() == 0
    phone = seated_page(browser, server, t, viewport=(390, 844), has_touch=True)
    phone.select_option("[data-testid=lang]", "ko")
    laptop.get_by_test_id("two-devices").get_by_text("open on another device").wait_for()
    phone.get_by_test_id("two-devices").get_by_text("다른 기기나 탭에서도 열려").wait_for()
    shot(phone, "ko-two-devices", full_page=False)
    phone.context.close()
    laptop.wait_for_selector("[data-testid=two-devices]", state="detached")
    assert not laptop.errors
    laptop.context.close()
