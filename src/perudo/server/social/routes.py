"""The friends API, the invitations, Web Push subscriptions and the notice socket. Every
route needs a signed-in session; a change needs its CSRF token and this site's ``Origin``
(as the account routes, :mod:`perudo.server.accounts.sessions`). A refusal is ``{error,
message, texts}`` (``texts``: the reason in English, Korean and Italian).

* ``GET /api/friends`` → ``{following: [{name, online, tables: [{id, name}]}], blocked:
  [name], invitations: [invitation]}``: ``tables``, the public tables their open pages show;
* ``POST``/``DELETE /api/friends/{name}/follow``, ``POST``/``DELETE
  /api/friends/{name}/block`` → 204;
* ``POST /api/invitations`` ``{name, table}`` → 201 ``{id, delivered}`` (the inviter holds
  a seat at the waiting table; the invited person gets ``{type: "invited", invitation}`` on
  their notice sockets and a push); ``POST /api/invitations/{id}/accept`` → ``{table, seat,
  token}`` (seated under their account); ``POST /api/invitations/{id}/decline`` → 204 (the
  inviter gets ``{type: "declined", by, table, table_name}``);
* ``GET /api/push?device=…`` → ``{key, kinds, subscribed: [kind]}``; ``POST /api/push``
  ``{device, lang, kinds, subscription: {endpoint, keys: {p256dh, auth}}}`` → 204;
  ``DELETE /api/push/{device}`` → 204;
* ``/ws/me``: the notice socket: the server sends ``{type: "hello", invitations}`` then the
  notices; the page sends ``{type: "visible", visible, device}`` and ``{type: "ping"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from typing import Any, Final

from fastapi import APIRouter, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from perudo.i18n import LANGS

# First: the routes package imports the account routes, which import it back.
from perudo.server.routes.common import (
    error_response,
    lobby_of,
    settings_of,
    social_of,
    store_of,
)

from ..accounts import names
from ..accounts.refusals import refused
from ..accounts.sessions import COOKIE, csrf_ok, current, same_origin
from ..guard import client_key
from ..proxy import client_host
from ..store import PlayerRow
from ..store.social import INVITATION_SECONDS, Invitation, Subscription
from ..tables import TableError
from .presence import Page, Presence
from .push import KINDS, endpoint_allowed

__all__ = ["router"]

router = APIRouter()

NOTICE_MESSAGE_BYTES: Final = 512
"""The largest message the notice socket reads (its messages are tiny)."""


class InviteBody(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    table: str = Field(min_length=1, max_length=40)


class PushKeys(BaseModel):
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class PushSubscription(BaseModel):
    endpoint: str = Field(min_length=8, max_length=1000)
    keys: PushKeys


class PushBody(BaseModel):
    device: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    lang: str = Field(default="en", max_length=8)
    kinds: list[str] = Field(max_length=len(KINDS))
    subscription: PushSubscription


async def _me(request: Request, changing: bool = True) -> PlayerRow | JSONResponse:
    """The signed-in player, or the refusal: no live session (401), or (a change) no CSRF
    token or another site's ``Origin`` (403)."""
    found = await current(store_of(request), request)
    if found is None:
        return refused("signed_out", "signed_out", 401)
    if changing and not csrf_ok(request, settings_of(request), found[0]):
        return refused("forbidden", "forbidden", 403)
    return found[0].player


async def _me_and(request: Request, name: str) -> tuple[PlayerRow, PlayerRow] | JSONResponse:
    """The signed-in player making a change about the live player called ``name`` (as names
    compare, not themselves), or the refusal (:func:`_me`'s; 404 ``no_player``; 400
    ``yourself``)."""
    me = await _me(request)
    if isinstance(me, JSONResponse):
        return me
    other = await store_of(request).player_by_key(names.name_key(name))
    if other is None or other.deleted:
        return refused("no_player", "no_player", 404)
    if other.id == me.id:
        return refused("yourself", "social.yourself", 400)
    return me, other


# -- friends ------------------------------------------------------------------------------


@router.get("/api/friends", response_model=None)
async def friends(request: Request) -> JSONResponse | dict[str, Any]:
    me = await _me(request, changing=False)
    if isinstance(me, JSONResponse):
        return me
    social = social_of(request)
    try:
        public = {e["id"]: e["name"] for e in await lobby_of(request).open_tables()}
    except TableError:
        public = {}
    following = []
    for p in await social.store.following(me.id):
        online, tables = await social.whereabouts(p.id)
        at = sorted(tables & public.keys())
        following.append(
            {
                "name": p.name,
                "online": online,
                "tables": [{"id": t, "name": public[t]} for t in at],
            }
        )
    invitations = await social.store.invitations_for(me.id, time.time())
    return {
        "following": following,
        "blocked": [p.name for p in await social.store.blocked(me.id)],
        "invitations": [i.json() for i in invitations],
    }


