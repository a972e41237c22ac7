"""What a finished game's table agreed to, read from the store, for its replay and analysis:

* :func:`game_config`: the config of the table a game was played at (a table's ``show_hands``
  is chosen when it is created and never changed, so every game of the table was played under
  it);
* :func:`hands_shown`: whether a game's every hand is public now: its table agreed to show
  them at the end, and the game is over (never during play, P-70).

Who played a seat of a game is the store's (:meth:`~.store.Store.played_seat`).
"""

from __future__ import annotations

import json

from .store import GameRow, Store
from .tables.config import TableConfig

__all__ = ["game_config", "hands_shown"]


async def game_config(store: Store, game: GameRow) -> TableConfig | None:
    """The config of the table ``game`` was played at (closed tables too), ``None`` where the
    stored config does not read."""
    text = await store.table_config(game.table_id)
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
