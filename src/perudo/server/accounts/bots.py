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

The rows are the store's (``players.bot_at``, ``bot_tokens``: revision 0007); the queries are
here, written through the store's one writer.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import HTTPConnection

from ..connection import Connection
from ..protocol import ErrorMessage
from ..store import PlayerRow, Store
from ..store.schema import (
    bot_tokens_t,
    game_players_t,
    players_t,
    seats_t,
    sessions_t,
    tables_t,
)

__all__ = [
    "MAX_TOKENS",
    "RECHECK_SECONDS",
    "REVOKED",
    "BotToken",
    "Sockets",
    "Upgrade",
    "bearer",
    "become_bot",
    "bot_ids",
    "bot_of_token",
    "bot_seats",
    "is_bot",
    "new_token",
    "revoke_token",
    "revoked_message",
    "seats_held",
    "sockets_of",
    "token_hash",
    "token_stands",
    "tokens_of",
]

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
class BotToken:
    """A token as the account's list shows it (never the token itself)."""

    id: str
    label: str
    created_at: float
    used_at: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "created_at": self.created_at,
            "used_at": self.used_at,
        }


@dataclass(frozen=True, slots=True)
class Upgrade:
    """What :func:`become_bot` did: ``refused`` (``played``: the account has played a game or
    sits at a table) or the new token (``token``, shown once, and its public ``id``)."""

    refused: str | None = None
    token: str | None = None
    id: str | None = None


async def _insert_token(conn: AsyncConnection, player_id: int, label: str) -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    public_id = secrets.token_urlsafe(12)
    await conn.execute(
        insert(bot_tokens_t).values(
            id=token_hash(token),
            public_id=public_id,
            player_id=player_id,
            label=label[:60],
            created_at=time.time(),
            used_at=None,
        )
    )
    return public_id, token


async def become_bot(store: Store, player_id: int, label: str) -> Upgrade:
    """Make ``player_id`` a bot account (for good) with a first token, and end every session
    of theirs, in one transaction; an account that is a bot account already gets a new token
    (the way back for one that lost them all). Refused (nothing written) when the account has
    played a game, or holds a seat at a table waiting or playing: a bot account's record is a
    bot's from its first game (lichess's rule)."""

    async def op(conn: AsyncConnection) -> Upgrade:
        bot_at = (
            await conn.execute(select(players_t.c.bot_at).where(players_t.c.id == player_id))
        ).scalar()
        if bot_at is None:
            played = (
                await conn.execute(
                    select(game_players_t.c.game_id)
                    .where(game_players_t.c.player_id == player_id)
                    .limit(1)
                )
            ).first()
            seated = (
                await conn.execute(
                    select(seats_t.c.seat)
                    .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                    .where(
                        seats_t.c.player_id == player_id,
                        tables_t.c.status.in_(("open", "playing")),
                    )
                    .limit(1)
                )
            ).first()
            if played is not None or seated is not None:
                return Upgrade(refused="played")
            await conn.execute(
                update(players_t).where(players_t.c.id == player_id).values(bot_at=time.time())
            )
            await conn.execute(delete(sessions_t).where(sessions_t.c.player_id == player_id))
        else:
            held = await _count_tokens(conn, player_id)
            if held >= MAX_TOKENS:
                return Upgrade(refused="too_many_tokens")
        public_id, token = await _insert_token(conn, player_id, label)
        return Upgrade(token=token, id=public_id)

    done: Upgrade = await store._write(op)
    return done


async def _count_tokens(conn: AsyncConnection, player_id: int) -> int:
    return int(
        (
            await conn.execute(
                select(func.count())
                .select_from(bot_tokens_t)
                .where(bot_tokens_t.c.player_id == player_id)
            )
        ).scalar_one()
    )


async def new_token(store: Store, player_id: int, label: str) -> tuple[str, str] | None:
    """A new token of a bot account: (its public id, the token, shown once); ``None`` when
    the account holds :data:`MAX_TOKENS` already (nothing written)."""

    async def op(conn: AsyncConnection) -> tuple[str, str] | None:
        if await _count_tokens(conn, player_id) >= MAX_TOKENS:
            return None
        return await _insert_token(conn, player_id, label)

    made: tuple[str, str] | None = await store._write(op)
    return made


async def tokens_of(store: Store, player_id: int) -> list[BotToken]:
    """A bot account's tokens, the newest first."""
    async with store._reading() as conn:
        rows = (
            await conn.execute(
                select(bot_tokens_t)
                .where(bot_tokens_t.c.player_id == player_id)
                .order_by(bot_tokens_t.c.created_at.desc())
            )
        ).all()
    return [BotToken(r.public_id, r.label, r.created_at, r.used_at) for r in rows]


async def revoke_token(store: Store, player_id: int, public_id: str) -> str | None:
    """Revoke a bot account's token by its public id: the token's hash (for the sockets open
    under it to be closed), or ``None`` when the account has no such token."""

    async def op(conn: AsyncConnection) -> str | None:
        found = (
            await conn.execute(
                select(bot_tokens_t.c.id).where(
                    bot_tokens_t.c.player_id == player_id, bot_tokens_t.c.public_id == public_id
                )
            )
        ).scalar()
        if found is None:
            return None
        await conn.execute(delete(bot_tokens_t).where(bot_tokens_t.c.id == found))
        return str(found)

    gone: str | None = await store._write(op)
    return gone


