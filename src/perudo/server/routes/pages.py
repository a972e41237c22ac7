"""The page: one HTML file for the lobby (``/``), a table (``/t/{id}``), a replay
(``/replay/{id}``) and a game's analysis (``/analysis/{id}``), and its scripts and styles
under ``/static``; and the rule book (``/rules/{lang}`` in ``en``, ``ko`` or ``it``,
:mod:`..rulebook`; ``/rules`` picks one from ``Accept-Language``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from perudo.i18n import page_words_js

from .. import rulebook

__all__ = ["STATIC_DIR", "missing_page", "mount_static", "router", "wants_page"]

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
_INDEX = STATIC_DIR / "index.html"

router = APIRouter(include_in_schema=False)


def _index(status_code: int = 200) -> FileResponse:
    return FileResponse(_INDEX, status_code=status_code, headers={"Cache-Control": "no-cache"})


def wants_page(request: Request) -> bool:
    """A browser's request for a page (a GET that accepts HTML, outside the API, the table
    sockets and the static files): a path that is not one is answered by the page itself."""
    path = request.url.path
    return (
        request.method == "GET"
        and "text/html" in request.headers.get("accept", "")
        and not path.startswith(("/api/", "/ws/", "/static/"))
    )


def missing_page() -> FileResponse:
    """The page, with 404: it says in the reader's language that there is no such page."""
    return _index(404)


@router.get("/")
async def page_lobby() -> FileResponse:
    return _index()


@router.get("/t/{table_id}")
async def page_table(table_id: str) -> FileResponse:
    return _index()


@router.get("/@/{name}")
async def page_profile(name: str) -> FileResponse:
    return _index()


@router.get("/leaderboard")
async def page_leaderboard() -> FileResponse:
    return _index()


@router.get("/account")
async def page_account() -> FileResponse:
    return _index()


@router.get("/replay/{game_id}")
async def page_replay(game_id: str) -> FileResponse:
    return _index()


@router.get("/analysis/{game_id}")
async def page_analysis(game_id: str) -> FileResponse:
    return _index()


@router.get("/i18n/words.js")
async def page_words() -> Response:
    """The words the page takes from :mod:`perudo.i18n` (spoken faces and bids, bot names),
    as a JavaScript module: kept once, in the catalogs."""
    return Response(
        page_words_js(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/rules")
async def page_rules_any(request: Request) -> RedirectResponse:
    """The rule book in the browser's language (Accept-Language), else English."""
    lang = rulebook.pick_language(request.headers.get("accept-language"))
    return RedirectResponse(f"/rules/{lang}", status_code=302)


@router.get("/rules/{lang}")
async def page_rules(lang: str) -> HTMLResponse:
    if lang not in rulebook.LANGUAGES:
        links = ", ".join(
            f'<a href="/rules/{code}">{name}</a>' for code, name in rulebook.LANGUAGES.items()
        )
        return HTMLResponse(
            f"<!doctype html><meta charset=utf-8><title>Perudo</title>"
            f"<p>The rules are in {links}.</p>",
            status_code=404,
        )
    return HTMLResponse(rulebook.render(lang), headers={"Cache-Control": "no-cache"})


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
