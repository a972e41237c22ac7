"""A device's anonymous games claimed at sign-up and sign-in (docs/accounts.md).

The page keeps each seat it took as a guest by its token (``localStorage``, one per table:
``perudo.token.<table>``). Signing up or in, it sends those tokens (``seats: [{table,
token}]``); once the person is signed in, each token that proves a seat (its hash is the
seat's when a game began, or the seat's now in the table's latest game) attaches the account
to that seat's games (:meth:`perudo.server.store.Store.claim_seats`), so the profile lists
them. A token proves only its own seat: another device's games, a seat another account holds,
and a rated game (whose outcome is never rewritten) are never claimed.
"""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, Field

from ..store import Store
from ..tables.config import hash_token

__all__ = ["MOST_SEATS", "SeatProof", "claim"]

MOST_SEATS: Final = 200
"""The most seat tokens one sign-up or sign-in may carry."""


class SeatProof(BaseModel):
    """A seat the device holds: the table's id and the seat's token."""

    table: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=100)


async def claim(store: Store, player_id: int, seats: list[SeatProof]) -> int:
    """Attach ``player_id`` to the games of the seats these tokens prove; how many games."""
    return await store.claim_seats(player_id, [(s.table, hash_token(s.token)) for s in seats])
