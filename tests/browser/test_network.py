"""Losing the network in the middle of a game, in a real browser, and getting it back.

Ann plays at a table with two bots in Debian's Chromium (Playwright) against a real server.
Her browser context goes offline (``context.set_offline``): the page must say the connection
is lost, the game must go on without her (the bots, then a stand-in for her seat after the
drop grace), and when the network is back the page must say so, ask the server for what it
missed by version, and show the table exactly as the server has it and as a fresh page load
shows it, with no die of another player that the rules keep hidden (P-70); then Ann plays on.

The server's side is watched by a spectator on a plain WebSocket (not through the page), and
the true hands come from the server's own record (its SQLite log of moves, replayed).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import (
    BACK,
    LOST,
    assert_page_shows,
    new_page,
    read_as_fresh,
    require_chromium,
    serve,
    shot,
    start_with_bots,
    take_seat,
)
from tests.server.harness import ServerProcess, die_lists, replay_game

require_chromium()

READ_REVEAL = """() => [...document.querySelectorAll('[data-testid=felt] .seat .reveal-row')]
.map((r) => ({
  seat: Number(r.dataset.seat),
  hidden: r.dataset.hidden === '1',
  hand: [...r.querySelectorAll('.die')].map((d) => Number(d.dataset.face)),
}))"""

RECORD_REVEALS = f"""
window.__reveals = [];
const readReveal = {READ_REVEAL};
new MutationObserver(() => {{
  const rows = readReveal();
  const last = window.__reveals[window.__reveals.length - 1];
  if (rows.length && JSON.stringify(rows) !== JSON.stringify(last)) window.__reveals.push(rows);
}}).observe(document, {{ childList: true, subtree: true, attributes: true }});
"""
"""Every reveal the page draws, in ``window.__reveals`` (each as :data:`READ_REVEAL` reads it):
a reveal stays on the table only until the next round's first move, which the bots may make
before the test looks (a CI run under load missed one that way)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Bots quick but not instant; a dropped person's seat is played by a stand-in after 1 s."""
    yield from serve(
        tmp_path_factory,
        "network",
        PERUDO_BOT_DELAY="0.1",
        PERUDO_ROUND_PAUSE="0.2",
        PERUDO_DROP_GRACE="1",
    )


class Sockets:
    """Every WebSocket a page opens, with every frame it receives and sends (as the browser's
    network layer carries them, seen through Playwright)."""

    def __init__(self, page: Any) -> None:
        self.opened: list[tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]] = []
        page.on("websocket", self._opened)

    def _opened(self, ws: Any) -> None:
        got: list[dict[str, Any]] = []
        sent: list[dict[str, Any]] = []
        ws.on("framereceived", lambda payload: got.append(json.loads(payload)))
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
        self.opened.append((ws, got, sent))

    def received(self, k: int = -1) -> list[dict[str, Any]]:
        return self.opened[k][1]

    def version(self, k: int = -1) -> int:
        """The latest version socket ``k`` brought the page (error replies do not count)."""
        return max(
            (m["version"] for m in self.received(k) if m["type"] != "error" and "version" in m),
            default=-1,
        )

    def wait_version(self, target: int, timeout_ms: float = 10_000) -> None:
        """Wait until the page's latest socket has brought it version ``target`` or later."""
        ws = self.opened[-1][0]
        if self.version() < target:
            ws.wait_for_event(
                "framereceived",
                predicate=lambda _payload: self.version() >= target,
                timeout=timeout_ms,
            )


def _open_seat(browser: Any, srv: ServerProcess, t: dict[str, Any]) -> tuple[Any, Sockets]:
    """A new browser context holding the seat token of ``t``'s creator, on the table's page."""
    page = new_page(browser, lambda ctx: ctx.add_init_script(RECORD_REVEALS))
    sockets = Sockets(page)
    take_seat(page, srv, t)
    return page, sockets


