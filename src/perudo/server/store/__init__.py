"""The store: an append-only log of every game's actions, plus tables, seats, chat, accounts and
ratings, on SQLite or PostgreSQL through one code path (SQLAlchemy Core).

The package's rooms:

* :mod:`.schema`: the tables (made and upgraded by the Alembic revisions of
  :mod:`perudo.server.migrations`, applied by :meth:`Store.open`: a database made by any
  earlier version upgrades in place);
* :mod:`.rows`: what reads give and writes take, and the store's errors;
* :mod:`.writer`: the one writer, which commits whatever is queued in one transaction (group
  commit); a caller's ``await`` returns once its write is durable;
* :mod:`.base`: the engine, the writer and the reads' connections, shared by the parts below;
* :mod:`.games`: tables, seats, games and their action logs, chat;
* :mod:`.players`: accounts, sessions, sign-in failures, a profile's games;
* :mod:`.ratings`: ratings, their history, the leaderboard, and a rated game's update;
* :mod:`.passkeys`: passkeys, their ceremonies' challenges, and claims of a device's games;
* :mod:`.mail`: confirmed e-mail addresses and the tokens mailed to confirm or reset;
* :mod:`.social`: follows, blocks, invitations, Web Push subscriptions, the server's kept keys;
* :mod:`.bots`: bot accounts and the hashes of their API tokens;
* :mod:`.analyses`: analyses of finished games, shared by every process.

A game's state is the fold of :func:`perudo.core.apply` over its logged actions, so a restart
rebuilds every table exactly (:mod:`perudo.server.tables`).
"""

from __future__ import annotations

from .analyses import AnalysisStore
from .bots import BotStore
from .games import GameStore
from .mail import MailStore
from .passkeys import PasskeyStore
from .players import PlayerStore
from .ratings import RatingStore
from .rows import (
    ChallengeRow,
    ChatRow,
    Fenced,
    GameRow,
    PasskeyRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    StoreError,
    TableRow,
    TooManyTables,
)
from .schema import game_actions_t, metadata
from .social import SocialStore

__all__ = [
    "ChallengeRow",
    "ChatRow",
    "Fenced",
    "GameRow",
    "PasskeyRow",
    "PlayerRow",
    "SeatRow",
    "SessionRow",
    "Store",
    "StoreError",
    "TableRow",
    "TooManyTables",
    "game_actions_t",
    "metadata",
]


class Store(
    GameStore,
    PlayerStore,
    RatingStore,
    PasskeyStore,
    MailStore,
    SocialStore,
    BotStore,
    AnalysisStore,
):
    """The database behind the server. ``await open()`` before use, ``await close()`` after."""