@router.post("/api/friends/{name}/follow", status_code=204, response_model=None)
async def follow(request: Request, name: str) -> Response:
    found = await _me_and(request, name)
    if isinstance(found, JSONResponse):
        return found
    me, other = found
    store = store_of(request)
    if me.id in await store.blockers_of(other.id):
        return refused("blocked_them", "social.blocked_them", 409)
    await store.follow(me.id, other.id)
    return Response(status_code=204)


@router.delete("/api/friends/{name}/follow", status_code=204, response_model=None)
async def unfollow(request: Request, name: str) -> Response:
    found = await _me_and(request, name)
    if isinstance(found, JSONResponse):
        return found
    me, other = found
    await social_of(request).store.unfollow(me.id, other.id)
    return Response(status_code=204)


@router.post("/api/friends/{name}/block", status_code=204, response_model=None)
async def block(request: Request, name: str) -> Response:
    return await _blocking(request, name, True)


@router.delete("/api/friends/{name}/block", status_code=204, response_model=None)
async def unblock(request: Request, name: str) -> Response:
    return await _blocking(request, name, False)


async def _blocking(request: Request, name: str, on: bool) -> Response:
    """Block ``name`` (``on``) or no longer; what the player's open pages hide follows."""
    found = await _me_and(request, name)
    if isinstance(found, JSONResponse):
        return found
    me, other = found
    social = social_of(request)
    await (social.store.block if on else social.store.unblock)(me.id, other.id)
    await social.update_hidden(me.id)
    return Response(status_code=204)


# -- invitations --------------------------------------------------------------------------


async def _seated(request: Request, table_id: str, me: PlayerRow) -> tuple[str, str] | JSONResponse:
    """The table ``me`` invites to: (its id, its name) when they hold a seat at it and it
    waits for players (asked of its owner in multi-process mode)."""
    try:
        name, status, seated = await lobby_of(request).seated(table_id, me.id)
    except TableError as err:
        if err.code == "no_table":
            return refused("no_table", "social.no_table", 404)
        return error_response(err)
    if not seated:
        return refused("not_seated", "social.not_seated", 403)
    if status != "open":
        return refused("not_now", "social.not_waiting", 409)
    return table_id, name


@router.post("/api/invitations", status_code=201, response_model=None)
async def invite(request: Request, body: InviteBody) -> JSONResponse | dict[str, Any]:
    found = await _me_and(request, body.name)
    if isinstance(found, JSONResponse):
        return found
    me, other = found
    social = social_of(request)
    if other.id in await social.store.blockers_of(me.id):
        return refused("blocked", "social.invite_blocked", 403)
    at = await _seated(request, body.table, me)
    if isinstance(at, JSONResponse):
        return at
    table_id, table_name = at
    invitation = Invitation(
        secrets.token_urlsafe(12),
        me.id,
        me.name,
        other.id,
        table_id,
        table_name,
        "pending",
        time.time(),
    )
    await social.store.add_invitation(invitation)
    delivered = await social.notify(other.id, {"type": "invited", "invitation": invitation.json()})
    social.pusher.notify(other.id, "invite", table_id, {"from": me.name, "table": table_name})
    return JSONResponse({"id": invitation.id, "delivered": delivered}, status_code=201)


async def _invitation(request: Request, me: PlayerRow, invitation_id: str) -> Invitation | None:
    found = await social_of(request).store.invitation(invitation_id[:40])
    if (
        found is None
        or found.to_id != me.id
        or found.state != "pending"
        or time.time() - found.at > INVITATION_SECONDS
    ):
        return None
    return found


@router.post("/api/invitations/{invitation_id}/accept", response_model=None)
async def accept(request: Request, invitation_id: str) -> JSONResponse | dict[str, Any]:
    settled = await _settle(request, invitation_id, "accepted")
    if isinstance(settled, JSONResponse):
        return settled
    me, found = settled
    try:
        seat, token = await lobby_of(request).join(
            found.table_id, me.name, client_key(client_host(request)), me.id
        )
    except TableError as err:
        return error_response(err)
    await _tell_inviter(request, me, found, "accepted")
    return {"table": found.table_id, "seat": seat, "token": token}


@router.post("/api/invitations/{invitation_id}/decline", status_code=204, response_model=None)
async def decline(request: Request, invitation_id: str) -> Response:
    settled = await _settle(request, invitation_id, "declined")
    if isinstance(settled, JSONResponse):
        return settled
    me, found = settled
    await _tell_inviter(request, me, found, "declined")
    return Response(status_code=204)


