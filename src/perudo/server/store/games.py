"""The store's tables, seats, games (their action logs) and chat: the writes of play and the
reads that rebuild a table after a restart, and the replay list; who played a seat of a game
(the device tokens that held it, the account that sat in it), for a seat's own analysis."""

from __future__ import annotations

import hmac
import json
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .ratings import rate
from .rows import ChatRow, GameRow, SeatRow, TableRow, TooManyTables, seat_row, seat_values
from .schema import (
    TABLES_LOCK,
    chat_t,
    game_actions_t,
    game_players_t,
    game_seat_tokens_t,
    games_t,
    players_t,
    seats_t,
    tables_t,
)
from .writer import action_rows


class GameStore(StoreBase):
    """Tables, seats, games and chat."""

    # -- writes ---------------------------------------------------------------------------

    async def create_table(
        self,
        table_id: str,
        name: str,
        config: dict[str, Any],
        private: bool,
        seats: Sequence[SeatRow],
        version: int,
        creator: str | None = None,
        max_live: int | None = None,
    ) -> None:
        """A new waiting table (``creator``: the client it counts against, ``tables.creator``).

        ``max_live``: the site's limit of tables waiting or playing (the multi-process mode's
        ``PERUDO_MAX_OPEN_TABLES``), taken atomically: on PostgreSQL the count and the insert
        are one transaction under an advisory lock, so creations on several processes at once
        never pass the limit together.

        :raises TooManyTables: the limit is reached; nothing was written."""
        now = time.time()

        async def op(conn: AsyncConnection) -> int | None:
            if max_live is not None:
                if conn.dialect.name == "postgresql":
                    await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({TABLES_LOCK})")
                live = await _count_live(conn)
                if live >= max_live:
                    return live  # refused: nothing written, the batch's other writes go on
            await conn.execute(
                insert(tables_t).values(
                    id=table_id,
                    name=name,
                    config=json.dumps(config),
                    status="open",
                    private=private,
                    version=version,
                    created_at=now,
                    creator=creator,
                )
            )
            for s in seats:
                await conn.execute(insert(seats_t).values(table_id=table_id, **seat_values(s)))
            return None

        refused_at = await self._write(op)
        if refused_at is not None:
            raise TooManyTables(refused_at)

    async def set_seats(
        self, table_id: str, seats: Sequence[SeatRow], version: int, status: str | None = None
    ) -> None:
        """Replace the table's seats (joins, bots added or removed, compaction at start)."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id))
            for s in seats:
                await conn.execute(insert(seats_t).values(table_id=table_id, **seat_values(s)))
            values: dict[str, Any] = {"version": version, "fence": fence}
            if status is not None:
                values["status"] = status
            await conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

        await self._write(op)

    async def set_config(self, table_id: str, config: dict[str, Any], version: int) -> None:
        """Replace the table's settings (the host changed its options before a game)."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(config=json.dumps(config), version=version, fence=fence)
            )

        await self._write(op)

    async def set_status(self, table_id: str, status: str, version: int) -> None:
        """A waiting table closed (``status`` ``closed``): it no longer counts for its client."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=status, version=version, fence=fence, creator=None)
            )

        await self._write(op)

    async def start_game(
        self,
        table_id: str,
        rules: dict[str, Any],
        names: Sequence[str],
        rolloff: Sequence[Sequence[int]],
        seats: Sequence[SeatRow],
        version: int,
        players: Mapping[int, int] | None = None,
        rated: bool = False,
        variant: str | None = None,
    ) -> tuple[int, str]:
        """Start a game at a table (seats compacted, status ``playing``); returns its id and
        its key (:attr:`GameRow.key`). ``players``: the signed-in player of each seat that has
        one (seat → player id); ``rated``: the game is rated (:meth:`finish_game`);
        ``variant``: the table's preset."""
        now = time.time()

        game_key = new_game_key()
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> int:
            await conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id))
            for s in seats:
                await conn.execute(insert(seats_t).values(table_id=table_id, **seat_values(s)))
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status="playing", version=version, fence=fence, creator=None)
            )
            # A seat whose account was deleted while it sat here is kept under the name the
            # account has now ("deleted player"), never its old one (another may take it).
            stored = list(names)
            if players:
                gone = {
                    int(r.id): str(r.name)
                    for r in await conn.execute(
                        select(players_t.c.id, players_t.c.name).where(
                            players_t.c.id.in_(sorted(set(players.values()))),
                            players_t.c.deleted_at.is_not(None),
                        )
                    )
                }
                for seat, player_id in players.items():
                    if player_id in gone and 0 <= seat < len(stored):
                        stored[seat] = gone[player_id]
            result = await conn.execute(
                insert(games_t).values(
                    key=game_key,
                    table_id=table_id,
                    rules=json.dumps(rules),
                    players=len(names),
                    names=json.dumps(stored),
                    rolloff=json.dumps([list(t) for t in rolloff]),
                    started_at=now,
                    rated=rated,
                    variant=variant,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            new_id = int(key[0])
            for seat, player_id in sorted((players or {}).items()):
                await conn.execute(
                    insert(game_players_t).values(game_id=new_id, seat=seat, player_id=player_id)
                )
            # Each person's seat token, by which its device may claim the game (claims).
            tokens = [
                {"game_id": new_id, "seat": s.seat, "token_hash": s.token_hash}
                for s in seats
                if s.kind == "human" and s.token_hash
            ]
            if tokens:
                await conn.execute(insert(game_seat_tokens_t), tokens)
            return new_id

        game_id: int = await self._write(op)
        return game_id, game_key

    async def append_actions(
        self,
        game_id: int,
        first_seq: int,
        moves: Sequence[tuple[int | None, str]],
        version: int,
        table_id: str = "",
    ) -> None:
        """Append moves ``first_seq, first_seq + 1, …`` to a game's log (one transaction),
        under the fencing token held for ``table_id`` (multi-process mode)."""
        fence = self.fence_of(table_id)
        await self._write(action_rows(game_id, first_seq, moves, version, time.time(), fence))

    async def finish_game(
        self,
        table_id: str,
        game_id: int,
        winner: int | None,
        version: int,
        moves: Sequence[tuple[int | None, str]] = (),
        first_seq: int = 0,
        places: Sequence[int] = (),
        variant: str = "",
    ) -> None:
        """Mark the game over and its table finished; ``moves`` (the game's last ones, from
        ``first_seq``) are appended in the same transaction, so a log never ends a game that
        is not marked finished, nor the other way round.

        A rated game's players' ratings in ``variant`` change in that same transaction, from
        ``places`` (each seat's finishing place, :func:`perudo.ratings.update`): a game's
        end and its rating update are one durable write, and a game already rated is never
        rated again (:func:`_rate`)."""
        now = time.time()
        fence = self.fence_of(table_id)
        rows = action_rows(game_id, first_seq, moves, version, now, fence)

        async def op(conn: AsyncConnection) -> None:
            if rows:
                await conn.execute(insert(game_actions_t), rows)
            await conn.execute(
                update(games_t)
                .where(games_t.c.id == game_id)
                .values(finished_at=now, winner=winner)
            )
            if places:
                await rate(conn, game_id, places, variant, now)
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status="finished", version=version, fence=fence)
            )

        await self._write(op)

    async def add_chat(self, table_id: str, row: ChatRow, keep: int = 500) -> None:
        """Add a chat line; only the table's last ``keep`` lines stay stored."""
        fence = self.fence_of(table_id)

        async def op(conn: AsyncConnection) -> None:
            result = await conn.execute(
                insert(chat_t).values(
                    table_id=table_id,
                    seat=row.seat,
                    name=row.name,
                    text=row.text,
                    at=row.at,
                    version=row.version,
                    fence=fence,
                )
            )
            key = result.inserted_primary_key
            if key is not None and int(key[0]) % 50 == 0:
                # Now and then (ids are shared by every table: about once per 50 lines) the
                # table's older lines go.
                oldest_kept = (
                    select(chat_t.c.id)
                    .where(chat_t.c.table_id == table_id)
                    .order_by(chat_t.c.id.desc())
                    .offset(keep - 1)
                    .limit(1)
                    .scalar_subquery()
                )
                await conn.execute(
                    delete(chat_t).where(chat_t.c.table_id == table_id, chat_t.c.id < oldest_kept)
                )

        await self._write(op)

    async def remember_seat_tokens(self, game_id: int, holders: Iterable[tuple[int, str]]) -> None:
        """Remember that each (seat, token hash) of ``holders`` held a person's seat during
        game ``game_id`` (its internal id); one already remembered is kept once."""
        wanted = set(holders)

        async def op(conn: AsyncConnection) -> None:
            known = {
                (r.seat, r.token_hash)
                for r in await conn.execute(
                    select(game_seat_tokens_t.c.seat, game_seat_tokens_t.c.token_hash).where(
                        game_seat_tokens_t.c.game_id == game_id
                    )
                )
            }
            for seat, token_hash in sorted(wanted - known):
                await conn.execute(
                    insert(game_seat_tokens_t).values(
                        game_id=game_id, seat=seat, token_hash=token_hash
                    )
                )

        if wanted:
            await self._write(op)

    # -- reads ----------------------------------------------------------------------------

    async def load_tables(self, finished_since: float) -> list[TableRow]:
        """Every table waiting or playing, and those finished after ``finished_since``."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(tables_t)
                    .where(tables_t.c.status.not_in(("closed", "broken")))
                    .order_by(tables_t.c.created_at)
                )
            ).all()
            out: list[TableRow] = []
            for t in rows:
                row = await self._table_row(conn, t, finished_since)
                if row is not None:
                    out.append(row)
            return out

    async def load_table(self, table_id: str) -> TableRow | None:
        """One table as :meth:`load_tables` gives it (``None``: unknown or closed)."""
        async with self._engine().connect() as conn:
            t = (
                await conn.execute(
                    select(tables_t).where(tables_t.c.id == table_id, tables_t.c.status != "closed")
                )
            ).first()
            return None if t is None else await self._table_row(conn, t, 0.0)

    async def _table_row(
        self, conn: AsyncConnection, t: Any, finished_since: float
    ) -> TableRow | None:
        game = await self._latest_game(conn, t.id)
        if t.status == "finished" and game is not None and (game.finished_at or 0) < finished_since:
            return None
        seats = [
            seat_row(s)
            for s in (
                await conn.execute(
                    select(seats_t).where(seats_t.c.table_id == t.id).order_by(seats_t.c.seat)
                )
            ).all()
        ]
        chat = [
            ChatRow(c.seat, c.name, c.text, c.at, c.version)
            for c in reversed(
                (
                    await conn.execute(
                        select(chat_t)
                        .where(chat_t.c.table_id == t.id)
                        .order_by(chat_t.c.id.desc())
                        .limit(200)
                    )
                ).all()
            )
        ]
        version = max([t.version, game.last_version if game else 0] + [c.version for c in chat])
        return TableRow(
            id=t.id,
            name=t.name,
            config=json.loads(t.config),
            status=t.status,
            private=bool(t.private),
            version=version,
            created_at=t.created_at,
            seats=seats,
            game=game,
            chat=chat,
            creator=t.creator if t.status == "open" else None,
        )

    async def _latest_game(self, conn: AsyncConnection, table_id: str) -> GameRow | None:
        g = (
            await conn.execute(
                select(games_t)
                .where(games_t.c.table_id == table_id)
                .order_by(games_t.c.id.desc())
                .limit(1)
            )
        ).first()
        if g is None:
            return None
        return await self._game_with_moves(conn, g)

    async def _game_with_moves(self, conn: AsyncConnection, g: Any) -> GameRow:
        moves = (
            await conn.execute(
                select(game_actions_t.c.seat, game_actions_t.c.action, game_actions_t.c.version)
                .where(game_actions_t.c.game_id == g.id)
                .order_by(game_actions_t.c.seq)
            )
        ).all()
        private = (
            await conn.execute(select(tables_t.c.private).where(tables_t.c.id == g.table_id))
        ).scalar()
        return GameRow(
            id=g.id,
            key=g.key,
            table_id=g.table_id,
            rules=json.loads(g.rules),
            players=g.players,
            names=json.loads(g.names),
            rolloff=json.loads(g.rolloff),
            started_at=g.started_at,
            finished_at=g.finished_at,
            winner=g.winner,
            moves=[(m.seat, m.action) for m in moves],
            last_version=max((m.version for m in moves), default=0),
            private=bool(private),
        )

    async def game(self, key: str) -> GameRow | None:
        """One game by its key, with all its moves, or ``None``."""
        async with self._reading() as conn:
            g = (await conn.execute(select(games_t).where(games_t.c.key == key))).first()
            if g is None:
                return None
            return await self._game_with_moves(conn, g)

    async def finished_games(
        self, limit: int = 50, player_id: int | None = None
    ) -> list[dict[str, Any]]:
        """The most recent finished games of public tables (the replay list), newest first;
        ``player_id``: only those the signed-in player sat in (``game_players``)."""
        where = [games_t.c.finished_at.is_not(None), tables_t.c.private.is_(False)]
        if player_id is not None:
            where.append(
                games_t.c.id.in_(
                    select(game_players_t.c.game_id).where(game_players_t.c.player_id == player_id)
                )
            )
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(
                        games_t.c.key,
                        games_t.c.table_id,
                        games_t.c.names,
                        games_t.c.winner,
                        games_t.c.finished_at,
                        tables_t.c.name.label("table_name"),
                    )
                    .join(tables_t, tables_t.c.id == games_t.c.table_id)
                    # Private tables' games are left out here, before the LIMIT (else a run
                    # of private games would leave the public list short, or empty).
                    .where(*where)
                    .order_by(games_t.c.finished_at.desc())
                    .limit(limit)
                )
            ).all()
        return [
            {
                "id": r.key,
                "table_id": r.table_id,
                "table_name": r.table_name,
                "names": json.loads(r.names),
                "winner": r.winner,
                "finished_at": r.finished_at,
            }
            for r in rows
        ]

    async def table_config(self, table_id: str) -> str | None:
        """The stored config (JSON) of a table, closed ones too."""
        async with self._reading() as conn:
            text = (
                await conn.execute(select(tables_t.c.config).where(tables_t.c.id == table_id))
            ).scalar()
        return None if text is None else str(text)

    async def played_seat(
        self, game_id: int, seat: int, token_hash: str | None, player_id: int | None
    ) -> bool:
        """Whether the person asking played ``seat`` of game ``game_id``: ``player_id``
        (their signed-in account) sat in it, or ``token_hash`` (their device's token) held it
        during the game. A later occupant of the seat, at a later game of the table, played
        neither."""
        async with self._reading() as conn:
            if player_id is not None:
                found = (
                    await conn.execute(
                        select(game_players_t.c.player_id).where(
                            game_players_t.c.game_id == game_id,
                            game_players_t.c.seat == seat,
                        )
                    )
                ).scalar()
                if found == player_id:
                    return True
            if token_hash is None:
                return False
            result = await conn.execute(
                select(game_seat_tokens_t.c.token_hash).where(
                    game_seat_tokens_t.c.game_id == game_id, game_seat_tokens_t.c.seat == seat
                )
            )
            hashes: list[str] = list(result.scalars())
        return any(hmac.compare_digest(h, token_hash) for h in hashes)

    async def count_live_tables(self) -> int:
        """Tables waiting for players or playing: with several processes, the site's count
        that ``PERUDO_MAX_OPEN_TABLES`` bounds.

        :raises StoreError: the database cannot be read."""
        async with self._reading() as conn:
            return await _count_live(conn)

    async def count_actions(self) -> int:
        async with self._reading() as conn:
            return int(
                (await conn.execute(select(func.count()).select_from(game_actions_t))).scalar_one()
            )


async def _count_live(conn: AsyncConnection) -> int:
    """Tables waiting for players or playing."""
    found = await conn.execute(
        select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(("open", "playing")))
    )
    return int(found.scalar_one())


def new_game_key() -> str:
    """An unguessable game id (96 random bits)."""
    return secrets.token_urlsafe(12)