def _check_dice(
    messages: list[dict[str, Any]], seat: int, dealt: list[Any], revealed: set[Any]
) -> int:
    """Every die in ``messages`` (received by ``seat``) is its own or was revealed (P-70)."""
    own = {(s, tuple(h)) for s, h in dealt if s == seat}
    checked = 0
    for m in messages:
        found: list[tuple[str, int | None, tuple[int, ...]]] = []
        die_lists(m, None, found)
        for key, s, dice in found:
            if not dice:
                continue
            checked += 1
            assert s is not None, f"dice without a seat in {m['type']}"
            if s == seat:
                assert (s, dice) in own or (s, dice) in revealed, (key, s, dice)
            else:
                assert (s, dice) in revealed, f"seat {s}'s {key} {dice} reached seat {seat} (P-70)"
        for e in m.get("events", []):
            assert e["type"] != "dice_dealt" or e["seat"] == seat, e
    return checked


def test_the_page_loses_the_network_mid_game_and_resumes_where_the_server_is(
    server: ServerProcess, browser: Any
) -> None:
    t = server.create_table(seats=3, dice=3, turn_seconds=0)  # Perudo: calza off
    ann = t["seat"]
    page, sockets = _open_seat(browser, server, t)
    watcher = start_with_bots(page, server, t)
    fresh = None
    try:
        # Ann's first turn: she raises through the page, and the server takes it.
        page.locator("[data-testid=actions] [data-action]").first.wait_for(timeout=15_000)
        first = page.locator("[data-testid=actions] [data-action]").first
        action = first.get_attribute("data-action")
        first.click()
        watcher.wait(
            lambda: any(
                e.get("seat") == ann and e.get("action") == action for _, e in watcher.events
            ),
            f"Ann's {action}",
        )

        # The network goes. Chromium's offline mode does not close an open WebSocket (no close
        # event; incoming frames are held back): the page hears the browser's "offline" event,
        # drops the socket and says so. New sockets fail while offline.
        page.context.set_offline(True)
        page.get_by_text(LOST).wait_for(timeout=5_000)
        assert page.evaluate("navigator.onLine") is False
        seen = sockets.version()
        shot(page, "en-network-offline", full_page=False)

        # Without Ann the game goes on: the bots play, and after the drop grace a stand-in plays
        # her seat, until a round is resolved that the page has not seen.
        def resolved_since_loss() -> bool:
            return any(v > seen and e["type"] == "round_resolved" for v, e in watcher.events)

        watcher.wait(resolved_since_loss, "a round resolved while Ann was offline")
        missed = [(v, e) for v, e in watcher.events if v > seen]
        assert any(e["type"] == "action" and e["seat"] != ann for _, e in missed)

        # The network is back: the page reconnects at once, says so, and asks for what it
        # missed since the last version it saw; the server sends exactly the missed events
        # (not a fresh snapshot).
        page.evaluate("window.__reveals = []")
        page.context.set_offline(False)
        page.get_by_text(BACK).wait_for(timeout=5_000)
        resumed = len(sockets.opened) - 1
        assert resumed >= 1
        sockets.wait_version(seen + 1)
        assert all(not got for _, got, _ in sockets.opened[1:resumed]), "got frames offline"
        hello = sockets.opened[resumed][2][0]
        assert hello["type"] == "hello" and hello["token"] == t["token"]
        assert hello["last_version"] <= seen
        first_back = sockets.received(resumed)[0]
        assert first_back["type"] == "update", first_back["type"]
        watcher.wait(lambda: watcher.version >= first_back["version"], "the resumed version")
        public = [e for e in first_back["events"] if e["type"] != "dice_dealt"]
        assert public == [
            e
            for v, e in watcher.events
            if hello["last_version"] < v <= first_back["version"] and e["type"] != "dice_dealt"
        ]
        replayed = [e for e in first_back["events"] if e["type"] == "round_resolved"]
        assert replayed, "the missed round's result was not sent to the page"

        # The missed round's reveal is drawn on the page, with only the hands the server
        # revealed (recorded as drawn: the bots may open the next round before we look).
        page.wait_for_function("() => window.__reveals.length > 0", timeout=5_000)
        drawn = page.evaluate("() => window.__reveals")
        results = [
            e
            for m in sockets.received(resumed)
            for e in m.get("events", [])
            if e["type"] == "round_resolved"
        ]
        resolved = [
            ({r["seat"]: r["hand"] for r in e["reveals"]}, sorted(e["hidden"])) for e in results
        ]
        for rows in drawn:
            shown = (
                {r["seat"]: r["hand"] for r in rows if not r["hidden"]},
                sorted(r["seat"] for r in rows if r["hidden"]),
            )
            assert shown in resolved, "a reveal on the page is not a round the server resolved"
        shot(page, "en-network-resumed", full_page=False)

        # Ann is back at her seat (no stand-in), and the game waits for her: no turn timer, no
        # calza in this preset, so nothing moves until she acts.
        def ann_to_act() -> bool:
            tb = watcher.table
            return bool(
                tb is not None
                and not tb["seats"][ann]["away"]
                and tb["seats"][ann]["connected"]
                and watcher.view is not None
                and watcher.view["to_act"] == ann
            )

        watcher.wait(ann_to_act, "Ann's turn with Ann back at her seat")
        quiet = watcher.version
        assert watcher.view is not None and watcher.view["phase"] == "bidding"
        sockets.wait_version(quiet)

        # The page equals a fresh load of the same seat in a new browser...
        fresh, fresh_sockets = _open_seat(browser, server, t)
        fresh.get_by_test_id("your-turn").wait_for(timeout=10_000)
        assert fresh_sockets.received()[0]["type"] == "snapshot"
        assert fresh_sockets.received()[0]["version"] == quiet == sockets.version()
        on_page = read_as_fresh(page, fresh)
        assert on_page["your_turn"]
        # ...and what the server says.
        v = watcher.view
        assert v is not None and watcher.version == quiet
        assert_page_shows(on_page, v, ann)
        assert on_page["round"] is not None and str(v["round"]) in on_page["round"]
        assert on_page["actions"], "Ann has no buttons on her turn"

        # P-70: Ann's hand on the page is her real one; no other seat shows a die, and every
        # die that reached the page since it came back is hers or was revealed.
        _, dealt, resolved = replay_game(server, watcher.table["game_id"])
        hands = [tuple(h) for s, h in dealt if s == ann]
        assert tuple(int(f) for f in on_page["hand"]) == hands[-1]
        assert all(not s["shown"] for s in on_page["seats"])
        revealed = {(r.seat, tuple(r.hand)) for res in resolved for r in res.reveals}
        assert _check_dice(sockets.received(resumed), ann, dealt, revealed) > 0
        assert _check_dice(fresh_sockets.received(), ann, dealt, revealed) > 0

        # Ann plays on through the resumed page, and the game goes on after her.
        choice = on_page["actions"][0]
        page.click(f"[data-testid=actions] [data-action='{choice}']")
        watcher.wait(
            lambda: any(v > quiet and e.get("seat") == ann for v, e in watcher.events),
            f"Ann's {choice} after the reconnect",
        )
        mine = next(v for v, e in watcher.events if v > quiet and e.get("seat") == ann)
        watcher.wait(
            lambda: any(v > mine and e.get("seat") != ann for v, e in watcher.events),
            "a move after Ann's",
        )
        sockets.wait_version(watcher.version)
        _, dealt, resolved = replay_game(server, watcher.table["game_id"])
        revealed = {(r.seat, tuple(r.hand)) for res in resolved for r in res.reveals}
        _check_dice(sockets.received(resumed), ann, dealt, revealed)
        assert not page.errors and not fresh.errors, page.errors + fresh.errors
    finally:
        watcher.close()
        page.context.close()
        if fresh is not None:
            fresh.context.close()
