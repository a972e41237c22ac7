"""A rated four-player game among signed-in people, played wholly through the page
(docs/ratings.md, the pool of tables of three or more): four people, each in a browser context
of their own, sign up on /account; one creates a rated four-seat table (one die each) with the
lobby's form, the three others open the invite link and sit down; the host starts and every
move is a click on the page's own action buttons. The end screen shows each seat's rating
change (a winner's never falls), the winner's profile at ``/@/<name>`` shows the table rating,
and ``/api/players/<name>`` has one history entry per player while ``/api/leaderboard`` lists
no provisional player. Two of the four are on phones in Korean, two on laptops in Italian: each
end screen and profile in its own words."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    AFTER_FRAME,
    CHEAP_ARGON2,
    WATCH_SOCKET,
    drawn,
    join_as,
    page_in,
    require_chromium,
    serve,
    settle,
)
from tests.server.harness import ServerProcess

sync_api = require_chromium()

PASSWORD = "correct horse battery staple"
WORDS = {"ko": "레이팅", "it": "punteggio"}
PROVISIONAL = {"ko": "잠정", "it": "provvisorio"}
SEATS = 4
# Each person's language and viewport, in the order they sit down: the host on a Korean phone.
DEVICES = [("ko", (390, 844)), ("it", (1366, 900))] * (SEATS // 2)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "rated_table_page", PERUDO_ROUND_PAUSE="0.2", **CHEAP_ARGON2)


def _signed_up(browser: Any, srv: ServerProcess, lang: str, viewport: tuple[int, int]) -> Any:
    """A person in a new context who signed up with a password on the account page; the
    context's sockets are watched (for :func:`settle`)."""
    page = page_in(browser, srv, lang, viewport)
    page.context.add_init_script(WATCH_SOCKET)
    page.name = "p" + secrets.token_hex(4)
    page.lang = lang
    page.goto(srv.url + "/account")
    page.fill("[data-testid=account-name]", page.name)
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=sign-up-button]")
    page.wait_for_selector("[data-testid=account]")
    return page


def _move(page: Any, rng: random.Random) -> None:
    """One click on one of the page's legal action buttons, answered and drawn."""
    buttons = page.locator("[data-testid=actions] [data-action]")
    actions = [buttons.nth(k).get_attribute("data-action") for k in range(buttons.count())]
    choice = "dudo" if "dudo" in actions and rng.random() < 0.5 else actions[0]
    page.click(f"[data-testid=actions] [data-action='{choice}']")
    settle(page)  # the server answered the move and the page handled the answer
    page.evaluate(AFTER_FRAME)  # and drew it (its <html data-drawn> is the move's version)


# Whose move it is, as the host's page shows it: the seat to act, or "over".
TO_ACT = """() => {
  if (document.querySelector('[data-testid=game-over]')) return 'over';
  const s = document.querySelector('[data-testid=felt] .seat.toact');
  return s ? s.dataset.seat : false;
}"""


def test_four_signed_in_people_play_a_rated_table_through_the_page(
    browser: Any, server: ServerProcess
) -> None:
    people = [_signed_up(browser, server, lang, viewport) for lang, viewport in DEVICES]
    host = people[0]
    host.goto(server.url + "/")
    host.fill("[data-testid=player-name]", "x")
    host.fill("[data-testid=table-name]", "rated four")
    host.select_option("[data-testid=dice]", "1")
    host.select_option("[data-testid=seats]", str(SEATS))
    host.check("[data-testid=rated]")
    host.click("[data-testid=create]")
    host.wait_for_url("**/t/*")
    host.wait_for_selector("[data-testid=invite-link]", state="attached")
    invite = host.input_value("[data-testid=invite-link]")
    for page in people[1:]:
        join_as(page, invite, "x")
    host.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=seats] .seatrow:not(.emptyseat)')"
        ".length === n",
        arg=SEATS,
    )
    host.click("[data-testid=start]")
    by_seat: dict[str, Any] = {}
    for page in people:
        page.wait_for_selector("[data-testid=felt] .seat.me")
        seat = page.evaluate(
            "() => document.querySelector('[data-testid=felt] .seat.me').dataset.seat"
        )
        by_seat[seat] = page
    assert len(by_seat) == SEATS
    rng = random.Random(11)
    for _ in range(200):
        who = host.wait_for_function(TO_ACT, timeout=30_000).json_value()
        if who == "over":
            break
        mover = by_seat[who]
        mover.wait_for_selector("[data-testid=actions] [data-action]")
        _move(mover, rng)
        # The host's page has drawn what the mover's page drew after the move, so that the
        # next turn is read from the table after it (never from a stale frame).
        drawn(host, mover.evaluate("() => Number(document.documentElement.dataset.drawn)"))
    else:
        raise AssertionError("the rated game did not finish through the page in 200 moves")

    # Every end screen shows the four seats' rating changes (provisional after one game).
    deltas: list[int] = []
    for page in people:
        page.wait_for_selector("[data-testid=game-over]")
        deltas = []
        for seat in range(SEATS):
            change = page.locator(f"[data-testid=rating-change-{seat}]")
            change.wait_for()
            text = change.inner_text()
            assert WORDS[page.lang] in text and PROVISIONAL[page.lang] in text, text
            deltas.append(int(change.get_attribute("data-delta")))
        assert page.errors == []
    assert max(deltas) > 0 > min(deltas), deltas
    winner = by_seat[str(deltas.index(max(deltas)))]
    # The winner's profile shows the table rating and its chart; the API has one history
    # entry for every player, whose rating moved by the change the end screen showed.
    winner.goto(f"{server.url}/@/{winner.name}")
    winner.wait_for_selector("[data-testid=profile]")
    rating = winner.inner_text("[data-testid=rating-perudo-table]")
    assert PROVISIONAL[winner.lang] in rating
    chart = "[data-testid=rating-perudo-table] [data-testid=rating-chart]"
    assert winner.locator(chart).count() == 1
    for seat, page in by_seat.items():
        got = server.http("GET", f"/api/players/{page.name}")
        table = got["variants"]["perudo"]["ratings"]["table"]
        assert table["games"] == 1 and table["provisional"] is True, table
        assert len(table["history"]) == 1, table
        assert table["history"][0]["rating"] == table["rating"]
        assert table["rating"] - 1500 == pytest.approx(deltas[int(seat)], abs=1), (table, deltas)
    board = server.http("GET", "/api/leaderboard?variant=perudo&pool=table")
    assert board["players"] == [], board  # one game each: every rating still provisional
    for page in people:
        assert page.errors == []
        page.context.close()
