"""The analysis page in a real browser on a phone: a finished game's decisions, labels,
accuracy and the chart (inline SVG), in English, Korean and Italian; a seat's own analysis
opened with its token (from the end screen's link), the public one from the replay's."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from tests.browser.support import new_page, require_chromium, serve, shot
from tests.server.harness import ServerProcess, heads_up, play_until_over

sync_api = require_chromium()

PHONE = (390, 844)
WORDS = {
    "en": {"title": "Analysis", "chart": "Chance of winning the game after each round"},
    "ko": {"title": "분석", "chart": "라운드마다 게임에서 이길 확률"},
    "it": {"title": "Analisi", "chart": "Probabilità di vincere la partita dopo ogni giro"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "analysis", PERUDO_ROUND_PAUSE="0")


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> dict[str, Any]:
    """A finished heads-up game played over the wire: its id, table and the seats' tokens."""

    async def play() -> dict[str, Any]:
        mover, other = await heads_up(server, dice=2, turn_seconds=0)
        await play_until_over([mover, other], random.Random(5), timeout=90)
        for c in (mover, other):
            await c.until(lambda c=c: c.table is not None and c.table["status"] == "finished")  # type: ignore[misc]
        assert mover.table is not None
        out = {
            "game_id": mover.table["game_id"],
            "table_id": mover.table_id,
            "tokens": {c.seat: c.token for c in (mover, other)},
        }
        for c in (mover, other):
            await c.close()
        return out

    # In a thread of its own: Playwright's sync API keeps an event loop in the main thread.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, play()).result()


def _open(page: Any, url: str, lang: str) -> None:
    page.goto(url)
    page.select_option("[data-testid=lang]", lang)
    page.wait_for_selector("[data-testid=analysis]", timeout=120_000)


@pytest.mark.parametrize("lang", ["en", "ko", "it"])
def test_the_analysis_page_on_a_phone_shows_the_decisions_and_the_chart(
    game: dict[str, Any], server: ServerProcess, browser: Any, lang: str
) -> None:
    page = new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    # The seat's own analysis, as the end screen links it: the token is this browser's.
    page.goto(server.url + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"perudo.token.{game['table_id']}", game["tokens"][0]],
    )
    _open(page, f"{server.url}/analysis/{game['game_id']}?seat=0&table={game['table_id']}", lang)
    text = page.inner_text("[data-testid=analysis]")
    assert WORDS[lang]["title"] in text
    assert WORDS[lang]["chart"] in text
    assert page.locator("[data-testid=decision]").count() > 0
    assert page.locator("[data-testid=accuracy]").count() == 1
    # The chart: one line per seat, drawn inline.
    assert page.locator("[data-testid=analysis-chart] svg polyline").count() == 2
    # It fits the phone: nothing wider than the screen.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], width
    shot(page, f"analysis-{lang}-phone")
    assert not page.errors, page.errors
    page.context.close()


def test_the_replay_links_to_the_public_analysis_and_a_stranger_gets_no_seat(
    game: dict[str, Any], server: ServerProcess, browser: Any
) -> None:
    page = new_page(browser, viewport=PHONE)
    page.goto(f"{server.url}/replay/{game['game_id']}")
    page.click("[data-testid=analysis-link]")
    page.wait_for_selector("[data-testid=analysis]", timeout=120_000)
    assert "Judged from what everyone saw" in page.inner_text("[data-testid=analysis]")
    # Asking for seat 0 without its token: the public analysis (the page sends no token).
    page.goto(f"{server.url}/analysis/{game['game_id']}?seat=0&table={game['table_id']}")
    page.wait_for_selector("[data-testid=analysis]", timeout=120_000)
    assert "Judged from what everyone saw" in page.inner_text("[data-testid=analysis]")
    assert not page.errors, page.errors
    page.context.close()


