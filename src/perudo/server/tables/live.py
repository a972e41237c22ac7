"""The live table: its state, its connections, its seats, and the one action path.

Every move, a person's, a bot's or chance's, goes through :meth:`LiveTable._apply`: the core
(:func:`perudo.core.apply`) checks it and refuses an illegal one with the rule it breaks, the
store appends it to the game's action log, and only then is the new state kept and broadcast.

Every event gets the table's next *version*; each client receives only the events
:func:`perudo.core.visible_to` lets its seat see (P-70) and its seat's
``view(state, seat).to_json()``. A reconnecting client sends the last version it saw and gets
the events it missed, filtered for its seat, or a fresh snapshot. What each client is sent is
drawn in :mod:`.presenter`; what moves on its own (chance, bots, timers) is the table's
:class:`.schedule.Scheduler`; its chat is its :class:`.chat.TableChat`; who sits where (the
host role, seat tokens and transfers included) is its :class:`.seating.Seating`, which
changes the seats and says how to undo it, while the table stores them and tells everyone.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Literal

import orjson

from perudo.core import (
    Bid,
    Calza,
    Concede,
    Dudo,
    GameState,
    IllegalActionError,
    NotationError,
    RoundResolved,
    RuleSet,
    SystemDice,
    answers,
    parse_action,
    roll_off,
    start_game,
)
from perudo.core import apply as apply_action
from perudo.core.events import event_to_json

from .. import protocol as p
from ..connection import Connection, TokenBucket
from ..hosting import qr_svg
from ..settings import Settings
from ..store import Store, StoreError, TableRow
from . import presenter, rated
from .backlog import Backlog
from .chat import TableChat
from .config import Seat, TableConfig, TableError, server_texts, store_refused
from .reactions import TableReactions
from .schedule import Scheduler
from .seating import Seating

__all__ = ["LiveTable"]

log = logging.getLogger("perudo.server")

CLOSED = "this table waited too long with nobody at it and was closed; create a new one"
DESERTED = "everyone left this table before its game, so it was closed; create a new one"
"""Why a closed table refuses (``table_closed``)."""


class LiveTable:
    """One table in memory. Create a new one with the constructor, or :meth:`restore` one.

    It owns its :attr:`seating` (the seats, the host, transfers), its :attr:`schedule` (what
    moves on its own: chance, bots, timers), its :attr:`chat` and its :attr:`backlog` (recent
    items for reconnecting clients).
    """

    def __init__(
        self,
        table_id: str,
        name: str,
        config: TableConfig,
        private: bool,
        store: Store,
        settings: Settings,
        on_change: Callable[[LiveTable], None] | None = None,
    ) -> None:
        self.id = table_id
        self.name = name
        self.config = config
        self.private = private
        self.store = store
        self.settings = settings
        self.on_change = on_change
        self.status: Literal["open", "playing", "finished"] = "open"
        self.seating = Seating(config.seats, settings.drop_grace, self._host_gone)
        """Who sits where, the host role, the seat tokens and transfers."""
        self.version = 0
        self.state_version = 0
        """The version at which the game state last changed (older actions are stale)."""
        self.state: GameState | None = None
        self.game_id: int | None = None
        """The current (or last) game's row in the store; never sent to anyone."""
        self.game_key: str | None = None
        """The game's unguessable id: the only one clients see (``game_id`` on the wire)."""
        self.names: list[str] = []
        self.knocked_out: list[tuple[int, ...]] = []
        """The seats knocked out so far in the game, round by round (a rated game's places)."""
        self.rating_changes: list[dict[str, Any]] | None = None
        """The last rated game's changes as the end screen shows them
        (:func:`.rated.changes_json`)."""
        self.seq = 0
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.backlog = Backlog(settings.replay_buffer)
        self.chat = TableChat(self, settings.chat_history)
        self.reactions = TableReactions(self)
        self.schedule = Scheduler(self)
        self.rng: random.Random = SystemDice()
        """Where the dice come from (the roll-off, every deal and re-roll): the system's
        generator; a test seeds it to compare the server with the other front ends."""
        self.closed = False
        self.created_at = time.time()
        """When the table was created (the lobby lists the newest first)."""
        self.creator: str | None = None
        """The client this table counts against while it waits for its first game
        (``PERUDO_TABLES_PER_CLIENT``; the lobby clears it when the table leaves the waiting
        state: :meth:`perudo.server.lobby.Lobby.changed`)."""
        self.finished_at: float | None = None
        """``time.monotonic()`` when the game ended (or when a finished table was restored)."""
        self.spectator_budget = TokenBucket(
            settings.table_spectator_rate, int(settings.table_spectator_rate * 2)
        )
        """Messages from all the table's spectators together (the players' never wait on it)."""
        self.spectator_out = presenter.SpectatorOutbox()
        """The presenter's for the spectators: what goes to them in order, the public events
        gathered for them (``PERUDO_SPECTATOR_DELAY``), their last snapshot."""
        self._flush: asyncio.TimerHandle | None = None
        self._flush_due = 0.0
        self.notice: Callable[[LiveTable, str], None] | None = None
        """Told ``turn`` when a move gives the turn to a seat, ``start`` when a game starts
        (the lobby's: Web Push to the people concerned, :mod:`perudo.server.social`)."""

    # -- building ---------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.config.rules

    @property
    def seats(self) -> list[Seat | None]:
        """The seats (:attr:`seating`'s)."""
        return self.seating.seats

    @seats.setter
    def seats(self, seats: list[Seat | None]) -> None:
        self.seating.seats = seats

    @property
    def unattended_since(self) -> float | None:
        """``time.monotonic()`` since when no seated person has a live connection (``None``
        while one has): a waiting table unattended for ``waiting_table_seconds`` expires."""
        return self.seating.unattended_since

    @unattended_since.setter
    def unattended_since(self, since: float | None) -> None:
        self.seating.unattended_since = since

    def seat_of_token(self, token: str) -> int | None:
        return self.seating.seat_of_token(token)

    @classmethod
    def restore(
        cls,
        row: TableRow,
        store: Store,
        settings: Settings,
        on_change: Callable[[LiveTable], None] | None = None,
    ) -> LiveTable:
        """Rebuild a table from the store: seats, chat, and the game as the fold of its log.

        :raises ValueError: if the stored log does not replay (naming the move and rule).
        """
        config = TableConfig.from_dict(row.config)
        table = cls(row.id, row.name, config, row.private, store, settings, on_change)
        table.created_at = row.created_at
        table.creator = row.creator
        if row.status != "open" and row.game is not None:
            size = row.game.players
        else:
            size = max([config.seats] + [s.seat + 1 for s in row.seats])
        table.seats = [None] * size
        for s in row.seats:
            if s.seat >= len(table.seats):
                table.seats.extend([None] * (s.seat + 1 - len(table.seats)))
            table.seats[s.seat] = Seat(
                "bot" if s.kind == "bot" else "human",
                s.name,
                s.token_hash,
                s.level,
                host=s.host,
                since=row.version,
                player_id=s.player_id,
                # A person's seat with no token was left during the game (nobody took it).
                vacated=s.kind != "bot" and s.token_hash is None and row.status != "open",
            )
        if row.status == "playing":
            table.status = "playing"
        elif row.status == "finished":
            table.status = "finished"
            table.finished_at = time.monotonic()
        table.version = table.state_version = table.backlog.floor = row.version
        table.chat.lines.extend(row.chat)
        if row.game is not None and table.status != "open":
            game = row.game
            table.state = game.record().replay()
            if config.rated:
                table.knocked_out = rated.replay(game.record())[1]
            table.game_id = game.id
            table.game_key = game.key
            table.names = list(game.names)
            table.seq = len(game.moves)
        return table

    async def resume(self, absent: Mapping[int, float | None] | None = None) -> None:
        """After a restart: finish what a crash interrupted and start the drivers again.

        ``absent``: after a takeover, the seats whose person had no live connection at the
        process that drove the table before (:meth:`Scheduler.absent`): one away is away here
        at once (its stand-in plays), one dropped keeps the rest of its grace; the others'
        grace starts now (their pages reconnect meanwhile). A takeover no longer restarts the
        grace of people already away (a table whose seat to act was an away person's stalled
        a whole drop grace after the takeover)."""
        absent = absent or {}
        await self._mark_bot_accounts()
        async with self.lock:
            if self.status == "finished":
                await self._load_rating_changes()
            if self.status == "playing" and self.state is not None:
                # A game over in its log but not marked finished is finished by the schedule.
                for i, s in enumerate(self.seats):
                    if s is not None and s.kind == "human":
                        if i in absent and absent[i] is None:
                            s.away = True
                        else:
                            self.schedule.start_drop_timer(i, absent.get(i))
                self.schedule.plan()

    async def _mark_bot_accounts(self) -> None:
        """After a restart: mark the seats of bot accounts (the store keeps who is one, not
        each seat)."""
        ids = [s.player_id for s in self.seats if s is not None and s.player_id]
        if not ids:
            return
        try:
            found = await self.store.bot_ids(ids)
        except StoreError as err:
            log.error("table %s: its bot accounts could not be read: %s", self.id, err)
            return
        for s in self.seats:
            if s is not None and s.player_id in found:
                s.bot_account = True

    # -- information ------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The table as the lobby and the page see it (no hidden information)."""
        st = self.state
        remaining = self.schedule.remaining()
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "preset": self.config.preset,
            "rules": self.rules.to_dict(),
            "memory": self.config.memory,
            "turn_seconds": self.config.turn_seconds,
            "vacated": self.config.vacated,
            "odds": self.config.odds,
            "odds_shown": self.odds_shown(),
            "show_hands": self.config.show_hands,
            "seat_count": len(self.seats),
            "private": self.private,
            "seats": [None if s is None else s.info(i) for i, s in enumerate(self.seats)],
            "host": self.host_seat(),
            "spectators": self.spectators(),
            "game_id": self.game_key,
            "to_act": None if st is None else st.to_act,
            "turn_remaining": remaining,
            "winner": None if st is None else st.winner,
            "invite": f"/t/{self.id}",
            # Absolute on PERUDO_PUBLIC_URL; else None and the page puts its own origin first.
            "invite_url": (
                None
                if self.settings.public_url is None
                else self.settings.absolute(f"/t/{self.id}")
            ),
            "rated": self.config.rated,
            "rating_changes": self.rating_changes,
        }

    def lobby_entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "preset": self.config.preset,
            "dice": self.rules.dice_per_player,
            "seat_count": len(self.seats),
            "taken": sum(1 for s in self.seats if s is not None),
            "players": [s.name for s in self.seats if s is not None],
            # Aligned with ``players``: "level", a bot of the house; "account", a bot account
            # playing through the bot API (docs/bot-api.md); None, a person.
            "bots": [
                "account" if s.bot_account else "level" if s.kind == "bot" else None
                for s in self.seats
                if s is not None
            ],
            "invite": f"/t/{self.id}",
        }

    def snapshot(self, seat: int | None) -> str:
        return presenter.snapshot(self, seat)

    def changed(self, delay: float = 0.0) -> None:
        """The seats, presence or status changed: tell everyone at the table (and the lobby).

        With a ``delay`` (who connected or left), the message waits that long and carries
        every change made meanwhile: a crowd arriving costs one message per client, not one
        per client per arrival. Without, it goes now (and carries any change waiting).
        """
        if delay > 0:
            loop = asyncio.get_running_loop()
            due = loop.time() + delay
            if self._flush is not None:
                if self._flush_due <= due:
                    return
                self._flush.cancel()
            self._flush_due = due
            self._flush = loop.call_at(due, self._flush_now)
            return
        self._flush_now()

    def _flush_now(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if self.closed:
            return
        presenter.broadcast_table(self)
        if self.on_change is not None:
            self.on_change(self)

    def _may_catch_up(self, seat: int | None, last: int) -> bool:
        """Whether a client of ``seat`` may be sent the items after version ``last`` (else it
        gets a snapshot): the backlog must still hold them all, and they must all be from
        the time the seat's current occupant held it (P-70: a newcomer in a seat never gets
        what was dealt to the one before)."""
        if not self.backlog.covers(last, self.version):
            return False
        s = None if seat is None else self.seats[seat]
        return s is None or last >= s.since

    def _error(self, conn: Connection, code: str, message: str) -> None:
        conn.send(presenter.error(code, message, self.version))

    # -- connections ------------------------------------------------------------------------

    def spectators(self) -> int:
        """How many connections watch without a seat."""
        return sum(1 for c in self.conns if c.seat is None)

    async def hello(self, conn: Connection, msg: p.Hello) -> None:
        """Attach a connection: as its seat if the token is right, else as a spectator.

        A spectator's hello (no token, no transfer link, no seat held) awaits nothing, so it
        takes no lock: a crowd of spectators arriving at once never queues ahead of a
        player's move on the table's lock. What it reads is consistent all the same: a move
        changes the state, version and backlog only after its write, in one step.
        """
        if not msg.token and not msg.transfer and conn.seat is None:
            if self.closed:
                self._error(conn, "table_closed", CLOSED)
                conn.send_close(1000)
                return
            cap = self.settings.spectators_per_table
            if conn not in self.conns and self.spectators() >= cap:
                self._error(
                    conn,
                    "too_many_spectators",
                    f"this table has its {cap} spectators already: try again later",
                )
                conn.send_close(1000)
                return
            conn.greeted = True
            self._attach(conn, None, msg.last_version)
            return
        async with self.lock:
            if self.closed:
                self._error(conn, "table_closed", CLOSED)
                conn.send_close(1000)
                return
            seat: int | None = None
            if msg.transfer:
                seat = await self._take_transfer(conn, msg.transfer)
                if seat is None and conn.greeted:
                    seat = conn.seat  # a refused link takes nothing away from a seated device
            elif msg.token:
                seat = self.seat_of_token(msg.token)
                if seat is None:
                    self._error(
                        conn,
                        "bad_token",
                        "that seat token is not valid at this table: you are watching as a "
                        "spectator",
                    )
                elif not self._bot_holds(conn, seat):
                    seat = None
            kept = conn.greeted and seat is not None and seat == conn.seat
            if conn.greeted and conn.seat is not None and not kept:
                self._release_seat(conn.seat)
            conn.seat = seat
            if seat is not None and not kept:
                self.seating.claim(seat)
            conn.greeted = True
            self._attach(conn, seat, None if msg.transfer else msg.last_version)

    def _bot_holds(self, conn: Connection, seat: int) -> bool:
        """Whether ``conn`` may hold ``seat`` as a bot or person (docs/bot-api.md): a bot
        account's seat only on a socket opened with one of its tokens, and such a socket no
        other seat (a bot never plays a person's seat as if it were one). Refused: said, and
        the connection watches as a spectator."""
        s = self.seats[seat]
        assert s is not None
        if s.bot_account and conn.bot_account != s.player_id:
            self._error(
                conn,
                "bot_seat",
                "this seat is a bot account's: only a socket opened with one of its tokens "
                "(Authorization: Bearer) holds it; you are watching as a spectator",
            )
            return False
        if conn.bot_account is not None and not (s.bot_account and s.player_id == conn.bot_account):
            self._error(
                conn,
                "bot_seat",
                "a bot's socket holds only its own account's seats: you are watching as a "
                "spectator",
            )
            return False
        return True

    def _attach(self, conn: Connection, seat: int | None, last: int | None) -> None:
        """Add ``conn`` (greeted, as ``seat``) to the table and send it what it missed since
        version ``last`` or a snapshot."""
        presenter.flush_spectators(self)
        self.conns.add(conn)
        if last is not None and self._may_catch_up(seat, last):
            presenter.missed(self, conn, last)
        else:
            presenter.to_one(self, conn, presenter.snapshot(self, seat, conn.hidden))
        self.changed(self._presence_delay(seat))
        self.schedule.plan()

    def _presence_delay(self, seat: int | None) -> float:
        """How long the table waits to tell everyone that a connection of ``seat`` came or
        went: a seat's presence soon (``presence_delay``); a spectator's only changes the
        head count, told with the next change or after ``spectator_count_delay``, so that
        a crowd coming and going costs its members few table messages."""
        s = self.settings
        return (
            s.presence_delay if seat is not None else max(s.presence_delay, s.spectator_count_delay)
        )

    async def sync(self, conn: Connection, last: int) -> None:
        """Catch ``conn`` up from version ``last``: the events it missed and the table as it is
        now (seats, status: a lost ``table`` message is made good too), or a snapshot when the
        gap is older than the buffer."""
        async with self.lock:
            presenter.flush_spectators(self)
            if self._may_catch_up(conn.seat, last):
                presenter.missed(self, conn, last)
                presenter.to_one(self, conn, presenter.table_message(self))
            else:
                presenter.to_one(self, conn, presenter.snapshot(self, conn.seat, conn.hidden))

    def _release_seat(self, seat: int) -> None:
        if self.seating.release(seat, self.status == "playing", self.closed):
            self.schedule.start_drop_timer(seat)

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            if conn not in self.conns:
                return
            self.conns.discard(conn)
            if conn.seat is not None:
                self._release_seat(conn.seat)
            if not self.closed:
                self.changed(self._presence_delay(conn.seat))

    async def back(self, conn: Connection) -> None:
        """The person at this seat is back: the stand-in bot stops playing for them."""
        async with self.lock:
            if conn.seat is None:
                raise TableError("no_seat", "spectators have no seat to come back to")
            s = self.seats[conn.seat]
            if s is not None and s.away:
                s.away = False
                s.bot = None
                self.changed()
                self.schedule.plan()

    # -- seats before the game --------------------------------------------------------------

    def _require_seated(self, conn: Connection) -> int:
        return self.seating.require_seated(conn.seat)

    def _require_host(self, conn: Connection) -> int:
        return self.seating.require_host(conn.seat)

    def _require_open(self, what: str) -> None:
        if self.closed:
            raise TableError("table_closed", CLOSED)
        if self.status != "open":
            raise TableError("not_now", f"{what} only before the game starts (it is {self.status})")

    async def _save_seats(self, status: str | None = None) -> None:
        version = self.version + 1
        await self.store.set_seats(self.id, self.seating.rows(), version, status)
        self.version = version
        self.backlog.remember(version, None, "table", "{}")
        if self.status == "playing":
            await self._remember_holders()

    async def _remember_holders(self) -> None:
        """Remember the device tokens holding the people's seats in this game once a seat moved
        to another device during it (those at its start are written with the game,
        :meth:`Store.start_game`): a seat's own analysis is theirs,
        whoever holds the seat later (:meth:`Store.played_seat`). A refused
        write is logged; the game goes on."""
        if self.game_id is None:
            return
        holders = [
            (i, s.token_hash)
            for i, s in enumerate(self.seats)
            if s is not None and s.kind == "human" and s.token_hash is not None
        ]
        try:
            await self.store.remember_seat_tokens(self.game_id, holders)
        except StoreError as err:
            log.error("the store refused the seat holders of table %s: %s", self.id, err)

    async def join(
        self,
        name: str,
        player_id: int | None = None,
        bot_account: bool = False,
        blocked_by: frozenset[int] = frozenset(),
    ) -> tuple[int, str]:
        """Take the first empty seat under ``name`` (``player_id``: the signed-in person's
        account, or the bot account's: ``bot_account``; the accounts ``blocked_by`` block it:
        none of them may sit here); returns (seat, token). A bot account that sits here
        already gets its seat back, with a new token, during a game too."""
        async with self.lock:
            if self.closed:
                raise TableError("table_closed", CLOSED)
            back = (
                None
                if not bot_account or player_id is None
                else (self.seating.bot_account_back(player_id))
            )
            if back is not None:
                seat, token, undo = back
                await self._save_or_undo(undo)
                return seat, token
            self._require_open("joining")
            if blocked_by and any(s is not None and s.player_id in blocked_by for s in self.seats):
                raise TableError(
                    "blocked",
                    "a player at this table has blocked you: you cannot sit here",
                    texts=server_texts("blocked"),
                )
            if not self.seating.free():
                raise TableError("table_full", f"all {len(self.seats)} seats are taken")
            self.check_rated_seat(player_id, bot_account)
            seat, token, undo = self.seating.sit(name, player_id, bot_account)
            await self._save_or_undo(undo)
            self.seats[seat].since = self.version  # type: ignore[union-attr]
            self.changed()
            return seat, token

    def holds(self, player_id: int) -> bool:
        """Whether the account ``player_id`` holds a seat here."""
        return self.seating.holds(player_id)

    def check_rated_seat(self, player_id: int | None, bot_account: bool = False) -> None:
        """:meth:`Seating.check_rated_seat <.seating.Seating.check_rated_seat>` here."""
        self.seating.check_rated_seat(self.config, player_id, bot_account)

    async def add_bot(self, conn: Connection, level: str, seat: int | None) -> None:
        async with self.lock:
            self._require_host(conn)
            self._require_open("adding a bot")
            free = [i for i, s in enumerate(self.seats) if s is None]
            if seat is not None:
                if seat >= len(self.seats):
                    raise TableError("bad_seat", f"there is no seat {seat} at this table")
                if self.seats[seat] is not None:
                    raise TableError("bad_seat", f"seat {seat} is taken")
                free = [seat]
            if not free:
                raise TableError("table_full", f"all {len(self.seats)} seats are taken")
            await self._seat_bots(free[:1], level)

    async def fill_bots(self, conn: Connection | None, level: str) -> None:
        """Seat a bot of ``level`` in every empty seat: the host's request, or the server's
        (``conn`` ``None``: Play now filling a table, :mod:`perudo.server.play`)."""
        async with self.lock:
            if conn is not None:
                self._require_host(conn)
            self._require_open("adding bots")
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise TableError("table_full", f"all {len(self.seats)} seats are taken")
            await self._seat_bots(free, level)

    async def _seat_bots(self, seats: list[int], level: str) -> None:
        if self.config.rated:
            raise TableError(
                "rated_no_bots",
                "a rated table seats no bots: a rated game is between signed-in people",
            )
        await self._save_or_undo(self.seating.seat_bots(seats, level))
        self.changed()

    async def remove_seat(self, conn: Connection, seat: int) -> None:
        """The host removes a bot before the game, or a person who is away (no live
        connection) at any time: their seat is emptied, or during a game a bot takes it."""
        async with self.lock:
            me = self._require_host(conn)
            s = self.seats[seat] if seat < len(self.seats) else None
            if s is None:
                raise TableError("bad_seat", f"seat {seat} is empty")
            if seat == me:
                raise TableError("bad_seat", "to give up your own seat, leave the table")
            if s.kind == "bot":
                if self.status == "playing":
                    raise TableError("not_now", "a bot plays its seat to the end of the game")
            elif s.connections > 0:
                raise TableError(
                    "not_absent",
                    f"{s.name} is at the table: only a player who is away can be removed",
                )
            await self.vacate(seat, "removed")

    async def leave(self, conn: Connection) -> None:
        """Give up one's seat: emptied before or after a game; during a game a bot plays it
        to the end. A leaving host passes the role on."""
        async with self.lock:
            seat = self._require_seated(conn)
            await self.vacate(seat, "left")

    # -- seats that follow people ------------------------------------------------------------

    def odds_shown(self) -> bool:
        """Whether the seats are sent the odds hint: the table's ``odds`` setting (``auto``:
        while at most one person sits here), never in memory mode (P-40: the odds would tell
        the total of dice in play)."""
        if self.config.memory or self.config.odds == "off":
            return False
        return self.config.odds == "on" or self.seating.people() <= 1

    def host_seat(self) -> int | None:
        """The seat of the table's host (``None``: nobody holds the role, e.g. bots only)."""
        return self.seating.host_seat()

    async def _host_gone(self, who: Seat) -> None:
        """The host has had no live connection for the drop grace: the role passes to the next
        person who is here (if nobody is, it stays until the host comes back or leaves)."""
        async with self.lock:
            if self.closed:
                self.seating.host_timer = None
                return
            undo = self.seating.heir_of(who)
            if undo is None:
                return
            await self._save_or_undo(undo)
            self.changed()

    async def _save_or_undo(self, undo: Callable[[], None]) -> None:
        try:
            await self._save_seats()
        except StoreError as err:
            undo()
            raise store_refused(err, f"the seats of table {self.id}") from None

    async def set_options(self, conn: Connection, options: dict[str, Any]) -> None:
        """The host changes the table's own options before the game starts (the odds hint,
        the turn timer, who takes a leaver's seat, memory mode: :meth:`TableConfig.with_options`);
        everyone at the table gets the table again. Nothing changes if the store refuses."""
        async with self.lock:
            self._require_host(conn)
            self._require_open("changing the table's options")
            try:
                config = self.config.with_options(
                    **options, min_turn_seconds=self.settings.min_turn_seconds
                )
            except ValueError as err:
                raise TableError("bad_options", str(err)) from None
            if config == self.config:
                return
            version = self.version + 1
            try:
                await self.store.set_config(self.id, config.to_dict(), version)
            except StoreError as err:
                raise store_refused(err, f"the config of table {self.id}") from None
            self.config = config
            self.version = version
            self.backlog.remember(version, None, "table", "{}")
            self.changed()

    async def make_host(self, conn: Connection, seat: int) -> None:
        """The host hands the role to the person in ``seat``."""
        async with self.lock:
            undo = self.seating.hand_host(self._require_host(conn), seat)
            if undo is None:
                return
            await self._save_or_undo(undo)
            self.seating.watch_host()
            self.changed()

    async def vacate(
        self, seat: int, reason: Literal["left", "removed"], concede: bool = False
    ) -> None:
        """The person leaves ``seat`` (or the host removes them). During a game, as the table
        chose: a bot plays the seat to the end (the person's name stays on it), or nobody: the
        person concedes (P-24, through the one action path) and the seat stays out; with
        ``concede`` (a forfeit), they concede whatever the table chose. Before or after a game
        the seat is emptied. The seat's token dies and its connections become spectators."""
        playing = self.status == "playing" and self.state is not None
        in_game = playing and self.state is not None and self.state.dice_counts[seat] > 0
        held = self.seats[seat]
        # A bot account's seat is never played by a stand-in (docs/bot-api.md): it concedes.
        concede = concede or self.config.vacated == "nobody" or bool(held and held.bot_account)
        nobody = playing and (concede or not in_game)
        undo = self.seating.vacate(seat, playing, standin=not nobody)

        # The seats are stored first: a concession (below) never stands while the seat keeps
        # its person; a refused concession puts the seats back.
        await self._save_or_undo(undo)
        if in_game and concede:
            try:
                await self.apply_move(seat, Concede())
            except TableError:
                undo()
                try:
                    await self._save_seats()
                except StoreError as err:
                    log.error(
                        "table %s: seats not restored after a refused concession: %s", self.id, err
                    )
                raise
        self.seating.gone(seat)
        for c in list(self.conns):
            if c.seat == seat:
                c.seat = None
                c.send(p.SeatChanged(seat=None, reason=reason).model_dump_json())
                c.send(self.snapshot(None))
        self.changed()
        self.schedule.plan()

    async def transfer_seat(self, conn: Connection, base: str) -> None:
        """A private, expiring link that moves the asker's seat to another device, sent to
        this connection only (never broadcast, never stored: only its hash is kept, in
        memory)."""
        async with self.lock:
            seat = self._require_seated(conn)
            seconds = self.settings.transfer_seconds
            token = self.seating.new_transfer(seat, seconds)
            path = f"/t/{self.id}#transfer={token}"
            url = self.settings.absolute(path, base)
            msg = p.SeatTransfer(seat=seat, path=path, url=url, qr=qr_svg(url), expires_in=seconds)
            conn.send(msg.model_dump_json())

    async def _take_transfer(self, conn: Connection, transfer: str) -> int | None:
        """``conn`` presents a transfer token (under the lock): the seat moves to it with a
        new token; the seat's other connections become spectators. ``None`` (and an error to
        ``conn``) when the token is unknown, used or expired."""
        moved = self.seating.take_transfer(transfer)
        if moved is None:
            now_what = (
                "you keep your seat"
                if conn.greeted and conn.seat is not None
                else "you are watching as a spectator"
            )
            self._error(
                conn,
                "bad_transfer",
                "that link to move a seat has expired or was already used: ask for a new one "
                f"on the device that holds the seat; {now_what}",
            )
            return None
        seat, token, undo = moved
        await self._save_or_undo(undo)
        s = self.seats[seat]
        assert s is not None
        for c in list(self.conns):
            if c.seat == seat and c is not conn:
                c.seat = None
                s.connections = max(0, s.connections - 1)
                c.send(p.SeatChanged(seat=None, reason="transferred_out").model_dump_json())
                c.send(self.snapshot(None))
        conn.send(p.SeatChanged(seat=seat, token=token, reason="transferred_in").model_dump_json())
        return seat

    # -- the game ---------------------------------------------------------------------------

    async def start(self, conn: Connection | None) -> None:
        """Start a game with the seated players, in seat order (empty seats dropped)."""
        async with self.lock:
            if conn is not None:
                self._require_host(conn)
            self._require_open("starting")
            order = [i for i, s in enumerate(self.seats) if s is not None]
            rules = self.rules
            if not rules.min_players <= len(order) <= rules.max_players:
                raise TableError(
                    "not_ready",
                    f"{len(order)} seated: these rules need {rules.min_players} to "
                    f"{rules.max_players} players (P-1); add bots or wait for friends",
                )
            seats = [self.seats[i] for i in order]
            rolloff = roll_off(rules, len(order), self.rng)
            state = start_game(rules, len(order), rolloff)
            version = self.version + 1
            names = [s.name for s in seats if s is not None]
            try:
                game_id, game_key = await self.store.start_game(
                    self.id,
                    rules.to_dict(),
                    names,
                    rolloff,
                    [s.row(i) for i, s in enumerate(seats) if s is not None],
                    version,
                    players=rated.players(seats),
                    rated=self.config.rated,
                    variant=self.config.preset,
                )
            except StoreError as err:
                raise store_refused(err, f"the new game of table {self.id}") from None
            remap = {old: new for new, old in enumerate(order)}
            self.seating.start(order)
            for c in self.conns:
                if c.seat is not None:
                    c.seat = remap.get(c.seat)
            self.version = self.state_version = version
            # The backlog belongs to one game and its seats (renumbered just now): nothing
            # from before reaches a client catching up, only a snapshot (P-70).
            self.backlog.reset(version)
            self.backlog.remember(version, None, "table", "{}")
            self.state, self.game_id, self.names, self.seq = state, game_id, names, 0
            self.knocked_out = []
            self.game_key = game_key
            self.status = "playing"
            self.schedule.new_game()
            presenter.send_each(self, self.snapshot)
            if self.notice is not None:
                self.notice(self, "start")
            self.changed()
            for i, s in enumerate(self.seats):
                if s is not None:
                    s.since = version
                    # A person with no live connection (who took the seat over HTTP and never
                    # came, or has gone) gets a stand-in after the drop grace.
                    self.schedule.start_drop_timer(i)
            try:
                await self.schedule.chance()
            except TableError as err:
                # The game has started (stored); the deal is tried again after a back-off.
                self.schedule.retry("the deal", err)

    async def rematch(self, conn: Connection) -> None:
        async with self.lock:
            self._require_seated(conn)
            if self.status != "finished":
                raise TableError("not_now", "a rematch only after the game is over")
            version = self.version + 1
            # Seats left during the game (a stand-in or nobody kept them) are empty now.
            seats = self.seating.without_vacated()
            try:
                await self.store.set_seats(
                    self.id,
                    [s.row(i) for i, s in enumerate(seats) if s is not None],
                    version,
                    "open",
                )
            except StoreError as err:
                raise store_refused(err, f"the game of table {self.id}") from None
            self.seating.reopen(seats)
            self.version = self.state_version = version
            self.backlog.remember(version, None, "table", "{}")
            self.status = "open"
            self.finished_at = None
            self.state, self.game_id, self.game_key, self.seq = None, None, None, 0
            self.rating_changes = None
            presenter.send_each(self, self.snapshot)
            self.changed()

    async def act(
        self,
        conn: Connection,
        text: str,
        version: int,
        on: tuple[int, str | None] | None = None,
    ) -> None:
        """A person's action for their seat, checked by the core.

        ``on`` is the round and standing bid the action was chosen on (:class:`Act`): unless
        that bid still stands (:func:`perudo.core.answers`) the action is refused
        (``bid_changed``), and a dudo or a calza must name it (``old_page``): an out-of-turn
        calza tapped on one bid is never judged on a raise that arrived meanwhile (P-50)."""
        async with self.lock:
            seat = self._require_seated(conn)
            if self.state is None or self.status != "playing":
                raise TableError("not_now", f"no game is being played (the table is {self.status})")
            try:
                action = parse_action(text)
            except NotationError as err:
                raise TableError("notation", str(err), err) from None
            if isinstance(action, Concede):
                raise TableError(
                    "illegal",
                    "to give up the game, leave your seat (the table decides whether a bot "
                    "plays it or you concede)",
                )
            if not _is_player_action(action):
                raise TableError("illegal", f"{text!r} is a chance move; players cannot take it")
            self._check_answers(action, on)
            if version < self.state_version or version > self.version:
                raise TableError(
                    "stale",
                    f"stale version {version}: the game changed at version "
                    f"{self.state_version}; look again and act on the current bid",
                )
            s = self.seats[seat]
            if s is not None and s.away:
                s.away = False
                s.bot = None
                self.changed()
            await self.apply_move(seat, action)

    def _check_answers(self, action: Any, on: tuple[int, str | None] | None) -> None:
        """Refuse ``action`` unless the bid it answers (``on``) still stands; a dudo or a
        calza must name it."""
        assert self.state is not None
        if on is None:
            if isinstance(action, (Dudo, Calza)):
                raise TableError(
                    "old_page",
                    f"{action} names no bid: an act's `on` is [round, bid], the bid it answers "
                    "(this page is older than that; reload it)",
                )
            return
        round_, said = on
        try:
            bid = None if said is None else parse_action(said)
        except NotationError as err:
            raise TableError("notation", f"on: {err}", err) from None
        if not (bid is None or isinstance(bid, Bid)):
            raise TableError("notation", f"on: {said!r} is not a bid")
        if not answers(self.state, round_, bid):
            now = self.state.bid if self.state.bid is not None else "no bid"
            raise TableError(
                "bid_changed",
                f"{action} answers {said or 'no bid'} in round {round_}, which no longer stands "
                f"(now {now} in round {self.state.round}); look again (P-11, P-50)",
            )

    async def apply_move(self, seat: int | None, action: Any) -> None:
        """Apply one move: core check, durable write, then state, broadcast and drivers.

        :raises TableError: for an illegal move (the core's message, naming the rule) or a
            failed write; nothing changed then.
        """
        assert self.state is not None and self.game_id is not None
        before = self.state.to_act
        try:
            state, events = apply_action(self.state, action, seat)
        except IllegalActionError as err:
            raise TableError("illegal", str(err), err) from None
        first = self.version + 1
        last = self.version + max(1, len(events))
        moves = [(seat, str(action))]
        out = self.knocked_out + rated.knocked_out(events)
        try:
            if state.is_over:
                # The last move and the game's end (and a rated game's ratings) in one
                # write: never a game over in the log (or in memory) while the table plays.
                await self.store.finish_game(
                    self.id,
                    self.game_id,
                    state.winner,
                    last,
                    moves,
                    self.seq,
                    **self._rating(state, out),
                )
            else:
                await self.store.append_actions(self.game_id, self.seq, moves, last, self.id)
        except StoreError as err:
            raise store_refused(err, f"the moves of table {self.id}") from None
        self.schedule.failures = 0
        self.state = state
        self.knocked_out = out
        self.seq += 1
        self.version = self.state_version = last
        batch: list[tuple[int | None, dict[str, Any]]] = []
        for i, e in enumerate(events):
            data = event_to_json(e)
            data["version"] = first + i
            batch.append((e.audience, data))
            self.backlog.remember(first + i, e.audience, "event", orjson.dumps(data).decode())
        resolved = sum(1 for e in events if isinstance(e, RoundResolved))
        self.schedule.last_resolved = resolved > 0
        if state.is_over:
            self._finished()
            await self._load_rating_changes()
        self.schedule.plan()
        presenter.broadcast_events(self, batch, resolved)
        if state.is_over:
            self.changed()
        elif self.notice is not None and (state.to_act != before or resolved):
            self.notice(self, "turn")

    async def finish(self) -> None:
        """Mark a game that is over (its last move logged before a crash) finished (under the
        lock: the scheduler's step).

        :raises TableError: ``store_error`` when the store refuses; nothing changed then.
        """
        assert self.state is not None and self.game_id is not None
        version = self.version
        try:
            await self.store.finish_game(
                self.id,
                self.game_id,
                self.state.winner,
                version,
                **self._rating(self.state, self.knocked_out),
            )
        except StoreError as err:
            raise store_refused(err, f"the finished game of table {self.id}") from None
        self._finished()
        await self._load_rating_changes()

    def _rating(self, state: GameState, out: list[tuple[int, ...]]) -> dict[str, Any]:
        """What :meth:`Store.finish_game` needs to rate the game ``state`` ended: each seat's
        place and the variant (nothing for an unrated table's game)."""
        if not self.config.rated:
            return {}
        return {"places": rated.places(state, out), "variant": self.config.preset}

    async def _load_rating_changes(self) -> None:
        """Read the finished rated game's changes for the end screen (a failed read leaves
        them out; the ratings stand, on the profiles)."""
        if not self.config.rated or self.game_id is None:
            return
        try:
            self.rating_changes = rated.changes_json(await self.store.rating_changes(self.game_id))
        except StoreError as err:
            log.warning("table %s: the game's rating changes not read: %s", self.id, err)

    def _finished(self) -> None:
        """The game is over and stored so: the table is finished."""
        self.status = "finished"
        self.finished_at = time.monotonic()
        self.seating.stop_drop_timers()

    # -- shutting down ----------------------------------------------------------------------

    def expire(self, code: str = "table_closed", message: str = CLOSED) -> None:
        """The lobby let this waiting table go (nobody attended it, or everyone left it): its
        spectators are told why (``code``, ``message``) and disconnected."""
        self.closed = True
        self.schedule.cancel()
        text = presenter.error(code, message, self.version)
        for c in self.conns:
            c.send(text)
            c.send_close(1000)

    async def close(self) -> None:
        presenter.flush_spectators(self)
        self.closed = True
        pump = self.spectator_out.task
        if pump is not None:
            pump.cancel()
        self.seating.stop_timers()
        await self.schedule.close()


def _is_player_action(action: object) -> bool:
    from perudo.core import ChoosePalifico, Pass, SetAside

    return isinstance(action, (Bid, ChoosePalifico, Dudo, Calza, Pass, SetAside))
