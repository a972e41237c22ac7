"""Bot accounts and their API tokens (docs/bot-api.md), as lichess's BOT accounts: an account
that has played no game becomes a bot account, for good, and plays through the same table
sockets as the page, authenticated by a token in ``Authorization: Bearer <token>``.

* A token is 256 random bits, shown once when it is made; the database keeps only its
  SHA-256 (``bot_tokens.id``), with a public id the token list names it by, its label, when it
  was made and last used (to :data:`USED_EVERY`). A bot account holds at most
  :data:`MAX_TOKENS`; revoking one ends its access at once (the sockets it opened on this
  process are closed, on another within :data:`RECHECK_SECONDS`).
* A bot account never signs in on the page (its sessions end when it becomes one); a person's
  session cookie opens nothing of the bot API.

The rows and their queries are the store's (:mod:`perudo.server.store.bots`); here are the
tokens' making and reading, and this process's sockets opened with them.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from starlette.requests import HTTPConnection

from ..connection import Connection
from ..protocol import ErrorMessage
from ..store import PlayerRow, Store
from ..store.bots import NewToken

__all__ = [
    "MAX_TOKENS",
    "RECHECK_SECONDS",
    "REVOKED",
    "Sockets",
    "Upgrade",
    "bearer",
    "become_bot",
    "bot_of_token",
    "new_token",
    "revoked_message",
    "sockets_of",
    "token_hash",
]

log = logging.getLogger("perudo.server")

MAX_TOKENS: Final = 10
"""Tokens a bot account may hold at once."""
USED_EVERY: Final = 600.0
"""A token's ``used_at`` is written again at most this often."""
RECHECK_SECONDS: Final = 30.0
"""A bot's socket checks again at most this often that its token still stands (a token revoked
through another process ends that socket within this time; through this one, at once)."""


def token_hash(token: str) -> str:
    """What the database keeps of a bot token."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(conn: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (``None``: no such header)."""
    value = conn.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


@dataclass(frozen=True, slots=True)
class Upgrade:
    """What :func:`become_bot` did: ``refused`` (``played``: the account has played a game or
    sits at a table; ``too_many_tokens``) or the new token (``token``, shown once, and its
    public ``id``)."""

    refused: str | None = None
    token: str | None = None
    id: str | None = None


def _made(label: str) -> tuple[str, NewToken]:
    """A new token (shown once) and what the store keeps of it."""
    token = secrets.token_urlsafe(32)
    return token, NewToken(token_hash(token), secrets.token_urlsafe(12), label)


async def become_bot(store: Store, player_id: int, label: str) -> Upgrade:
    """Make ``player_id`` a bot account (for good) with a first token, and end every session
    of theirs (:meth:`Store.become_bot`); an account that is a bot account already gets a new
    token (the way back for one that lost them all)."""
    token, new = _made(label)
    refused = await store.become_bot(player_id, new, MAX_TOKENS)
    if refused is not None:
        return Upgrade(refused=refused)
    return Upgrade(token=token, id=new.public_id)


async def new_token(store: Store, player_id: int, label: str) -> tuple[str, str] | None:
    """A new token of a bot account: (its public id, the token, shown once); ``None`` when
    the account holds :data:`MAX_TOKENS` already (nothing written)."""
    token, new = _made(label)
    if not await store.add_bot_token(player_id, new, MAX_TOKENS):
        return None
    return new.public_id, token


async def bot_of_token(store: Store, token: str) -> tuple[PlayerRow, str] | None:
    """The live bot account a token opens, with the token's hash (``None``: no such token,
    revoked, or its account deleted)."""
    if not token or len(token) > 100:
        return None
    hashed = token_hash(token)
    player = await store.bot_of_token_hash(hashed, USED_EVERY)
    return None if player is None else (player, hashed)


Farewell = Callable[[], Awaitable[None]]
"""What a socket does before it is closed for a revoked token (the pool socket leaves its
pool: no person is matched with a bot that can no longer play)."""


class Sockets:
    """This process's sockets opened with a bot token (at tables and in Play-now pools), by
    the token's hash: revoking a token here closes them at once."""

    def __init__(self) -> None:
        self.by_token: dict[str, dict[Connection, Farewell | None]] = {}

    def add(self, hashed: str, conn: Connection, farewell: Farewell | None = None) -> None:
        self.by_token.setdefault(hashed, {})[conn] = farewell

    def discard(self, hashed: str, conn: Connection) -> None:
        held = self.by_token.get(hashed)
        if held is not None:
            held.pop(conn, None)
            if not held:
                del self.by_token[hashed]

    async def revoke(self, hashed: str) -> None:
        """The token of this hash was revoked: each socket it opened does its farewell, then
        is told so and closed."""
        for conn, farewell in list(self.by_token.get(hashed, {}).items()):
            if farewell is not None:
                try:
                    await farewell()
                except Exception as err:  # the socket is closed all the same
                    log.warning("a revoked bot socket's farewell failed: %s", err)
            conn.send(revoked_message())
            conn.send_close(1008)


REVOKED: Final = "this socket's bot token was revoked: closed"
"""Why a bot's socket was closed when its token was revoked (``bot_token_revoked``)."""


def revoked_message() -> str:
    """The last message a socket opened with a revoked token gets."""
    return ErrorMessage(code="bot_token_revoked", message=REVOKED).model_dump_json()


def sockets_of(conn: HTTPConnection) -> Sockets:
    """This process's bot sockets (:class:`Sockets`), made on first use."""
    state = conn.app.state
    found: Sockets | None = getattr(state, "bot_sockets", None)
    if found is None:
        found = state.bot_sockets = Sockets()
    return found
