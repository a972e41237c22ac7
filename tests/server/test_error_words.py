"""Every error code the server can send a page has words on the page, in each language: the
codes are read from the server's source (each ``TableError``, ``ProtocolError``, socket
refusal and ``ErrorMessage`` with a literal code), the words from ``static/i18n.js``. A code
without words would reach the player as the page's general "refused" line."""

from __future__ import annotations

import ast
import re

import pytest
from tests.server.harness import ROOT

SERVER = ROOT / "src" / "perudo" / "server"
I18N = SERVER / "static" / "i18n.js"
CALLS = {
    "TableError": 0,
    "ProtocolError": 1,
    "_refuse": 1,
    "_reply_error": 2,
    "error": 0,
    "_error": 1,
}
CODE = re.compile(r"^[a-z][a-z_]+$")


def _codes() -> set[str]:
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            args: list[ast.expr] = []
            if name in CALLS and len(node.args) > CALLS[name]:
                args.append(node.args[CALLS[name]])
            if name in ("ErrorMessage", *CALLS):
                args += [k.value for k in node.keywords if k.arg == "code"]
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and CODE.match(a.value):
                    codes.add(a.value)
    return codes


def _page_keys() -> dict[str, set[str]]:
    text = I18N.read_text()
    blocks = re.split(r"^  (en|ko|it): \{$", text, flags=re.M)
    return {
        blocks[i]: set(re.findall(r'^    "(error\.[a-z_]+)":', blocks[i + 1], flags=re.M))
        for i in range(1, len(blocks), 2)
    }


def test_the_server_sends_the_codes_this_test_reads() -> None:
    codes = _codes()
    assert {"not_host", "stale", "table_full", "bad_json", "flooding"} <= codes, codes


@pytest.mark.parametrize("lang", ["en", "ko", "it"])
def test_every_error_code_has_words_on_the_page(lang: str) -> None:
    keys = _page_keys()[lang]
    missing = sorted(c for c in _codes() if f"error.{c}" not in keys)
    assert not missing, f"no page words ({lang}) for {missing}"


def test_an_unknown_page_is_the_page_saying_so_and_an_unknown_api_path_stays_json() -> None:
    """A browser asking for a page that does not exist gets the page (404), which says so in
    the reader's language (tests/browser/test_page.py); it used to read ``{"detail": "Not
    Found"}``. The API, a client that does not ask for HTML, and a wrong method keep JSON."""
    from fastapi.testclient import TestClient

    from perudo.server.app import create_app
    from perudo.server.settings import Settings

    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    with TestClient(app) as client:
        page = client.get("/nonsense/page", headers=html)
        assert page.status_code == 404 and "<!doctype html>" in page.text.lower()
        for path, headers in (("/api/nope", html), ("/nonsense/page", {"accept": "*/*"})):
            out = client.get(path, headers=headers)
            assert out.status_code == 404 and out.json() == {"detail": "Not Found"}, path
        assert client.post("/nonsense", headers=html).json() == {"detail": "Not Found"}
        assert client.get("/", headers=html).status_code == 200


def test_the_bot_levels_of_the_wire_and_the_page_are_the_registry_s() -> None:
    """One list of levels: the page's seat buttons (``BOT_LEVELS`` in lib.js) and the wire's
    ``BotLevel`` are ``perudo.registry.LEVELS`` (expert included), in its order."""
    from typing import get_args

    from perudo.registry import LEVELS
    from perudo.server.protocol import BotLevel

    lib = (ROOT / "src/perudo/server/static/lib.js").read_text(encoding="utf-8")
    found = re.search(r"export const BOT_LEVELS = \[([^\]]*)\];", lib)
    assert found is not None
    page = re.findall(r'"(\w+)"', found.group(1))
    assert page == list(LEVELS) == list(get_args(BotLevel))


def test_the_page_keeps_no_copy_of_the_words_it_takes_from_the_catalogs() -> None:
    """One catalog of words (issue 29): what the page takes from :mod:`perudo.i18n`
    (``PAGE_PREFIXES``: spoken faces and bids, bot names, the bot levels, the aces' name) is
    served from there (``/i18n/words.js``) in every language, and not repeated in i18n.js."""
    from perudo.i18n import LANGS, load_catalog, page_words_js
    from perudo.i18n.catalog import PAGE_PREFIXES

    keys = re.findall(r'^\s+"([\w.]+)":', I18N.read_text(encoding="utf-8"), re.M)
    served_keys = {k for k in load_catalog("en").messages if k.startswith(PAGE_PREFIXES)}
    assert sorted(served_keys & set(keys)) == []
    served = page_words_js()
    for lang in LANGS:
        for key in ("level.easy", "level.expert", "word.aces"):
            assert f'"{key}": "{load_catalog(lang).t(key)}"' in served, (lang, key)
    # The games' words as the page's buttons, headings and pills say them (labels: "Dudo",
    # "Dubito"; the catalog's sentence forms say "dudo", "dubito") come from the catalog too.
    assert not {"word.dudo", "word.calza", "word.palifico"} & set(keys)
    labels = {
        "en": ("Dudo", "Calza", "Palifico"),
        "ko": ("두도", "칼자", "팔라피코"),
        "it": ("Dubito", "Calza", "palifico"),
    }
    for lang, words in labels.items():
        for word, label in zip(("dudo", "calza", "palifico"), words, strict=True):
            assert f'"word.label.{word}": "{label}"' in served, (lang, word)
