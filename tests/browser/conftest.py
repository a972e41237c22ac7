"""Shared by the browser tests: Debian's Chromium, launched once per test module by Playwright.

The browser is never downloaded: without ``/usr/bin/chromium`` (``make chromium`` installs it)
or without Playwright the tests that need it skip and say so. The rest the modules share is in
``tests.browser.support``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.support import CHROMIUM, CHROMIUM_ARGS, NO_CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not session-wide: Playwright's sync API keeps an event loop
    running in the main thread while it is open, and the server tests after the browser ones
    call ``asyncio.run``, which refuses to start inside a running loop."""
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()
