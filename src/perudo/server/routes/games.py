"""Finished games: the recent public ones, and a game's replay.

* ``GET /api/games``: recent finished games of public tables, newest first;
* ``GET /api/games/{id}/replay``: a finished game move by move, public information only
  (:func:`perudo.server.replay.replay_frames`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..replay import replay_frames
from ..tables import TableError
from .common import error_response, store_of

__all__ = ["router"]

router = APIRouter()


@router.get("/api/games")
async def finished_games(request: Request) -> dict[str, Any]:
    return {"games": await store_of(request).finished_games()}


@router.get("/api/games/{game_id}/replay", response_model=None)
async def replay(request: Request, game_id: int) -> JSONResponse | dict[str, Any]:
    game = await store_of(request).game(game_id)
    if game is None:
        return error_response(TableError("no_game", f"there is no game {game_id}"))
    if game.finished_at is None:
        # A replay shows the whole public story; a game still being played has none yet
        # (and its live view is at its table).
        return error_response(TableError("not_now", f"game {game_id} is not finished yet"))
    try:
        return replay_frames(game)
    except ValueError as err:
        return error_response(TableError("bad_record", str(err)))
