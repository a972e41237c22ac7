"""Sign-in sessions: the cookie, its server-side row, and the checks of a request that
changes something on the strength of that cookie (docs/accounts.md, docs/security.md).

* The cookie ``perudo_session`` holds 256 random bits; the database keeps only their SHA-256
  (``sessions.id``), so a copy of the database opens no session. It is ``HttpOnly`` (no
  script reads it), ``SameSite=Lax`` (another site's forms and scripts do not send it) and
  ``Secure`` wherever the page is served over HTTPS or on the loopback address (browsers keep
  a ``Secure`` cookie only there; over plain HTTP on a home network it would be dropped).
* Every sign-in and sign-up makes a new session and ends the one the browser came with:
  a session id planted before sign-in never becomes signed in (no fixation).
* A change made with the cookie (sign out, revoke a session, change the password, delete the
  account, seat a signed-in player) needs the session's CSRF token in ``X-CSRF-Token``
  (the page reads it from ``GET /api/account``, which another origin cannot read), and an
  ``Origin``, when the browser sends one, that is this site's.
* A session lasts :data:`LIFETIME` from its sign-in; it ends sooner when its player signs
  out, revokes it, changes the password (every other session ends) or deletes the account.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Final

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from ..proxy import base_url
from ..settings import Settings
from ..store import PlayerRow, SessionRow, Store

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "LIFETIME",
    "NewSession",
    "current",
    "end_cookie",
    "new_session",
    "same_origin",
    "seated_player",
    "set_cookie",
    "token_hash",
]

COOKIE: Final = "perudo_session"
CSRF_HEADER: Final = "X-CSRF-Token"
LIFETIME: Final = 30 * 24 * 3600.0
"""Seconds a session lasts from its sign-in."""
SEEN_EVERY: Final = 600.0
"""A session's ``seen_at`` is written again at most this often."""


def token_hash(token: str) -> str:
    """What the database keeps of a session's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class NewSession:
    """A session made at sign-in: the cookie's token (given to the browser once) and the
    CSRF token (the page's)."""

    def __init__(self) -> None:
        self.token = secrets.token_urlsafe(32)
        self.public_id = secrets.token_urlsafe(12)
        self.csrf = secrets.token_urlsafe(32)


async def new_session(store: Store, request: Request, player_id: int) -> NewSession:
    """Sign ``player_id`` in on this browser: a new session (its cookie is for the caller to
    set, :func:`set_cookie`), the session the browser came with (if any) ended."""
    made = NewSession()
    old = request.cookies.get(COOKIE)
    await store.create_session(
        token_hash(made.token),
        made.public_id,
        player_id,
        made.csrf,
        LIFETIME,
        request.headers.get("user-agent", ""),
        replacing=token_hash(old) if old else None,
    )
    return made


def _secure(conn: HTTPConnection) -> bool:
    url = conn.base_url
    return url.scheme in ("https", "wss") or url.hostname in ("localhost", "127.0.0.1", "::1")


def set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(LIFETIME),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )


def end_cookie(request: Request, response: Response) -> None:
    """Tell the browser to drop the session's cookie."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))


async def current(store: Store, conn: HTTPConnection) -> tuple[SessionRow, str] | None:
    """The live session this request's cookie names, with its token's hash (``None``: no
    cookie, or one that names no live session)."""
    token = conn.cookies.get(COOKIE)
    if not token or len(token) > 100:
        return None
    hashed = token_hash(token)
    found = await store.session(hashed)
    if found is None:
        return None
    now = time.time()
    if now - found.seen_at > SEEN_EVERY:
        await store.touch_session(hashed, now)
    return found, hashed


def same_origin(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether the request's ``Origin`` (when it has one) is this site: the address it came
    to, or ``PERUDO_PUBLIC_URL``. A request without ``Origin`` is no browser's cross-site
    request (browsers send it on every POST and WebSocket)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return origin in {base_url(conn), settings.public_url}


def csrf_ok(conn: HTTPConnection, settings: Settings, session: SessionRow) -> bool:
    """Whether a change made with the session's cookie carries its CSRF token and comes from
    this site's page."""
    sent = conn.headers.get(CSRF_HEADER, "")
    return same_origin(conn, settings) and hmac.compare_digest(sent.encode(), session.csrf.encode())


async def seated_player(store: Store, conn: HTTPConnection, settings: Settings) -> PlayerRow | None:
    """The signed-in player a table's seat is taken for (creating or joining a table): the
    session's, when the request carries its cookie, its CSRF token and this site's ``Origin``;
    otherwise ``None`` (a guest's seat: another site's page can never seat a person under
    their account, docs/accounts.md)."""
    found = await current(store, conn)
    if found is None or not csrf_ok(conn, settings, found[0]):
        return None
    return found[0].player
