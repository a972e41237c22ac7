"""The page: one HTML file for the lobby (``/``), a table (``/t/{id}``) and a replay
(``/replay/{id}``), and its scripts and styles under ``/static``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["STATIC_DIR", "mount_static", "router"]

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
_INDEX = STATIC_DIR / "index.html"

router = APIRouter(include_in_schema=False)


def _index() -> FileResponse:
    return FileResponse(_INDEX, headers={"Cache-Control": "no-cache"})


@router.get("/")
async def page_lobby() -> FileResponse:
    return _index()


@router.get("/t/{table_id}")
async def page_table(table_id: str) -> FileResponse:
    return _index()


@router.get("/replay/{game_id}")
async def page_replay(game_id: str) -> FileResponse:
    return _index()


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
