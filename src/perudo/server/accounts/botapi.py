"""The bot API's HTTP routes (docs/bot-api.md). Every answer is JSON; a refusal is ``{error,
message, texts}`` as the account API's are.

* ``POST /api/bot/account/upgrade`` ``{name, password, label?}`` → 201 ``{name, token: {id,
  token, label}}``: the account becomes a bot account, for good (only one that has played no
  game and sits at no table: 409 ``played``); its sessions end (the cookie is dropped). An
  account that is a bot account already gets a new token (200): the way back for a bot that
  lost every token. The password is checked under the sign-in's limits.
* With ``Authorization: Bearer <token>`` (a session cookie alone is refused: 401
  ``bot_token_needed``; a token revoked or unknown: 401 ``bad_bot_token``):
  ``GET /api/bot/account`` → ``{name, bot, created_at, tokens}``;
  ``GET /api/bot/tokens``; ``POST /api/bot/tokens`` ``{label?}`` → 201 ``{id, token, label}``
  (409 ``too_many_tokens``); ``DELETE /api/bot/tokens/{id}`` → 204 (its sockets close);
  ``POST /api/bot/account/delete`` ``{password}`` → 204: the bot account is deleted as a
  person's is (its games stay, its name becomes "deleted player"), every token is revoked and
  its sockets close (403 ``wrong_password``, under the sign-in's limits);
  ``POST /api/bot/tables`` (the lobby's create-table form, no ``player``) and
  ``POST /api/bot/tables/{id}/join`` → ``{table_id, seat, token, …}`` as the page's are, the
  seat the bot account's (refused past ``PERUDO_BOT_TABLES`` seats: 429 ``bot_tables``).

The table itself is played on ``/ws/tables/{id}`` with the same bearer header
(:mod:`perudo.server.routes.socket`).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from perudo.i18n import load_catalog

from ..routes.common import error_response, settings_of, social_of, store_of
from ..routes.tables import CreateTable, create_for, join_for
from ..store import PlayerRow
from ..tables import TableError
from ..tables.config import server_texts
from . import bots
from .access import password_checked
from .refusals import refused
from .sessions import COOKIE, end_cookie, same_origin

__all__ = ["BotTable", "router"]

router = APIRouter()


class Upgrade(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)
    label: str = Field(default="", max_length=60)
    """What the token list calls the first token (``""``: its date)."""


class NewToken(BaseModel):
    label: str = Field(default="", max_length=60)


class BotTable(CreateTable):
    """The create-table form of the bot API: the bot sits under its account's name."""

    player: str = Field(default="", max_length=24)


def _label(label: str) -> str:
    return label.strip() or time.strftime("token of %Y-%m-%d", time.gmtime())


@router.post("/api/bot/account/upgrade", status_code=201, response_model=None)
async def upgrade(request: Request, body: Upgrade) -> JSONResponse:
    if not same_origin(request, settings_of(request)):
        return refused("forbidden", "forbidden", 403)
    store = store_of(request)
    player = await password_checked(request, body.name, body.password)
    if isinstance(player, JSONResponse):
        return player
    was_bot = await store.is_bot(player.id)
    done = await bots.become_bot(store, player.id, _label(body.label))
    if done.refused == "played":
        return refused("played", "bot.played", 409)
    if done.refused == "too_many_tokens":
        return refused("too_many_tokens", "bot.too_many_tokens", 409)
    response = JSONResponse(
        {
            "name": player.name,
            "token": {"id": done.id, "token": done.token, "label": _label(body.label)},
        },
        status_code=200 if was_bot else 201,
    )
    if COOKIE in request.cookies:
        end_cookie(request, response)
    return response


async def _bot(request: Request) -> tuple[PlayerRow, str] | JSONResponse:
    """The bot account of the request's bearer token, or the refusal: no token (a session
    cookie is no way into the bot API), or one that opens nothing."""
    token = bots.bearer(request)
    if token is None:
        return _challenge(refused("bot_token_needed", "bot.token_needed", 401))
    found = await bots.bot_of_token(store_of(request), token)
    if found is None:
        return _challenge(refused("bad_bot_token", "bot.bad_token", 401), "invalid_token")
    return found


