"""Words on the page (real Chromium): bot seats named in the page's language (their names come
from perudo.i18n's catalogs, as the server's refusals say them), counts that agree with their
number ("1 spettatore", "1 die each"), and memory mode (P-40) offering bids up to the dice the
game started with, a bid above the dice in play refused in words that do not say how many."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    drawn,
    fill_and_start,
    fill_bots,
    new_page,
    require_chromium,
    seated_page,
    serve,
    shot,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()

# The names of the two easy bots, and of the counts, in each language.
SAID = {
    "en": {"bots": ["Easy bot 1", "Easy bot 2"], "watching": "1 watching", "each": "1 die each"},
    "ko": {"bots": ["쉬운 봇 1", "쉬운 봇 2"], "watching": "관전 1명", "each": "각자 주사위 1개"},
    "it": {
        "bots": ["Bot facile 1", "Bot facile 2"],
        "watching": "1 spettatore",
        "each": "1 dado a testa",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "words", PERUDO_BOT_DELAY="0.05", PERUDO_ROUND_PAUSE="0.2")


def _texts(page: Any, selector: str) -> list[str]:
    return [s.strip() for s in page.locator(selector).all_inner_texts()]


def test_bots_and_counts_are_said_in_the_pages_language(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=1, turn_seconds=0)
    ann = seated_page(browser, server, t)
    fill_bots(ann)
    friend = new_page(browser)  # one spectator
    friend.goto(server.url + t["invite"])
    friend.wait_for_selector("ul[data-testid=seats]")
    try:
        for lang, said in SAID.items():
            ann.select_option("[data-testid=lang]", lang)
            ann.get_by_text(said["watching"], exact=True).wait_for(timeout=5_000)
            names = _texts(ann, "[data-testid=seats] .seatrow .nm")
            assert names == ["Ann", *said["bots"]], (lang, names)
            assert said["each"] in _texts(ann, ".tablehead .pill")
        shot(ann, "words-it-waiting-room")
        ann.click("[data-testid=start]")
        ann.wait_for_selector("[data-testid=felt]")
        # On the table too, and in every seat's spoken label ("1 dado", not "1 dadi").
        felt = _texts(ann, "[data-testid=felt] .seat .who .nm")
        assert felt == ["Ann", *SAID["it"]["bots"]]
        labels = ann.evaluate(
            "() => [...document.querySelectorAll('[data-testid=felt] .seat')]"
            ".map((s) => s.getAttribute('aria-label'))"
        )
        # (The bots may already have put one of them out of the game: "fuori gioco".)
        assert all(("1 dado" in lb or "fuori gioco" in lb) and "dadi" not in lb for lb in labels)
        assert not ann.errors and not friend.errors, ann.errors + friend.errors
    finally:
        friend.context.close()
        ann.context.close()


# Each word of a button's label on one line (Korean wraps between words, never inside one:
# no "복/사").
WRAPPED = """() => [...document.querySelectorAll('button')].filter((b) => {
  if (!b.offsetParent) return false;
  const walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = n.textContent.trim();
    if (!text || /\\s/.test(text)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (tops.size > 1) return true;
  }
  return false;
}).map((b) => b.textContent.trim())"""


def test_korean_on_a_phone_agrees_and_wraps_between_words(
    server: ServerProcess, browser: Any
) -> None:
    # Five dice: the two bots may play whole rounds before 민지's first turn (a bot opens, the
    # other doubts), and with two dice the first loser's next round is a palifico one (P-30),
    # whose felt names no wild face: the pill this test reads would never come.
    t = server.create_table(seats=3, dice=5, turn_seconds=0, player="민지")
    ann = seated_page(browser, server, t, viewport=(390, 844), has_touch=True)
    try:
        ann.select_option("[data-testid=lang]", "ko")
        ann.get_by_text("참가자", exact=True).wait_for()
        assert ann.evaluate(WRAPPED) == []
        fill_and_start(ann)
        ann.wait_for_selector("[data-testid=felt] .wildpill")
        # The particles agree with the word before them ("1은 조커", never "1은(는)").
        assert ann.inner_text("[data-testid=felt] .wildpill").strip() == "1은 조커"
        ann.wait_for_selector("[data-testid=your-turn]", timeout=20_000)
        body = ann.inner_text("body")
        assert not re.search(r"\((는|가|를|와|으)\)", body), body
        assert ann.evaluate(WRAPPED) == []
        shot(ann, "ko-phone-turn", full_page=False)
        assert not ann.errors, ann.errors
    finally:
        ann.context.close()


def test_the_pages_korean_particles_are_perudo_i18ns(server: ServerProcess, browser: Any) -> None:
    """The page applies perudo.i18n.grammar's particle rule to the same templates: the same
    answer for numbers (Sino-Korean readings, powers of ten), Hangul, Latin names, signs."""
    from perudo.i18n.grammar import PARTICLES, korean_particle

    page = new_page(browser)
    try:
        page.goto(server.url + "/")
        page.wait_for_function("() => window.__perudo")
        words = ["1", "2", "3", "5", "6", "7", "8", "10", "20", "100", "1000", "10000", "15"]
        words += ["민지", "봇 1", "조커", "1 (조커)", "길", "Ann", "3 × 5", "쉬운 봇 12", "두도"]
        cases = [[w, c] for w in words for c in PARTICLES]
        got = page.evaluate(
            "(cases) => cases.map(([w, c]) => window.__perudo.particle(w, c))", cases
        )
        assert got == [korean_particle(w, c) for w, c in cases]
    finally:
        page.context.close()


def _ann_to_bid_after_a_loss(page: Any) -> None:
    """Play (Ann calls dudo when she may, else bids the lowest raise) until Ann is to bid in
    a round after the first, so fewer dice are in play than at the start."""
    for _ in range(40):
        page.wait_for_selector("[data-testid=your-turn], [data-testid=game-over]", timeout=20_000)
        assert page.locator("[data-testid=game-over]").count() == 0, "the game ended first"
        round_text = page.inner_text("[data-testid=felt] .round")
        if not re.search(r"\b1\b", round_text) and page.locator("[data-testid=bids]").count():
            return
        seen = int(page.evaluate("() => Number(document.documentElement.dataset.drawn || -1)"))
        dudo = page.locator("[data-testid=actions] [data-action=dudo]")
        (dudo if dudo.count() else page.locator("[data-testid=bids] [data-action]").first).click()
        # Ann's move makes a later version; wait until the page has drawn one. (Waiting for
        # "your turn" to go away misses it when the bot answers within one frame under load.)
        drawn(page, seen + 1)
    raise AssertionError("Ann never came to bid after a round was lost")


def test_p40_memory_mode_offers_bids_to_the_starting_dice_and_hides_the_count_in_a_refusal(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=2, dice=3, turn_seconds=0, memory=True)
    ann = seated_page(browser, server, t, viewport=(390, 844), has_touch=True)
    try:
        fill_and_start(ann)
        _ann_to_bid_after_a_loss(ann)
        # Five dice are in play; the + step still reaches 6, the dice at the start (2 × 3).
        up = ann.locator("[data-testid=step-up]")
        while up.is_enabled():
            up.click()
        quantities = [
            int(q.rstrip("×")) for q in _texts(ann, "[data-testid=bids] .bidbtn .q") if q != "–"
        ]
        assert max(quantities) == 6, quantities
        assert ann.locator("[data-testid=total-dice]").count() == 0
        six = ann.locator("[data-testid=bids] .bidbtn[data-action^='6x']").first
        face = six.get_attribute("data-face")
        six.click()
        refusal = ann.locator("[data-testid=refusal]")
        refusal.wait_for()
        words = refusal.locator(":scope > span").inner_text()
        assert "more dice than there are in play" in words
        assert set(re.findall(r"\d+", words)) <= {"6", str(face)}, words
        # The "why?" detail: links to the rules in the rule book, in the page's language; no
        # count, no rule id, no developer message.
        ann.click("[data-testid=refusal] summary")
        why = ann.inner_text("[data-testid=refusal] details")
        assert "5" not in why, why
        assert not re.search(r"\b[PV]-\d+", why), why
        assert "than there are in play" not in why, why
        links = [a.get_attribute("href") for a in ann.locator("[data-testid=why-rule]").all()]
        assert links and all(re.fullmatch(r"/rules/en#[PV]-\d+", h or "") for h in links), links
        book = ann.context.new_page()
        for link in links:
            book.goto(server.url + link)
            anchor = link.split("#")[1]
            assert book.locator(f"[id='{anchor}']").count() == 1, link
        book.close()
        shot(ann, "memory-refusal-phone", full_page=False)
        assert ann.locator("[data-testid=your-turn]").count() == 1  # still Ann's turn
        assert not ann.errors, ann.errors
    finally:
        ann.context.close()


_CUT_CHOICES = """() => [...document.querySelectorAll('select')]
.filter((s) => s.offsetParent).map((s) => {
  const cs = getComputedStyle(s);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = cs.font;
  const widest = Math.max(...[...s.options].map((o) => pen.measureText(o.text).width));
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16;
  return widest > room ? `${s.dataset.testid || s.name}: ${Math.ceil(widest)} > ${room}` : null;
}).filter(Boolean)"""
"""Every choice of every visible drop-down that would not fit its box (16 px for the arrow)."""


def test_the_options_choices_are_not_cut_on_a_360_px_phone_in_any_language(
    server: ServerProcess, browser: Any
) -> None:
    """The lobby's form and the host's options in the waiting room, at 360x640: the widest
    choice of each drop-down ("only when one person plays"…) fits its box."""
    t = server.create_table(seats=3, dice=1, turn_seconds=0)
    page = seated_page(browser, server, t, viewport=(360, 640))
    lobby = new_page(browser, viewport=(360, 640))
    lobby.goto(server.url + "/")
    try:
        page.click("[data-testid=table-options] summary")
        for lang in SAID:
            for p in (lobby, page):
                p.select_option("[data-testid=lang]", lang)
                p.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
                assert p.evaluate(_CUT_CHOICES) == [], (lang, p.url)
        shot(page, "phone-360-options-it")
    finally:
        lobby.context.close()
        page.context.close()


# A dudo on a one-die bid, the odds hint, the P-34 choice's heading and the host, as the page
# says them (its own modules, in its own language).
SAY = """async (lang) => {
  const i18n = await import('/static/i18n.js');
  const felt = await import('/static/components/felt.js');
  const dice = await import('/static/components/dice.js');
  i18n.setLang(lang);
  const table = { seats: [{ name: '민준', kind: 'human' }, { name: 'Bo', kind: 'human' }] };
  const res = {
    kind: 'dudo', caller: 0, target: 1, bid: '1x6',
    bid_info: { kind: 'bid', quantity: 1, face: 6, text: '1x6' },
    reveals: [], hidden: [], count: 2, holds: true, changes: [[0, -1]], eliminated: [],
  };
  const bid = dice.bidWords({ quantity: 1, face: 5 }, 1);
  return {
    reveal: felt.revealWords(res, table, null, 1),
    hint: i18n.t('game.hint', { bid, holds: '40%', exact: '20%' }),
    choice: i18n.t('game.palifico_choice'),
    host: i18n.t('seat.host'),
  };
}"""


def test_a_dudo_on_a_single_die_the_odds_hint_and_the_palifico_choice_read_well(
    server: ServerProcess, browser: Any
) -> None:
    """English said "calls Dudo on Bo's a single six"; Korean "비드 5가 1개가 맞을 확률" (two
    subject markers); Italian "padrone di casa" for the host and a lower-case "palifico?"."""
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create-form]")
    en, ko, it = (page.evaluate(SAY, lang) for lang in ("en", "ko", "it"))
    assert en["reveal"].startswith("민준 calls Dudo on a single six, bid by Bo."), en
    assert "'s a single" not in en["reveal"]
    assert ko["hint"] == "비드 5가 1개 · 맞을 확률 40% · 정확히 맞을 확률 20%", ko
    assert it["host"] == "organizzatore" and it["choice"] == "Giro palifico?", it
    assert en["choice"] == "Palifico?" and ko["choice"] == "팔라피코 라운드?"
    assert not page.errors, page.errors
    page.context.close()
