"""A table's seats: who sits where, the host role, the seat tokens, the links that move a seat
to another device (transfers), and whether any seated person is here.

:class:`Seating` knows nothing of the store, the connections or the game: the
:class:`~perudo.server.tables.LiveTable` that owns it stores the seats it lays out and tells
everyone, and each change that the store may still refuse returns how to undo it. Its one clock
is the host's: a host with no live connection loses the role after the drop grace, which it
hands to the table (``host_gone``), since passing it on is stored and told.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from perudo.i18n import bot_name

from ..store import SeatRow
from .config import STANDIN_LEVEL, Seat, TableConfig, TableError, hash_token
from .text import check_person_name, name_key

__all__ = ["Seating", "Transfer"]

Undo = Callable[[], None]
"""Puts the seats back as they were before a change the store refused."""

Transfer = tuple[int, str, Undo]
"""A seat moved by a transfer link: (the seat, its new token, how to undo it)."""


class Seating:
    """The seats of one table (see the module's docstring)."""

    def __init__(
        self,
        size: int,
        drop_grace: float,
        host_gone: Callable[[Seat], Coroutine[Any, Any, None]],
    ) -> None:
        self.seats: list[Seat | None] = [None] * size
        self.host_timer: asyncio.TimerHandle | None = None
        """Runs while the host has no live connection: after the drop grace the table passes
        the role to a person who is here (``host_gone``)."""
        self.unattended_since: float | None = time.monotonic()
        """``time.monotonic()`` since when no seated person has a live connection (``None``
        while one has): a waiting table unattended for ``waiting_table_seconds`` expires."""
        self._drop_grace = drop_grace
        self._host_gone = host_gone

    # -- reading ----------------------------------------------------------------------------

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

    def holds(self, player_id: int) -> bool:
        """Whether the account ``player_id`` holds a seat here."""
        return any(s is not None and s.player_id == player_id for s in self.seats)

    def host_seat(self) -> int | None:
        """The seat of the table's host (``None``: nobody holds the role, e.g. bots only)."""
        return next((i for i, s in enumerate(self.seats) if s is not None and s.host), None)

    def people(self) -> int:
        """How many seats people hold (the odds setting ``auto`` counts them)."""
        return sum(1 for s in self.seats if s is not None and s.kind == "human")

    def free(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def rows(self) -> list[SeatRow]:
        """The seats as the store keeps them."""
        return [s.row(i) for i, s in enumerate(self.seats) if s is not None]

    def require_seated(self, seat: int | None) -> int:
        if seat is None:
            raise TableError("no_seat", "only a seated player may do that; spectators watch")
        return seat

    def require_host(self, seat: int | None) -> int:
        seat = self.require_seated(seat)
        s = self.seats[seat]
        if s is None or not s.host:
            host = next((h for h in self.seats if h is not None and h.host), None)
            who = "" if host is None else f" ({host.name})"
            raise TableError("not_host", f"only the table's host{who} can do that")
        return seat

    def check_rated_seat(
        self, config: TableConfig, player_id: int | None, bot_account: bool = False
    ) -> None:
        """A rated table seats signed-in people only, each once (docs/ratings.md), and bot
        accounts only at a table a bot account made (docs/bot-api.md: people who sit there
        accept a bot; a person's rated table never seats one)."""
        if not config.rated:
            return
        if bot_account and not config.bot_table:
            raise TableError(
                "rated_people",
                "a person's rated table seats no bot account: a bot plays rated games at "
                "tables made through the bot API",
            )
        if player_id is None:
            raise TableError(
                "rated_signed_in", "a rated table seats only signed-in players; sign in first"
            )
        if self.holds(player_id):
            raise TableError("rated_seated", "you already have a seat at this rated table")

    # -- who is here --------------------------------------------------------------------------

    def claim(self, seat: int) -> None:
        """A connection holds ``seat`` now: its person is here (back from away), and a host
        who is not here starts losing the role."""
        s = self.seats[seat]
        assert s is not None
        s.connections += 1
        if s.kind == "human":
            self.unattended_since = None
        if s.drop_timer is not None:
            s.drop_timer.cancel()
            s.drop_timer = None
        if s.away:
            s.away = False
            s.bot = None
        if s.host:
            self.stop_host_timer()
        host = next((h for h in self.seats if h is not None and h.host), None)
        if host is not None and host.connections == 0 and self.host_timer is None:
            # A host who is not here (never came, or not since a restart): the role passes
            # after the drop grace if they do not come.
            self.start_host_timer(host)

    def release(self, seat: int, playing: bool, closed: bool) -> bool:
        """A connection of ``seat`` went; whether its person has none left during a game
        (the table starts their drop grace)."""
        s = self.seats[seat] if seat < len(self.seats) else None
        if s is None:
            return False
        s.connections = max(0, s.connections - 1)
        if s.connections == 0 and s.host and not closed:
            self.start_host_timer(s)
        self.attendance()
        return s.connections == 0 and s.kind == "human" and playing

    def attendance(self) -> None:
        """Note when the last seated person's connection went (:attr:`unattended_since`)."""
        if any(s is not None and s.kind == "human" and s.connections for s in self.seats):
            self.unattended_since = None
        elif self.unattended_since is None:
            self.unattended_since = time.monotonic()

    def stop_timers(self) -> None:
        """The table closes: no clock of its seats runs on."""
        self.stop_host_timer()
        self.stop_drop_timers()

    def stop_drop_timers(self) -> None:
        for s in self.seats:
            if s is not None and s.drop_timer is not None:
                s.drop_timer.cancel()
                s.drop_timer = None

    # -- the host role ------------------------------------------------------------------------

    def next_host(self, after: int) -> tuple[int, Seat] | None:
        """Who takes the host role from the seat ``after``: the next person in seat order who
        is here, else the next person at all (``None``: only bots are left)."""
        n = len(self.seats)
        people = [
            (i, s)
            for i in ((after + k) % n for k in range(1, n))
            if (s := self.seats[i]) is not None and s.kind == "human" and not s.vacated
        ]
        here = [(i, s) for i, s in people if s.connections > 0]
        return (here or people)[0] if people else None

    def pass_host(self, seat: int) -> Seat | None:
        """Move the host role away from ``seat`` (before saving the seats); returns who took
        it (``None``: nobody, or ``seat`` was not the host)."""
        s = self.seats[seat]
        if s is None or not s.host:
            return None
        s.host = False
        self.stop_host_timer()
        nxt = self.next_host(seat)
        if nxt is None:
            return None
        nxt[1].host = True
        if nxt[1].connections == 0:
            self.start_host_timer(nxt[1])
        return nxt[1]

    def hand_host(self, me: int, seat: int) -> Undo | None:
        """The host in seat ``me`` hands the role to the person in ``seat``; how to undo it
        (``None``: nothing changed, ``seat`` is the host's own)."""
        s = self.seats[seat] if seat < len(self.seats) else None
        if s is None or s.kind != "human" or s.vacated:
            raise TableError("bad_seat", f"seat {seat} holds no person to make host")
        if seat == me:
            return None
        mine = self.seats[me]
        assert mine is not None
        mine.host, s.host = False, True
        return lambda: _swap_host(mine, s)

    def watch_host(self) -> None:
        """The host role moved (and is stored so): the new host's clock runs while they are
        not here."""
        host = next((h for h in self.seats if h is not None and h.host), None)
        if host is not None and host.connections == 0:
            self.start_host_timer(host)
        else:
            self.stop_host_timer()

    def heir_of(self, who: Seat) -> Undo | None:
        """The host ``who`` stayed away for the drop grace: the role passes to the next person
        who is here; how to undo it (``None``: nobody is here, or ``who`` came back or is no
        longer the host)."""
        self.host_timer = None
        if not who.host or who.connections:
            return None
        seat = next((i for i, s in enumerate(self.seats) if s is who), None)
        nxt = None if seat is None else self.next_host(seat)
        if nxt is None or nxt[1].connections == 0:
            return None
        heir = nxt[1]
        who.host, heir.host = False, True
        return lambda: _swap_host(heir, who)

    def start_host_timer(self, who: Seat) -> None:
        if self.host_timer is not None:
            self.host_timer.cancel()
        loop = asyncio.get_running_loop()
        self.host_timer = loop.call_later(
            self._drop_grace, lambda: asyncio.ensure_future(self._host_gone(who))
        )

    def stop_host_timer(self) -> None:
        if self.host_timer is not None:
            self.host_timer.cancel()
            self.host_timer = None

    # -- taking and leaving seats -------------------------------------------------------------

    def sit(self, name: str, player_id: int | None, bot_account: bool) -> tuple[int, str, Undo]:
        """A person takes the first empty seat under ``name``: (the seat, its token, how to
        undo it)."""
        free = self.free()
        if not free:
            raise TableError("table_full", f"all {len(self.seats)} seats are taken")
        check_person_name(name, [s.name for s in self.seats if s is not None])
        token = secrets.token_urlsafe(24)
        seat = free[0]
        self.seats[seat] = Seat(
            "human", name, hash_token(token), player_id=player_id, bot_account=bot_account
        )

        def undo() -> None:
            self.seats[seat] = None

        return seat, token, undo

    def bot_account_back(self, player_id: int) -> tuple[int, str, Undo] | None:
        """The bot account ``player_id`` asks to sit where it sits already (its program
        restarted, or it made the table): its seat with a new token (the old one dies: a bot
        account's seat is held by its account's sockets anyway), and how to undo it; ``None``
        where it holds no seat here."""
        mine = [
            (i, s)
            for i, s in enumerate(self.seats)
            if s is not None and s.bot_account and s.player_id == player_id and not s.vacated
        ]
        if not mine:
            return None
        seat, held = mine[0]
        token, was = secrets.token_urlsafe(24), held.token_hash
        held.token_hash = hash_token(token)

        def undo() -> None:
            held.token_hash = was

        return seat, token, undo

    def seat_bots(self, seats: list[int], level: str) -> Undo:
        """A bot of ``level`` in each of ``seats``, each named apart from the others at the
        table; how to undo it."""
        taken = {name_key(s.name) for s in self.seats if s is not None}
        for i in seats:
            n = 1
            while name_key(bot_name(level, n)) in taken:
                n += 1
            name = bot_name(level, n)  # said in each reader's language (perudo.i18n.names)
            taken.add(name_key(name))
            self.seats[i] = Seat("bot", name, level=level)

        def undo() -> None:
            for i in seats:
                self.seats[i] = None

        return undo

    def vacate(self, seat: int, playing: bool, standin: bool) -> Undo:
        """The person leaves ``seat`` (or is removed): the host role passes on; during a game
        the seat stays, a stand-in bot playing it (``standin``) or nobody, its token dead;
        before or after a game it is emptied. How to undo it."""
        s = self.seats[seat]
        assert s is not None
        was = (s.kind, s.token_hash, s.level, s.host, s.away, s.bot, s.transfer_hash, s.vacated)
        heir = self.pass_host(seat)
        if playing:
            if standin:
                s.kind, s.level = "bot", STANDIN_LEVEL
            s.token_hash, s.away, s.bot, s.transfer_hash = None, False, None, None
            s.vacated = True
        else:
            self.seats[seat] = None

        def undo() -> None:
            self.seats[seat] = s
            (s.kind, s.token_hash, s.level, s.host, s.away, s.bot, s.transfer_hash, s.vacated) = was
            if heir is not None:
                heir.host = False
            self.stop_host_timer()
            if s.host and s.connections == 0:
                self.start_host_timer(s)

        return undo

    def gone(self, seat: int) -> None:
        """After :meth:`vacate`: nobody holds ``seat`` any more (its connections watch now)."""
        s = self.seats[seat]
        if s is not None:
            if s.drop_timer is not None:
                s.drop_timer.cancel()
                s.drop_timer = None
            s.connections = 0
        self.attendance()

    def start(self, order: list[int]) -> None:
        """A game starts with the seats ``order`` (empty seats dropped, renumbered)."""
        self.seats = [self.seats[i] for i in order]

    def without_vacated(self) -> list[Seat | None]:
        """The seats of a rematch (to store): those left during the game emptied."""
        return [None if s is None or s.vacated else s for s in self.seats]

    def reopen(self, seats: list[Seat | None]) -> None:
        """A rematch's seats (:meth:`without_vacated`, stored) are the table's, nobody away."""
        self.seats = seats
        for s in seats:
            if s is not None:
                s.away = False
        self.attendance()

    # -- moving a seat to another device -------------------------------------------------------

    def new_transfer(self, seat: int, seconds: float) -> str:
        """A token that moves ``seat`` to another device within ``seconds`` (only its hash is
        kept, in memory)."""
        s = self.seats[seat]
        assert s is not None
        if s.kind != "human":
            raise TableError("no_seat", "a bot plays this seat now")
        if s.bot_account:
            raise TableError("bot_seat", "a bot account's seat moves with its token, not by a link")
        token = secrets.token_urlsafe(24)
        s.transfer_hash = hash_token(token)
        s.transfer_until = time.monotonic() + seconds
        return token

    def take_transfer(self, transfer: str) -> Transfer | None:
        """The seat the transfer token moves, with a new token (the link is used up); ``None``
        when the token is unknown, used or expired."""
        digest = hash_token(transfer)
        seat = next(
            (
                i
                for i, s in enumerate(self.seats)
                if s is not None
                and s.kind == "human"
                and s.transfer_hash is not None
                and hmac.compare_digest(s.transfer_hash, digest)
            ),
            None,
        )
        s = None if seat is None else self.seats[seat]
        if seat is None or s is None or s.transfer_until < time.monotonic():
            if s is not None:
                s.transfer_hash = None
            return None
        token = secrets.token_urlsafe(24)
        old = s.token_hash
        s.token_hash, s.transfer_hash = hash_token(token), None

        def undo() -> None:
            s.token_hash = old

        return seat, token, undo


def _swap_host(a: Seat | None, b: Seat | None) -> None:
    """Undo a hand-over of the host role from ``b`` to ``a``."""
    if a is not None and b is not None:
        a.host, b.host = b.host, a.host
