"""The account API (docs/accounts.md). Every answer is JSON; a refusal is ``{error, message,
texts}`` (``texts``: the reason in English, Korean and Italian), as the lobby's are.

* ``POST /api/account/signup`` ``{name, password, seats}`` → 201 ``{name, csrf, claimed}``
  and the session's cookie; ``POST /api/account/signin`` the same → 200 (``seats``: the
  device's seat tokens, whose games the account claims, :mod:`.claims`);
* ``GET /api/account`` → ``{name, created_at, csrf, password, passkeys: [{id, created_at}],
  sessions: [{id, created_at, seen_at, agent, current}]}`` (401 ``signed_out`` without a live
  session);
* with the cookie, its CSRF token in ``X-CSRF-Token`` and this site's ``Origin``:
  ``POST /api/account/signout``; ``DELETE /api/account/sessions/{id}`` (revoke one);
  ``POST /api/account/password`` ``{old, new}`` (every other session ends);
  ``POST /api/account/password/set`` ``{new, passkey: {ceremony, credential}}`` (a
  passkey-only account's first password, confirmed by one of its passkeys; 409
  ``has_password`` when it has one; every other session ends);
  ``POST /api/account/delete`` ``{password}`` or ``{passkey: {ceremony, credential}}``
  (sessions and passkeys go, the name becomes
  "deleted player" and is free again; games stay).

Sign-in attempts are limited per account and per address (:data:`PER_NAME`,
:data:`PER_ADDRESS` failures in :data:`WINDOW` seconds, counted in the database, so over every
process: :mod:`.access`); a wrong password, an unknown name and a name without a password get
the same answer after the same argon2 work.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from perudo.i18n import load_catalog

from ..routes.common import settings_of, social_of, store_of
from . import names, passwords
from .access import (
    PER_ADDRESS,
    PER_NAME,
    WINDOW,
    address_limit,
    changing,
    failed,
    forbidden,
    hasher_of,
    limited,
    name_limit,
    password_checked,
    session_of,
    signed_out,
)
from .ceremony import PasskeyAnswer, confirmed
from .claims import MOST_SEATS, SeatProof, claim
from .refusals import refused
from .sessions import end_cookie, new_session, same_origin, set_cookie

__all__ = ["PER_ADDRESS", "PER_NAME", "WINDOW", "router"]

router = APIRouter()


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)
    seats: list[SeatProof] = Field(default_factory=list, max_length=MOST_SEATS)
    """The device's seat tokens, whose games the account claims (:mod:`.claims`)."""


class NewPassword(BaseModel):
    old: str = Field(min_length=1, max_length=1024)
    new: str = Field(min_length=1, max_length=1024)


class FirstPassword(BaseModel):
    """A passkey-only account's first password and a passkey's confirmation of it (an
    assertion for ``POST /api/account/passkey/confirm/options``'s attempt, action
    ``"password"``)."""

    new: str = Field(min_length=1, max_length=1024)
    passkey: PasskeyAnswer


class Confirm(BaseModel):
    """The account's deletion confirmed by its password, or by one of its passkeys (an
    assertion for ``POST /api/account/passkey/confirm/options``'s attempt)."""

    password: str | None = Field(default=None, min_length=1, max_length=1024)
    passkey: PasskeyAnswer | None = None


@router.post("/api/account/signup", status_code=201, response_model=None)
async def sign_up(request: Request, body: Credentials) -> JSONResponse:
    if not same_origin(request, settings_of(request)):
        return forbidden()
    if passwords.busy():
        raise passwords.Busy
    try:
        key = names.check_name(body.name)
    except names.NameRefused as err:
        return refused("name_refused", f"name.{err.code}", 400)
    why = passwords.refusal(body.password, body.name)
    if why is not None:
        return refused("password_refused", f"password.{why}", 400)
    store = store_of(request)
    address = address_limit(request)
    if await limited(request, address):
        return refused("too_many_attempts", "sign_in.limited", 429)
    hashed = await passwords.hash_password(hasher_of(request), body.password)
    player_id = await store.create_player(body.name.strip(), key, hashed)
    if player_id is None:
        await failed(request, address)
        return refused("name_taken", "name.taken", 409)
    made = await new_session(store, request, player_id)
    claimed = await claim(store, player_id, body.seats)
    response = JSONResponse(
        {"name": body.name.strip(), "csrf": made.csrf, "claimed": claimed}, status_code=201
    )
    set_cookie(request, response, made.token)
    return response


