"""The store's bot accounts and their API tokens (docs/bot-api.md; ``players.bot_at`` and
``bot_tokens``, revision 0007). A token is made and hashed above
(:mod:`perudo.server.accounts.bots`); the store keeps only its hash, with a public id, a
label, when it was made and last used."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .rows import PlayerRow
from .schema import bot_tokens_t, game_players_t, players_t, seats_t, sessions_t, tables_t

__all__ = ["BotStore", "BotToken", "NewToken"]


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
class NewToken:
    """A token to keep: what the database keeps of it (``hashed``), its public id, label."""

    hashed: str
    public_id: str
    label: str


class BotStore(StoreBase):
    """Bot accounts and their tokens."""

    async def _insert_token(self, conn: AsyncConnection, player_id: int, new: NewToken) -> None:
        await conn.execute(
            insert(bot_tokens_t).values(
                id=new.hashed,
                public_id=new.public_id,
                player_id=player_id,
                label=new.label[:60],
                created_at=time.time(),
                used_at=None,
            )
        )

    @staticmethod
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

    async def become_bot(self, player_id: int, first: NewToken, most: int) -> str | None:
        """Make ``player_id`` a bot account (for good) holding the token ``first``, and end
        every session of theirs, in one transaction; an account that is a bot account already
        gets the token (the way back for one that lost them all). The refusal, nothing
        written: ``played`` (the account has played a game, or holds a seat at a table waiting
        or playing: a bot account's record is a bot's from its first game, lichess's rule), or
        ``too_many_tokens`` (a bot account holding ``most``)."""

        async def op(conn: AsyncConnection) -> str | None:
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
                    return "played"
                await conn.execute(
                    update(players_t).where(players_t.c.id == player_id).values(bot_at=time.time())
                )
                await conn.execute(delete(sessions_t).where(sessions_t.c.player_id == player_id))
            elif await self._count_tokens(conn, player_id) >= most:
                return "too_many_tokens"
            await self._insert_token(conn, player_id, first)
            return None

        refused: str | None = await self._write(op)
        return refused

    async def add_bot_token(self, player_id: int, new: NewToken, most: int) -> bool:
        """Keep a new token of a bot account; ``False`` (nothing written) when the account
        holds ``most`` already."""

        async def op(conn: AsyncConnection) -> bool:
            if await self._count_tokens(conn, player_id) >= most:
                return False
            await self._insert_token(conn, player_id, new)
            return True

        added: bool = await self._write(op)
        return added

    async def bot_tokens(self, player_id: int) -> list[BotToken]:
        """A bot account's tokens, the newest first."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(bot_tokens_t)
                    .where(bot_tokens_t.c.player_id == player_id)
                    .order_by(bot_tokens_t.c.created_at.desc())
                )
            ).all()
        return [BotToken(r.public_id, r.label, r.created_at, r.used_at) for r in rows]

    async def revoke_bot_token(self, player_id: int, public_id: str) -> str | None:
        """Revoke a bot account's token by its public id: the token's hash (for the sockets
        open under it to be closed), or ``None`` when the account has no such token."""

        async def op(conn: AsyncConnection) -> str | None:
            found = (
                await conn.execute(
                    select(bot_tokens_t.c.id).where(
                        bot_tokens_t.c.player_id == player_id,
                        bot_tokens_t.c.public_id == public_id,
                    )
                )
            ).scalar()
            if found is None:
                return None
            await conn.execute(delete(bot_tokens_t).where(bot_tokens_t.c.id == found))
            return str(found)

        gone: str | None = await self._write(op)
        return gone

    async def drop_bot_tokens(self, player_id: int) -> list[str]:
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

        gone: list[str] = await self._write(op)
        return gone

    async def bot_of_token_hash(self, hashed: str, used_every: float) -> PlayerRow | None:
        """The live bot account whose token has this hash (``None``: no such token, revoked,
        or its account deleted); the token's ``used_at`` is written again at most every
        ``used_every`` seconds."""
        async with self._reading() as conn:
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
        if row.t_used_at is None or now - row.t_used_at > used_every:

            async def op(conn: AsyncConnection) -> None:
                await conn.execute(
                    update(bot_tokens_t).where(bot_tokens_t.c.id == hashed).values(used_at=now)
                )

            await self._write(op)
        return PlayerRow(row.id, row.name, row.password_hash, row.created_at)

    async def bot_token_stands(self, hashed: str) -> bool:
        """Whether the token of this hash still opens its bot account (not revoked)."""
        async with self._reading() as conn:
            found = (
                await conn.execute(select(bot_tokens_t.c.id).where(bot_tokens_t.c.id == hashed))
            ).first()
        return found is not None

    async def is_bot(self, player_id: int) -> bool:
        """Whether ``player_id`` is a bot account."""
        return player_id in await self.bot_ids((player_id,))

    async def bot_ids(self, player_ids: Iterable[int]) -> set[int]:
        """Which of ``player_ids`` are bot accounts."""
        ids = sorted(set(player_ids))
        if not ids:
            return set()
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(players_t.c.id).where(
                        players_t.c.id.in_(ids), players_t.c.bot_at.is_not(None)
                    )
                )
            ).all()
        return {int(r.id) for r in rows}

    async def bot_seats_held(self, player_id: int, besides: str | None = None) -> int:
        """Seats ``player_id`` holds at tables waiting or playing (over every process), but for
        the table ``besides`` (one it sits at already takes no new seat)."""
        where = [seats_t.c.player_id == player_id, tables_t.c.status.in_(("open", "playing"))]
        if besides is not None:
            where.append(seats_t.c.table_id != besides)
        async with self._reading() as conn:
            return int(
                (
                    await conn.execute(
                        select(func.count())
                        .select_from(seats_t.join(tables_t, tables_t.c.id == seats_t.c.table_id))
                        .where(*where)
                    )
                ).scalar_one()
            )

    async def bot_seats(self, game_id: int) -> list[int]:
        """The seats of a game that bot accounts played (its replay marks them)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(game_players_t.c.seat)
                    .join(players_t, players_t.c.id == game_players_t.c.player_id)
                    .where(game_players_t.c.game_id == game_id, players_t.c.bot_at.is_not(None))
                    .order_by(game_players_t.c.seat)
                )
            ).all()
        return [int(r.seat) for r in rows]
