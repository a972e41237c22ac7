"""Passkeys (WebAuthn, through ``webauthn``): sign up with a name and a passkey instead of a
password, sign in with a passkey, add another from the account page, list and remove them,
confirm the account's deletion or its first password with one (docs/accounts.md).

Each ceremony is two requests. The first (``…/options``) makes an attempt: a random 32-byte
challenge kept in the database (``webauthn_challenges``, so any process may finish it) for
:data:`.ceremony.LIFETIME` seconds under a random id, the ``ceremony`` the page sends back with the
browser's answer. Finishing takes the attempt once (:meth:`~perudo.server.store.Store.
take_challenge` deletes it): a replayed answer, or one after its time, finds nothing.

The relying party is the address the request came to, as for every other origin check here
(:func:`~perudo.server.proxy.base_url`: the scheme and host the browser sees, behind a trusted
proxy too): the expected origin is that address and the RP id its host name. User
verification is required (a passkey replaces a password), and passkeys are discoverable
(resident): signing in asks for no name, so nothing about which names exist is ever said,
and the options are the same for everyone.

* ``POST /api/account/passkey/signup/options`` ``{name}`` → ``{ceremony, options}``; then
  ``POST /api/account/passkey/signup`` ``{ceremony, credential, seats}`` → 201 ``{name,
  csrf, claimed}`` and the session's cookie;
* ``POST /api/account/passkey/signin/options`` → ``{ceremony, options}``; then
  ``POST /api/account/passkey/signin`` ``{ceremony, credential, seats}`` → ``{name, csrf,
  claimed}`` and a new session's cookie;
* signed in, with the CSRF token: ``POST /api/account/passkeys/options`` and
  ``POST /api/account/passkeys`` ``{ceremony, credential}`` → 201 ``{id}`` (another passkey);
  ``DELETE /api/account/passkeys/{id}`` (never the last way to sign in: 409
  ``last_sign_in``); ``POST /api/account/passkey/confirm/options`` ``{action}`` (an
  assertion that ``POST /api/account/delete`` accepts instead of the password, ``action``
  ``"delete"``, the default; or that ``POST /api/account/password/set`` requires before a
  passkey-only account's first password, ``action`` ``"password"``). A confirmation is
  bound to its action: one made for the other is refused.

Sign-ins with a passkey count failures as passwords' do (per address, and per account once the
credential names one); a credential nobody has, a bad signature, another origin or RP id, a
signature count that went back (a cloned authenticator) all get the one answer
``sign_in_failed``.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ..routes.common import settings_of, store_of
from ..store import PlayerRow
from . import ceremony, names
from .access import address_limit, changing, failed, forbidden, limited, name_limit
from .ceremony import MAX_ID, PasskeyAnswer
from .claims import MOST_SEATS, SeatProof, claim
from .refusals import refused
from .sessions import new_session, same_origin, set_cookie

__all__ = ["router"]

router = APIRouter()


class NewName(BaseModel):
    name: str = Field(min_length=1, max_length=64)


class SignInAnswer(PasskeyAnswer):
    seats: list[SeatProof] = Field(default_factory=list, max_length=MOST_SEATS)


def _expired() -> JSONResponse:
    return refused("passkey_expired", "passkey.expired", 400)


async def _signed_in(
    request: Request, player: PlayerRow, seats: list[SeatProof], status: int = 200
) -> JSONResponse:
    store = store_of(request)
    made = await new_session(store, request, player.id)
    claimed = await claim(store, player.id, seats)
    body = {"name": player.name, "csrf": made.csrf, "claimed": claimed}
    response = JSONResponse(body, status_code=status)
    set_cookie(request, response, made.token)
    return response


# -- sign up with a passkey ----------------------------------------------------------------


@router.post("/api/account/passkey/signup/options", response_model=None)
async def sign_up_options(request: Request, body: NewName) -> JSONResponse | dict[str, Any]:
    if not same_origin(request, settings_of(request)):
        return forbidden()
    try:
        key = names.check_name(body.name)
    except names.NameRefused as err:
        return refused("name_refused", f"name.{err.code}", 400)
    address = address_limit(request)
    if await limited(request, address):
        return refused("too_many_attempts", "sign_in.limited", 429)
    store = store_of(request)
    name = body.name.strip()
    if await store.player_by_key(key) is not None:
        await failed(request, address)
        return refused("name_taken", "name.taken", 409)
    made, challenge = await ceremony.attempt(request, "signup", name=name)
    return {"ceremony": made, "options": ceremony.registration(request, challenge, name, [])}


@router.post("/api/account/passkey/signup", status_code=201, response_model=None)
async def sign_up(request: Request, body: SignInAnswer) -> JSONResponse:
    if not same_origin(request, settings_of(request)):
        return forbidden()
    store = store_of(request)
    attempt = await store.take_challenge(body.ceremony, "signup")
    if attempt is None or attempt.name is None:
        return _expired()
    made = ceremony.registered(request, attempt.challenge, body.credential)
    if made is None:
        return refused("passkey_failed", "passkey.failed", 400)
    name = attempt.name
    player_id = await store.create_passkey_player(name, names.name_key(name), *made)
    if player_id is None:
        await failed(request, address_limit(request))
        return refused("name_taken", "name.taken", 409)
    player = await store.player_by_key(names.name_key(name))
    assert player is not None and player.id == player_id
    return await _signed_in(request, player, body.seats, 201)


# -- sign in with a passkey ----------------------------------------------------------------


@router.post("/api/account/passkey/signin/options", response_model=None)
async def sign_in_options(request: Request) -> JSONResponse | dict[str, Any]:
    if not same_origin(request, settings_of(request)):
        return forbidden()
    if await limited(request, address_limit(request)):
        return refused("too_many_attempts", "sign_in.limited", 429)
    made, challenge = await ceremony.attempt(request, "signin")
    return {"ceremony": made, "options": ceremony.assertion(request, challenge)}


@router.post("/api/account/passkey/signin", response_model=None)
async def sign_in(request: Request, body: SignInAnswer) -> JSONResponse:
    if not same_origin(request, settings_of(request)):
        return forbidden()
    store = store_of(request)
    address = address_limit(request)
    owner = await _owner_key(request, body.credential)
    keys = (address,) if owner is None else (address, owner)
    if await limited(request, *keys):
        return refused("too_many_attempts", "sign_in.limited", 429)
    attempt = await store.take_challenge(body.ceremony, "signin")
    key = (
        None
        if attempt is None
        else await ceremony.asserted(request, attempt.challenge, body.credential)
    )
    if key is None:
        await failed(request, *keys)
        return refused("sign_in_failed", "passkey.sign_in_failed", 401)
    if owner is not None:
        await store.clear_sign_in_failures(owner)
    return await _signed_in(request, key.player, body.seats)


async def _owner_key(request: Request, credential: dict[str, Any]) -> str | None:
    """The limit key (``name:<key>``) of the account a credential id names, if any."""
    credential_id = credential.get("id")
    if not isinstance(credential_id, str) or not 0 < len(credential_id) <= MAX_ID:
        return None
    key = await store_of(request).passkey(credential_id)
    return None if key is None else name_limit(key.player.name)


# -- a signed-in player's passkeys ---------------------------------------------------------


@router.post("/api/account/passkeys/options", response_model=None)
async def add_options(request: Request) -> JSONResponse | dict[str, Any]:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    player = found[0].player
    known = await store_of(request).passkeys_of(player.id)
    made, challenge = await ceremony.attempt(request, "add", player_id=player.id)
    return {
        "ceremony": made,
        "options": ceremony.registration(request, challenge, player.name, known),
    }


@router.post("/api/account/passkeys", status_code=201, response_model=None)
async def add(request: Request, body: PasskeyAnswer) -> JSONResponse:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    player = found[0].player
    store = store_of(request)
    attempt = await store.take_challenge(body.ceremony, "add")
    if attempt is None or attempt.player_id != player.id:
        return _expired()
    made = ceremony.registered(request, attempt.challenge, body.credential)
    if made is None:
        return refused("passkey_failed", "passkey.failed", 400)
    if not await store.add_passkey(player.id, *made):
        return refused("passkey_known", "passkey.known", 409)
    return JSONResponse({"id": made[0]}, status_code=201)


@router.delete("/api/account/passkeys/{credential_id}", status_code=204, response_model=None)
async def remove(request: Request, credential_id: str) -> Response:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    answer = await store_of(request).remove_passkey(found[0].player.id, credential_id)
    if answer == "last":
        return refused("last_sign_in", "passkey.last", 409)
    if answer == "none":
        return refused("no_passkey", "passkey.none", 404)
    return Response(status_code=204)


class ConfirmFor(BaseModel):
    """What a confirmation is for: the account's deletion (the default) or a first
    password; an attempt made for one is refused by the other."""

    action: Literal["delete", "password"] = "delete"


@router.post("/api/account/passkey/confirm/options", response_model=None)
async def confirm_options(
    request: Request, body: ConfirmFor | None = None
) -> JSONResponse | dict[str, Any]:
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    player = found[0].player
    known = await store_of(request).passkeys_of(player.id)
    if not known:
        return refused("no_passkey", "passkey.none", 404)
    action = (body or ConfirmFor()).action
    made, challenge = await ceremony.attempt(
        request, ceremony.CONFIRMING[action], player_id=player.id
    )
    return {"ceremony": made, "options": ceremony.assertion(request, challenge, known)}