@router.post("/api/account/signin", response_model=None)
async def sign_in(request: Request, body: Credentials) -> JSONResponse:
    if not same_origin(request, settings_of(request)):
        return forbidden()
    store = store_of(request)
    player = await password_checked(request, body.name, body.password)
    if isinstance(player, JSONResponse):
        return player
    await store.clear_sign_in_failures(name_limit(body.name))
    if await store.is_bot(player.id):
        # Said only to whoever knows the password: a bot account plays with its tokens.
        return refused("bot_account", "bot.no_sign_in", 403)
    made = await new_session(store, request, player.id)
    claimed = await claim(store, player.id, body.seats)
    response = JSONResponse({"name": player.name, "csrf": made.csrf, "claimed": claimed})
    set_cookie(request, response, made.token)
    return response


@router.get("/api/account", response_model=None)
async def account(request: Request) -> JSONResponse | dict[str, Any]:
    found = await session_of(request)
    if found is None:
        return signed_out()
    session, hashed = found
    store = store_of(request)
    sessions = await store.sessions_of(session.player.id)
    keys = await store.passkeys_of(session.player.id)
    return {
        "name": session.player.name,
        "created_at": session.player.created_at,
        "csrf": session.csrf,
        "password": session.player.password_hash is not None,
        "passkeys": [{"id": k.credential_id, "created_at": k.created_at} for k in keys],
        "sessions": [
            {
                "id": s.public_id,
                "created_at": s.created_at,
                "seen_at": s.seen_at,
                "agent": s.agent,
                "current": s.public_id == session.public_id,
            }
            for s in sessions
        ],
    }


@router.post("/api/account/signout", status_code=204, response_model=None)
async def sign_out(request: Request) -> Response:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    session, hashed = found
    await store_of(request).end_sessions(session.player.id, token_hash=hashed)
    response = Response(status_code=204)
    end_cookie(request, response)
    return response


@router.delete("/api/account/sessions/{session_id}", status_code=204, response_model=None)
async def revoke(request: Request, session_id: str) -> Response:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    session, _ = found
    ended = await store_of(request).end_sessions(session.player.id, public_id=session_id)
    if not ended:
        return refused("no_session", "no_session", 404)
    return Response(status_code=204)


@router.post("/api/account/password", status_code=204, response_model=None)
async def change_password(request: Request, body: NewPassword) -> Response:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    session, hashed = found
    if not await passwords.check_password(
        hasher_of(request), session.player.password_hash, body.old
    ):
        return refused("wrong_password", "password.wrong", 403)
    why = passwords.refusal(body.new, session.player.name)
    if why is not None:
        return refused("password_refused", f"password.{why}", 400)
    new_hash = await passwords.hash_password(hasher_of(request), body.new)
    await store_of(request).set_password(session.player.id, new_hash, keeping=hashed)
    await store_of(request).end_resets(session.player.id)
    return Response(status_code=204)


@router.post("/api/account/password/set", status_code=204, response_model=None)
async def set_password(request: Request, body: FirstPassword) -> Response:
    """A passkey-only account's first password, confirmed by one of its passkeys (a
    confirmation made for ``action`` ``"password"``), so that a session's cookie and CSRF
    token alone cannot add a way in; refused once the account has a password (the change
    route then)."""
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    session, hashed = found
    if session.player.password_hash is not None:
        return refused("has_password", "password.exists", 409)
    why = passwords.refusal(body.new, session.player.name)
    if why is not None:
        return refused("password_refused", f"password.{why}", 400)
    if not await confirmed(request, session.player, body.passkey, "password"):
        return refused("passkey_failed", "passkey.failed", 403)
    new_hash = await passwords.hash_password(hasher_of(request), body.new)
    store = store_of(request)
    if not await store.set_password(session.player.id, new_hash, keeping=hashed, first=True):
        return refused("has_password", "password.exists", 409)
    await store.end_resets(session.player.id)
    return Response(status_code=204)


@router.post("/api/account/delete", status_code=204, response_model=None)
async def delete_account(request: Request, body: Confirm) -> Response:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    session, _ = found
    stored = session.player.password_hash
    if body.passkey is not None:
        if not await confirmed(request, session.player, body.passkey):
            return refused("passkey_failed", "passkey.failed", 403)
    elif not await passwords.check_password(hasher_of(request), stored, body.password or ""):
        return refused("wrong_password", "password.wrong", 403)
    await store_of(request).delete_player(
        session.player.id, load_catalog("en").t("account.deleted")
    )
    # Friends and push (perudo.server.social): who they followed and blocked, and their devices.
    await social_of(request).forget_account(session.player.id)
    response = Response(status_code=204)
    end_cookie(request, response)
    return response
