"""E-mail addresses and password reset by mail, where the operator configures SMTP
(``PERUDO_SMTP_*``; docs/accounts.md#recovery). Without it every route here but
``GET /api/account/mail`` answers 404 ``no_mail`` and the page offers no reset.

* ``GET /api/account/mail`` → ``{enabled, address}``: whether mail is on, and the signed-in
  player's confirmed address (``null``: none, or signed out);
* ``POST /api/account/email`` ``{address, lang}`` (signed in, with the CSRF token) → 202: a
  link to confirm the address is mailed to it; the address is used only once that link is
  opened (until then the old one, if any, stays); ``DELETE /api/account/email`` → 204
  forgets the address (and any waiting for confirmation);
* ``POST /api/account/email/confirm`` ``{token}`` → ``{name, address}``;
* ``POST /api/account/forgot`` ``{who, lang}`` → 202, the same answer whatever ``who`` (a
  name or an address) is: the lookup and the mail happen after the answer, so neither its
  words nor its timing say whether the name or address exists. A reset link goes to the
  confirmed address of the player of that name and of every player whose confirmed address
  it is;
* ``POST /api/account/reset`` ``{token, password}`` → ``{name}``: the new password, every
  session of the player ended (sign in again with it).

A mailed link is ``<site>/account#confirm=<token>`` or ``#reset=<token>``: the token (256
random bits) sits in the fragment, which browsers never send to a server, so it reaches no
access log and no ``Referer``; the page posts it. The database keeps only its SHA-256; a
token works once (:meth:`perudo.server.store.Store.reset_password` deletes it in the
transaction that uses it), a reset for :data:`RESET_LIFETIME`, a confirmation for
:data:`CONFIRM_LIFETIME`, and only the last mailed of each kind works. Mails are limited to
:data:`MAILS_PER_PLAYER` a player and :data:`MAILS_PER_CLIENT` asked from one client in
:data:`MAIL_WINDOW` (counted in the database beside the sign-in failures, so over every
process).
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Final

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from perudo.i18n import LANGS, load_catalog

from ..proxy import base_url
from ..routes.common import settings_of, store_of
from ..settings import Settings
from ..store import Store
from . import mail, names, passwords
from .access import address_limit, changing, forbidden, hasher_of
from .refusals import refused
from .sessions import current, same_origin, token_hash

__all__ = [
    "CONFIRM_LIFETIME",
    "MAILS_PER_CLIENT",
    "MAILS_PER_PLAYER",
    "MAIL_WINDOW",
    "RESET_LIFETIME",
    "drain",
    "router",
]

router = APIRouter()

RESET_LIFETIME: Final = 1800.0
"""Seconds a mailed reset link works."""
CONFIRM_LIFETIME: Final = 24 * 3600.0
"""Seconds a mailed confirmation link works."""
MAIL_WINDOW: Final = 3600.0
MAILS_PER_PLAYER: Final = 5
"""Mails sent to one player in :data:`MAIL_WINDOW`; more asked for are not sent."""
MAILS_PER_CLIENT: Final = 20
"""Mails one client may ask for in :data:`MAIL_WINDOW` (429 ``too_many_mails`` beyond)."""

_ADDRESS: Final = re.compile(r"[^@\s<>\"',;:()\[\]\\]{1,64}@[A-Za-z0-9.-]+\.[A-Za-z0-9-]{2,63}")

_locks: weakref.WeakKeyDictionary[Store, asyncio.Lock] = weakref.WeakKeyDictionary()
_Answer = JSONResponse | dict[str, Any]
"""A route's answer: a refusal, or the JSON body of a success."""
_sending: set[asyncio.Task[None]] = set()
"""Mails being looked up and sent after their request was answered."""


class Lang(BaseModel):
    lang: str = Field(default="en", max_length=8)


class NewAddress(Lang):
    address: str = Field(min_length=1, max_length=254)


class Forgot(Lang):
    who: str = Field(min_length=1, max_length=254)


class Token(BaseModel):
    token: str = Field(min_length=1, max_length=100)


class Reset(Token):
    password: str = Field(min_length=1, max_length=1024)


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def _no_mail() -> JSONResponse:
    return refused("no_mail", "mail.off", 404)


def _said(key: str, status: int, **fields: str) -> JSONResponse:
    texts = {lang: load_catalog(lang).t(f"account.{key}", **fields) for lang in LANGS}
    return JSONResponse({"message": texts["en"], "texts": texts}, status_code=status)


def _link(request: Request, purpose: str, token: str) -> str:
    return settings_of(request).absolute(f"/account#{purpose}={token}", base_url(request))


def _lock(store: Store) -> asyncio.Lock:
    """The lock under which a process counts the mails of its store's players (counted and
    checked in one step per process; two processes may each send one more)."""
    found = _locks.get(store)
    if found is None:
        found = _locks[store] = asyncio.Lock()
    return found


async def _allowed(store: Store, key: str, most: int) -> bool:
    """Count one mail under ``key``, unless ``most`` were counted in the window already;
    whether it was counted."""
    counts = await store.sign_in_failures([key], time.time() - MAIL_WINDOW)
    if counts.get(key, 0) >= most:
        return False
    await store.note_sign_in_failure([key], time.time() - MAIL_WINDOW)
    return True


