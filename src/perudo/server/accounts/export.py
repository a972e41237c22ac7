"""``GET /api/account/export``: everything the server keeps about the signed-in person, as
one JSON file (docs/accounts.md): the account, its sessions (never a token or a hash), every
finished game they sat in (private tables' too), each rating with its history, whom they
follow and block, and their devices' push choices. Without a
live session: 401 ``signed_out``. A read, so no CSRF token: the answer reaches only the
browser holding the cookie."""

from __future__ import annotations

import time
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from perudo.ratings import display

from ..routes.common import store_of
from .refusals import refused
from .sessions import current

__all__ = ["MOST_GAMES", "router"]

router = APIRouter()

MOST_GAMES: Final = 100_000
"""The most games one export lists (newest first)."""


@router.get("/api/account/export", response_model=None)
async def export(request: Request) -> JSONResponse:
    store = store_of(request)
    found = await current(store, request)
    if found is None:
        return refused("signed_out", "signed_out", 401)
    session = found[0]
    player = session.player
    sessions = await store.sessions_of(player.id)
    _, games = await store.player_games(player.id, None, 0, MOST_GAMES, private_too=True)
    ratings = await store.ratings_of(player.id)
    history = await store.rating_history(player.id)
    data: dict[str, Any] = {
        "exported_at": time.time(),
        "name": player.name,
        "created_at": player.created_at,
        "sessions": [
            {"created_at": s.created_at, "seen_at": s.seen_at, "agent": s.agent} for s in sessions
        ],
        "games": [{**g, "replay": f"/replay/{g['id']}"} for g in games],
        "ratings": [
            {
                "variant": variant,
                "pool": pool,
                "mu": r.mu,
                "sigma": r.sigma,
                "rating": display(r),
                "provisional": r.provisional,
                "games": n,
                "history": [
                    {"at": at, "rating": display(h)} for at, h in history.get((variant, pool), [])
                ],
            }
            for (variant, pool), (r, n) in sorted(ratings.items())
        ],
        # Friends and push (perudo.server.social): names, and each device's choices.
        "following": [p.name for p in await store.following(player.id)],
        "blocked": [p.name for p in await store.blocked(player.id)],
        "push_devices": [
            {"device": s.device, "kinds": sorted(s.kinds), "lang": s.lang}
            for s in await store.push_subscriptions(player.id)
        ],
    }
    return JSONResponse(
        data, headers={"Content-Disposition": 'attachment; filename="perudo-account.json"'}
    )
