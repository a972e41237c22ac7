"""The page in a real browser: Debian's Chromium driven by Playwright against a real server.

Two people in two browser contexts and two bots play a whole game to the end through the
page, in English and in Korean; screenshots go to ``artifacts/browser/`` (git-ignored). The
browser is never downloaded: without ``/usr/bin/chromium`` (``make chromium`` installs it)
these tests skip and say so.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    ANIMATIONS_DONE,
    RELEASE,
    Watcher,
    drawn,
    fill_and_start,
    fill_bots,
    join_as,
    new_page,
    require_chromium,
    seated_page,
    serve,
    settle,
    shot,
    watch_socket,
)
from tests.server.harness import ServerProcess

from perudo.core.views import legal_texts

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
        page.wait_for_function(ANIMATIONS_DONE)  # the revealed hands have animated in
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
    ann, bo = new_page(browser, watch_socket), new_page(browser, watch_socket)
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
    bo_seat = bo.evaluate(
        "() => document.querySelector('[data-testid=felt] .seat.me').dataset.seat"
    )
    # Whose move it is, as Ann's page shows it: hers (her buttons), Bo's, or the game's end;
    # while a bot moves, the wait goes on (a condition, never a pause).
    turn = """(bo) => {
      if (document.querySelector('[data-testid=game-over]')) return 'over';
      if (document.querySelector('[data-testid=actions] [data-action]')) return 'ann';
      const s = document.querySelector('[data-testid=felt] .seat.toact');
      return s && s.dataset.seat === bo ? 'bo' : false;
    }"""
    for _ in range(500):
        who = ann.wait_for_function(turn, arg=bo_seat, timeout=60_000).json_value()
        if who == "over":
            break
        if who == "ann":
            _play_turn(ann, rng, seen_a, f"{lang}-3-ann")
            settle(ann)  # the move answered and drawn
        else:
            bo.wait_for_selector(
                "[data-testid=actions] [data-action], [data-testid=game-over]", timeout=60_000
            )
            _play_turn(bo, rng, seen_b, f"{lang}-3-bo")
            settle(bo)
    else:
        raise AssertionError("the game did not finish through the page in 500 moves")
    bo.wait_for_selector("[data-testid=game-over]")
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
    ann = seated_page(browser, server, t, watch_socket, viewport=(390, 844), has_touch=True)
    sent: list[str] = []
    ann.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    ann.reload()  # the socket opens again, now watched
    fill_bots(ann)
    ann.dblclick("[data-testid=start]")
    ann.wait_for_selector("[data-testid=felt]")
    bids = "[data-testid=bids] .bidbtn[data-action]"
    for _ in range(3):  # three of Ann's turns, each bid double-tapped
        ann.wait_for_selector("[data-testid=your-turn], [data-testid=game-over]")
        if ann.locator("[data-testid=game-over]").count():
            break
        ann.dblclick(bids)
        # Both taps answered (a second one sent would be answered before this ping) and the
        # answers on the page: conditions, never a pause (it failed on a loaded machine).
        settle(ann)
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


def test_a_name_over_24_characters_is_kept_whole_and_the_limit_said_in_the_pages_language(
    server: ServerProcess, browser: Any
) -> None:
    """A 25-character name used to be cut to 24 by the field, without a word: the field now
    keeps what was typed, says the limit (in English, Korean, Italian), and the form makes no
    table; the join form does the same."""
    name = "Bartholomew Fitzgerald-X"  # 24
    page = new_page(browser)
    page.goto(server.url + "/")
    page.fill("[data-testid=player-name]", name + "Y")
    page.fill("[data-testid=table-name]", "Too long a name")
    assert page.input_value("[data-testid=player-name]") == name + "Y"
    note = page.get_by_test_id("name-limit")
    assert note.inner_text() == "A name has at most 24 characters: this one is longer."
    page.select_option("[data-testid=lang]", "ko")
    note.get_by_text("이름은 24자까지").wait_for()
    page.select_option("[data-testid=lang]", "it")
    note.get_by_text("Un nome ha al massimo 24 caratteri").wait_for()
    page.click("[data-testid=create]")
    page.locator(".toast-box .toast").get_by_text("Un nome ha al massimo 24 caratteri").wait_for()
    names = [t["name"] for t in server.http("GET", "/api/tables")["tables"]]
    assert "Too long a name" not in names
    # 24 characters are fine: no note.
    page.fill("[data-testid=player-name]", name)
    assert note.count() == 0
    # The join form of an invite says it too.
    t = server.create_table(seats=3, dice=1, turn_seconds=0)
    page.goto(server.url + t["invite"])
    page.fill("[data-testid=join-name]", name + "Y")
    note.get_by_text("Un nome ha al massimo 24 caratteri").wait_for()
    page.click("[data-testid=join]")
    page.locator(".toast-box .toast").get_by_text("Un nome ha al massimo 24 caratteri").wait_for()
    assert page.locator("[data-testid=join-name]").count() == 1  # not seated
    assert page.locator("[data-testid=wait-host]").count() == 0
    assert not page.errors
    page.context.close()


def test_an_invite_link_to_a_table_that_does_not_exist_says_so(
    server: ServerProcess, browser: Any
) -> None:
    page = new_page(browser, watch_socket)
    page.clock.install()
    page.goto(server.url + "/t/no-such-table")
    page.get_by_text("There is no such table").wait_for()
    page.wait_for_function("() => window.__sockets[0].readyState === WebSocket.CLOSED")
    # The answer is final: the page does not ask again (it used to reconnect three times a
    # second for as long as it stayed open, saying "connection lost" each time). The page's
    # clock runs a minute ahead at once: any retry it had planned would have opened a socket.
    page.clock.run_for(60_000)
    assert page.evaluate("() => window.__sockets.length") == 1
    assert page.get_by_text("Connection lost").count() == 0
    assert not page.errors
    page.context.close()


def test_p50_a_calza_tapped_as_a_raise_arrives_answers_the_bid_drawn_and_is_refused_in_words(
    server: ServerProcess, browser: Any
) -> None:
    """Ann sees Bo's bid and taps Calza (out of turn, P-50) just as Cy's raise reaches her
    page, before the page is drawn again: the Calza button stays (she may call calza on the
    raise too), and the tap used to carry the newest version, so the server judged her calza
    on Cy's raise. Now the move names the bid drawn (``on``): it is refused in words and the
    raise stands."""
    t = server.create_table(seats=4, dice=2, preset="perudo_calza", turn_seconds=0)
    tid = t["table_id"]
    others = {
        s: Watcher(server, tid, server.join(tid, n)["token"])
        for s, n in ((1, "Bo"), (2, "Cy"), (3, "Di"))
    }
    ann = seated_page(browser, server, t, watch_socket)
    ann.click("[data-testid=start]")
    ann.wait_for_selector("[data-testid=felt]")
    bo = others[1]
    # Play until Bo's bid stands and Cy is to act (Ann, seat 0, neither bidder nor next).
    while True:
        bo.wait(lambda: bo.view is not None and bo.view["phase"] == "bidding", "the bidding")
        v = bo.view
        assert v is not None
        if v["bidder"] == 1 and v["to_act"] == 2:
            break
        version = bo.version
        if v["to_act"] == 0:
            ann.wait_for_selector("[data-testid=your-turn]")
            ann.click("[data-testid=bids] .bidbtn[data-action]")
        else:
            mover = others[v["to_act"]]
            mover.wait(lambda m=mover, v=version: m.version >= v, "the mover's view")
            assert mover.view is not None
            mover.act(legal_texts(mover.view["legal"])[0])
        bo.wait(lambda version=version: bo.version > version, "the move")
    seen = bo.view["bid"]
    drawn(ann, bo.version)
    calza = "[data-testid=actions] [data-action=calza]"
    ann.wait_for_selector(calza)
    # Cy raises; Ann's page holds the news until her tap.
    ann.evaluate("() => { window.__hold = true; }")
    cy = others[2]
    cy.wait(lambda: cy.version >= bo.version, "Cy's view")
    assert cy.view is not None
    cy.act(legal_texts(cy.view["legal"])[0])
    bo.wait(lambda: bo.view is not None and bo.view["bid"] != seen, "Cy's raise")
    raised = bo.view["bid"]
    ann.wait_for_function(
        '() => window.__held.some(([, , e]) => String(e.data).includes(\'"type":"update"\'))'
    )
    # The raise reaches the page and the tap lands in the same instant, before a new frame.
    ann.evaluate(f"() => {{ ({RELEASE})(); document.querySelector('{calza}').click(); }}")
    ann.get_by_test_id("refusal").get_by_text("The bid changed before your move arrived").wait_for()
    settle(ann)
    bo.wait(lambda: bo.view is not None, "the view")
    assert bo.view is not None and bo.view["bid"] == raised and bo.view["round"] == 1
    assert not any(e["type"] == "round_resolved" for _, e in bo.events)
    assert not ann.errors, ann.errors
    for w in others.values():
        w.close()
    ann.context.close()


def test_the_replay_draws_bots_as_bots_as_the_live_table_does(
    server: ServerProcess, browser: Any
) -> None:
    """A replay has the seats' names only; its bots used to get a letter avatar ("M" for
    "Medium bot 1") where the live table draws a bot."""
    t = server.create_table(seats=2, dice=1, turn_seconds=0)
    ann = Watcher(server, t["table_id"], t["token"])
    try:
        ann.ws.send(json.dumps({"type": "add_bot", "level": "medium"}))
        ann.wait(lambda: ann.table is not None and ann.table["seats"][1] is not None, "the bot")
        ann.ws.send(json.dumps({"type": "start"}))
        while True:  # one die each: the first challenge ends the game
            ann.wait(
                lambda: ann.view is not None
                and (ann.view["winner"] is not None or ann.view["to_act"] == 0),
                "Ann's turn or the end",
            )
            assert ann.view is not None
            if ann.view["winner"] is not None:
                break
            version = ann.version
            legal = legal_texts(ann.view["legal"])
            ann.act("dudo" if "dudo" in legal else legal[0])
            ann.wait(lambda v=version: ann.version > v, "Ann's move")
        ann.wait(lambda: ann.table is not None and ann.table["game_id"] is not None, "the game")
        assert ann.table is not None
        game_id = ann.table["game_id"]
    finally:
        ann.close()
    page = new_page(browser)
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("[data-testid=felt]")
    live = "[data-testid=felt] .seat[data-seat='{}'] .avatar"
    assert page.locator(live.format(1) + " svg").count() == 1  # the bot's icon
    assert page.inner_text(live.format(0)).strip() == "A"  # Ann's initial
    assert not page.errors
    page.context.close()


def test_a_reveal_before_a_palifico_round_keeps_its_own_rules_and_the_next_round_comes_after_it(
    server: ServerProcess, browser: Any
) -> None:
    """Round 1 ends with a player down to one die: round 2 is a palifico round (P-30, aces not
    wild, P-31). Its banner used to sit above round 1's reveal, whose aces counted as wild:
    now the reveal comes first and says its own round and wild face, the next round's badge
    after it, not over it."""
    t = server.create_table(seats=3, dice=2, turn_seconds=0, preset="perudo")
    tid = t["table_id"]
    others = {
        s: Watcher(server, tid, server.join(tid, n)["token"]) for s, n in ((1, "Bo"), (2, "Cy"))
    }
    ann = seated_page(browser, server, t)
    ann.click("[data-testid=start]")
    ann.wait_for_selector("[data-testid=felt]")
    bo = others[1]
    resolved = lambda: any(e["type"] == "round_resolved" for _, e in bo.events)  # noqa: E731
    while not resolved():
        bo.wait(lambda: bo.view is not None and bo.view["to_act"] is not None, "a seat to act")
        v = bo.view
        assert v is not None
        version = bo.version
        if v["to_act"] == 0:
            ann.wait_for_selector("[data-testid=your-turn]")
            dudo = ann.locator("[data-testid=actions] [data-action=dudo]")
            (
                dudo if dudo.count() else ann.locator("[data-testid=bids] [data-action]").first
            ).click()
        else:
            mover = others[v["to_act"]]
            mover.wait(lambda m=mover, v=version: m.version >= v, "the mover's view")
            assert mover.view is not None
            legal = legal_texts(mover.view["legal"])
            mover.act("dudo" if "dudo" in legal else legal[0])
        bo.wait(lambda v=version: bo.version > v or resolved(), "the move")
    bo.wait(lambda: bo.view is not None and bo.view["round"] == 2, "round 2")
    assert bo.view is not None and bo.view["palifico"], bo.view
    middle = "[data-testid=felt] .middle"
    ann.wait_for_selector(f"{middle} .badges .pill.gold")  # round 2: a palifico round
    ann.wait_for_selector(f"{middle} [data-testid=reveal]")
    where = ann.evaluate(
        """(sel) => {
          const m = document.querySelector(sel);
          const reveal = m.querySelector('[data-testid=reveal]').getBoundingClientRect();
          const round = m.querySelector(':scope > .round').getBoundingClientRect();
          const badge = m.querySelector('.badges .pill.gold').getBoundingClientRect();
          return { revealBottom: reveal.bottom, roundTop: round.top, badgeTop: badge.top };
        }""",
        middle,
    )
    assert where["revealBottom"] <= where["roundTop"] <= where["badgeTop"], where
    rules = ann.inner_text(f"{middle} [data-testid=reveal-rules]")
    assert "Round 1" in rules and "wild" in rules and "Palifico" not in rules, rules
    # The history draws round 1 from the update's round_resolved event (its past_tail carries
    # the round without its result and its actions, which travel once).
    history = ann.text_content(".history .histround") or ""
    assert "Round 1" in history and "Dudo" in history and "-1" in history, history
    shot(ann, "en-reveal-before-palifico", full_page=False)
    assert not ann.errors, ann.errors
    for w in others.values():
        w.close()
    ann.context.close()
