"""The page's heartbeat on the table's WebSocket, in a real browser: a connection that dies
silently is noticed and resumed.

A connection can die with no sign (a Wi-Fi switch, a dead NAT entry): no ``offline`` event, no
close, and TCP takes minutes to notice. The page pings while its table socket is open and takes
the socket for dead when nothing at all comes back within the timeout. Here the heartbeat is
fast (``window.PERUDO_HEARTBEAT``, set before the page's script loads), and the table socket of
Ann's page is routed through Playwright (``route_web_socket``), every message forwarded both
ways, so that the test can lose one message, or cut the link both ways without closing either
side. A spectator on a plain WebSocket (not routed) says what the server has.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.browser.support import (
    BACK,
    LOST,
    Watcher,
    assert_page_shows,
    new_page,
    read_as_fresh,
    require_chromium,
    serve,
    start_with_bots,
    take_seat,
    watch_socket,
)
from tests.server.harness import ServerProcess

require_chromium()

INTERVAL_MS = 250
# The page's own clock is run ahead past the timeout where a test wants a loss noticed; in real
# time a pong routed through Playwright on a loaded machine can take over a second, and a short
# timeout then takes the live socket for dead (a CI run saw Ann's move leave on a third socket).
TIMEOUT_MS = 5000
# Silence is noticed at most one interval and one timeout (of the page's clock) after it starts.
TABLE_SOCKET = re.compile(r"/ws/tables/[\w-]+$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Bots quick but not instant; a long drop grace, so that no stand-in plays for Ann."""
    yield from serve(
        tmp_path_factory,
        "heartbeat",
        PERUDO_BOT_DELAY="0.1",
        PERUDO_ROUND_PAUSE="0.2",
        PERUDO_DROP_GRACE="30",
    )


class Link:
    """One table socket of the page, routed: the page's messages go to the server and the
    server's to the page, each recorded, until :meth:`cut` (from then on nothing goes either
    way, and neither side is closed: a silent loss)."""

    def __init__(self, route: Any) -> None:
        self.route = route
        self.sent: list[tuple[float, dict[str, Any], bool]] = []
        """What the page sent: (when, message, whether it reached the server)."""
        self.got: list[dict[str, Any]] = []
        """What the page was given, in order."""
        self.dropped: list[dict[str, Any]] = []
        """What the server sent that the page never got."""
        self.cut_at: float | None = None
        self.cut_after_act = False
        self.drop_one: Callable[[dict[str, Any]], bool] | None = None
        self.page_closed = False
        self.server = route.connect_to_server()
        route.on_message(self._from_page)
        route.on_close(self._page_close)
        self.server.on_message(self._from_server)

    def cut(self) -> None:
        self.cut_at = time.monotonic()

    def _from_page(self, message: str | bytes) -> None:
        m = json.loads(message)
        through = self.cut_at is None
        self.sent.append((time.monotonic(), m, through))
        if through:
            self.server.send(message)
            if m["type"] == "act" and self.cut_after_act:
                self.cut()

    def _from_server(self, message: str | bytes) -> None:
        m = json.loads(message)
        if self.cut_at is not None or (self.drop_one is not None and self.drop_one(m)):
            self.drop_one = None
            self.dropped.append(m)
            return
        self.route.send(message)
        self.got.append(m)

    def _page_close(self, code: int | None, reason: str | None) -> None:
        # The page closed its socket. On a dead link the server is not told.
        self.page_closed = True
        if self.cut_at is None:
            self.server.close(code=code, reason=reason)

    def sent_of(self, kind: str) -> list[tuple[float, dict[str, Any], bool]]:
        return [s for s in self.sent if s[1]["type"] == kind]

    def got_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.got if m["type"] == kind]

    def version(self) -> int:
        """The page's version as this link brought it (pongs and errors do not count)."""
        return max(
            (m["version"] for m in self.got if m["type"] not in ("pong", "error")), default=-1
        )


