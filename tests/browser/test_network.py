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

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.harness import ServerProcess
from tests.server.test_play import _die_lists, _replay

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"

if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed at /usr/bin/chromium (`make chromium` installs it; "
        "a browser is never downloaded)",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api")
ws_client = pytest.importorskip("websockets.sync.client")
ws_exceptions = pytest.importorskip("websockets.exceptions")

LOST = "Connection lost, reconnecting…"
BACK = "Reconnected."

# What the page shows of the table, read from the DOM: the felt (each seat's dice count, the
# faces it shows, its last action), the bid, this round's log, the history, Ann's hand and her
# buttons. Dice are drawn with pips, so a die is read from its data-face.
READ_PAGE = """() => {
  const faces = (el) => [...el.querySelectorAll('.die')].map((d) => d.dataset.face || '?');
  const sig = (el) => el ? `${el.textContent.trim()}|${faces(el).join(',')}` : null;
  const bid = document.querySelector('[data-testid=current-bid]');
  const history = document.querySelector('.history summary');
  return {
    round: sig(document.querySelector('[data-testid=felt] .round')),
    seats: [...document.querySelectorAll('[data-testid=felt] .seat')].map((el) => {
      const cups = el.querySelector('.cups');
      return {
        seat: Number(el.dataset.seat),
        count: cups ? cups.dataset.count : 'out',
        shown: cups ? faces(cups).filter((f) => f !== '?') : [],
        to_act: el.classList.contains('toact'),
        last: sig(el.querySelector('.last')),
      };
    }),
    bid: bid ? `${bid.firstChild.textContent}x${bid.querySelector('.die').dataset.face}` : null,
    log: [...document.querySelectorAll('[data-testid=round-log] .entry')].map(sig),
    history: history ? history.textContent : null,
    hand: faces(document.querySelector('[data-testid=my-hand]')),
    actions: [...document.querySelectorAll('[data-testid=actions] [data-action]')]
      .map((b) => b.dataset.action),
    your_turn: !!document.querySelector('[data-testid=your-turn]'),
  };
}"""

READ_REVEAL = """() => [...document.querySelectorAll('[data-testid=reveal] .reveal-row')]
.map((r) => ({
  seat: Number(r.dataset.seat),
  hidden: r.dataset.hidden === '1',
  hand: [...r.querySelectorAll('.die')].map((d) => Number(d.dataset.face)),
}))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Bots quick but not instant; a dropped person's seat is played by a stand-in after 1 s."""
    srv = ServerProcess(
        tmp_path_factory.mktemp("network"),
        PERUDO_BOT_DELAY="0.1",
        PERUDO_ROUND_PAUSE="0.2",
        PERUDO_DROP_GRACE="1",
    ).start()
    yield srv
    srv.stop()


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


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


class Watcher:
    """A spectator on a plain WebSocket: what the server says, independent of the page."""

    def __init__(self, srv: ServerProcess, table_id: str) -> None:
        self.ws = ws_client.connect(f"{srv.ws_url}/ws/tables/{table_id}", max_size=None)
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.events: list[tuple[int, dict[str, Any]]] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.ws.send(json.dumps({"type": "hello", "token": None}))

    def _read(self) -> None:
        try:
            for raw in self.ws:
                m = json.loads(raw)
                with self._cond:
                    if m["type"] == "snapshot":
                        self.view, self.table = m["view"], m["table"]
                    elif m["type"] == "update":
                        self.view = m["view"]
                        self.events += [(m["version"], e) for e in m["events"]]
                    elif m["type"] == "table":
                        self.table = m["table"]
                    if m["type"] != "error":
                        self.version = max(self.version, m["version"])
                    self._cond.notify_all()
        except ws_exceptions.ConnectionClosed:
            pass

    def wait(self, cond: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
        with self._cond:
            assert self._cond.wait_for(cond, timeout), (
                f"the server never showed {what}; last: {self.table} {self.view} "
                f"{self.events[-4:]}"
            )

    def close(self) -> None:
        self.ws.close()
        self._reader.join(5)


def _open_seat(browser: Any, srv: ServerProcess, t: dict[str, Any]) -> tuple[Any, Sockets]:
    """A new browser context holding the seat token of ``t``'s creator, on the table's page."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    sockets = Sockets(page)
    page.goto(srv.url + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"perudo.token.{t['table_id']}", t["token"]]
    )
    page.goto(srv.url + t["invite"])
    return page, sockets


def _check_dice(
    messages: list[dict[str, Any]], seat: int, dealt: list[Any], revealed: set[Any]
) -> int:
    """Every die in ``messages`` (received by ``seat``) is its own or was revealed (P-70)."""
    own = {(s, tuple(h)) for s, h in dealt if s == seat}
    checked = 0
    for m in messages:
        found: list[tuple[str, int | None, tuple[int, ...]]] = []
        _die_lists(m, None, found)
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
    tid, ann = t["table_id"], t["seat"]
    page, sockets = _open_seat(browser, server, t)
    page.select_option("[data-testid=fill-level]", "easy")
    page.click("[data-testid=fill-bots]")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=seats] .emptyseat').length === 0"
    )
    page.click("[data-testid=start]")
    watcher = Watcher(server, tid)
    fresh = None
    try:
        # Ann's first turn: she raises through the page, and the server takes it.
        page.locator("[data-testid=actions] [data-action]").first.wait_for(timeout=15_000)
        if page.locator("[data-testid=reveal-ok]").count():
            page.click("[data-testid=reveal-ok]")
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
        _shot(page, "en-network-offline")

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

        # The missed round's reveal is on the page, with only the hands the server revealed.
        page.locator("[data-testid=reveal]").wait_for(timeout=5_000)
        rows = page.evaluate(READ_REVEAL)
        results = [
            e
            for m in sockets.received(resumed)
            for e in m.get("events", [])
            if e["type"] == "round_resolved"
        ]
        shown = (
            {r["seat"]: r["hand"] for r in rows if not r["hidden"]},
            sorted(r["seat"] for r in rows if r["hidden"]),
        )
        assert shown in [
            ({r["seat"]: r["hand"] for r in e["reveals"]}, sorted(e["hidden"])) for e in results
        ], "the reveal on the page is not a round the server resolved"
        _shot(page, "en-network-resumed")
        page.click("[data-testid=reveal-ok]")

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
        want = fresh.evaluate(READ_PAGE)
        # (waited for: the page's last frame may still be on its way to the DOM; on a timeout
        # the assertion below shows the difference)
        with contextlib.suppress(sync_api.TimeoutError):
            page.wait_for_function(
                f"(want) => JSON.stringify(({READ_PAGE})()) === JSON.stringify(want)",
                arg=want,
                timeout=5_000,
            )
        on_page = page.evaluate(READ_PAGE)
        assert on_page == want
        assert on_page["your_turn"]
        # ...and what the server says.
        v = watcher.view
        assert v is not None and watcher.version == quiet
        assert [s["count"] for s in on_page["seats"]] == [
            "out" if c == 0 else str(c) for c in v["dice_counts"]
        ]
        assert [s["seat"] for s in on_page["seats"] if s["to_act"]] == [ann]
        assert on_page["bid"] == v["bid"]
        assert len(on_page["log"]) == len(v["actions"])
        assert on_page["round"] is not None and str(v["round"]) in on_page["round"]
        assert on_page["actions"], "Ann has no buttons on her turn"

        # P-70: Ann's hand on the page is her real one; no other seat shows a die, and every
        # die that reached the page since it came back is hers or was revealed.
        _, dealt, resolved = _replay(server, watcher.table["game_id"])
        hands = [tuple(h) for s, h in dealt if s == ann]
        assert tuple(int(f) for f in on_page["hand"]) == hands[-1]
        assert all(not s["shown"] for s in on_page["seats"])
        revealed = {(r.seat, tuple(r.hand)) for res in resolved for r in res.reveals}
        assert _check_dice(sockets.received(resumed), ann, dealt, revealed) > 0
        assert _check_dice(fresh_sockets.received(), ann, dealt, revealed) > 0

        # Ann plays on through the resumed page, and the game goes on after her.
        if page.locator("[data-testid=reveal-ok]").count():
            page.click("[data-testid=reveal-ok]")
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
        _, dealt, resolved = _replay(server, watcher.table["game_id"])
        revealed = {(r.seat, tuple(r.hand)) for res in resolved for r in res.reveals}
        _check_dice(sockets.received(resumed), ann, dealt, revealed)
        assert not page.errors and not fresh.errors, page.errors + fresh.errors
    finally:
        watcher.close()
        page.context.close()
        if fresh is not None:
            fresh.context.close()
