"""The page installs as a web app (real Chromium): the manifest is served with its content type
and parses with no error, its icons are real PNGs of the sizes it declares, Chromium finds the
page installable, and the service worker (scope "/") activates and holds the page's own files
in the cache of its version."""

from __future__ import annotations

import io
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from tests.browser.support import CHROMIUM, CHROMIUM_ARGS, require_chromium, serve
from tests.server.harness import ServerProcess

from perudo.server.routes.webapp import page_files, version

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "install")


def _get(url: str) -> tuple[str, bytes, dict[str, str]]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.headers.get_content_type(), r.read(), {k.lower(): v for k, v in r.headers.items()}


def test_the_manifest_and_the_worker_are_served_with_their_content_types(
    server: ServerProcess,
) -> None:
    kind, body, _ = _get(server.url + "/manifest.webmanifest")
    assert kind == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        kind, png, _ = _get(server.url + icon["src"])
        assert kind == "image/png"
        w, h = Image.open(io.BytesIO(png)).size
        assert f"{w}x{h}" == icon["sizes"]
    kind, body, headers = _get(server.url + "/sw.js")
    assert kind == "text/javascript"
    assert headers["cache-control"] == "no-cache"
    sw = body.decode()
    assert f'const VERSION = "{version()}";' in sw
    assert json.dumps(page_files()) in sw
    # Every file the worker caches is there (a missing one would fail its install).
    for url in page_files():
        assert _get(server.url + url)[1], url


def test_chromium_finds_the_page_installable_and_the_worker_caches_its_files(
    server: ServerProcess, browser: Any, tmp_path: Path
) -> None:
    # A profile of its own: Chromium never installs from an incognito window, which every
    # other context of Playwright is.
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        state = page.evaluate(
            "() => navigator.serviceWorker.ready.then((r) => new Promise((ok) => {"
            "  const w = r.active;"
            "  if (w.state === 'activated') ok([w.state, r.scope]);"
            "  else w.addEventListener('statechange', () => w.state === 'activated'"
            "    && ok([w.state, r.scope]));"
            "}))"
        )
        assert state == ["activated", server.url + "/"]
        cdp = page.context.new_cdp_session(page)
        m = cdp.send("Page.getAppManifest")
        assert m["url"] == server.url + "/manifest.webmanifest"
        assert m["errors"] == []
        assert json.loads(m["data"])["name"] == "Perudo"
        refusals = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert refusals == [], refusals
        cached = page.evaluate(
            "async () => { const keys = await caches.keys();"
            " const c = await caches.open(keys[0]);"
            " return [keys, (await c.keys()).map((r) => new URL(r.url).pathname)]; }"
        )
        assert cached[0] == [f"perudo-{version()}"]
        assert sorted(cached[1]) == sorted(page_files())
        assert errors == []
    finally:
        ctx.close()
