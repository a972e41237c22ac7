"""Players' public pages as JSON (docs/accounts.md): a profile, a player's games, the
leaderboards. Only finished games of public tables are shown; a deleted player has no
profile (their games show them as "deleted player").

* ``GET /api/players/{name}`` → ``{name, bot, created_at, variants: {variant: {played, won,
  ratings: {pool: {rating, provisional, games, history: [{at, rating}]}}}}, recent: [game]}``;
* ``GET /api/players/{name}/games?variant=…&page=…`` → ``{games: [game], page, pages,
  total}``, :data:`PAGE` a page, newest first; a game is ``{id, variant, rated, names, seat,
  winner, won, finished_at, replay}`` (``replay``: the replay's path);
* ``GET /api/leaderboard?variant=…&pool=duel|table&bots=1`` → ``{variant, pool, bots, days,
  players: [{name, rating, games}]}``: established players (not provisional) whose rating
  changed in the last :data:`ACTIVE_DAYS` days, best first, at most :data:`LEADERS`; people's,
  or with ``bots=1`` bot accounts' (docs/bot-api.md), never the two mixed.
"""

from __future__ import annotations

import time
from typing import Any, Final, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from perudo.core import PRESETS
from perudo.ratings import PROVISIONAL_SIGMA, Rating, display

from ..routes.common import store_of
from .refusals import refused

__all__ = ["ACTIVE_DAYS", "LEADERS", "PAGE", "router"]

router = APIRouter()

PAGE: Final = 20
RECENT: Final = 10
LEADERS: Final = 100
ACTIVE_DAYS: Final = 30


def _rating(r: Rating) -> dict[str, Any]:
    return {"rating": display(r), "provisional": r.provisional}


def _game(g: dict[str, Any]) -> dict[str, Any]:
    return {**g, "replay": f"/replay/{g['id']}"}


@router.get("/api/players/{name}", response_model=None)
async def profile(request: Request, name: str) -> JSONResponse | dict[str, Any]:
    store = store_of(request)
    player = await store.player_by_name(name)
    if player is None:
        return refused("no_player", "no_player", 404)
    tally = await store.player_tally(player.id)
    ratings = await store.ratings_of(player.id)
    history = await store.rating_history(player.id)
    variants: dict[str, dict[str, Any]] = {}
    for variant, (played, won) in tally.items():
        variants[variant] = {"played": played, "won": won, "ratings": {}}
    for (variant, kind), (rating, games) in ratings.items():
        entry = variants.setdefault(variant, {"played": 0, "won": 0, "ratings": {}})
        entry["ratings"][kind] = {
            **_rating(rating),
            "games": games,
            "history": [
                {"at": at, "rating": display(r)} for at, r in history.get((variant, kind), [])
            ],
        }
    _, recent = await store.player_games(player.id, None, 0, RECENT)
    return {
        "name": player.name,
        "bot": await store.is_bot(player.id),
        "created_at": player.created_at,
        "variants": variants,
        "recent": [_game(g) for g in recent],
    }


@router.get("/api/players/{name}/games", response_model=None)
async def games(
    request: Request,
    name: str,
    variant: str | None = Query(default=None, max_length=40),
    page: int = Query(default=1, ge=1, le=100000),
) -> JSONResponse | dict[str, Any]:
    store = store_of(request)
    player = await store.player_by_name(name)
    if player is None:
        return refused("no_player", "no_player", 404)
    total, found = await store.player_games(player.id, variant, (page - 1) * PAGE, PAGE)
    return {
        "games": [_game(g) for g in found],
        "page": page,
        "pages": max(1, -(-total // PAGE)),
        "total": total,
    }


@router.get("/api/leaderboard", response_model=None)
async def leaderboard(
    request: Request,
    variant: str = Query(default="perudo", max_length=40),
    pool: Literal["duel", "table"] = "duel",
    bots: bool = False,
) -> JSONResponse | dict[str, Any]:
    if variant not in PRESETS:
        return refused("no_variant", "no_variant", 404)
    since = time.time() - ACTIVE_DAYS * 86400
    leaders = await store_of(request).leaderboard(
        variant, pool, since, PROVISIONAL_SIGMA, LEADERS, bots=bots
    )
    return {
        "variant": variant,
        "pool": pool,
        "bots": bots,
        "days": ACTIVE_DAYS,
        "players": [
            {"name": name, "rating": display(r), "games": games} for name, r, games in leaders
        ],
    }
