"""Who may act on an account, checked before an account route acts (docs/security.md#accounts);
shared by the account, passkey, bot API and recovery routes:

* the sign-in limits: :data:`PER_NAME` failures under one name and :data:`PER_ADDRESS` from
  one client in :data:`WINDOW` seconds, counted in the database (so over every process):
  :func:`name_limit`, :func:`address_limit`, :func:`limited`, :func:`failed`;
* :func:`password_checked`: a name and its password checked under those limits (the page's
  sign-in and the bot API's upgrade): a wrong password, an unknown name and a name without a
  password get the same answer after the same argon2 work;
* :func:`changing`: the session a change is made under (the cookie, its CSRF token, this
  site's ``Origin``), and the refusals :func:`signed_out` and :func:`forbidden`;
* :func:`hasher_of`: the argon2 parameters of the request's server.
"""

from __future__ import annotations

import time
from typing import Final

from argon2 import PasswordHasher
from fastapi import Request
from fastapi.responses import JSONResponse

from ..guard import client_key
from ..proxy import client_host
from ..routes.common import settings_of, store_of
from ..store import PlayerRow, SessionRow
from . import names, passwords
from .refusals import refused
from .sessions import csrf_ok, current

__all__ = [
    "PER_ADDRESS",
    "PER_NAME",
    "WINDOW",
    "address_limit",
    "changing",
    "failed",
    "forbidden",
    "hasher_of",
    "limited",
    "name_limit",
    "password_checked",
    "session_of",
    "signed_out",
]

WINDOW: Final = 900.0
PER_NAME: Final = 10
"""Failed sign-ins under one name in :data:`WINDOW` before that name's sign-ins are refused
for the rest of the window (whoever tries, from wherever)."""
PER_ADDRESS: Final = 50
"""Failed sign-ins (and sign-ups refused for a taken name) from one client in
:data:`WINDOW` before its sign-ins and sign-ups are refused for the rest of the window."""


def signed_out() -> JSONResponse:
    return refused("signed_out", "signed_out", 401)


def forbidden() -> JSONResponse:
    return refused("forbidden", "forbidden", 403)


def hasher_of(request: Request) -> PasswordHasher:
    """The hasher of the request's server (``PERUDO_ARGON2_*``)."""
    settings = settings_of(request)
    return passwords.hasher(settings.argon2_memory_kib, settings.argon2_time_cost)


def name_limit(name: str) -> str:
    """The limit key of the name ``name`` (``name:<key>``: every spelling of one name)."""
    return "name:" + names.name_key(name)[:100]


def address_limit(request: Request) -> str:
    """The limit key of the request's client (``addr:<address>``, IPv6 by /64)."""
    return "addr:" + client_key(client_host(request))


async def limited(request: Request, *keys: str) -> bool:
    """Whether any of ``keys`` (name and address limit keys) has had its share of failures
    in the window."""
    counts = await store_of(request).sign_in_failures(keys, time.time() - WINDOW)
    return any(
        counts.get(k, 0) >= (PER_NAME if k.startswith("name:") else PER_ADDRESS) for k in keys
    )


async def failed(request: Request, *keys: str) -> None:
    """One failure counted under each of ``keys``."""
    await store_of(request).note_sign_in_failure(keys, time.time() - WINDOW)


async def password_checked(request: Request, name: str, password: str) -> PlayerRow | JSONResponse:
    """The account ``name`` if ``password`` is its password, checked under the sign-in's
    limits (per name and per address); else the refusal, the failure counted. Refused at once
    (:class:`~.passwords.Busy`), before any database read, when the argon2 thread has too
    many waiting."""
    if passwords.busy():
        raise passwords.Busy
    store = store_of(request)
    keys = (name_limit(name), address_limit(request))
    if await limited(request, *keys):
        return refused("too_many_attempts", "sign_in.limited", 429)
    player = await store.player_by_key(names.name_key(name))
    stored = player.password_hash if player is not None else None
    right = await passwords.check_password(hasher_of(request), stored, password)
    if not right or player is None:
        await failed(request, *keys)
        return refused("sign_in_failed", "sign_in.failed", 401)
    return player


async def session_of(request: Request) -> tuple[SessionRow, str] | None:
    """The request's live session and its token's hash, if its cookie opens one."""
    return await current(store_of(request), request)


async def changing(request: Request) -> tuple[SessionRow, str] | JSONResponse:
    """The session a change is made under, or the refusal: no live session (401), or no
    CSRF token / another site's ``Origin`` (403)."""
    found = await session_of(request)
    if found is None:
        return signed_out()
    if not csrf_ok(request, settings_of(request), found[0]):
        return forbidden()
    return found
