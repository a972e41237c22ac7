"""The store's tables (SQLAlchemy Core, one code path for SQLite and PostgreSQL), as the
Alembic revisions of :mod:`perudo.server.migrations` make them.

* ``tables``: a table's name, settings (JSON), status and last persisted version;
* ``seats``: who sits where (a person with a hashed seat token, or a bot with its level);
* ``games``: one row per game started at a table (rules, players' names, the P-2 roll-off),
  with an unguessable ``key``: the only id of a game that leaves the server (URLs, messages);
* ``game_actions(game_id, seq, seat, action, at, version)``, UNIQUE(game_id, seq): every move
  of every game in order, chance moves (``Deal``, ``Reroll``) included, in the core's
  notation. A game's state is the fold of :func:`perudo.core.apply` over its actions, so a
  restart rebuilds every table exactly (:mod:`perudo.server.tables`);
* ``chat_messages``: each table's chat (the last ``chat_stored_per_table`` lines of each);
* the accounts' tables (``players``, ``sessions``, ``passkeys``, ``sign_in_failures``,
  ``game_players``) and the ratings' (``ratings``, ``rating_changes``).

A table's ``status`` is ``open`` (waiting for players), ``playing``, ``finished``,
``closed`` (a waiting table that expired: never loaded again) or ``broken`` (multi-process
mode: its rows could not be restored; never claimed nor loaded again).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    # Multi-process mode: the fencing token of the table's lease an UPDATE carries;
    # PostgreSQL refuses a write whose token is not the lease's, and stores NULL (the token is
    # spent: a later UPDATE must name its own) (perudo.server.cluster.lease).
    Column("fence", BigInteger, nullable=True),
    # The client (its address, perudo.server.guard.client_key) the table counts against in
    # PERUDO_TABLES_PER_CLIENT while it waits for its first game; NULL from the game's start
    # (or the table's closing) on. A process restoring or taking the table over counts it again.
    Column("creator", Text, nullable=True),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("level", String(16), nullable=True),
    # The table's host (who starts the game, manages bots, removes an absent player): one seat.
    Column("host", Boolean, nullable=False, server_default=false()),
    # The signed-in player in a person's seat (NULL: a bot or a guest); revision 0004.
    Column("player_id", Integer, nullable=True),
    PrimaryKeyConstraint("table_id", "seat", name="seats_pk"),
)

games_t = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(32), nullable=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("rules", Text, nullable=False),
    Column("players", Integer, nullable=False),
    Column("names", Text, nullable=False),
    Column("rolloff", Text, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("winner", Integer, nullable=True),
    # A rated game (its table was made rated): its seats' players' ratings change at its end.
    Column("rated", Boolean, nullable=False, server_default=false()),
    # The table's preset (a profile's games and ratings are per variant); NULL for games
    # started before it was kept.
    Column("variant", String(40), nullable=True),
    Index("ix_games_key", "key", unique=True),
)

game_actions_t = Table(
    "game_actions",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("fence", BigInteger, nullable=True),
    # The primary key is the log's UNIQUE(game_id, seq): a move can never be written twice.
    PrimaryKeyConstraint("game_id", "seq", name="game_actions_pk"),
)

chat_t = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(40), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("fence", BigInteger, nullable=True),
)


# -- accounts (perudo.server.accounts) ------------------------------------------------------

players_t = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # The name as compared (perudo.server.accounts.names.name_key); NULL once deleted, so the
    # name is free again while the deleted player's games stay theirs.
    Column("name_key", String(80), nullable=True),
    Column("password_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float, nullable=True),
    Index("ix_players_name_key", "name_key", unique=True),
    # Bot accounts (perudo.server.accounts.bots): when the account became one, for good; NULL
    # for a person. Revision 0007.
    Column("bot_at", Float, nullable=True),
)

sessions_t = Table(
    "sessions",
    metadata,
    # The SHA-256 of the cookie's token (the token itself is never stored).
    Column("id", String(64), primary_key=True),
    # What the account page names the session by (to revoke it), never the token.
    Column("public_id", String(24), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("agent", String(200), nullable=False),
    Index("ix_sessions_public_id", "public_id", unique=True),
    Index("ix_sessions_player_id", "player_id"),
)

passkeys_t = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(400), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_passkeys_player_id", "player_id"),
)

sign_in_failures_t = Table(
    "sign_in_failures",
    metadata,
    # ``name:<name key>`` or ``addr:<client>``: failed sign-ins counted since ``since``.
    Column("key", String(120), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("since", Float, nullable=False),
)


game_players_t = Table(
    "game_players",
    metadata,
    # The signed-in player in a seat of a game (seats of anonymous people and bots have none).
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="game_players_pk"),
    Index("ix_game_players_player_id", "player_id"),
)

ratings_t = Table(
    "ratings",
    metadata,
    # A player's rating in one variant (the table's preset) and pool (duel or table):
    # OpenSkill's mu and sigma (perudo.ratings).
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("pool", String(8), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "variant", "pool", name="ratings_pk"),
)

rating_changes_t = Table(
    "rating_changes",
    metadata,
    # One row per player of a rated game, written in the transaction that ends the game: its
    # primary key is what makes the update happen once.
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("pool", String(8), nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "player_id", name="rating_changes_pk"),
    Index("ix_rating_changes_player_id", "player_id"),
)


# -- passkeys and claims (perudo.server.accounts.passkeys, .claims); revision 0005 ----------

webauthn_challenges_t = Table(
    "webauthn_challenges",
    metadata,
    # One WebAuthn ceremony's attempt: the id the page names it by, what it is for (signup,
    # signin, add, confirm: a deletion, password: a first password), its random challenge
    # (base64url), and until when it may be taken (once: taking it deletes it).
    Column("id", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("challenge", String(128), nullable=False),
    # The signed-in player adding a passkey or confirming with one; NULL for sign-up and in.
    Column("player_id", Integer, nullable=True),
    # Sign-up: the name asked for.
    Column("name", String(40), nullable=True),
    Column("expires_at", Float, nullable=False),
    Index("ix_webauthn_challenges_expires_at", "expires_at"),
)

game_seat_tokens_t = Table(
    "game_seat_tokens",
    metadata,
    # Every device token (its hash) that held a person's seat during a game: at its start, and
    # a seat moved to another device during it. The device holding that token may claim the
    # seat's game for its account (perudo.server.accounts.claims), and a seat's own analysis is
    # theirs, whoever holds the seat later (Store.played_seat).
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", "token_hash", name="game_seat_tokens_pk"),
    Index("ix_game_seat_tokens_token_hash", "token_hash"),
)


# -- bot accounts (perudo.server.accounts.bots; revision 0007) ---------------------------------

bot_tokens_t = Table(
    "bot_tokens",
    metadata,
    # The SHA-256 of a bot account's API token (the token itself is shown once, never stored).
    Column("id", String(64), primary_key=True),
    # What the account's token list names the token by (to revoke it), never the token.
    Column("public_id", String(24), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("label", String(60), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
    Index("ix_bot_tokens_public_id", "public_id", unique=True),
    Index("ix_bot_tokens_player_id", "player_id"),
)


# -- analyses (perudo.server.analysis); revision 0006 -----------------------------------------

analyses_t = Table(
    "analyses",
    metadata,
    # One analysis of a finished game for one viewer (-1: the public), shared by every process
    # of the multi-process mode: the process that inserts the row runs it (``owner``), writes
    # its progress and then its result here; a row whose owner stopped beating is taken over
    # (perudo.server.analysis).
    Column("game_key", String(32), nullable=False),
    Column("viewer", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("owner", String(64), nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("game_key", "viewer", name="analyses_pk"),
)


# -- mail: confirmed addresses and mailed tokens (perudo.server.accounts.recovery); revision 0008

emails_t = Table(
    "emails",
    metadata,
    # A player's e-mail address, written only once a mailed link confirmed it.
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("address", String(254), nullable=False),
    # The address as looked up (case folded).
    Column("address_key", String(254), nullable=False),
    Column("confirmed_at", Float, nullable=False),
    Index("ix_emails_address_key", "address_key"),
)

mail_tokens_t = Table(
    "mail_tokens",
    metadata,
    # The SHA-256 of a mailed token (the token itself is never stored): ``confirm`` an
    # address or ``reset`` a password; used once, then deleted.
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("purpose", String(8), nullable=False),
    Column("address", String(254), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("ix_mail_tokens_player_id", "player_id"),
)


# -- friends and Web Push (perudo.server.social); revisions 0009 and 0010 -------------------

follows_t = Table(
    "follows",
    metadata,
    # ``player_id`` follows ``followed_id`` (one-way, as lichess's).
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("followed_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "followed_id", name="follows_pk"),
    Index("ix_follows_followed_id", "followed_id"),
)

blocks_t = Table(
    "blocks",
    metadata,
    # ``player_id`` blocks ``blocked_id``: no invitation from them, no seat at a table where
    # ``player_id`` sits, none of their chat or reactions on ``player_id``'s pages.
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("blocked_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "blocked_id", name="blocks_pk"),
    Index("ix_blocks_blocked_id", "blocked_id"),
)

invitations_t = Table(
    "invitations",
    metadata,
    # An invitation to a table, by name: ``pending`` until accepted, declined or expired.
    Column("id", String(32), primary_key=True),
    Column("from_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("to_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("table_name", String(80), nullable=False),
    Column("state", String(12), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_invitations_to_id", "to_id"),
)

push_subscriptions_t = Table(
    "push_subscriptions",
    metadata,
    # One device's Web Push subscription (its push service's endpoint and keys) for one
    # player, and the kinds of notice it opted into (comma-separated).
    Column("endpoint", String(1000), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("device", String(64), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("kinds", String(100), nullable=False),
    # The language its notices are written in (the page's, when it subscribed).
    Column("lang", String(8), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_push_subscriptions_player_id", "player_id"),
)

server_keys_t = Table(
    "server_keys",
    metadata,
    # Keys the server makes once and keeps (``vapid``: its Web Push signing key, PEM).
    Column("name", String(40), primary_key=True),
    Column("value", Text, nullable=False),
    Column("at", Float, nullable=False),
)


SCHEMA_LOCK = 0x70657275646F
"""PostgreSQL advisory lock held while a process makes or upgrades the schema."""

TABLES_LOCK = SCHEMA_LOCK + 1
"""PostgreSQL advisory lock held while a new table is counted against the site's limit and
written (:meth:`Store.create_table`)."""