async def _settle(
    request: Request, invitation_id: str, state: str
) -> tuple[PlayerRow, Invitation] | JSONResponse:
    """The signed-in player and their open invitation, marked ``state`` (once only); else the
    refusal (:func:`_me`'s, or 404 ``no_invitation``)."""
    me = await _me(request)
    if isinstance(me, JSONResponse):
        return me
    found = await _invitation(request, me, invitation_id)
    if found is None or not await store_of(request).settle_invitation(found.id, me.id, state):
        return refused("no_invitation", "social.no_invitation", 404)
    return me, found


async def _tell_inviter(request: Request, me: PlayerRow, found: Invitation, how: str) -> None:
    """Tell the inviter, live, that ``me`` ``accepted`` or ``declined``."""
    await social_of(request).notify(
        found.from_id,
        {"type": how, "by": me.name, "table": found.table_id, "table_name": found.table_name},
    )


# -- Web Push -----------------------------------------------------------------------------


@router.get("/api/push", response_model=None)
async def push_state(request: Request, device: str = "") -> JSONResponse | dict[str, Any]:
    me = await _me(request, changing=False)
    if isinstance(me, JSONResponse):
        return me
    social = social_of(request)
    mine = [s for s in await social.store.push_subscriptions(me.id) if s.device == device]
    return {
        "key": social.pusher.public_key,
        "kinds": list(KINDS),
        "subscribed": sorted(mine[0].kinds) if mine else [],
    }


@router.post("/api/push", status_code=204, response_model=None)
async def subscribe(request: Request, body: PushBody) -> Response:
    me = await _me(request)
    if isinstance(me, JSONResponse):
        return me
    unknown = [k for k in body.kinds if k not in KINDS]
    if unknown:
        return JSONResponse(
            {"error": "bad_request", "message": f"kinds: {unknown[0]!r} is not one of {KINDS}"},
            status_code=400,
        )
    social = social_of(request)
    if not endpoint_allowed(body.subscription.endpoint, settings_of(request).push_service_list):
        return refused("push_service", "social.push_service", 400)
    with social.pusher.changing():
        if not body.kinds:
            await social.store.remove_push_subscription(me.id, body.device)
        else:
            await social.store.add_push_subscription(
                Subscription(
                    body.subscription.endpoint,
                    me.id,
                    body.device,
                    body.subscription.keys.p256dh,
                    body.subscription.keys.auth,
                    frozenset(body.kinds),
                    body.lang if body.lang in LANGS else "en",
                )
            )
    return Response(status_code=204)


@router.delete("/api/push/{device}", status_code=204, response_model=None)
async def unsubscribe(request: Request, device: str) -> Response:
    me = await _me(request)
    if isinstance(me, JSONResponse):
        return me
    social = social_of(request)
    with social.pusher.changing():
        await social.store.remove_push_subscription(me.id, device[:64])
    return Response(status_code=204)


# -- the notice socket --------------------------------------------------------------------


@router.websocket("/ws/me")
async def notice_socket(ws: WebSocket) -> None:
    settings = settings_of(ws)
    found = await current(store_of(ws), ws) if COOKIE in ws.cookies else None
    if found is None or not same_origin(ws, settings):
        await ws.close(1008)
        return
    lobby = lobby_of(ws)
    client = client_host(ws)
    if not await lobby.guard.open_connection(client):
        await ws.close(1008)
        return
    social = social_of(ws)
    me = found[0].player
    await ws.accept()
    outbox: asyncio.Queue[str] = asyncio.Queue(maxsize=100)

    def send(text: str) -> None:
        with contextlib.suppress(asyncio.QueueFull):  # a page this far behind reloads them
            outbox.put_nowait(text)

    async def writer() -> None:
        while True:
            await ws.send_text(await outbox.get())

    page = Page(me.id, send=send)
    await social.add_page(page)
    pending = await social.store.invitations_for(me.id, time.time())
    send(json.dumps({"type": "hello", "invitations": [i.json() for i in pending]}))
    writing = asyncio.create_task(writer(), name="perudo-notices")
    try:
        while True:
            async with asyncio.timeout(settings.ws_idle_seconds):
                message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            _take(social.presence, page, message.get("text") or "", send)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        pass
    finally:
        social.presence.remove(page)
        lobby.guard.close_connection(client)
        writing.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writing
        with contextlib.suppress(Exception):
            await ws.close()


def _take(presence: Presence, page: Page, text: str, send: Any) -> None:
    """One message of the notice socket: ``visible`` (whether the page is in front, and the
    device it is on) or ``ping``; anything else is ignored."""
    if len(text) > NOTICE_MESSAGE_BYTES:
        return
    try:
        msg = json.loads(text)
    except ValueError:
        return
    if not isinstance(msg, dict):
        return
    if msg.get("type") == "visible":
        page.visible = bool(msg.get("visible"))
        device = msg.get("device")
        if isinstance(device, str) and len(device) <= 64:
            page.device = device
        presence.touched(page.account)
    elif msg.get("type") == "ping":
        send('{"type": "pong"}')
