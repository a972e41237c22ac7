"""Who played a seat of a game (the store: Store.played_seat): the signed-in account that sat in
it, or a device token that held it during the game; never a later occupant (P-70: a seat's
own analysis shows its dice)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from perudo.core import PRESETS
from perudo.server.store import SeatRow, Store
from perudo.server.tables import hash_token


def test_the_player_of_a_seat_is_its_account_or_a_token_that_held_it_in_that_game(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}")
        await store.open()
        try:
            ann = await store.create_player("Ann", "ann", None)
            bo = await store.create_player("Bo", "bo", None)
            assert ann is not None and bo is not None
            seats = [
                SeatRow(0, "human", "Ann", hash_token("ann-phone"), None, True, ann),
                SeatRow(1, "human", "Bo", hash_token("bo-phone"), None, False, None),
            ]
            await store.create_table("t1", "T", {}, False, seats, 1)
            rules = PRESETS["perudo"].to_dict()
            game_id, key = await store.start_game(
                "t1", rules, ["Ann", "Bo"], [[6, 2]], seats, 2, players={0: ann}
            )
            await store.remember_seat_tokens(game_id, [(0, hash_token("ann-phone"))])
            # Bo moved his seat to his laptop during the game: both of his devices held it.
            await store.remember_seat_tokens(
                game_id, [(1, hash_token("bo-phone")), (1, hash_token("bo-laptop"))]
            )
            await store.remember_seat_tokens(game_id, [(1, hash_token("bo-phone"))])
            game = await store.game(key)
            assert game is not None
            assert await store.played_seat(game.id, 0, None, ann)  # her account, no token
            assert await store.played_seat(game.id, 0, hash_token("ann-phone"), None)
            assert not await store.played_seat(game.id, 0, None, bo)  # another account
            assert not await store.played_seat(game.id, 0, hash_token("bo-phone"), None)
            assert not await store.played_seat(game.id, 1, None, None)
            assert await store.played_seat(game.id, 1, hash_token("bo-phone"), None)
            assert await store.played_seat(game.id, 1, hash_token("bo-laptop"), None)
            # Somebody seated after the game, in the next game of the table: not this one's.
            later, _ = await store.start_game(
                "t1", rules, ["Cy", "Bo"], [[5, 1]], seats, 3, players={}
            )
            await store.remember_seat_tokens(later, [(0, hash_token("cy-phone"))])
            assert not await store.played_seat(game.id, 0, hash_token("cy-phone"), None)
        finally:
            await store.close()

    asyncio.run(go())


def test_a_game_started_after_a_seated_account_was_deleted_keeps_the_new_name(
    tmp_path: Path,
) -> None:
    """An account deleted while it sits at a table: a game started there afterwards is kept
    under the name the account has now, never the old one (another person may take it)."""

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'perudo.db'}")
        await store.open()
        try:
            ann = await store.create_player("Ann", "ann", None)
            assert ann is not None
            seats = [
                SeatRow(0, "human", "Ann", hash_token("ann"), None, True, ann),
                SeatRow(1, "human", "Bo", hash_token("bo"), None, False, None),
            ]
            await store.create_table("t1", "T", {}, False, seats, 1)
            await store.delete_player(ann, "deleted player")
            rules = PRESETS["perudo"].to_dict()
            _, key = await store.start_game(
                "t1", rules, ["Ann", "Bo"], [[6, 2]], seats, 2, players={0: ann}
            )
            game = await store.game(key)
            assert game is not None and list(game.names) == ["deleted player", "Bo"]
        finally:
            await store.close()

    asyncio.run(go())
