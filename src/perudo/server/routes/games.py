"""Finished games: the recent public ones, and a game's replay.

* ``GET /api/games``: recent finished games of public tables, newest first; ``?player=<name>``:
  those a signed-in player sat in (404 ``no_player`` for a name that is no player's);
* ``GET /api/games/{id}/replay``: a finished game move by move, public information only
  (:func:`perudo.server.replay.replay_frames`); ``id`` is the game's unguessable key, and a
  private table's replay leaves out the table's id (its invite).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..accounts.routes import refused
from ..payloads import ReplayData
from ..replay import replay_frames
from ..tables import TableError
from .common import error_response, store_of

__all__ = ["MAX_KEY", "router"]

MAX_KEY = 64
"""Longer ids are no game's (answered 404 without asking the store)."""

router = APIRouter()


@router.get("/api/games", response_model=None)
async def finished_games(
    request: Request, player: str | None = Query(default=None, min_length=1, max_length=64)
) -> JSONResponse | dict[str, Any]:
    store = store_of(request)
    if player is None:
        return {"games": await store.finished_games()}
    found = await store.player_by_name(player)
    if found is None:
        return refused("no_player", "no_player", 404)
    return {"games": await store.finished_games(player_id=found.id)}


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
