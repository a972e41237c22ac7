"""The store's accounts (:mod:`perudo.server.accounts`): players, their sessions, sign-in
failures, and the reads of a profile (a player's games and tally)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .rows import PlayerRow, SessionRow, player_columns, player_row, session_row
from .schema import (
    emails_t,
    game_players_t,
    games_t,
    mail_tokens_t,
    passkeys_t,
    players_t,
    sessions_t,
    sign_in_failures_t,
    tables_t,
)


class PlayerStore(StoreBase):
    """Players, sessions and sign-in failures."""

    async def create_player(
        self, name: str, name_key: str, password_hash: str | None
    ) -> int | None:
        """A new player under ``name`` (compared as ``name_key``); ``None`` when a live player
        has that key already (nothing written)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> int | None:
            taken = await conn.execute(
                select(players_t.c.id).where(players_t.c.name_key == name_key)
            )
            if taken.first() is not None:
                return None
            try:
                # Two sign-ups of one name at once on PostgreSQL: the unique index refuses the
                # second inside its savepoint, and the batch's other writes go on.
                async with conn.begin_nested():
                    result = await conn.execute(
                        insert(players_t).values(
                            name=name,
                            name_key=name_key,
                            password_hash=password_hash,
                            created_at=now,
                        )
                    )
            except IntegrityError:
                return None
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

        found: int | None = await self._write(op)
        return found

    async def player_by_key(self, name_key: str) -> PlayerRow | None:
        """The live player whose name compares as ``name_key``."""
        async with self._reading() as conn:
            row = (
                await conn.execute(select(players_t).where(players_t.c.name_key == name_key))
            ).first()
        return None if row is None else player_row(row)

    async def create_session(
        self,
        token_hash: str,
        public_id: str,
        player_id: int,
        csrf: str,
        lifetime: float,
        agent: str,
        replacing: str | None = None,
    ) -> None:
        """A new sign-in session; the session ``replacing`` (the hash of the token the
        browser held, if any) is ended in the same transaction (no session fixation)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            if replacing is not None:
                await conn.execute(delete(sessions_t).where(sessions_t.c.id == replacing))
            await conn.execute(
                insert(sessions_t).values(
                    id=token_hash,
                    public_id=public_id,
                    player_id=player_id,
                    csrf=csrf,
                    created_at=now,
                    seen_at=now,
                    expires_at=now + lifetime,
                    agent=agent[:200],
                )
            )

        await self._write(op)

    async def session(self, token_hash: str) -> SessionRow | None:
        """The live session of a token's hash (``None``: unknown, ended, expired, or its
        player deleted)."""
        async with self._reading() as conn:
            row = (
                await conn.execute(
                    select(sessions_t, *player_columns())
                    .join(players_t, players_t.c.id == sessions_t.c.player_id)
                    .where(
                        sessions_t.c.id == token_hash,
                        sessions_t.c.expires_at > time.time(),
                        players_t.c.deleted_at.is_(None),
                    )
                )
            ).first()
        return None if row is None else session_row(row)

    async def touch_session(self, token_hash: str, seen_at: float) -> None:
        """Note when a session was last used (the account page shows it)."""

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(sessions_t).where(sessions_t.c.id == token_hash).values(seen_at=seen_at)
            )

        await self._write(op)

    async def sessions_of(self, player_id: int) -> list[SessionRow]:
        """A player's live sessions, the most recently used first."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(sessions_t, *player_columns())
                    .join(players_t, players_t.c.id == sessions_t.c.player_id)
                    .where(
                        sessions_t.c.player_id == player_id,
                        sessions_t.c.expires_at > time.time(),
                    )
                    .order_by(sessions_t.c.seen_at.desc())
                )
            ).all()
        return [session_row(r) for r in rows]

    async def end_sessions(
        self,
        player_id: int,
        *,
        token_hash: str | None = None,
        public_id: str | None = None,
        keeping: str | None = None,
    ) -> int:
        """End a player's session by its token's hash or its public id, or (neither given)
        every session of theirs but ``keeping``; returns how many ended."""

        async def op(conn: AsyncConnection) -> int:
            where = [sessions_t.c.player_id == player_id]
            if token_hash is not None:
                where.append(sessions_t.c.id == token_hash)
            elif public_id is not None:
                where.append(sessions_t.c.public_id == public_id)
            elif keeping is not None:
                where.append(sessions_t.c.id != keeping)
            result = await conn.execute(delete(sessions_t).where(*where))
            return int(result.rowcount)

        ended: int = await self._write(op)
        return ended

    async def set_password(
        self, player_id: int, password_hash: str, keeping: str, first: bool = False
    ) -> bool:
        """A player's new password; every other session of theirs ends with the change.
        ``first``: only where the player has no password yet (a passkey-only account's
        first one); ``False`` (and nothing changed) when they have one by then."""

        async def op(conn: AsyncConnection) -> bool:
            where = [players_t.c.id == player_id]
            if first:
                where.append(players_t.c.password_hash.is_(None))
            done = await conn.execute(
                update(players_t).where(*where).values(password_hash=password_hash)
            )
            if done.rowcount != 1:
                return False
            await conn.execute(
                delete(sessions_t).where(
                    sessions_t.c.player_id == player_id, sessions_t.c.id != keeping
                )
            )
            return True

        changed: bool = await self._write(op)
        return changed

    async def delete_player(self, player_id: int, shown_as: str) -> None:
        """Delete an account: its sessions and passkeys go, its name becomes ``shown_as``
        and is free again; its games stay, under its id, and show it as ``shown_as`` (the
        names kept with each game it sat in are rewritten, so no list, replay or record says
        the old name)."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            played = (
                await conn.execute(
                    select(games_t.c.id, games_t.c.names, game_players_t.c.seat)
                    .join(game_players_t, game_players_t.c.game_id == games_t.c.id)
                    .where(game_players_t.c.player_id == player_id)
                )
            ).all()
            for row in played:
                names = json.loads(str(row.names))
                seat = int(row.seat)
                if 0 <= seat < len(names):
                    names[seat] = shown_as
                    await conn.execute(
                        update(games_t)
                        .where(games_t.c.id == row.id)
                        .values(names=json.dumps(names))
                    )
            await conn.execute(delete(sessions_t).where(sessions_t.c.player_id == player_id))
            await conn.execute(delete(passkeys_t).where(passkeys_t.c.player_id == player_id))
            await conn.execute(delete(emails_t).where(emails_t.c.player_id == player_id))
            await conn.execute(delete(mail_tokens_t).where(mail_tokens_t.c.player_id == player_id))
            await conn.execute(
                update(players_t)
                .where(players_t.c.id == player_id)
                .values(name=shown_as, name_key=None, password_hash=None, deleted_at=now)
            )

        await self._write(op)

    async def sign_in_failures(self, keys: Sequence[str], since: float) -> dict[str, int]:
        """Failed sign-ins counted under each of ``keys`` in windows begun after ``since``."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(sign_in_failures_t).where(
                        sign_in_failures_t.c.key.in_(list(keys)),
                        sign_in_failures_t.c.since > since,
                    )
                )
            ).all()
        return {r.key: int(r.failures) for r in rows}

    async def note_sign_in_failure(self, keys: Sequence[str], window_from: float) -> None:
        """Count a failed sign-in under each of ``keys``: a count whose window began before
        ``window_from`` starts again at one."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            for key in keys:
                row = (
                    await conn.execute(
                        select(sign_in_failures_t).where(sign_in_failures_t.c.key == key)
                    )
                ).first()
                if row is None:
                    try:
                        async with conn.begin_nested():
                            await conn.execute(
                                insert(sign_in_failures_t).values(key=key, failures=1, since=now)
                            )
                        continue
                    except IntegrityError:
                        pass  # another process counted one first: count on top of it
                counted = update(sign_in_failures_t).where(sign_in_failures_t.c.key == key)
                if row is not None and row.since <= window_from:
                    await conn.execute(counted.values(failures=1, since=now))
                else:
                    await conn.execute(counted.values(failures=sign_in_failures_t.c.failures + 1))

        await self._write(op)

    async def clear_sign_in_failures(self, key: str) -> None:
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(sign_in_failures_t).where(sign_in_failures_t.c.key == key))

        await self._write(op)

    async def player_by_name(self, name: str) -> PlayerRow | None:
        """A live player by their name as written (``/@/<name>``), compared exactly."""
        async with self._reading() as conn:
            row = (
                await conn.execute(
                    select(players_t).where(
                        players_t.c.name == name, players_t.c.deleted_at.is_(None)
                    )
                )
            ).first()
        return None if row is None else player_row(row)

    async def player_games(
        self,
        player_id: int,
        variant: str | None,
        offset: int,
        limit: int,
        private_too: bool = False,
    ) -> tuple[int, list[dict[str, Any]]]:
        """A player's finished games of public tables (``private_too``: of private ones too,
        for their own export; of ``variant``, or all), newest first: how many in all, and
        those from ``offset`` (``{id, variant, rated, names, seat, winner, won,
        finished_at}``, ``id`` the game's key)."""
        where = [game_players_t.c.player_id == player_id, games_t.c.finished_at.is_not(None)]
        if not private_too:
            where.append(tables_t.c.private.is_(False))
        if variant is not None:
            where.append(games_t.c.variant == variant)
        joined = game_players_t.join(games_t, games_t.c.id == game_players_t.c.game_id).join(
            tables_t, tables_t.c.id == games_t.c.table_id
        )
        async with self._reading() as conn:
            total = (
                await conn.execute(select(func.count()).select_from(joined).where(*where))
            ).scalar_one()
            rows = (
                await conn.execute(
                    select(
                        games_t.c.key,
                        games_t.c.variant,
                        games_t.c.rated,
                        games_t.c.names,
                        games_t.c.winner,
                        games_t.c.finished_at,
                        game_players_t.c.seat,
                    )
                    .select_from(joined)
                    .where(*where)
                    .order_by(games_t.c.finished_at.desc(), games_t.c.id.desc())
                    .offset(offset)
                    .limit(limit)
                )
            ).all()
        return int(total), [
            {
                "id": r.key,
                "variant": r.variant,
                "rated": bool(r.rated),
                "names": json.loads(r.names),
                "seat": r.seat,
                "winner": r.winner,
                "won": r.winner == r.seat,
                "finished_at": r.finished_at,
            }
            for r in rows
        ]

    async def player_tally(self, player_id: int) -> dict[str, tuple[int, int]]:
        """A player's finished games of public tables per variant: (played, won)."""
        won = func.sum(case((games_t.c.winner == game_players_t.c.seat, 1), else_=0))
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(games_t.c.variant, func.count(), won)
                    .select_from(
                        game_players_t.join(games_t, games_t.c.id == game_players_t.c.game_id).join(
                            tables_t, tables_t.c.id == games_t.c.table_id
                        )
                    )
                    .where(
                        game_players_t.c.player_id == player_id,
                        games_t.c.finished_at.is_not(None),
                        tables_t.c.private.is_(False),
                    )
                    .group_by(games_t.c.variant)
                )
            ).all()
        return {(r[0] or ""): (int(r[1]), int(r[2] or 0)) for r in rows}
