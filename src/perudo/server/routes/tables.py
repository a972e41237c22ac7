"""The lobby API: the create-table form's choices, the lobby, creating, reading and joining a
table.

* ``GET /api/config``: presets, switches and bot levels for the create-table form;
* ``GET /api/tables``: the lobby (public tables waiting or playing);
* ``POST /api/tables``: create a table (its creator takes seat 0) → ``{table_id, seat, token}``;
* ``GET /api/tables/{id}``: one table's public information;
* ``GET /api/tables/{id}/invite.svg``: a QR code of the table's invite link;
* ``POST /api/tables/{id}/join``: take a seat under a display name → ``{seat, token}``.

Creating and joining with a session's cookie, its ``X-CSRF-Token`` and this site's ``Origin``
seats the signed-in person under their account's name (their game goes on their profile); a
``rated`` table (docs/ratings.md) seats only them.

Each table's answer carries ``invite`` (the path ``/t/{id}``) and ``invite_url``, the absolute
link on ``PERUDO_PUBLIC_URL`` (or on the address the request came to).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from perudo.analysis import explain
from perudo.core import PRESETS, GameRecord
from perudo.registry import LEVELS

from ..accounts.sessions import seated_player
from ..hosting import invite_svg
from ..proxy import base_url, client_host
from ..store import PlayerRow
from ..tables import TableConfig, TableError
from .common import error_response, lobby_of, settings_of, store_of

__all__ = ["CreateTable", "JoinTable", "create_for", "join_for", "router"]

router = APIRouter()


class CreateTable(BaseModel):
    """The create-table form."""

    name: str = Field(min_length=1, max_length=60)
    player: str = Field(min_length=1, max_length=24)
    preset: str = Field(default="perudo", max_length=40)
    calza: Literal["off", "on", "to_act"] | None = None
    palifico: Literal["on", "off", "not_two_players"] | None = None
    dice: int | None = Field(default=None, ge=1, le=10)
    seats: int = Field(default=6, ge=2, le=10)
    memory: bool = False
    turn_seconds: float | None = Field(default=None, ge=0, le=600)
    private: bool = False
    odds: Literal["auto", "on", "off"] = "auto"
    """The odds hint: ``auto`` (shown while at most one person sits at the table), on, off."""
    vacated: Literal["bot", "nobody"] = "bot"
    """Who takes the seat of a person who leaves (or is removed) during a game: a bot plays it
    to the end, or nobody (they concede: out with their dice, P-24)."""
    rated: bool = False
    """A rated table: signed-in people only, no bots; a leaver concedes (docs/ratings.md)."""
    show_hands: bool = False
    """Show every hand at the end: after the game, every hand of every round is public (a
    table agreement outside the rules, docs/analysis.md)."""


class JoinTable(BaseModel):
    name: str = Field(min_length=1, max_length=24)


@router.get("/api/config")
async def config(request: Request) -> dict[str, Any]:
    return {
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "levels": list(LEVELS),
        "turn_seconds": settings_of(request).turn_seconds,
        "languages": ["en", "ko", "it"],
    }


def invite_url(request: Request, table_id: str) -> str:
    """The table's invite link, absolute: on PERUDO_PUBLIC_URL, else on the address the
    request came to (as a trusted proxy forwards it)."""
    return settings_of(request).absolute(f"/t/{table_id}", base_url(request))


@router.get("/api/tables", response_model=None)
async def list_tables(request: Request) -> JSONResponse | dict[str, Any]:
    try:
        tables = await lobby_of(request).open_tables()
    except TableError as err:
        return error_response(err)
    return {"tables": [{**t, "invite_url": invite_url(request, t["id"])} for t in tables]}


@router.post("/api/tables", response_model=None)
async def create_table(request: Request, body: CreateTable) -> JSONResponse | dict[str, Any]:
    account = await seated_player(store_of(request), request, settings_of(request))
    return await create_for(request, body, account)


async def create_for(
    request: Request, body: CreateTable, account: PlayerRow | None, bot_account: bool = False
) -> JSONResponse | dict[str, Any]:
    """Create the table of ``body`` with its creator in seat 0: ``account`` (a signed-in
    person, or a bot account through the bot API: ``bot_account``), else a guest."""
    lobby = lobby_of(request)
    settings = settings_of(request)
    try:
        cfg = TableConfig.build(
            preset=body.preset,
            seats=body.seats,
            calza=body.calza,
            palifico=body.palifico,
            dice=body.dice,
            memory=body.memory,
            vacated=body.vacated,
            odds=body.odds,
            turn_seconds=(
                settings.turn_seconds if body.turn_seconds is None else body.turn_seconds
            ),
            min_turn_seconds=settings.min_turn_seconds,
            rated=body.rated,
            bot_table=bot_account,
            show_hands=body.show_hands,
        )
    except ValueError as err:
        return error_response(TableError("bad_rules", str(err)))
    try:
        table, seat, token = await lobby.create(
            name=body.name,
            player=body.player if account is None else account.name,
            config=cfg,
            private=body.private,
            client=client_host(request),
            player_id=None if account is None else account.id,
            bot_account=bot_account,
        )
    except TableError as err:
        return error_response(err)
    return {
        "table_id": table.id,
        "seat": seat,
        "token": token,
        "invite": f"/t/{table.id}",
        "invite_url": invite_url(request, table.id),
        "table": table.info(),
    }


@router.get("/api/tables/{table_id}", response_model=None)
async def get_table(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
    try:
        info = await lobby_of(request).info(table_id)
    except TableError as err:
        return error_response(err)
    return {**info, "invite_url": invite_url(request, table_id)}


@router.get("/api/tables/{table_id}/invite.svg", response_model=None)
async def invite_qr(request: Request, table_id: str) -> Response:
    """A QR code (SVG) of the table's invite link, for friends' phones to scan."""
    lobby = lobby_of(request)
    if not await lobby.guard.of(client_host(request)).invites.acquire():
        minute = settings_of(request).invites_per_minute
        return error_response(
            TableError(
                "client_limit",
                f"at most {minute:g} invite codes a minute from one address; "
                "try again in a moment",
            )
        )
    try:
        await lobby.info(table_id)
    except TableError as err:
        return error_response(err)
    return Response(
        invite_svg(invite_url(request, table_id)),
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-cache"},
    )


@router.post("/api/tables/{table_id}/join", response_model=None)
async def join_table(
    request: Request, table_id: str, body: JoinTable
) -> JSONResponse | dict[str, Any]:
    account = await seated_player(store_of(request), request, settings_of(request))
    return await join_for(request, table_id, body.name, account)


async def join_for(
    request: Request,
    table_id: str,
    name: str,
    account: PlayerRow | None,
    bot_account: bool = False,
) -> JSONResponse | dict[str, Any]:
    """Seat ``account`` (a signed-in person, or a bot account: ``bot_account``) under its
    name, else a guest under ``name``, at the table."""
    try:
        seat, token = await lobby_of(request).join(
            table_id,
            name if account is None else account.name,
            client_host(request),
            None if account is None else account.id,
            bot_account,
        )
    except TableError as err:
        return error_response(err)
    return {
        "table_id": table_id,
        "seat": seat,
        "token": token,
        "invite_url": invite_url(request, table_id),
    }


@router.get("/api/tables/{table_id}/explain", response_model=None)
async def explain_decision(request: Request, table_id: str) -> JSONResponse | dict[str, Any]:
    """The live "explain" panel of the seat whose token comes in ``Authorization: Bearer``
    (docs/analysis.md): its decision now and its last one judged
    (:func:`perudo.analysis.explain`), computed in the analyses' worker processes. Only at a
    table where every other seat is a bot: among people it would be help the others lack
    (``403 explain_people``, in words)."""
    analyses = getattr(request.app.state, "analyses", None)
    if analyses is None:
        return error_response(TableError("unavailable", "analyses are switched off here"))
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    try:
        table = lobby_of(request).get(table_id)
    except TableError as err:
        return error_response(err)
    seat = table.seat_of_token(token) if token else None
    if seat is None:
        return error_response(
            TableError("not_seated", "the explain panel is for a seat's own player: its token")
        )
    if any(s is not None and s.kind == "human" for i, s in enumerate(table.seats) if i != seat):
        return error_response(
            TableError(
                "explain_people",
                "the explain panel is only for a table where every other seat is a bot",
            )
        )
    state = table.state
    if table.status != "playing" or state is None:
        return error_response(TableError("not_now", "the explain panel is for a game under way"))
    result: dict[str, Any] = await analyses.run(explain, GameRecord.from_state(state), seat)
    return result
