"""Finished games: the recent public ones, and a game's replay.

* ``GET /api/games``: recent finished games of public tables, newest first; ``?player=<name>``:
  those a signed-in player sat in (404 ``no_player`` for a name that is no player's);
* ``GET /api/games/{id}/replay``: a finished game move by move, public information only
  (:func:`perudo.server.replay.replay_frames`); ``id`` is the game's unguessable key, and a
  private table's replay leaves out the table's id (its invite);
* ``GET /api/games/{id}/record``: a finished game's whole record (every die dealt, the format
  ``perudo analyze`` and ``perudo replay`` read), only where its table agreed to show every
  hand at the end (else ``403 hands_hidden``: P-21 keeps the hands nobody lifted hidden);
* ``GET /api/games/{id}/analysis?seat=N``: the game's analysis (:mod:`perudo.server.analysis`):
  from seat ``N``'s view with that seat's token (``Authorization: Bearer …``), else from what
  everybody saw (P-70). Answered ``202`` with the progress while it runs, ``200`` when done.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from perudo.core import NotationError

from ..accounts.refusals import refused
from ..accounts.sessions import current
from ..gamefacts import hands_shown
from ..payloads import ReplayData
from ..replay import replay_frames
from ..store import StoreError
from ..tables import TableError, hash_token
from ..tables.config import store_refused
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
    shown = await hands_shown(store_of(request), game)
    try:
        frames = ReplayData.model_validate(
            {**replay_frames(game, shown), "bots": await store_of(request).bot_seats(game.id)}
        ).model_dump(mode="json")
    except ValueError as err:
        return error_response(TableError("bad_record", str(err)))
    if game.private:
        # The table's id is its invite: a replay passed around must not give it away.
        frames["table_id"] = None
    return frames


@router.get("/api/games/{game_id}/record", response_model=None)
async def record(request: Request, game_id: str) -> JSONResponse | dict[str, Any]:
    """The whole record of a finished game whose table agreed to show every hand at the end."""
    store = store_of(request)
    game = None if len(game_id) > MAX_KEY else await store.game(game_id)
    if game is None:
        return error_response(TableError("no_game", f"there is no game {game_id[:MAX_KEY]!r}"))
    if game.finished_at is None:
        return error_response(TableError("not_now", f"game {game_id!r} is not finished yet"))
    if not await hands_shown(store, game):
        return error_response(
            TableError(
                "hands_hidden",
                f"game {game_id!r}'s table did not agree to show every hand at the end (P-21)",
            )
        )
    try:
        return game.record().to_json()
    except NotationError as err:
        return error_response(TableError("bad_record", str(err)))


@router.get("/api/games/{game_id}/analysis", response_model=None)
async def analysis(
    request: Request, game_id: str, seat: int | None = None
) -> JSONResponse | dict[str, Any]:
    """A finished game's analysis, for seat ``seat`` (from 0; its token in the
    ``Authorization: Bearer`` header) or, without ``seat``, for anybody (public information)."""
    analyses = getattr(request.app.state, "analyses", None)
    if analyses is None:
        return error_response(TableError("unavailable", "analyses are switched off here"))
    store = store_of(request)
    game = None if len(game_id) > MAX_KEY else await store.game(game_id)
    if game is None:
        return error_response(TableError("no_game", f"there is no game {game_id[:MAX_KEY]!r}"))
    if game.finished_at is None:
        return error_response(TableError("not_now", f"game {game_id!r} is not finished yet"))
    if seat is not None:
        if not 0 <= seat < game.players:
            return error_response(
                TableError("bad_seat", f"seat {seat} is not in this {game.players}-seat game")
            )
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        session = await current(store, request)
        account = None if session is None else session[0].player.id
        if not await store.played_seat(
            game.id, seat, hash_token(token) if token else None, account
        ):
            # The person who played the seat (their signed-in account, or a device token
            # that held it during the game), not whoever holds the seat now.
            return error_response(
                TableError(
                    "not_your_seat",
                    f"seat {seat}'s analysis is for the person who played it: that seat's "
                    "token from this game, or their signed-in account",
                )
            )
    try:
        record = game.record()
    except NotationError as err:
        return error_response(TableError("bad_record", str(err)))
    try:
        status: dict[str, Any] = await analyses.status(
            game.key, seat, record, show_hands=await hands_shown(store, game)
        )
    except StoreError as err:
        return error_response(store_refused(err, f"the analysis of game {game.key}"))
    if status["status"] == "running":
        return JSONResponse(status, status_code=202)
    if status["status"] == "failed":
        return error_response(TableError("bad_record", str(status["message"])))
    return status
