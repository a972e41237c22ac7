"""Shared by the browser test modules (a plain module, imported as ``tests.browser.support``).

Debian's Chromium and Playwright (each module calls :func:`require_chromium` when it is
imported, so that without them it skips and says so; the browser is never downloaded), the
screenshots under ``artifacts/browser/`` (git-ignored), the real server each module runs, and
what the page and a spectator on a plain WebSocket say of a table.

Playwright is imported only where it is used, so that importing this module never fails
without it (``websockets`` is a dependency of the server, as for ``tests.server.harness``).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from tests.server.harness import ServerProcess, merged
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NO_CHROMIUM = (
    "Debian's chromium is not installed at /usr/bin/chromium (`make chromium` installs it; "
    "a browser is never downloaded)"
)
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"

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


# An init script (:func:`watch_socket`): the page's WebSockets are kept in `window.__sockets`;
# what the page sends on them in `window.__sent`; while `window.__hold` is true the messages
# they receive wait in `window.__held` (delivered by :data:`RELEASE`); `window.__pongs` counts
# the pongs the page has handled. The heartbeat is slowed to an hour (unless the test set its
# own) so that every pong answers a ping a test sent (:func:`settle`).
WATCH_SOCKET = """(() => {
  window.PERUDO_HEARTBEAT = window.PERUDO_HEARTBEAT || { interval: 3600000, timeout: 3600000 };
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__sent = [];
  window.__held = [];
  window.__hold = false;
  window.__pongs = 0;
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
    set onmessage(fn) {
      super.onmessage = (e) => {
        if (window.__hold) {
          window.__held.push([this, fn, e]);
          return;
        }
        fn.call(this, e);
        if (String(e.data).includes('"type":"pong"')) window.__pongs += 1;
      };
    }
    get onmessage() {
      return super.onmessage;
    }
    send(data) {
      window.__sent.push(String(data));
      return super.send(data);
    }
  }
  window.WebSocket = Watched;
})();"""

# Delivers the held messages to the page, in order, in this one task.
RELEASE = """() => {
  window.__hold = false;
  for (const [ws, fn, e] of window.__held.splice(0)) fn.call(ws, e);
}"""


# Whether every CSS animation and transition on the page has finished.
ANIMATIONS_DONE = "() => document.getAnimations().every((a) => a.playState !== 'running')"

# Resolves once the page has drawn a frame and the work it queued after that frame has run
# (Preact's effects run in a task queued from the frame's callbacks).
AFTER_FRAME = "() => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))"


def watch_socket(ctx: Any) -> None:
    """A ``prepare`` for :func:`new_page`: the page's sockets watched (:data:`WATCH_SOCKET`)."""
    ctx.add_init_script(WATCH_SOCKET)


SETTLE = """() => {
  const table = window.__sockets.filter((s) => s.url.includes('/ws/tables/')).at(-1);
  table.send('{"type":"ping"}');
  return window.__pongs;
}"""
"""Ping the page's table socket (a signed-in page also holds its notice socket, ``/ws/me``)."""


def settle(page: Any) -> None:
    """Wait until the server has answered everything ``page`` (watched: :func:`watch_socket`)
    sent so far and the page has handled the answers: its socket sends a ping, and the
    server answers a connection's messages in order, so its pong comes after them."""
    n = page.evaluate(SETTLE)
    page.wait_for_function("(n) => window.__pongs > n", arg=n)


def drawn(page: Any, version: int) -> None:
    """Wait until ``page`` has drawn the table at ``version`` or later (the page notes the
    version of each state it has drawn, after its frame, as ``<html data-drawn>``)."""
    page.wait_for_function(
        "(v) => Number(document.documentElement.dataset.drawn || -1) >= v", arg=version
    )