def _challenge(answer: JSONResponse, error: str | None = None) -> JSONResponse:
    """A 401 of the bot API names the scheme it takes (RFC 6750)."""
    answer.headers["WWW-Authenticate"] = 'Bearer realm="perudo bot API"' + (
        "" if error is None else f', error="{error}"'
    )
    return answer


@router.get("/api/bot/account", response_model=None)
async def account(request: Request) -> JSONResponse | dict[str, Any]:
    found = await _bot(request)
    if isinstance(found, JSONResponse):
        return found
    player, _ = found
    tokens = await store_of(request).bot_tokens(player.id)
    return {
        "name": player.name,
        "bot": True,
        "created_at": player.created_at,
        "tokens": [t.to_json() for t in tokens],
    }


class DeleteBot(BaseModel):
    password: str = Field(min_length=1, max_length=1024)
    """The account's password: a token alone, which a bot's program holds, deletes nothing."""


@router.post("/api/bot/account/delete", status_code=204, response_model=None)
async def delete_account(request: Request, body: DeleteBot) -> Response:
    found = await _bot(request)
    if isinstance(found, JSONResponse):
        return found
    player = await password_checked(request, found[0].name, body.password)
    if isinstance(player, JSONResponse):
        if player.status_code == 401:
            return refused("wrong_password", "password.wrong", 403)
        return player
    store = store_of(request)
    hashes = await store.drop_bot_tokens(player.id)
    await store.delete_player(player.id, load_catalog("en").t("account.deleted"))
    await social_of(request).forget_account(player.id)
    sockets = bots.sockets_of(request)
    for hashed in hashes:
        await sockets.revoke(hashed)
    return Response(status_code=204)


@router.get("/api/bot/tokens", response_model=None)
async def list_tokens(request: Request) -> JSONResponse | dict[str, Any]:
    found = await _bot(request)
    if isinstance(found, JSONResponse):
        return found
    tokens = await store_of(request).bot_tokens(found[0].id)
    return {"tokens": [t.to_json() for t in tokens]}


@router.post("/api/bot/tokens", status_code=201, response_model=None)
async def create_token(request: Request, body: NewToken) -> JSONResponse:
    found = await _bot(request)
    if isinstance(found, JSONResponse):
        return found
    label = _label(body.label)
    made = await bots.new_token(store_of(request), found[0].id, label)
    if made is None:
        return refused("too_many_tokens", "bot.too_many_tokens", 409)
    return JSONResponse({"id": made[0], "token": made[1], "label": label}, status_code=201)


@router.delete("/api/bot/tokens/{token_id}", status_code=204, response_model=None)
async def revoke_token(request: Request, token_id: str) -> Response:
    found = await _bot(request)
    if isinstance(found, JSONResponse):
        return found
    hashed = await store_of(request).revoke_bot_token(found[0].id, token_id)
    if hashed is None:
        return refused("no_token", "bot.no_token", 404)
    await bots.sockets_of(request).revoke(hashed)
    return Response(status_code=204)


async def _seating_bot(request: Request, table_id: str | None = None) -> PlayerRow | JSONResponse:
    """The bot account of the request's token, with room for one more seat (its seat at
    ``table_id``, where it sits already, is none); else the refusal (:func:`_bot`'s, or one
    more seat for a bot account holding ``PERUDO_BOT_TABLES``)."""
    found = await _bot(request)
    if isinstance(found, JSONResponse):
        return found
    player = found[0]
    most = settings_of(request).bot_tables
    held = await store_of(request).bot_seats_held(player.id, besides=table_id)
    if held < most:
        return player
    return error_response(
        TableError(
            "bot_tables",
            f"this bot account already sits at {held} tables, the most it may "
            f"(PERUDO_BOT_TABLES); leave a table that waits for players, or let a game end first",
            texts=server_texts("bot_tables", n=held),
        )
    )


@router.post("/api/bot/tables", response_model=None)
async def create_table(request: Request, body: BotTable) -> JSONResponse | dict[str, Any]:
    player = await _seating_bot(request)
    if isinstance(player, JSONResponse):
        return player
    return await create_for(request, body, player, bot_account=True)


@router.post("/api/bot/tables/{table_id}/join", response_model=None)
async def join_table(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
    player = await _seating_bot(request, table_id)
    if isinstance(player, JSONResponse):
        return player
    return await join_for(request, table_id, player.name, player, bot_account=True)
