"""Who moves without a person asking: chance, the bots and stand-ins, the turn and drop timers.

The :class:`Scheduler` belongs to one :class:`~perudo.server.tables.LiveTable`. After every
change the table calls :meth:`Scheduler.plan`, the one place that decides who moves next on
their own (:meth:`Scheduler.decide`: chance, a bot or stand-in, or the person to act under the
turn timer). It keeps at most one pending *driver* step (chance's roll, or the bots' turn) and
one *turn timer*, each keyed by the game version it was planned for: a step already pending for
the same key is kept, any other is cancelled, and a step that wakes to find the game moved on
does nothing. A step makes its move under the table's lock through the same path as a person's
(:meth:`LiveTable.apply_move <perudo.server.tables.LiveTable.apply_move>`: the core checks it,
the store logs it, then it is broadcast), so nothing here decides a rule.

The order of decisions is :func:`perudo.sim.driver.pending`'s, the same as in the arena, the
terminal and the RL environments: chance, the calza window (after a bid, and after a V-9
re-roll under a standing bid), the seat to act. Drivers: a bot seat is played server-side by a
:class:`perudo.bots.Bot` through the seat's view, with a pacing delay; in a calza window the
bots among the window's seats are asked in its order (P-53), first yes wins (people call calza
whenever they like, as an ordinary out-of-turn action, so the window does not wait for them:
the driver's ``asks``). A bot that fails (raises, or answers with an action the core refuses)
is handled by the driver's ``"first_legal"`` policy (:data:`perudo.sim.driver.Faults`): the
failure is logged and the seat plays its first legal action; a calza question that raises is a
no. The tables have people at them, and the game goes on.
A person who runs out of turn time or whose connection drops (after a grace period) is *away*:
a stand-in bot plays the seat until they come back.

A step the store refuses changes nothing (the one action path is all-or-nothing) and is tried
again after a back-off (:meth:`Scheduler.retry`: from :data:`RETRY_FIRST` seconds, doubling up
to :data:`RETRY_MOST`): a table never waits for good on a write that failed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from perudo.bots import Bot
from perudo.core import Calza, PlayerAction, chance_action, view
from perudo.sim.driver import CalzaWindow, Pending, Roll, Turn, first_legal, pending

from .config import Seat, TableError

if TYPE_CHECKING:
    from .live import LiveTable

__all__ = ["RETRY_FIRST", "RETRY_MOST", "Plan", "Scheduler"]

log = logging.getLogger("perudo.server")

RETRY_FIRST = 0.5
"""Seconds before a step the store refused is tried again (doubling at each failure)."""
RETRY_MOST = 30.0
"""The longest wait between two tries of a step the store refuses."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What moves next without a person asking, as :meth:`Scheduler.decide` sees it.

    ``driver``: the step to run (``("chance", version, delay)``: roll what chance owes after
    ``delay`` seconds; ``("bots", version, delay)``: the bots' turn, their out-of-turn calza
    first; ``("finish", version, 0.0)``: store that the game is over), or ``None``.
    ``timer``: the person to act under the turn timer (``(version, seat)``), or ``None``.
    """

    driver: tuple[str, int, float] | None = None
    timer: tuple[int, int] | None = None


class Scheduler:
    """The pending steps of one :class:`~perudo.server.tables.LiveTable` (which owns it)."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.driver_task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.driver_key: tuple[str, int, float] | None = None
        self.timer_key: tuple[int, int] | None = None
        self.turn_deadline: float | None = None
        self.calza_asked = -1
        """The game version whose calza window the bots have answered (P-50, P-53)."""
        self.last_resolved = False
        """Whether the last move ended a round (the next deal waits ``round_pause``)."""
        self.failures = 0
        """Store errors in a row (the back-off of :meth:`retry`); a stored move resets it."""

    def new_game(self) -> None:
        self.calza_asked = -1
        self.last_resolved = False

    # -- the turn timer's clock -------------------------------------------------------------

    def remaining(self) -> float | None:
        """Seconds left on the turn timer of the seat to act (``None``: no timer running)."""
        if self.turn_deadline is None:
            return None
        return max(0.0, round(self.turn_deadline - time.monotonic(), 1))

    # -- a dropped connection ---------------------------------------------------------------

    def start_drop_timer(self, seat: int, since: float | None = None) -> None:
        """The seat's person has no live connection: a stand-in plays it after the grace
        (counted from ``since``, a ``time.time()``, when their last connection went before
        this process drove the table; else from now)."""
        table = self.table
        s = table.seats[seat]
        if s is None or s.kind != "human" or s.away or s.connections:
            return
        if s.drop_timer is not None:
            s.drop_timer.cancel()
        grace = table.settings.drop_grace
        if since is not None:
            grace = max(0.0, min(grace, grace - (time.time() - since)))
        loop = asyncio.get_running_loop()
        s.drop_timer = loop.call_later(
            grace, lambda: asyncio.ensure_future(self._drop_expired(seat, s))
        )

    def absent(self) -> dict[int, float | None]:
        """The seats of people with no live connection in a game being played: ``None`` for
        one away (a stand-in plays it), else when (``time.time()``) its drop grace began. What
        a process taking the table over needs to go on where this one was
        (:meth:`LiveTable.resume <perudo.server.tables.LiveTable.resume>`)."""
        table = self.table
        if table.status != "playing" or table.closed:
            return {}
        out: dict[int, float | None] = {}
        wall = time.time() - asyncio.get_running_loop().time()
        for i, s in enumerate(table.seats):
            if s is None or s.kind != "human" or s.connections:
                continue
            if s.away:
                out[i] = None
            elif s.drop_timer is not None:
                out[i] = round(wall + s.drop_timer.when() - table.settings.drop_grace, 3)
        return out

    async def _drop_expired(self, seat: int, who: Seat) -> None:
        table = self.table
        async with table.lock:
            s = table.seats[seat] if seat < len(table.seats) else None
            if s is not who or s.connections or s.away or table.status != "playing":
                return
            s.drop_timer = None
            if s.bot_account:
                # A bot account's seat is never played by a stand-in (its record is its
                # program's): a bot gone past the grace concedes (docs/bot-api.md); one out
                # of the game already keeps its seat for the next game.
                in_game = table.state is not None and table.state.dice_counts[seat] > 0
                if in_game:
                    await self._forfeit(seat)
                return
            if table.config.rated:
                # No bot plays a rated game: the seat waits for its person, whose turn timer
                # runs (:meth:`_run_timeout`).
                return
            s.away = True
            table.changed()
            self.plan()

    # -- chance -----------------------------------------------------------------------------

    async def chance(self) -> None:
        """Roll what chance owes (a deal, a V-9 re-roll) with the table's generator."""
        table = self.table
        while table.state is not None and isinstance(pending(table.state), Roll):
            await table.apply_move(None, chance_action(table.state, table.rng))

    def pending(self) -> Pending:
        """What the game waits for (:func:`perudo.sim.driver.pending`), a calza window asking
        only the bots (its people call calza when they like; one with no bot is answered)."""
        table = self.table
        st = table.state
        assert st is not None
        return pending(
            st, window_answered=self.calza_asked == table.state_version, asks=self._is_bot
        )

    def _is_bot(self, seat: int) -> bool:
        return self._driver(seat) is not None

    # -- deciding ---------------------------------------------------------------------------

    def decide(self) -> Plan:
        """Who moves next on their own: chance, a bot or stand-in, or the person to act under
        the turn timer. The one place these decisions are made."""
        table = self.table
        st = table.state
        if table.closed or st is None or table.status != "playing":
            return Plan()
        version = table.state_version
        if st.is_over:
            # Over in the log but not stored as finished (a crash or a refused write between).
            return Plan(driver=("finish", version, 0.0))
        settings = table.settings
        due = self.pending()
        if isinstance(due, Roll):
            delay = settings.round_pause if self.last_resolved else 0.0
            return Plan(driver=("chance", version, delay))
        window = isinstance(due, CalzaWindow)
        turn = pending(st, window_answered=True) if window else due
        assert isinstance(turn, Turn)
        bot_turn = self._driver(turn.seat) is not None
        driver = ("bots", version, settings.bot_delay) if window or bot_turn else None
        # The person to act is on the clock from the bid on, while the bots mull over calza.
        timer = None if bot_turn or table.config.turn_seconds <= 0 else (version, turn.seat)
        return Plan(driver=driver, timer=timer)

    def plan(self) -> None:
        """Start what :meth:`decide` wants and cancel the rest.

        Called after every change; a step already pending for the same version is kept (so a
        person's turn timer does not restart when someone chats or reconnects).
        """
        wanted = self.decide()
        driver = wanted.driver
        key = self.driver_key
        if (
            driver is not None
            and key is not None
            and key[0] == "retry"
            and key[1] == driver[1]
            and self.driver_task is not None
            and not self.driver_task.done()
        ):
            # The step failed on a store error at this version: it waits out its back-off.
            driver = key
        if self._set_driver(driver):
            assert driver is not None
            kind, version, delay = driver
            if kind == "chance":
                self.driver_task = asyncio.create_task(self._run_chance(version, delay))
            elif kind == "finish":
                self.driver_task = asyncio.create_task(self._run_finish(version))
            else:
                self.driver_task = asyncio.create_task(self._run_bots(version))
        if self._set_timer(wanted.timer):
            assert wanted.timer is not None
            version, seat = wanted.timer
            seconds = self.table.config.turn_seconds
            if self.last_resolved:
                # The move before ended a round and its result is on the table: the person
                # reads it first (the round's pause), then their turn's time runs.
                seconds += self.table.settings.round_pause
            self.turn_deadline = time.monotonic() + seconds
            self.timer_task = asyncio.create_task(self._run_timeout(version, seat, seconds))

    def retry(self, what: str, err: TableError) -> None:
        """``what`` failed on a store error (``err``; nothing changed): plan the table's next
        step again after the back-off (call under the table's lock)."""
        self.failures += 1
        delay = min(RETRY_MOST, RETRY_FIRST * 2 ** (self.failures - 1))
        table = self.table
        log.error(
            "table %s: %s failed: %s; trying again in %.1f s", table.id, what, err.message, delay
        )
        if table.closed:
            return
        self._set_driver(("retry", table.state_version, delay))
        self.driver_task = asyncio.create_task(self._retry(delay))

    async def _retry(self, delay: float) -> None:
        await asyncio.sleep(delay)
        table = self.table
        async with table.lock:
            if table.closed:
                return
            self.driver_key = None
            self.plan()

    def cancel(self) -> None:
        self._set_driver(None)
        self._set_timer(None)

    async def close(self) -> None:
        """Cancel every pending step and wait for them to end."""
        tasks = (self.driver_task, self.timer_task)
        self.cancel()
        for task in tasks:
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

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

    def _driver(self, seat: int) -> Bot | None:
        seats = self.table.seats
        s = seats[seat] if seat < len(seats) else None
        return None if s is None else s.driver()

    # -- the steps ----------------------------------------------------------------------------

    async def _run_chance(self, version: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        table = self.table
        async with table.lock:
            if table.state_version != version or table.closed:
                return
            try:
                await self.chance()
            except TableError as err:
                self.retry("a chance move", err)

    async def _run_finish(self, version: int) -> None:
        table = self.table
        async with table.lock:
            if table.state_version != version or table.closed or table.status != "playing":
                return
            try:
                await table.finish()
            except TableError as err:
                self.retry("ending the game", err)
                return
            table.changed()

    async def _run_timeout(self, version: int, seat: int, delay: float) -> None:
        await asyncio.sleep(delay)
        table = self.table
        async with table.lock:
            if table.state_version != version or table.closed or table.state is None:
                return
            if table.state.to_act != seat:
                return
            s = table.seats[seat]
            if s is None or s.kind != "human" or s.away:
                return
            if table.config.rated or s.bot_account:
                await self._forfeit(seat)
                return
            s.away = True
            table.changed()
            self.plan()

    async def _forfeit(self, seat: int) -> None:
        """A person timed out of a rated game, or a bot account out of time or gone: they
        leave it conceding (P-24), so they finish last among those still in
        (docs/ratings.md, docs/bot-api.md)."""
        try:
            await self.table.vacate(seat, "left", concede=True)
        except TableError as err:
            self.retry("a timed-out seat's concession", err)

    async def _run_bots(self, version: int) -> None:
        table = self.table
        await asyncio.sleep(table.settings.bot_delay)
        async with table.lock:
            st = table.state
            if table.state_version != version or table.closed or st is None:
                return
            due = self.pending()
            if isinstance(due, CalzaWindow):
                # P-50/P-53: the window's bots in its order (left of the bidder first); the
                # first that calls calza takes it.
                self.calza_asked = version
                for s in due.seats:
                    bot = self._driver(s)
                    if bot is not None and _ask_calza(bot, view(st, s)):
                        await self._bot_move(s, Calza())
                        return
                due = self.pending()
            bot = self._driver(due.seat) if isinstance(due, Turn) else None
            if bot is None or not isinstance(due, Turn):
                self.plan()
                return
            seat = due.seat
            seat_view = view(st, seat)
        try:
            action = await asyncio.to_thread(bot.act, seat_view)
        except Exception:
            # The driver's "first_legal" policy (perudo.sim.driver.Faults).
            log.exception("table %s: bot %s failed; it plays its first legal action", table.id, bot)
            action = first_legal(st, seat)
        async with table.lock:
            if table.state_version != version or table.closed:
                return
            await self._bot_move(seat, action)

    async def _bot_move(self, seat: int, action: PlayerAction) -> None:
        table = self.table
        try:
            try:
                await table.apply_move(seat, action)
            except TableError as err:
                if err.code != "illegal" or table.state is None:
                    raise
                # A bot that answers with an illegal move is a bot bug; the game goes on with
                # the first action the core lists for the seat (the driver's "first_legal").
                log.error("table %s: bot at seat %d: %s", table.id, seat, err.message)
                if table.state.to_act == seat:
                    await table.apply_move(seat, first_legal(table.state, seat))
                else:  # a refused out-of-turn calza is a no: the window goes on
                    self.plan()
        except TableError as err:
            self.retry(f"the move of the bot at seat {seat}", err)


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


def _ask_calza(bot: Bot, seat_view: Any) -> bool:
    try:
        return bool(bot.call_calza(seat_view))
    except Exception:
        log.exception("bot %s failed in call_calza; taken as no", bot)
        return False
