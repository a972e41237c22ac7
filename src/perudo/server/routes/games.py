"""Finished games: the recent public ones, and a game's replay.

* ``GET /api/games``: recent finished games of public tables, newest first;
* ``GET /api/games/{id}/replay``: a finished game move by move, public information only
  (:func:`perudo.server.replay.replay_frames`); ``id`` is the game's unguessable key, and a
  private table's replay leaves out the table's id (its invite).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..payloads import ReplayData
from ..replay import replay_frames
from ..tables import TableError
from .common import error_response, store_of

__all__ = ["MAX_KEY", "router"]

MAX_KEY = 64
"""Longer ids are no game's (answered 404 without asking the store)."""

router = APIRouter()


@router.get("/api/games")
async def finished_games(request: Request) -> dict[str, Any]:
    return {"games": await store_of(request).finished_games()}


@router.get("/api/games/{game_id}/replay", response_model=None)
async def replay(request: Request, game_id: str) -> JSONResponse | dict[str, Any]:
    """``game_id``: the game's key, as the table and the list of games give it (an
    unguessable string: games of private tables cannot be found by counting)."""
    game = None if len(game_id) > MAX_KEY else await store_of(request).game(game_id)
    if game is None:
        return error_response(TableError("no_game", f"there is no game {game_id[:MAX_KEY]!r}"))
    if game.finished_at is None:
        # A replay shows the whole public story; a game still being played has none yet
        # (and its live view is at its table).
        return error_response(TableError("not_now", f"game {game_id!r} is not finished yet"))
    try:
        frames = ReplayData.model_validate(replay_frames(game)).model_dump(mode="json")
    except ValueError as err:
        return error_response(TableError("bad_record", str(err)))
    if game.private:
        # The table's id is its invite: a replay passed around must not give it away.
        frames["table_id"] = None
    return frames