def _until(page: Any, cond: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait for ``cond`` (about the routed messages, or the watcher's socket), polling through
    Playwright. Playwright forwards a routed socket's messages only while it is called, so
    every wait of these tests goes through here and not ``Watcher.wait``: waiting outside it
    for more than a heartbeat's timeout would leave the page's pings unanswered, and the page
    would rightly take its live socket for dead (a CI run saw the page open a third socket
    that way, and Ann's move went out on it). The short poll decides nothing; the condition
    does, with a generous deadline."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(20)


def _open_seat(
    browser: Any, srv: ServerProcess, t: dict[str, Any], routed: bool = True
) -> tuple[Any, list[Link]]:
    """A new browser context holding the seat token of ``t``'s creator, on the table's page,
    with the fast heartbeat and (``routed``) its table sockets routed through :class:`Link`."""
    links: list[Link] = []

    def prepare(ctx: Any) -> None:
        ctx.add_init_script(
            f"window.PERUDO_HEARTBEAT = {{ interval: {INTERVAL_MS}, timeout: {TIMEOUT_MS} }};"
        )
        watch_socket(ctx)
        # The page's clock runs as usual, and a test may run it ahead at once (page.clock):
        # what the heartbeat does in a span of the page's time is then no race with the machine.
        ctx.clock.install()
        if routed:
            ctx.route_web_socket(TABLE_SOCKET, lambda route: links.append(Link(route)))

    page = new_page(browser, prepare)
    take_seat(page, srv, t)
    return page, links


def _ann_to_act(watcher: Watcher, ann: int) -> Callable[[], bool]:
    def cond() -> bool:
        tb, v = watcher.table, watcher.view
        return bool(
            tb is not None
            and tb["seats"][ann]["connected"]
            and not tb["seats"][ann]["away"]
            and v is not None
            and v["phase"] == "bidding"
            and v["to_act"] == ann
        )

    return cond


def test_pings_flow_while_healthy_and_a_pong_ahead_brings_what_was_missed(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=3, turn_seconds=0)  # Perudo: calza off
    ann = t["seat"]
    page, links = _open_seat(browser, server, t)
    watcher = start_with_bots(page, server, t)
    try:
        _until(page, _ann_to_act(watcher, ann), "Ann's turn")
        page.get_by_test_id("your-turn").wait_for(timeout=10_000)
        (link,) = links
        quiet = watcher.version
        _until(page, lambda: link.version() >= quiet, "the page at the server's version")

        # While healthy, the page pings on its heartbeat; each ping is answered with the
        # table's version, and nothing else moves: no sync, no new socket, the same version.
        # Three intervals of the page's clock, each run ahead at once: a ping each, answered.
        pings, pongs = len(link.sent_of("ping")), len(link.got_of("pong"))
        for k in range(1, 4):
            page.clock.run_for(INTERVAL_MS)
            _until(page, lambda k=k: len(link.got_of("pong")) >= pongs + k, f"pong {k}")
        # Each pong answers one ping.
        assert len(link.sent_of("ping")) >= len(link.got_of("pong")) >= pongs + 3
        assert len(link.sent_of("ping")) >= pings + 3
        assert all(m == {"type": "ping"} for _, m, _ in link.sent_of("ping"))
        assert {m["version"] for m in link.got_of("pong")[pongs:]} == {quiet}
        assert watcher.version == quiet == link.version()
        assert not link.sent_of("sync") and len(links) == 1 and not link.dropped

        # One message is lost on a live socket (the spectator's chat line, kept from the page):
        # the next pong is ahead of the page, which asks for what it missed with `sync` from
        # its own version, and the server's answer brings the line.
        link.drop_one = lambda m: m["type"] == "chat"
        watcher.ws.send(json.dumps({"type": "chat", "text": "psst, Ann"}))
        _until(page, lambda: watcher.version > quiet, "the chat line")
        said = watcher.version
        _until(page, lambda: bool(link.sent_of("sync")), "a sync from the page")
        assert [m["type"] for m in link.dropped] == ["chat"]
        _, sync, _ = link.sent_of("sync")[0]
        assert sync == {"type": "sync", "last_version": quiet}
        page.get_by_test_id("chat-lines").get_by_text("psst, Ann").wait_for(timeout=5_000)
        ahead = next(
            k for k, m in enumerate(link.got) if m["type"] == "pong" and m["version"] > quiet
        )
        answer = [m for m in link.got[ahead + 1 :] if m["type"] != "pong"]
        assert answer[0]["type"] == "update" and answer[0]["version"] == said
        assert answer[0]["events"] == []
        assert answer[1]["type"] == "chat" and answer[1]["entry"]["text"] == "psst, Ann"
        assert page.get_by_test_id("chat-lines").get_by_text("psst, Ann").count() == 1

        # The page's version is the server's: Ann's move carries it (and the round and bid it
        # answers), and the server takes it.
        shown = watcher.view
        assert shown is not None
        first = page.locator("[data-testid=actions] [data-action]").first
        action = first.get_attribute("data-action")
        first.click()
        _until(
            page,
            lambda: any(v > said and e.get("seat") == ann for v, e in watcher.events),
            f"Ann's {action}",
        )
        _, act, through = link.sent_of("act")[-1]
        on = [shown["round"], shown["bid"]]
        assert through and act == {"type": "act", "action": action, "version": said, "on": on}
        _until(page, lambda: link.version() >= watcher.version, "the page after Ann's move")
        # (more than one sync only if a second pong came before the answer: all from `quiet`)
        assert {json.dumps(m) for _, m, _ in link.sent_of("sync")} == {json.dumps(sync)}

        # Leaving the table page closes the socket and stops the heartbeat: no ping after it,
        # though the page's clock runs four intervals ahead.
        page.click("#nav-lobby")
        page.get_by_test_id("create-form").wait_for()
        _until(page, lambda: link.page_closed, "the page to close its socket")
        sent_pings = "() => window.__sent.filter((m) => JSON.parse(m).type === 'ping').length"
        pings = page.evaluate(sent_pings)
        page.clock.run_for(4 * INTERVAL_MS)
        assert page.evaluate(sent_pings) == pings and len(links) == 1
        assert page.evaluate("() => window.__sockets.length") == 1
        assert not page.errors, page.errors
    finally:
        watcher.close()
        page.context.close()


def test_a_silent_loss_is_noticed_and_the_page_resumes_where_the_server_is(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=3, turn_seconds=0)
    ann = t["seat"]
    page, links = _open_seat(browser, server, t)
    watcher = start_with_bots(page, server, t)
    fresh = None
    try:
        _until(page, _ann_to_act(watcher, ann), "Ann's turn")
        page.get_by_test_id("your-turn").wait_for(timeout=10_000)
        (link,) = links
        _until(page, lambda: link.version() >= watcher.version, "the page at the server's")

        # Ann raises; her move reaches the server, and then the link dies both ways with
        # nothing closed: the bots play on and the page hears none of it.
        link.cut_after_act = True
        first = page.locator("[data-testid=actions] [data-action]").first
        action = first.get_attribute("data-action")
        first.click()
        _until(page, lambda: link.cut_at is not None, "Ann's move and the cut")
        cut_at = link.cut_at
        assert cut_at is not None
        seen = link.version()
        _until(
            page,
            lambda: any(v > seen and e.get("seat") == ann for v, e in watcher.events),
            f"Ann's {action}",
        )

        # The page notices within an interval and a timeout of its own clock (run ahead that
        # far at once, not waited out): it says so, closes the dead socket itself, and pings
        # on it no more.
        page.clock.run_for(INTERVAL_MS + TIMEOUT_MS)
        page.get_by_text(LOST).wait_for()
        _until(page, lambda: link.page_closed, "the page to close the dead socket")
        unanswered = [m for when, m, through in link.sent if when >= cut_at]
        assert unanswered and all(m == {"type": "ping"} for m in unanswered), unanswered
        assert link.dropped, "the server sent nothing while the link was cut"
        pings_on_dead = len(link.sent_of("ping"))

        # It reconnects on a new socket whose hello carries the page's last version; the server
        # sends what was missed, and the page says it is back.
        page.get_by_text(BACK).wait_for(timeout=5_000)
        assert len(links) == 2
        back = links[1]
        _until(page, lambda: bool(back.sent) and bool(back.got), "the hello and its answer")
        _, hello, _ = back.sent[0]
        assert hello == {"type": "hello", "token": t["token"], "last_version": seen}
        assert back.got[0]["type"] == "update" and back.got[0]["version"] > seen
        # The watcher (another socket) may hear the last of those moves after the page does.
        _until(page, lambda: watcher.version >= back.got[0]["version"], "the watcher caught up")
        missed = [e for v, e in watcher.events if seen < v <= back.got[0]["version"]]
        public = [e for e in back.got[0]["events"] if e["type"] != "dice_dealt"]
        assert public == [e for e in missed if e["type"] != "dice_dealt"]
        assert any(e["type"] == "action" and e["seat"] != ann for e in public)

        # The game waits for Ann (her seat never looked empty to the server: no stand-in); the
        # page then equals the server and a fresh load of the same seat.
        _until(page, _ann_to_act(watcher, ann), "Ann's turn after the cut")
        quiet = watcher.version
        _until(page, lambda: back.version() >= quiet, "the page at the server's version")
        fresh, _ = _open_seat(browser, server, t, routed=False)
        fresh.get_by_test_id("your-turn").wait_for(timeout=10_000)
        on_page = read_as_fresh(page, fresh)
        v = watcher.view
        assert v is not None and watcher.version == quiet == back.version()
        assert_page_shows(on_page, v, ann)
        assert on_page["your_turn"] and on_page["actions"]

        # The dead socket's close comes at last: the page ignores it (no second loss, no third
        # socket). Ann plays on through the new one, with the server's version.
        link.route.close()
        choice = on_page["actions"][0]
        page.click(f"[data-testid=actions] [data-action='{choice}']")
        _until(
            page,
            lambda: any(v > quiet and e.get("seat") == ann for v, e in watcher.events),
            f"Ann's {choice} after the reconnect",
        )
        _, act, through = back.sent_of("act")[-1]
        on = [v["round"], v["bid"]]
        assert through and act == {"type": "act", "action": choice, "version": quiet, "on": on}
        mine = next(v for v, e in watcher.events if v > quiet and e.get("seat") == ann)
        _until(
            page,
            lambda: any(v > mine and e.get("seat") != ann for v, e in watcher.events),
            "a move after Ann's",
        )
        _until(page, lambda: back.version() >= mine + 1, "the bots' move on the page")
        assert len(links) == 2
        assert len(link.sent_of("ping")) == pings_on_dead, "the dead socket's heartbeat ran on"
        assert back.got_of("pong"), "no heartbeat on the new socket"
        assert not page.errors and not fresh.errors, page.errors + fresh.errors
    finally:
        watcher.close()
        page.context.close()
        if fresh is not None:
            fresh.context.close()
