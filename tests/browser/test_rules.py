"""The rules page in a real browser: reached from the lobby's and the table's navigation in the
page's language, rendered in English, Korean and Italian from the project's own rule texts, with
the seeds' worked examples and words, no rule id visible to a player, and no sideways scrolling
on a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import new_page, require_chromium, serve, shot, take_seat
from tests.server.harness import ServerProcess

require_chromium()

WORDS = {
    "en": ["How to play Perudo", "dudo", "palifico", "calza", "four aces!", "nine 3s!"],
    "ko": ["페루도 하는 법", "비드", "두도", "팔라피코", "칼자", "조커 4개!", "3이 9개!"],
    "it": ["Come si gioca a Perudo", "dubito", "palifico", "calza", "teste d'Azteco", "nove 3!"],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "rules")


def _read(page: Any) -> str:
    page.wait_for_selector("[data-testid=rulebook] h1")
    return str(page.inner_text("[data-testid=rulebook]"))


def test_the_rules_page_renders_in_three_languages(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.click("[data-testid=nav-rules]")
    page.wait_for_url(re.compile(r"/rules/en$"))
    for lang in ("en", "ko", "it"):
        if lang != "en":
            page.click(f"[data-testid=rules-lang-{lang}]")
            page.wait_for_url(re.compile(rf"/rules/{lang}$"))
        text = _read(page)
        assert page.evaluate("document.documentElement.lang") == lang
        for word in WORDS[lang]:
            assert word in text, f"{lang}: {word!r} is not on the rules page"
        # Rule ids are anchors for links ("why?" details), never words a player reads.
        assert not re.search(r"\b[PV]-\d+", text), re.findall(r".{20}\b[PV]-\d+.{20}", text)
        assert page.locator("[id='P-34']").count() == 1
        # The variants' table is there and readable.
        assert page.locator("[data-testid=rulebook] table tr").count() == 13
        shot(page, f"rules-{lang}")
    assert page.errors == []


def test_a_phone_reads_the_rules_without_sideways_scrolling(
    server: ServerProcess, browser: Any
) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    page = ctx.new_page()
    for lang in ("en", "ko", "it"):
        page.goto(f"{server.url}/rules/{lang}")
        _read(page)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), lang
        # The way back is one line, not a syllable a line.
        back_lines = page.evaluate(
            """() => { const el = document.querySelector('[data-testid=rules-back]');
                       const size = parseFloat(getComputedStyle(el).fontSize);
                       return el.getBoundingClientRect().height / size; }"""
        )
        assert back_lines < 2, (lang, back_lines)
        shot(page, f"rules-{lang}-phone", full_page=False)
    ctx.close()


def test_the_table_links_to_the_rules_in_the_players_language(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table()
    page = new_page(browser)
    take_seat(page, server, t)
    page.select_option("[data-testid=lang]", "ko")
    page.wait_for_selector("[data-testid=seats]")
    assert page.get_attribute("[data-testid=nav-rules]", "href") == "/rules/ko"
    assert page.inner_text("[data-testid=nav-rules]") == "규칙"
    page.click("[data-testid=nav-rules]")
    assert "페루도 하는 법" in _read(page)
    page.click("[data-testid=rules-back]")
    page.wait_for_selector("[data-testid=create]")


def test_rules_pick_the_browsers_language_and_refuse_an_unknown_one(
    server: ServerProcess, browser: Any
) -> None:
    ctx = browser.new_context(locale="it-IT", extra_http_headers={"accept-language": "it-IT,it"})
    page = ctx.new_page()
    page.goto(server.url + "/rules")
    assert page.url.endswith("/rules/it")
    response = page.goto(server.url + "/rules/fr")
    assert response is not None and response.status == 404
    assert "English" in page.inner_text("body") and "한국어" in page.inner_text("body")
    ctx.close()
