"""The store's mail (:mod:`perudo.server.accounts.recovery`): each player's confirmed e-mail
address and the single-use tokens mailed to confirm an address or reset a password."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .schema import emails_t, mail_tokens_t, players_t, sessions_t


class MailStore(StoreBase):
    """Confirmed addresses and mailed tokens."""

    async def email_of(self, player_id: int) -> str | None:
        """A player's confirmed e-mail address (``None``: none)."""
        async with self._reading() as conn:
            found = await conn.execute(
                select(emails_t.c.address).where(emails_t.c.player_id == player_id)
            )
            address: str | None = found.scalar()
        return address

    async def mail_recipients(self, name_key: str, address_key: str) -> list[tuple[int, str, str]]:
        """The live players to mail a reset to for what a person typed: the player whose name
        key is ``name_key`` and every player whose confirmed address is ``address_key``, as
        ``(player id, name, confirmed address)`` (a player without an address is left out)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(emails_t.c.player_id, players_t.c.name, emails_t.c.address)
                    .join(players_t, players_t.c.id == emails_t.c.player_id)
                    .where(
                        (players_t.c.name_key == name_key)
                        | (emails_t.c.address_key == address_key),
                        players_t.c.deleted_at.is_(None),
                    )
                    .order_by(emails_t.c.player_id)
                )
            ).all()
        return [(int(r.player_id), str(r.name), str(r.address)) for r in rows]

    async def add_mail_token(
        self, token_hash: str, player_id: int, purpose: str, address: str, lifetime: float
    ) -> None:
        """Keep a mailed token's hash: it ``purpose``s (``confirm`` or ``reset``) for
        ``player_id`` until ``lifetime`` seconds from now. A player's earlier tokens of that
        purpose end with it (only the last mail sent works)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(mail_tokens_t).where(
                    mail_tokens_t.c.player_id == player_id,
                    (mail_tokens_t.c.purpose == purpose) | (mail_tokens_t.c.expires_at <= now),
                )
            )
            await conn.execute(
                insert(mail_tokens_t).values(
                    id=token_hash,
                    player_id=player_id,
                    purpose=purpose,
                    address=address,
                    created_at=now,
                    expires_at=now + lifetime,
                )
            )

        await self._write(op)

    async def mail_token_name(self, token_hash: str, purpose: str) -> str | None:
        """The name of the player a live mailed token of ``purpose`` is for (``None``: no such
        token, or its player deleted); the token stays."""
        async with self._reading() as conn:
            found = await conn.execute(
                select(players_t.c.name)
                .join(mail_tokens_t, players_t.c.id == mail_tokens_t.c.player_id)
                .where(
                    mail_tokens_t.c.id == token_hash,
                    mail_tokens_t.c.purpose == purpose,
                    mail_tokens_t.c.expires_at > time.time(),
                    players_t.c.deleted_at.is_(None),
                )
            )
            name: str | None = found.scalar()
        return name

    async def confirm_email(self, token_hash: str) -> tuple[str, str] | None:
        """Use a ``confirm`` token, once: its address becomes its player's (replacing any
        earlier one). Returns the player's name and the address, or ``None`` when the token
        is unknown, used, expired or its player deleted (nothing changes)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> tuple[str, str] | None:
            row = await _take_token(conn, token_hash, "confirm", now)
            if row is None:
                return None
            await conn.execute(delete(emails_t).where(emails_t.c.player_id == row.player_id))
            await conn.execute(
                insert(emails_t).values(
                    player_id=row.player_id,
                    address=row.address,
                    address_key=row.address.casefold(),
                    confirmed_at=now,
                )
            )
            return str(row.name), str(row.address)

        done: tuple[str, str] | None = await self._write(op)
        return done

    async def reset_password(self, token_hash: str, password_hash: str) -> str | None:
        """Use a ``reset`` token, once: the player's password becomes ``password_hash`` and
        every session of theirs ends (and every other mailed reset of theirs). Returns the
        player's name, or ``None`` when the token is unknown, used, expired or its player
        deleted (nothing changes)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> str | None:
            row = await _take_token(conn, token_hash, "reset", now)
            if row is None:
                return None
            await conn.execute(
                update(players_t)
                .where(players_t.c.id == row.player_id)
                .values(password_hash=password_hash)
            )
            await conn.execute(delete(sessions_t).where(sessions_t.c.player_id == row.player_id))
            await conn.execute(
                delete(mail_tokens_t).where(
                    mail_tokens_t.c.player_id == row.player_id, mail_tokens_t.c.purpose == "reset"
                )
            )
            return str(row.name)

        name: str | None = await self._write(op)
        return name

    async def remove_email(self, player_id: int) -> None:
        """Forget a player's address, confirmed or waiting for confirmation."""

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(emails_t).where(emails_t.c.player_id == player_id))
            await conn.execute(
                delete(mail_tokens_t).where(
                    mail_tokens_t.c.player_id == player_id, mail_tokens_t.c.purpose == "confirm"
                )
            )

        await self._write(op)

    async def end_resets(self, player_id: int) -> None:
        """End a player's mailed resets (their password was changed another way)."""

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(mail_tokens_t).where(
                    mail_tokens_t.c.player_id == player_id, mail_tokens_t.c.purpose == "reset"
                )
            )

        await self._write(op)


async def _take_token(conn: AsyncConnection, token_hash: str, purpose: str, now: float) -> Any:
    """Delete a live mailed token of ``purpose`` whose player is not deleted, and return its
    row with the player's name (``None``: no such token; nothing deleted). The delete is what
    makes a token single-use: of two processes using it at once, one deletes it."""
    row = (
        await conn.execute(
            select(mail_tokens_t, players_t.c.name)
            .join(players_t, players_t.c.id == mail_tokens_t.c.player_id)
            .where(
                mail_tokens_t.c.id == token_hash,
                mail_tokens_t.c.purpose == purpose,
                mail_tokens_t.c.expires_at > now,
                players_t.c.deleted_at.is_(None),
            )
        )
    ).first()
    if row is None:
        return None
    gone = await conn.execute(delete(mail_tokens_t).where(mail_tokens_t.c.id == token_hash))
    return row if gone.rowcount == 1 else None
