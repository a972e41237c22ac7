"""The store's passkeys and claims (:mod:`perudo.server.accounts.passkeys`, ``.claims``): WebAuthn
ceremonies' single-use challenges, each player's passkeys, and the games a device's seat tokens
claim for the account signed in on it."""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .rows import ChallengeRow, PasskeyRow, passkey_row, player_columns
from .schema import (
    game_players_t,
    game_seat_tokens_t,
    games_t,
    passkeys_t,
    players_t,
    seats_t,
    tables_t,
    webauthn_challenges_t,
)


class PasskeyStore(StoreBase):
    """Passkeys, their ceremonies' challenges, and claims of a device's games."""

    async def create_challenge(
        self,
        ceremony: str,
        purpose: str,
        challenge: str,
        lifetime: float,
        player_id: int | None = None,
        name: str | None = None,
    ) -> None:
        """A WebAuthn ceremony's attempt, valid for ``lifetime`` seconds; attempts past their
        time are deleted in the same transaction."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(webauthn_challenges_t).where(webauthn_challenges_t.c.expires_at < now)
            )
            await conn.execute(
                insert(webauthn_challenges_t).values(
                    id=ceremony,
                    purpose=purpose,
                    challenge=challenge,
                    player_id=player_id,
                    name=name,
                    expires_at=now + lifetime,
                )
            )

        await self._write(op)

    async def take_challenge(self, ceremony: str, purpose: str) -> ChallengeRow | None:
        """Take a ceremony's attempt, once: it is deleted whatever the answer, and ``None``
        when it is unknown, already taken (by this process or another), past its time, or
        made for another purpose."""
        now = time.time()

        async def op(conn: AsyncConnection) -> ChallengeRow | None:
            row = (
                await conn.execute(
                    select(webauthn_challenges_t).where(webauthn_challenges_t.c.id == ceremony)
                )
            ).first()
            if row is None:
                return None
            gone = await conn.execute(
                delete(webauthn_challenges_t).where(webauthn_challenges_t.c.id == ceremony)
            )
            if gone.rowcount != 1 or row.expires_at < now or row.purpose != purpose:
                return None
            return ChallengeRow(row.purpose, row.challenge, row.player_id, row.name)

        found: ChallengeRow | None = await self._write(op)
        return found

    async def create_passkey_player(
        self, name: str, name_key: str, credential_id: str, public_key: str, sign_count: int
    ) -> int | None:
        """A new player under ``name`` whose only way to sign in is this passkey (no
        password), in one transaction; ``None`` when a live player has that name's key or
        the credential is already someone's (nothing written)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> int | None:
            try:
                async with conn.begin_nested():
                    taken = await conn.execute(
                        select(players_t.c.id).where(players_t.c.name_key == name_key)
                    )
                    if taken.first() is not None:
                        return None
                    result = await conn.execute(
                        insert(players_t).values(
                            name=name, name_key=name_key, password_hash=None, created_at=now
                        )
                    )
                    key = result.inserted_primary_key
                    assert key is not None
                    await conn.execute(
                        insert(passkeys_t).values(
                            credential_id=credential_id,
                            player_id=int(key[0]),
                            public_key=public_key,
                            sign_count=sign_count,
                            created_at=now,
                        )
                    )
            except IntegrityError:
                return None
            return int(key[0])

        found: int | None = await self._write(op)
        return found

    async def add_passkey(
        self, player_id: int, credential_id: str, public_key: str, sign_count: int
    ) -> bool:
        """Another passkey of a player's; ``False`` when the credential is already stored."""
        now = time.time()

        async def op(conn: AsyncConnection) -> bool:
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(passkeys_t).values(
                            credential_id=credential_id,
                            player_id=player_id,
                            public_key=public_key,
                            sign_count=sign_count,
                            created_at=now,
                        )
                    )
            except IntegrityError:
                return False
            return True

        added: bool = await self._write(op)
        return added

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        """A live player's passkey by its credential id."""
        async with self._reading() as conn:
            row = (
                await conn.execute(
                    select(passkeys_t, *player_columns())
                    .join(players_t, players_t.c.id == passkeys_t.c.player_id)
                    .where(
                        passkeys_t.c.credential_id == credential_id,
                        players_t.c.deleted_at.is_(None),
                    )
                )
            ).first()
        return None if row is None else passkey_row(row)

    async def passkeys_of(self, player_id: int) -> list[PasskeyRow]:
        """A player's passkeys, oldest first."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(passkeys_t, *player_columns())
                    .join(players_t, players_t.c.id == passkeys_t.c.player_id)
                    .where(passkeys_t.c.player_id == player_id)
                    .order_by(passkeys_t.c.created_at, passkeys_t.c.credential_id)
                )
            ).all()
        return [passkey_row(r) for r in rows]

    async def use_passkey(self, credential_id: str, was: int, now_count: int) -> bool:
        """Record a passkey's use: its signature count moves from ``was`` to ``now_count``
        only if no other use moved it meanwhile (``False``: one did; the use is refused)."""

        async def op(conn: AsyncConnection) -> bool:
            result = await conn.execute(
                update(passkeys_t)
                .where(passkeys_t.c.credential_id == credential_id, passkeys_t.c.sign_count == was)
                .values(sign_count=now_count)
            )
            return bool(result.rowcount == 1)

        used: bool = await self._write(op)
        return used

    async def remove_passkey(self, player_id: int, credential_id: str) -> str:
        """Remove one of a player's passkeys: ``removed``; ``last`` when it is their last way
        to sign in (no password and no other passkey: nothing removed); ``none`` when they have
        no such passkey. Two removals at once can never take the last two: the player's row is
        locked first (PostgreSQL), and the delete is one statement that checks what remains
        (SQLite, whose reads outside a write take no lock)."""

        async def op(conn: AsyncConnection) -> str:
            await conn.execute(
                select(players_t.c.id).where(players_t.c.id == player_id).with_for_update()
            )
            others = (
                select(func.count())
                .select_from(passkeys_t)
                .where(
                    passkeys_t.c.player_id == player_id,
                    passkeys_t.c.credential_id != credential_id,
                )
                .scalar_subquery()
            )
            has_password = (
                select(players_t.c.password_hash)
                .where(players_t.c.id == player_id)
                .scalar_subquery()
                .is_not(None)
            )
            gone = await conn.execute(
                delete(passkeys_t).where(
                    passkeys_t.c.player_id == player_id,
                    passkeys_t.c.credential_id == credential_id,
                    has_password | (others > 0),
                )
            )
            if gone.rowcount == 1:
                return "removed"
            mine = await conn.execute(
                select(passkeys_t.c.credential_id).where(
                    passkeys_t.c.player_id == player_id,
                    passkeys_t.c.credential_id == credential_id,
                )
            )
            return "last" if mine.first() is not None else "none"

        answer: str = await self._write(op)
        return answer

    async def claim_seats(self, player_id: int, proofs: Sequence[tuple[str, str]]) -> int:
        """Attach a player to the games of the seats whose tokens a device holds: ``proofs``
        are (table id, seat token's hash). A seat's game is claimed when that token held the
        seat when the game began (``game_seat_tokens``) or holds it now in the table's latest
        game (a seat moved to this device during the game). Never claimed: a rated game (its
        outcome is never rewritten), a seat another player has, a game in which this player
        has a seat already. Returns how many games were claimed."""
        if not proofs:
            return 0

        async def op(conn: AsyncConnection) -> int:
            found: set[tuple[int, int]] = set()
            for table_id, digest in proofs:
                by_start = await conn.execute(
                    select(game_seat_tokens_t.c.game_id, game_seat_tokens_t.c.seat)
                    .join(games_t, games_t.c.id == game_seat_tokens_t.c.game_id)
                    .where(
                        game_seat_tokens_t.c.token_hash == digest,
                        games_t.c.table_id == table_id,
                    )
                )
                found.update((int(r.game_id), int(r.seat)) for r in by_start.all())
                now = (
                    await conn.execute(
                        select(seats_t.c.seat)
                        .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                        .where(
                            seats_t.c.table_id == table_id,
                            seats_t.c.token_hash == digest,
                            seats_t.c.kind == "human",
                            tables_t.c.status.in_(("playing", "finished")),
                        )
                    )
                ).first()
                if now is not None:
                    latest = (
                        await conn.execute(
                            select(func.max(games_t.c.id)).where(games_t.c.table_id == table_id)
                        )
                    ).scalar()
                    if latest is not None:
                        found.add((int(latest), int(now.seat)))
            claimed = 0
            for game_id, seat in sorted(found):
                game = (
                    await conn.execute(select(games_t.c.rated).where(games_t.c.id == game_id))
                ).first()
                taken = (
                    await conn.execute(
                        select(game_players_t.c.seat).where(
                            game_players_t.c.game_id == game_id,
                            (game_players_t.c.seat == seat)
                            | (game_players_t.c.player_id == player_id),
                        )
                    )
                ).first()
                if game is None or game.rated or taken is not None:
                    continue
                await conn.execute(
                    insert(game_players_t).values(game_id=game_id, seat=seat, player_id=player_id)
                )
                claimed += 1
            return claimed

        claimed: int = await self._write(op)
        return claimed
