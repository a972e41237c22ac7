"""The page as an installable web app: ``GET /manifest.webmanifest`` (its name, colours and
icons, ``application/manifest+json``) and ``GET /sw.js``, its service worker (served at the
root so that its scope is the whole site), which caches the page's own files under a version
that is a digest of them: a deploy that changes any of them gets a new worker, which replaces
the old cache."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response

from perudo.i18n import page_words_js

from .pages import STATIC_DIR

__all__ = ["page_files", "router", "service_worker", "version"]

router = APIRouter(include_in_schema=False)

_SW = "sw.js"
_MANIFEST = "manifest.webmanifest"
# What the page loads that is not under /static: the page itself and its words.
_OUTSIDE = ("/", "/i18n/words.js", "/manifest.webmanifest")


def page_files(static_dir: Path = STATIC_DIR) -> list[str]:
    """The URLs of the page's own files, sorted: the page, its words and manifest, and every
    file under ``/static`` but the worker's template, the manifest (served at the root) and the
    licences.

    >>> files = page_files()
    >>> "/static/app.js" in files and "/static/icons/icon-192.png" in files
    True
    >>> "/static/sw.js" in files
    False
    """
    inside = sorted(
        "/static/" + p.relative_to(static_dir).as_posix()
        for p in static_dir.rglob("*")
        if p.is_file()
        and p.name not in (_SW, _MANIFEST)
        and not p.name.startswith(("LICENSE", "."))
    )
    return [*_OUTSIDE, *inside]


def version(static_dir: Path = STATIC_DIR, words: str | None = None) -> str:
    """A digest of the page's files (their names and contents, and the page's words): it
    changes whenever a deploy changes one of them."""
    h = hashlib.sha256()
    for url in page_files(static_dir):
        if url.startswith("/static/"):
            h.update(url.encode() + b"\0" + (static_dir / url[8:]).read_bytes() + b"\0")
    h.update((page_words_js() if words is None else words).encode())
    return h.hexdigest()[:16]


@cache
def service_worker() -> str:
    """The worker's script with its version and files filled in (once per process)."""
    text = (STATIC_DIR / _SW).read_text(encoding="utf-8")
    return text.replace("__VERSION__", version()).replace("__FILES__", json.dumps(page_files()))


@router.get("/sw.js")
async def sw() -> Response:
    return Response(
        service_worker(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest")
async def manifest() -> Response:
    return Response(
        (STATIC_DIR / _MANIFEST).read_bytes(),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )
