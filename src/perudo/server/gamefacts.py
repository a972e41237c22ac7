"""What the store knows about a finished game beyond its record, for its replay and analysis.

Queries of their own (the store's engine, its tables), kept out of :class:`~.store.Store`:

* :func:`game_config`: the config of the table a game was played at (a table's ``show_hands``
  is chosen when it is created and never changed, so every game of the table was played under
  it);
* :func:`hands_shown`: whether a game's every hand is public now: its table agreed to show
  them at the end, and the game is over (never during play, P-70);
* :func:`remember_seat_tokens` and :func:`played_seat`: who played a seat of a game (the
  device tokens that held it during the game, the signed-in account that sat in it), whoever
  holds the seat now: a seat's own analysis is theirs only.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .store import GameRow, Store
from .store.schema import game_players_t, game_seat_tokens_t, tables_t
from .tables.config import TableConfig

__all__ = ["game_config", "hands_shown", "played_seat", "remember_seat_tokens"]


async def game_config(store: Store, game: GameRow) -> TableConfig | None:
    """The config of the table ``game`` was played at (closed tables too), ``None`` where the
    stored config does not read."""
    async with store._reading() as conn:
        text = (
            await conn.execute(select(tables_t.c.config).where(tables_t.c.id == game.table_id))
        ).scalar()
    if text is None:
        return None
    try:
        return TableConfig.from_dict(json.loads(text))
    except (ValueError, KeyError, TypeError):
        return None


async def hands_shown(store: Store, game: GameRow) -> bool:
    """Whether every hand of ``game`` is public now: its table agreed to show every hand at
    the end, and the game is over (its record ends the game: a game closed before its end
    shows nothing)."""
    if game.finished_at is None or game.winner is None:
        return False
    config = await game_config(store, game)
    return config is not None and config.show_hands


async def remember_seat_tokens(
    store: Store, game_id: int, holders: Iterable[tuple[int, str]]
) -> None:
    """Remember that each (seat, token hash) of ``holders`` held a person's seat during game
    ``game_id`` (its internal id); one already remembered is kept once."""
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
                insert(game_seat_tokens_t).values(game_id=game_id, seat=seat, token_hash=token_hash)
            )

    if wanted:
        await store._write(op)


async def played_seat(
    store: Store, game: GameRow, seat: int, token_hash: str | None, player_id: int | None
) -> bool:
    """Whether the person asking played ``seat`` of ``game``: ``player_id`` (their signed-in
    account) sat in it, or ``token_hash`` (their device's token) held it during the game. A
    later occupant of the seat, at a later game of the table, played neither."""
    async with store._reading() as conn:
        if player_id is not None:
            found = (
                await conn.execute(
                    select(game_players_t.c.player_id).where(
                        game_players_t.c.game_id == game.id,
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
                game_seat_tokens_t.c.game_id == game.id, game_seat_tokens_t.c.seat == seat
            )
        )
        hashes: list[str] = list(result.scalars())
        return any(hmac.compare_digest(h, token_hash) for h in hashes)