async def _mail(
    settings: Settings,
    store: Store,
    player_id: int,
    name: str,
    address: str,
    purpose: str,
    link_of: str,
    lang: str,
) -> None:
    """Make a token, keep its hash, mail its link (unless the player had their share)."""
    async with _lock(store):
        if not await _allowed(store, f"mail:{player_id}", MAILS_PER_PLAYER):
            return
    token = secrets.token_urlsafe(32)
    lifetime = RESET_LIFETIME if purpose == "reset" else CONFIRM_LIFETIME
    await store.add_mail_token(token_hash(token), player_id, purpose, address, lifetime)
    words = load_catalog(lang)
    link = link_of.replace("{token}", token)
    await mail.send(
        settings,
        address,
        words.t(f"account.mail.{purpose}.subject"),
        words.t(f"account.mail.{purpose}.body", name=name, address=address, link=link),
    )


def _later(job: Any) -> None:
    task = asyncio.get_running_loop().create_task(job)
    _sending.add(task)
    task.add_done_callback(_sending.discard)


async def drain() -> None:
    """Wait for the mails asked for so far to be looked up and sent (tests)."""
    while _sending:
        await asyncio.gather(*list(_sending), return_exceptions=True)


@router.get("/api/account/mail")
async def mail_state(request: Request) -> dict[str, Any]:
    store = store_of(request)
    found = await current(store, request)
    address = None if found is None else await store.email_of(found[0].player.id)
    return {"enabled": settings_of(request).mail, "address": address}


@router.post("/api/account/email", status_code=202, response_model=None)
async def add_email(request: Request, body: NewAddress) -> JSONResponse:
    settings = settings_of(request)
    if not settings.mail:
        return _no_mail()
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    player = found[0].player
    address = body.address.strip()
    if _ADDRESS.fullmatch(address) is None:
        return refused("email_refused", "email.refused", 400)
    store = store_of(request)
    if not await _allowed(store, "mailaddr:" + address_limit(request), MAILS_PER_CLIENT):
        return refused("too_many_mails", "mail.limited", 429)
    link = _link(request, "confirm", "{token}")
    _later(
        _mail(settings, store, player.id, player.name, address, "confirm", link, _lang(body.lang))
    )
    return _said("email.sent", 202, address=address)


@router.delete("/api/account/email", status_code=204, response_model=None)
async def remove_email(request: Request) -> Response:
    if not settings_of(request).mail:
        return _no_mail()
    found = await changing(request)
    if isinstance(found, JSONResponse):
        return found
    await store_of(request).remove_email(found[0].player.id)
    return Response(status_code=204)


async def _token_used(
    request: Request, token: str, use: Callable[[Store, str], Awaitable[_Answer | None]]
) -> _Answer:
    """A mailed link's ``token`` (of a confirmation or a reset) given to ``use`` with the
    store and the token's hash, where mail is on and the request comes from this site's page;
    ``use``'s ``None`` (a token unknown, used, expired or not the latest): 400 ``bad_token``."""
    settings = settings_of(request)
    if not settings.mail:
        return _no_mail()
    if not same_origin(request, settings):
        return forbidden()
    done = await use(store_of(request), token_hash(token))
    if done is None:
        return refused("bad_token", "token.bad", 400)
    return done


@router.post("/api/account/email/confirm", response_model=None)
async def confirm_email(request: Request, body: Token) -> _Answer:
    async def use(store: Store, hashed: str) -> _Answer | None:
        done = await store.confirm_email(hashed)
        return None if done is None else {"name": done[0], "address": done[1]}

    return await _token_used(request, body.token, use)


async def _forgotten(settings: Settings, store: Store, who: str, link: str, lang: str) -> None:
    for player_id, name, address in await store.mail_recipients(
        names.name_key(who), who.casefold()
    ):
        await _mail(settings, store, player_id, name, address, "reset", link, lang)


@router.post("/api/account/forgot", status_code=202, response_model=None)
async def forgot(request: Request, body: Forgot) -> JSONResponse:
    settings = settings_of(request)
    if not settings.mail:
        return _no_mail()
    if not same_origin(request, settings):
        return forbidden()
    store = store_of(request)
    if not await _allowed(store, "mailaddr:" + address_limit(request), MAILS_PER_CLIENT):
        return refused("too_many_mails", "mail.limited", 429)
    link = _link(request, "reset", "{token}")
    _later(_forgotten(settings, store, body.who.strip(), link, _lang(body.lang)))
    return _said("forgot.sent", 202)


@router.post("/api/account/reset", response_model=None)
async def reset(request: Request, body: Reset) -> _Answer:
    async def use(store: Store, hashed: str) -> _Answer | None:
        name = await store.mail_token_name(hashed, "reset")
        if name is None:
            return None
        why = passwords.refusal(body.password, name)
        if why is not None:
            return refused("password_refused", f"password.{why}", 400)
        new_hash = await passwords.hash_password(hasher_of(request), body.password)
        done = await store.reset_password(hashed, new_hash)
        return None if done is None else {"name": done}

    return await _token_used(request, body.token, use)