async def drop_tokens(store: Store, player_id: int) -> list[str]:
    """Revoke every token of a bot account (it is being deleted): their hashes, for the
    sockets open under them to be closed."""

    async def op(conn: AsyncConnection) -> list[str]:
        rows = (
            await conn.execute(
                select(bot_tokens_t.c.id).where(bot_tokens_t.c.player_id == player_id)
            )
        ).all()
        await conn.execute(delete(bot_tokens_t).where(bot_tokens_t.c.player_id == player_id))
        return [str(r.id) for r in rows]

    gone: list[str] = await store._write(op)
    return gone


async def bot_of_token(store: Store, token: str) -> tuple[PlayerRow, str] | None:
    """The live bot account a token opens, with the token's hash (``None``: no such token,
    revoked, or its account deleted)."""
    if not token or len(token) > 100:
        return None
    hashed = token_hash(token)
    async with store._reading() as conn:
        row = (
            await conn.execute(
                select(players_t, bot_tokens_t.c.used_at.label("t_used_at"))
                .join(bot_tokens_t, bot_tokens_t.c.player_id == players_t.c.id)
                .where(
                    bot_tokens_t.c.id == hashed,
                    players_t.c.deleted_at.is_(None),
                    players_t.c.bot_at.is_not(None),
                )
            )
        ).first()
    if row is None:
        return None
    now = time.time()
    if row.t_used_at is None or now - row.t_used_at > USED_EVERY:

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(bot_tokens_t).where(bot_tokens_t.c.id == hashed).values(used_at=now)
            )

        await store._write(op)
    return PlayerRow(row.id, row.name, row.password_hash, row.created_at), hashed


async def token_stands(store: Store, hashed: str) -> bool:
    """Whether the token of this hash still opens its bot account (not revoked)."""
    async with store._reading() as conn:
        found = (
            await conn.execute(select(bot_tokens_t.c.id).where(bot_tokens_t.c.id == hashed))
        ).first()
    return found is not None


async def is_bot(store: Store, player_id: int) -> bool:
    """Whether ``player_id`` is a bot account."""
    return player_id in await bot_ids(store, (player_id,))


async def bot_ids(store: Store, player_ids: Iterable[int]) -> set[int]:
    """Which of ``player_ids`` are bot accounts."""
    ids = sorted(set(player_ids))
    if not ids:
        return set()
    async with store._reading() as conn:
        rows = (
            await conn.execute(
                select(players_t.c.id).where(
                    players_t.c.id.in_(ids), players_t.c.bot_at.is_not(None)
                )
            )
        ).all()
    return {int(r.id) for r in rows}


async def seats_held(store: Store, player_id: int) -> int:
    """Seats ``player_id`` holds at tables waiting or playing (over every process)."""
    async with store._reading() as conn:
        return int(
            (
                await conn.execute(
                    select(func.count())
                    .select_from(seats_t.join(tables_t, tables_t.c.id == seats_t.c.table_id))
                    .where(
                        seats_t.c.player_id == player_id,
                        tables_t.c.status.in_(("open", "playing")),
                    )
                )
            ).scalar_one()
        )


class Sockets:
    """This process's table sockets opened with a bot token, by the token's hash: revoking a
    token here closes them at once."""

    def __init__(self) -> None:
        self.by_token: dict[str, set[Connection]] = {}

    def add(self, hashed: str, conn: Connection) -> None:
        self.by_token.setdefault(hashed, set()).add(conn)

    def discard(self, hashed: str, conn: Connection) -> None:
        held = self.by_token.get(hashed)
        if held is not None:
            held.discard(conn)
            if not held:
                del self.by_token[hashed]

    def of(self, hashed: str) -> list[Connection]:
        return list(self.by_token.get(hashed, ()))


REVOKED: Final = "this socket's bot token was revoked: closed"
"""Why a bot's socket was closed when its token was revoked (``bot_token_revoked``)."""


def revoked_message() -> str:
    """The last message a socket opened with a revoked token gets."""
    return ErrorMessage(code="bot_token_revoked", message=REVOKED).model_dump_json()


async def bot_seats(store: Store, game_id: int) -> list[int]:
    """The seats of a game that bot accounts played (its replay marks them)."""
    async with store._reading() as conn:
        rows = (
            await conn.execute(
                select(game_players_t.c.seat)
                .join(players_t, players_t.c.id == game_players_t.c.player_id)
                .where(game_players_t.c.game_id == game_id, players_t.c.bot_at.is_not(None))
                .order_by(game_players_t.c.seat)
            )
        ).all()
    return [int(r.seat) for r in rows]


def sockets_of(conn: HTTPConnection) -> Sockets:
    """This process's bot sockets (:class:`Sockets`), made on first use."""
    state = conn.app.state
    found: Sockets | None = getattr(state, "bot_sockets", None)
    if found is None:
        found = state.bot_sockets = Sockets()
    return found