def require_chromium() -> Any:
    """Skip the calling test module (this is called at its import) without Debian's Chromium
    or without Playwright; else return ``playwright.sync_api``."""
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM, allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """A screenshot of ``page`` to ``artifacts/browser/<name>.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def serve(
    tmp_path_factory: pytest.TempPathFactory, name: str, **env: str
) -> Iterator[ServerProcess]:
    """The body of a test module's ``server`` fixture (``yield from serve(...)``): a real
    server in a fresh temp dir named after ``name``, with the module's ``PERUDO_*`` settings,
    stopped after the module."""
    srv = ServerProcess(tmp_path_factory.mktemp(name), **env).start()
    yield srv
    srv.stop()


def new_page(
    browser: Any,
    prepare: Callable[[Any], None] | None = None,
    *,
    viewport: tuple[int, int] = (1366, 900),
    **context: Any,
) -> Any:
    """A page in a new browser context (``viewport``, 1366x900 unless told; ``context``: more
    of Playwright's context options, ``has_touch``…) that records its uncaught errors in
    ``page.errors``; ``prepare`` is given the context before the page opens (init scripts,
    routes)."""
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **context)
    if prepare is not None:
        prepare(ctx)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


CHEAP_ARGON2: Final = {"PERUDO_ARGON2_MEMORY_KIB": "8192", "PERUDO_ARGON2_TIME_COST": "1"}
"""Server settings for the account tests: argon2id cheap enough to sign up many times."""


def page_in(browser: Any, srv: ServerProcess, lang: str, viewport: tuple[int, int]) -> Any:
    """A new page of ``srv`` whose page language is ``lang`` (chosen as a person chooses it:
    kept in the page's storage), opened at the lobby."""
    page = new_page(browser, viewport=viewport)
    page.goto(srv.url + "/")
    page.evaluate("l => localStorage.setItem('perudo.lang', l)", lang)
    return page


def take_seat(page: Any, srv: ServerProcess, t: dict[str, Any]) -> None:
    """``page`` holds the seat token of ``t``'s creator and opens the table's page."""
    page.goto(srv.url + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"perudo.token.{t['table_id']}", t["token"]]
    )
    page.goto(srv.url + t["invite"])


def seated_page(
    browser: Any,
    srv: ServerProcess,
    t: dict[str, Any],
    prepare: Callable[[Any], None] | None = None,
    **options: Any,
) -> Any:
    """A new page (:func:`new_page`, with ``options``) holding the seat of ``t``'s creator, on
    the table's page."""
    page = new_page(browser, prepare, **options)
    take_seat(page, srv, t)
    return page


def join_as(page: Any, invite: str, name: str, lang: str | None = None) -> None:
    """A friend on ``page`` opens the ``invite`` link (absolute), switches the page to
    ``lang`` if given, sits down under ``name`` and waits for the host as a guest."""
    page.goto(invite)
    if lang is not None:
        page.select_option("[data-testid=lang]", lang)
    page.fill("[data-testid=join-name]", name)
    page.click("[data-testid=join]")
    page.wait_for_selector("[data-testid=wait-host]")  # a guest: the host starts the game


def fill_bots(page: Any, level: str = "easy") -> None:
    """The host (on ``page``, in the waiting room) fills every empty seat with bots of
    ``level``, and the page shows no empty seat."""
    page.select_option("[data-testid=fill-level]", level)
    page.click("[data-testid=fill-bots]")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=seats] .emptyseat').length === 0"
    )


def fill_and_start(page: Any, level: str = "easy") -> None:
    """The host fills the empty seats with bots (:func:`fill_bots`) and starts the game; the
    table is on the page when this returns."""
    fill_bots(page, level)
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=felt]")


def start_with_bots(page: Any, srv: ServerProcess, t: dict[str, Any]) -> Watcher:
    """Easy bots fill the empty seats of Ann's table (``t``, open on ``page``) and the game
    starts; returns a spectator on the table."""
    fill_and_start(page)
    return Watcher(srv, t["table_id"])


def read_as_fresh(page: Any, fresh: Any, timeout_ms: float = 5_000) -> dict[str, Any]:
    """What ``page`` shows of the table (:data:`READ_PAGE`), asserted equal to what ``fresh``,
    a new load of the same seat, shows. The page's last frame may still be on its way to the
    DOM, so it is waited for; on a timeout the assertion shows the difference."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    want = fresh.evaluate(READ_PAGE)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"(want) => JSON.stringify(({READ_PAGE})()) === JSON.stringify(want)",
            arg=want,
            timeout=timeout_ms,
        )
    on_page = page.evaluate(READ_PAGE)
    assert on_page == want
    return on_page


def assert_page_shows(on_page: dict[str, Any], view: dict[str, Any], seat: int) -> None:
    """The page (read with :data:`READ_PAGE`) shows the server's ``view``: each seat's dice
    count, ``seat`` alone to act, the bid, and this round's log."""
    assert [s["count"] for s in on_page["seats"]] == [
        "out" if c == 0 else str(c) for c in view["dice_counts"]
    ]
    assert [s["seat"] for s in on_page["seats"] if s["to_act"]] == [seat]
    assert on_page["bid"] == view["bid"]
    assert len(on_page["log"]) == len(view["actions"])


class Watcher:
    """A spectator on a plain WebSocket: what the server says, independent of the page; or,
    with a seat's ``token``, that seat's player (:meth:`act`)."""

    def __init__(self, srv: ServerProcess, table_id: str, token: str | None = None) -> None:
        self.ws = connect(f"{srv.ws_url}/ws/tables/{table_id}", max_size=None)
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.reactions: list[dict[str, Any]] = []
        """The quick reactions it was sent (``reaction``: no version)."""
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.ws.send(json.dumps({"type": "hello", "token": token}))

    def _read(self) -> None:
        try:
            for raw in self.ws:
                m = json.loads(raw)
                with self._cond:
                    if m["type"] == "snapshot":
                        self.view, self.table = m["view"], m["table"]
                    elif m["type"] == "update":
                        self.view = m["view"] and merged(self.view, m)[0]
                        self.events += [(m["version"], e) for e in m["events"]]
                    elif m["type"] == "table":
                        self.table = m["table"]
                    elif m["type"] == "reaction":
                        self.reactions.append(m)
                    if "version" in m and m["type"] != "error":
                        self.version = max(self.version, m["version"])
                    self._cond.notify_all()
        except ConnectionClosed:
            pass

    def wait(self, cond: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
        with self._cond:
            assert self._cond.wait_for(cond, timeout), (
                f"the server never showed {what}; last: {self.table} {self.view} "
                f"{self.events[-4:]}"
            )

    def act(self, action: str) -> None:
        """The seat's ``action``, on its latest view (its version, round and bid)."""
        with self._cond:
            assert self.view is not None
            on = [self.view["round"], self.view["bid"]]
            msg = {"type": "act", "action": action, "version": self.version, "on": on}
        self.ws.send(json.dumps(msg))

    def close(self) -> None:
        self.ws.close()
        self._reader.join(5)