def test_show_every_hand_at_the_end_from_the_form_to_the_replay_and_the_analysis(
    server: ServerProcess, browser: Any
) -> None:
    """The create form's "show every hand at the end" box makes a table that says so; after
    such a game the replay shows every seat's dice of each round with a link to the whole
    record, and the analysis shows what each call met with every die known (in Italian on a
    phone here, English on the form). A table without it (the module's game) shows none."""
    page = new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(server.url + "/")
    page.fill("[data-testid=player-name]", "Ann")
    page.check("[data-testid=show-hands]")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=show-hands-pill]")
    assert "Every hand is shown at the end" in page.inner_text("[data-testid=show-hands-pill]")

    async def play() -> str:
        mover, other = await heads_up(server, dice=2, turn_seconds=0, show_hands=True)
        await play_until_over([mover, other], random.Random(7), timeout=90)
        await mover.until(lambda: mover.table is not None and mover.table["status"] == "finished")
        game_id = str(mover.table["game_id"] if mover.table else "")
        for c in (mover, other):
            await c.close()
        return game_id

    with ThreadPoolExecutor(1) as pool:
        shown = pool.submit(asyncio.run, play()).result()
    page.goto(f"{server.url}/replay/{shown}")
    page.select_option("[data-testid=lang]", "it")
    page.click("[data-testid=replay-end]")
    page.wait_for_selector("[data-testid=every-hand]")
    assert "Tutte le mani del giro" in page.inner_text("[data-testid=every-hand]")
    assert page.locator("[data-testid=every-hand] .die").count() >= 1
    assert page.get_attribute("[data-testid=record-link]", "href") == f"/api/games/{shown}/record"
    page.click("[data-testid=analysis-link]")
    page.wait_for_selector("[data-testid=analysis]", timeout=120_000)
    assert "Con tutti i dadi noti" in page.inner_text("[data-testid=call-true-count] >> nth=0")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], width
    shot(page, "analysis-every-hand-it-phone")
    assert not page.errors, page.errors
    page.context.close()


def test_without_the_agreement_the_replay_shows_no_hidden_hand(
    game: dict[str, Any], server: ServerProcess, browser: Any
) -> None:
    page = new_page(browser, viewport=PHONE)
    page.goto(f"{server.url}/replay/{game['game_id']}")
    page.click("[data-testid=replay-end]")
    page.wait_for_selector("[data-testid=replay-pos]")
    assert page.locator("[data-testid=every-hand]").count() == 0
    assert page.locator("[data-testid=record-link]").count() == 0
    page.context.close()


def test_the_explain_panel_against_a_bot_judges_the_decision_now_and_the_last_one(
    server: ServerProcess, browser: Any
) -> None:
    """A person creates a two-seat table from the form and fills it with a bot: the table
    page offers the explain panel (issue 28, point 6); on their turn it shows the expert's
    choice for the decision now, and after they bid, that bid judged with its label and its
    estimated loss in the round and the game (Korean on a phone). The server refuses the panel
    among people (tests/server)."""
    page = new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(server.url + "/")
    page.select_option("[data-testid=lang]", "ko")
    page.fill("[data-testid=player-name]", "Ann")
    page.select_option("[data-testid=seats]", "2")
    page.select_option("[data-testid=timer]", "0")
    page.click("[data-testid=create]")
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    page.click("[data-testid=explain-toggle]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=60_000)
    page.wait_for_selector("[data-testid=explain-expert]", timeout=60_000)
    assert "전문가" in page.inner_text("[data-testid=explain-expert]")
    page.click("[data-testid=bids] .bidbtn >> nth=0")
    page.wait_for_selector(
        "[data-testid=explain-last] [data-testid=decision-label]", timeout=60_000
    )
    # Five dice each, outside the book: the bid's loss is estimated by rollouts, in the round
    # and in the game, each with its interval (or it was the expert's own choice).
    last = page.inner_text("[data-testid=explain-last]")
    assert "게임 승리 확률" in last or "전문가와 같은 선택" in last, last
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE[0], width
    shot(page, "explain-ko-phone")
    assert not page.errors, page.errors
    page.context.close()
