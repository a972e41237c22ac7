"""A live table: its seats, its game, its connections, and the one worker that changes them.

Everything that changes a table happens under its :attr:`LiveTable.lock`, one change at a
time: a person's action, a bot's, a chance roll (a new round's ``Deal``, a V-9 ``Reroll``),
a seat taken, a chat line. The server decides no rule: an action goes through
:func:`perudo.core.apply`, which refuses an illegal one with the rule it breaks, and the state
it returns is kept only after the move is durable in the store (write, then broadcast).

Every event gets the table's next *version*; each client receives only the events
:func:`perudo.core.visible_to` lets its seat see (P-70) and its seat's
``view(state, seat).to_json()``. A reconnecting client sends the last version it saw and gets
the events it missed, filtered for its seat, or a fresh snapshot.

Drivers: a bot seat is played server-side by a :class:`perudo.bots.Bot` through the seat's
view, with a pacing delay; bots are offered out-of-turn calza in
:func:`perudo.core.calza_callers` order (P-53), first yes wins. A person who runs out of turn
time or whose connection drops (after a grace period) is *away*: a stand-in bot plays the seat
until they come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from perudo.bots import Bot, make_bot
from perudo.core import (
    Calza,
    GameRecord,
    GameState,
    IllegalActionError,
    NotationError,
    Phase,
    PlayerAction,
    RoundResolved,
    RuleSet,
    calza_callers,
    chance_action,
    event_to_json,
    find_ruleset,
    parse_action,
    preset_name,
    roll_off,
    round_to_json,
    start_game,
    view,
)
from perudo.core import apply as apply_action

from . import protocol as p
from .connection import Connection
from .hint import bid_hint
from .settings import Settings
from .store import ChatRow, SeatRow, Store, StoreError, TableRow

__all__ = ["LiveTable", "Seat", "TableConfig", "TableError", "hash_token"]

log = logging.getLogger("perudo.server")

STANDIN_LEVEL = "medium"
"""The level of the bot that plays for an absent person."""


class TableError(Exception):
    """A request the table refuses; nothing changed. ``code`` is the wire error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings: the rules (a preset and its switches) and the table's own knobs."""

    preset: str
    rules: RuleSet
    seats: int
    memory: bool = False
    """P-40: per-seat dice counts are hidden from everyone but their owner."""
    turn_seconds: float = 60.0
    """0: no turn timer."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "seats": self.seats,
            "memory": self.memory,
            "turn_seconds": self.turn_seconds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            preset=str(data["preset"]),
            rules=RuleSet.from_dict(data["rules"]),
            seats=int(data["seats"]),
            memory=bool(data.get("memory", False)),
            turn_seconds=float(data.get("turn_seconds", 60.0)),
        )

    @classmethod
    def build(
        cls,
        *,
        preset: str,
        seats: int,
        calza: str | None = None,
        palifico: str | None = None,
        dice: int | None = None,
        memory: bool = False,
        turn_seconds: float = 60.0,
    ) -> TableConfig:
        """A preset with the table's switches applied.

        :raises ValueError: for an unknown preset or switches the rules refuse (naming why).
        """
        base = find_ruleset(preset)
        changes: dict[str, Any] = {}
        if calza is not None:
            changes["calza"] = calza
        if palifico is not None:
            changes["palifico"] = palifico
        if dice is not None:
            changes["dice_per_player"] = dice
        rules = replace(base, **changes) if changes else base
        if not rules.min_players <= seats <= rules.max_players:
            raise ValueError(
                f"{seats} seats: these rules take {rules.min_players} to {rules.max_players} "
                "players (P-1)"
            )
        name = preset_name(base) or preset
        return cls(name, rules, seats, memory, turn_seconds)


@dataclass(slots=True)
class Seat:
    """Who sits in a seat: a person (holding a token) or a bot."""

    kind: Literal["human", "bot"]
    name: str
    token_hash: str | None = None
    level: str | None = None
    bot: Bot | None = None
    """The bot playing this seat (a bot seat), or the stand-in (an away person)."""
    connections: int = 0
    away: bool = False
    """A person whose seat a stand-in bot plays until they return."""
    drop_timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def driver(self) -> Bot | None:
        if self.kind == "bot" or self.away:
            if self.bot is None:
                self.bot = make_bot(
                    self.level if self.kind == "bot" and self.level else STANDIN_LEVEL,
                    secrets.randbits(32),
                )
            return self.bot
        return None

    def row(self, index: int) -> SeatRow:
        return SeatRow(index, self.kind, self.name, self.token_hash, self.level)

    def info(self, index: int) -> dict[str, Any]:
        return {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "connected": self.kind == "bot" or self.connections > 0,
            "away": self.away,
        }


def _dump(msg: p.Snapshot | p.Update | p.TableMessage | p.ChatMessage | p.ErrorMessage) -> str:
    return msg.model_dump_json()


class LiveTable:
    """One table in memory. Create with :meth:`new` or :meth:`restore`."""

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
        self.seats: list[Seat | None] = [None] * config.seats
        self.version = 0
        self.state_version = 0
        """The version at which the game state last changed (older actions are stale)."""
        self.state: GameState | None = None
        self.game_id: int | None = None
        self.names: list[str] = []
        self.seq = 0
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.buffer: deque[tuple[int, int | None, str, str]] = deque(maxlen=settings.replay_buffer)
        """Recent versioned items: (version, audience seat or None, kind, payload as JSON
        text: strings are invisible to the garbage collector, which matters with many
        tables)."""
        self.buffer_floor = 0
        """Versions after this one are all in :attr:`buffer` (until it wraps)."""
        self.chat: deque[ChatRow] = deque(maxlen=max(1, settings.chat_history))
        self.driver_task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.driver_key: tuple[str, int, float] | None = None
        self.timer_key: tuple[int, int] | None = None
        self.turn_deadline: float | None = None
        self.calza_asked = -1
        self.last_resolved = False
        self.closed = False
        self.finished_at: float | None = None
        """``time.monotonic()`` when the game ended (or when a finished table was restored)."""

    # -- building ---------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.config.rules

    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for i, s in enumerate(self.seats):
            if (
                s is not None
                and s.token_hash is not None
                and hmac.compare_digest(s.token_hash, digest)
            ):
                return i
        return None

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
        if row.status != "open" and row.game is not None:
            size = row.game.players
        else:
            size = max([config.seats] + [s.seat + 1 for s in row.seats])
        table.seats = [None] * size
        for s in row.seats:
            if s.seat >= len(table.seats):
                table.seats.extend([None] * (s.seat + 1 - len(table.seats)))
            table.seats[s.seat] = Seat(
                "bot" if s.kind == "bot" else "human", s.name, s.token_hash, s.level
            )
        if row.status == "playing":
            table.status = "playing"
        elif row.status == "finished":
            table.status = "finished"
            table.finished_at = time.monotonic()
        table.version = table.state_version = table.buffer_floor = row.version
        table.chat.extend(row.chat)
        if row.game is not None and table.status != "open":
            game = row.game
            record = GameRecord.from_json(
                {
                    "format": "perudo-record",
                    "version": 1,
                    "rules": game.rules,
                    "players": game.players,
                    "rolloff": game.rolloff,
                    "moves": [{"seat": s, "action": a} for s, a in game.moves],
                }
            )
            table.state = record.replay()
            table.game_id = game.id
            table.names = list(game.names)
            table.seq = len(game.moves)
        return table

    async def resume(self) -> None:
        """After a restart: finish what a crash interrupted and start the drivers again."""
        async with self.lock:
            if self.status == "playing" and self.state is not None:
                if self.state.is_over:
                    await self._finish()
                    return
                for i, s in enumerate(self.seats):
                    if s is not None and s.kind == "human":
                        self._start_drop_timer(i)
                self._plan()

    # -- information ------------------------------------------------------------------------

    def _timer(self) -> float | None:
        if self.turn_deadline is None:
            return None
        return max(0.0, round(self.turn_deadline - time.monotonic(), 1))

    def info(self) -> dict[str, Any]:
        """The table as the lobby and the page see it (no hidden information)."""
        st = self.state
        remaining = self._timer()
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "preset": self.config.preset,
            "rules": self.rules.to_dict(),
            "memory": self.config.memory,
            "turn_seconds": self.config.turn_seconds,
            "seat_count": len(self.seats),
            "private": self.private,
            "seats": [None if s is None else s.info(i) for i, s in enumerate(self.seats)],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "game_id": self.game_id,
            "to_act": None if st is None else st.to_act,
            "turn_remaining": remaining,
            "winner": None if st is None else st.winner,
            "invite": f"/t/{self.id}",
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
            "invite": f"/t/{self.id}",
        }

    def _counts_json(self, counts: Iterable[int], seat: int | None) -> list[int | None]:
        """P-40 memory mode: a seat sees its own count; others' show only whether they're in."""
        return [c if (i == seat or c == 0) else None for i, c in enumerate(counts)]

    def _seat_payload(
        self, seat: int | None, with_past: bool
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """``view(state, seat).to_json()`` (without ``past`` unless asked: it only grows, and
        updates carry the rounds just finished instead) and the seat's probability hint (when
        it has something to decide)."""
        if self.state is None:
            return None, None
        v = view(self.state, seat)
        hint = bid_hint(v) if v.legal else None
        if not with_past:
            v = replace(v, past=())
        data = v.to_json()
        if not with_past:
            del data["past"]
        if self.config.memory:
            data["total_dice"] = sum(self.state.dice_counts)
            data["dice_counts"] = self._counts_json(self.state.dice_counts, seat)
        return data, hint

    def _for_seat(self, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """An event's JSON as ``seat`` receives it (P-40 memory mode hides others' counts)."""
        if self.config.memory and data.get("type") == "round_started":
            data = dict(data)
            data["dice_counts"] = self._counts_json(data["dice_counts"], seat)
        return data

    def snapshot(self, seat: int | None) -> str:
        data, hint = self._seat_payload(seat, True)
        return _dump(
            p.Snapshot(
                version=self.version,
                table=self.info(),
                seat=seat,
                view=data,
                hint=hint,
                timer=self._timer(),
                chat=[_chat_json(c) for c in self.chat],
            )
        )

    # -- broadcasting -----------------------------------------------------------------------

    def _broadcast_table(self) -> None:
        text = _dump(p.TableMessage(version=self.version, table=self.info()))
        for c in self.conns:
            c.send(text)
        if self.on_change is not None:
            self.on_change(self)

    def _broadcast_events(
        self, batch: list[tuple[int | None, dict[str, Any]]], resolved: int
    ) -> None:
        by_seat: dict[int | None, str] = {}
        for c in self.conns:
            text = by_seat.get(c.seat)
            if text is None:
                view_json, hint = self._seat_payload(c.seat, False)
                tail: list[dict[str, Any]] = []
                if resolved and self.state is not None:
                    tail = [round_to_json(r) for r in self.state.past[-resolved:]]
                text = _dump(
                    p.Update(
                        version=self.version,
                        events=[
                            self._for_seat(data, c.seat)
                            for audience, data in batch
                            if audience is None or audience == c.seat
                        ],
                        view=view_json,
                        hint=hint,
                        timer=self._timer(),
                        past_tail=tail,
                    )
                )
                by_seat[c.seat] = text
            c.send(text)

    def _error(self, conn: Connection, code: str, message: str) -> None:
        conn.send(_dump(p.ErrorMessage(code=code, message=message, version=self.version)))

    # -- connections ------------------------------------------------------------------------

    async def hello(self, conn: Connection, msg: p.Hello) -> None:
        """Attach a connection: as its seat if the token is right, else as a spectator."""
        async with self.lock:
            seat: int | None = None
            if msg.token:
                seat = self.seat_of_token(msg.token)
                if seat is None:
                    self._error(
                        conn,
                        "bad_token",
                        "that seat token is not valid at this table: you are watching as a "
                        "spectator",
                    )
            if conn.greeted and conn.seat is not None:
                self._release_seat(conn.seat)
            conn.seat = seat
            if seat is not None:
                self._claim_seat(seat)
            conn.greeted = True
            self.conns.add(conn)
            last = msg.last_version
            if last is not None and self.buffer_floor <= last <= self.version:
                self._send_missed(conn, last)
            else:
                conn.send(self.snapshot(seat))
            self._broadcast_table()
            self._plan()

    def _remember(self, version: int, audience: int | None, kind: str, payload: str) -> None:
        """Keep a versioned item for reconnecting clients (the oldest falls out when full)."""
        if len(self.buffer) == self.buffer.maxlen:
            self.buffer_floor = self.buffer[0][0]
        self.buffer.append((version, audience, kind, payload))

    def _send_missed(self, conn: Connection, last: int) -> None:
        events: list[dict[str, Any]] = []
        chats: list[dict[str, Any]] = []
        for version, audience, kind, payload in self.buffer:
            if version <= last or (audience is not None and audience != conn.seat):
                continue
            if kind == "event":
                events.append(self._for_seat(json.loads(payload), conn.seat))
            elif kind == "chat":
                chats.append(json.loads(payload))
        data, hint = self._seat_payload(conn.seat, True)
        conn.send(
            _dump(
                p.Update(
                    version=self.version,
                    events=events,
                    view=data,
                    hint=hint,
                    timer=self._timer(),
                )
            )
        )
        for entry in chats:
            conn.send(_dump(p.ChatMessage(version=entry["version"], entry=entry)))

    def _claim_seat(self, seat: int) -> None:
        s = self.seats[seat]
        assert s is not None
        s.connections += 1
        if s.drop_timer is not None:
            s.drop_timer.cancel()
            s.drop_timer = None
        if s.away:
            s.away = False
            s.bot = None

    def _release_seat(self, seat: int) -> None:
        s = self.seats[seat] if seat < len(self.seats) else None
        if s is None:
            return
        s.connections = max(0, s.connections - 1)
        if s.connections == 0 and s.kind == "human" and self.status == "playing":
            self._start_drop_timer(seat)

    def _start_drop_timer(self, seat: int) -> None:
        s = self.seats[seat]
        if s is None or s.kind != "human" or s.away or s.connections:
            return
        if s.drop_timer is not None:
            s.drop_timer.cancel()
        loop = asyncio.get_running_loop()
        s.drop_timer = loop.call_later(
            self.settings.drop_grace,
            lambda: asyncio.ensure_future(self._drop_expired(seat, s)),
        )

    async def _drop_expired(self, seat: int, who: Seat) -> None:
        async with self.lock:
            s = self.seats[seat] if seat < len(self.seats) else None
            if s is not who or s.connections or s.away or self.status != "playing":
                return
            s.drop_timer = None
            s.away = True
            self._broadcast_table()
            self._plan()

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            if conn not in self.conns:
                return
            self.conns.discard(conn)
            if conn.seat is not None:
                self._release_seat(conn.seat)
            if not self.closed:
                self._broadcast_table()

    async def back(self, conn: Connection) -> None:
        """The person at this seat is back: the stand-in bot stops playing for them."""
        async with self.lock:
            if conn.seat is None:
                raise TableError("no_seat", "spectators have no seat to come back to")
            s = self.seats[conn.seat]
            if s is not None and s.away:
                s.away = False
                s.bot = None
                self._broadcast_table()
                self._plan()

    # -- seats before the game --------------------------------------------------------------

    def _require_seated(self, conn: Connection) -> int:
        if conn.seat is None:
            raise TableError("no_seat", "only a seated player may do that; spectators watch")
        return conn.seat

    def _require_open(self, what: str) -> None:
        if self.status != "open":
            raise TableError("not_now", f"{what} only before the game starts (it is {self.status})")

    async def _save_seats(self, status: str | None = None) -> None:
        version = self.version + 1
        await self.store.set_seats(
            self.id,
            [s.row(i) for i, s in enumerate(self.seats) if s is not None],
            version,
            status,
        )
        self.version = version
        self._remember(version, None, "table", "{}")

    async def join(self, name: str) -> tuple[int, str]:
        """Take the first empty seat under ``name``; returns (seat, token)."""
        async with self.lock:
            self._require_open("joining")
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise TableError("table_full", f"all {len(self.seats)} seats are taken")
            token = secrets.token_urlsafe(24)
            seat = free[0]
            self.seats[seat] = Seat("human", name, hash_token(token))
            try:
                await self._save_seats()
            except StoreError as err:
                self.seats[seat] = None
                raise TableError("store_error", str(err)) from None
            self._broadcast_table()
            return seat, token

    async def add_bot(self, conn: Connection, level: str, seat: int | None) -> None:
        async with self.lock:
            self._require_seated(conn)
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

    async def fill_bots(self, conn: Connection, level: str) -> None:
        async with self.lock:
            self._require_seated(conn)
            self._require_open("adding bots")
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise TableError("table_full", f"all {len(self.seats)} seats are taken")
            await self._seat_bots(free, level)

    async def _seat_bots(self, seats: list[int], level: str) -> None:
        taken = {s.name for s in self.seats if s is not None}
        for i in seats:
            n = 1
            while f"{level.capitalize()} bot {n}" in taken:
                n += 1
            name = f"{level.capitalize()} bot {n}"
            taken.add(name)
            self.seats[i] = Seat("bot", name, level=level)
        try:
            await self._save_seats()
        except StoreError as err:
            for i in seats:
                self.seats[i] = None
            raise TableError("store_error", str(err)) from None
        self._broadcast_table()

    async def remove_seat(self, conn: Connection, seat: int) -> None:
        async with self.lock:
            self._require_seated(conn)
            self._require_open("removing a bot")
            s = self.seats[seat] if seat < len(self.seats) else None
            if s is None or s.kind != "bot":
                raise TableError("bad_seat", f"seat {seat} holds no bot to remove")
            self.seats[seat] = None
            try:
                await self._save_seats()
            except StoreError as err:
                self.seats[seat] = s
                raise TableError("store_error", str(err)) from None
            self._broadcast_table()

    async def leave(self, conn: Connection) -> None:
        async with self.lock:
            seat = self._require_seated(conn)
            self._require_open("leaving a seat")
            s = self.seats[seat]
            self.seats[seat] = None
            try:
                await self._save_seats()
            except StoreError as err:
                self.seats[seat] = s
                raise TableError("store_error", str(err)) from None
            for c in self.conns:
                if c.seat == seat:
                    c.seat = None
                    c.send(self.snapshot(None))
            self._broadcast_table()

    # -- the game ---------------------------------------------------------------------------

    async def start(self, conn: Connection | None) -> None:
        """Start a game with the seated players, in seat order (empty seats dropped)."""
        async with self.lock:
            if conn is not None:
                self._require_seated(conn)
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
            rng = secrets.SystemRandom()
            rolloff = roll_off(rules, len(order), rng)
            state = start_game(rules, len(order), rolloff)
            version = self.version + 1
            names = [s.name for s in seats if s is not None]
            try:
                game_id = await self.store.start_game(
                    self.id,
                    rules.to_dict(),
                    names,
                    rolloff,
                    [s.row(i) for i, s in enumerate(seats) if s is not None],
                    version,
                )
            except StoreError as err:
                raise TableError("store_error", str(err)) from None
            remap = {old: new for new, old in enumerate(order)}
            self.seats = list(seats)
            for c in self.conns:
                if c.seat is not None:
                    c.seat = remap.get(c.seat)
            self.version = self.state_version = version
            self._remember(version, None, "table", "{}")
            self.state, self.game_id, self.names, self.seq = state, game_id, names, 0
            self.status = "playing"
            self.last_resolved = False
            self.calza_asked = -1
            for c in self.conns:
                c.send(self.snapshot(c.seat))
            self._broadcast_table()
            await self._chance()

    async def rematch(self, conn: Connection) -> None:
        async with self.lock:
            self._require_seated(conn)
            if self.status != "finished":
                raise TableError("not_now", "a rematch only after the game is over")
            version = self.version + 1
            try:
                await self.store.set_status(self.id, "open", version)
            except StoreError as err:
                raise TableError("store_error", str(err)) from None
            self.version = self.state_version = version
            self._remember(version, None, "table", "{}")
            self.status = "open"
            self.finished_at = None
            self.state, self.game_id, self.seq = None, None, 0
            for s in self.seats:
                if s is not None:
                    s.away = False
            for c in self.conns:
                c.send(self.snapshot(c.seat))
            self._broadcast_table()

    async def act(self, conn: Connection, text: str, version: int) -> None:
        """A person's action for their seat, checked by the core."""
        async with self.lock:
            seat = self._require_seated(conn)
            if self.state is None or self.status != "playing":
                raise TableError("not_now", f"no game is being played (the table is {self.status})")
            if version < self.state_version or version > self.version:
                raise TableError(
                    "stale",
                    f"stale version {version}: the game changed at version "
                    f"{self.state_version}; look again and act on the current bid",
                )
            try:
                action = parse_action(text)
            except NotationError as err:
                raise TableError("notation", str(err)) from None
            if not _is_player_action(action):
                raise TableError("illegal", f"{text!r} is a chance move; players cannot take it")
            s = self.seats[seat]
            if s is not None and s.away:
                s.away = False
                s.bot = None
                self._broadcast_table()
            await self._apply(seat, action)

    async def _apply(self, seat: int | None, action: Any) -> None:
        """Apply one move: core check, durable write, then state, broadcast and drivers.

        :raises TableError: for an illegal move (the core's message, naming the rule) or a
            failed write; nothing changed then.
        """
        assert self.state is not None and self.game_id is not None
        try:
            state, events = apply_action(self.state, action, seat)
        except IllegalActionError as err:
            raise TableError("illegal", str(err)) from None
        first = self.version + 1
        last = self.version + max(1, len(events))
        try:
            await self.store.append_actions(self.game_id, self.seq, [(seat, str(action))], last)
        except StoreError as err:
            raise TableError("store_error", str(err)) from None
        self.state = state
        self.seq += 1
        self.version = self.state_version = last
        batch: list[tuple[int | None, dict[str, Any]]] = []
        for i, e in enumerate(events):
            data = event_to_json(e)
            data["version"] = first + i
            batch.append((e.audience, data))
            self._remember(first + i, e.audience, "event", json.dumps(data))
        resolved = sum(1 for e in events if isinstance(e, RoundResolved))
        self.last_resolved = resolved > 0
        if state.is_over:
            await self._finish()
        self._plan()
        self._broadcast_events(batch, resolved)
        if state.is_over:
            self._broadcast_table()

    async def _finish(self) -> None:
        assert self.state is not None and self.game_id is not None
        version = self.version
        await self.store.finish_game(self.id, self.game_id, self.state.winner, version)
        self.status = "finished"
        self.finished_at = time.monotonic()
        for s in self.seats:
            if s is not None and s.drop_timer is not None:
                s.drop_timer.cancel()
                s.drop_timer = None

    async def _chance(self) -> None:
        """Roll what chance owes (a deal, a V-9 re-roll) with the system's generator."""
        rng = secrets.SystemRandom()
        while (
            self.state is not None
            and not self.state.is_over
            and self.state.to_act is None
            and self.state.phase in (Phase.DEAL, Phase.REROLL)
        ):
            await self._apply(None, chance_action(self.state, rng))

    # -- drivers ----------------------------------------------------------------------------

    def _cancel_tasks(self) -> None:
        self._set_driver(None)
        self._set_timer(None)

    def _set_driver(self, key: tuple[str, int, float] | None) -> bool:
        """Keep the pending driver step if it is the one wanted; else cancel it.

        Returns whether a new step must be started for ``key``.
        """
        if _keeps(self.driver_task, self.driver_key, key):
            return False
        self.driver_task = None
        self.driver_key = key
        return key is not None

    def _set_timer(self, key: tuple[int, int] | None) -> bool:
        """The same for the turn timer (clearing the deadline when none is wanted)."""
        if _keeps(self.timer_task, self.timer_key, key):
            return False
        self.timer_task = None
        self.timer_key = key
        if key is None:
            self.turn_deadline = None
        return key is not None

    def _plan(self) -> None:
        """Decide who moves next on their own: chance, a bot, a stand-in, or the turn timer.

        Called after every change; a step already pending for the same version is kept (so a
        person's turn timer does not restart when someone chats or reconnects).
        """
        st = self.state
        if self.closed or st is None or self.status != "playing" or st.is_over:
            self._cancel_tasks()
            return
        version = self.state_version
        if st.to_act is None:
            delay = self.settings.round_pause if self.last_resolved else 0.0
            self._set_timer(None)
            if self._set_driver(("chance", version, delay)):
                self.driver_task = asyncio.create_task(self._run_chance(version, delay))
            return
        bot_calza = self.calza_asked != version and any(
            self._driver(s) is not None for s in calza_callers(st)
        )
        to_act = self._driver(st.to_act)
        if bot_calza or to_act is not None:
            if self._set_driver(("bots", version, self.settings.bot_delay)):
                self.driver_task = asyncio.create_task(self._run_bots(version))
        else:
            self._set_driver(None)
        if to_act is None and self.config.turn_seconds > 0:
            if self._set_timer((version, st.to_act)):
                self.turn_deadline = time.monotonic() + self.config.turn_seconds
                self.timer_task = asyncio.create_task(
                    self._run_timeout(version, st.to_act, self.config.turn_seconds)
                )
        else:
            self._set_timer(None)

    def _driver(self, seat: int) -> Bot | None:
        s = self.seats[seat] if seat < len(self.seats) else None
        return None if s is None else s.driver()

    async def _run_chance(self, version: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        async with self.lock:
            if self.state_version != version or self.closed:
                return
            try:
                await self._chance()
            except TableError as err:
                log.error("table %s: chance move failed: %s", self.id, err.message)

    async def _run_timeout(self, version: int, seat: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if self.state_version != version or self.closed or self.state is None:
                return
            if self.state.to_act != seat:
                return
            s = self.seats[seat]
            if s is None or s.kind != "human" or s.away:
                return
            s.away = True
            self._broadcast_table()
            self._plan()

    async def _run_bots(self, version: int) -> None:
        await asyncio.sleep(self.settings.bot_delay)
        async with self.lock:
            st = self.state
            if self.state_version != version or self.closed or st is None:
                return
            if self.calza_asked != version:
                # P-50/P-53: out-of-turn calza offered to the bots in seat order from the
                # bidder's left; the first that calls it takes it.
                self.calza_asked = version
                for s in calza_callers(st):
                    bot = self._driver(s)
                    if bot is not None and _ask_calza(bot, view(st, s)):
                        await self._bot_move(s, Calza())
                        return
            seat = st.to_act
            bot = None if seat is None else self._driver(seat)
            if seat is None or bot is None:
                self._plan()
                return
            seat_view = view(st, seat)
        try:
            action = await asyncio.to_thread(bot.act, seat_view)
        except Exception:
            log.exception("table %s: bot %s failed; it plays its first legal action", self.id, bot)
            action = seat_view.legal[0]
        async with self.lock:
            if self.state_version != version or self.closed:
                return
            await self._bot_move(seat, action)

    async def _bot_move(self, seat: int, action: PlayerAction) -> None:
        try:
            await self._apply(seat, action)
        except TableError as err:
            if err.code != "illegal" or self.state is None:
                log.error("table %s: bot move failed: %s", self.id, err.message)
                return
            # A bot that answers with an illegal move is a bot bug; the game goes on with the
            # first action the core lists for the seat.
            log.error("table %s: bot at seat %d: %s", self.id, seat, err.message)
            legal = view(self.state, seat).legal
            if legal:
                await self._apply(seat, legal[0])

    # -- chat -------------------------------------------------------------------------------

    async def post_chat(self, conn: Connection, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            raise TableError("bad_message", "an empty chat line")
        async with self.lock:
            if conn.seat is not None:
                s = self.seats[conn.seat]
                name = s.name if s is not None else "?"
            else:
                name = "spectator"
            version = self.version + 1
            row = ChatRow(conn.seat, name, text, time.time(), version)
            try:
                await self.store.add_chat(self.id, row)
            except StoreError as err:
                raise TableError("store_error", str(err)) from None
            self.version = version
            self.chat.append(row)
            entry = _chat_json(row)
            self._remember(version, None, "chat", json.dumps(entry))
            msg = _dump(p.ChatMessage(version=version, entry=entry))
            for c in self.conns:
                c.send(msg)

    async def sync(self, conn: Connection, last: int) -> None:
        async with self.lock:
            if self.buffer_floor <= last <= self.version:
                self._send_missed(conn, last)
            else:
                conn.send(self.snapshot(conn.seat))

    # -- shutting down ----------------------------------------------------------------------

    async def close(self) -> None:
        self.closed = True
        self._cancel_tasks()
        for s in self.seats:
            if s is not None and s.drop_timer is not None:
                s.drop_timer.cancel()
        for task in (self.driver_task, self.timer_task):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task


def _keeps(task: asyncio.Task[None] | None, current: object, wanted: object) -> bool:
    """Whether the pending ``task`` (keyed ``current``) is the step ``wanted``; if not, it is
    cancelled (unless it is the task asking, which is finishing anyway)."""
    if task is None or task.done():
        return False
    if current == wanted:
        return True
    if task is not asyncio.current_task():
        task.cancel()
    return False


def _chat_json(row: ChatRow) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.at,
        "version": row.version,
    }


def _is_player_action(action: object) -> bool:
    from perudo.core import Bid, ChoosePalifico, Dudo, Pass, SetAside

    return isinstance(action, (Bid, ChoosePalifico, Dudo, Calza, Pass, SetAside))


def _ask_calza(bot: Bot, seat_view: Any) -> bool:
    try:
        return bool(bot.call_calza(seat_view))
    except Exception:
        log.exception("bot %s failed in call_calza; taken as no", bot)
        return False
