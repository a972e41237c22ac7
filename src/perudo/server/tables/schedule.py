"""Who moves without a person asking: chance, the bots and stand-ins, the turn and drop timers.

After every change the table calls :meth:`ScheduleMixin._plan`. It keeps at most one pending
*driver* step (chance's roll, or the bots' turn) and one *turn timer*, each keyed by the game
version it was planned for: a step already pending for the same key is kept, any other is
cancelled, and a step that wakes to find the game moved on does nothing. A step makes its move
under the table's lock through the same path as a person's (:meth:`LiveTable._apply
<perudo.server.tables.LiveTable._apply>`: the core checks it, the store logs it, then it is
broadcast), so nothing here decides a rule.

Drivers: a bot seat is played server-side by a :class:`perudo.bots.Bot` through the seat's
view, with a pacing delay; bots are offered out-of-turn calza in
:func:`perudo.core.calza_callers` order (P-53), first yes wins. A person who runs out of turn
time or whose connection drops (after a grace period) is *away*: a stand-in bot plays the seat
until they come back.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Literal

from perudo.bots import Bot
from perudo.core import (
    Calza,
    GameState,
    Phase,
    PlayerAction,
    calza_callers,
    chance_action,
    view,
)

from ..settings import Settings
from .config import Seat, TableConfig, TableError

__all__ = ["ScheduleMixin"]

log = logging.getLogger("perudo.server")


class ScheduleMixin:
    """The pending steps of a :class:`~perudo.server.tables.LiveTable` (mixed into it)."""

    # The table's state this part reads and writes (set in ``LiveTable.__init__``).
    id: str
    config: TableConfig
    settings: Settings
    seats: list[Seat | None]
    lock: asyncio.Lock
    status: Literal["open", "playing", "finished"]
    state: GameState | None
    state_version: int
    closed: bool
    driver_task: asyncio.Task[None] | None
    timer_task: asyncio.Task[None] | None
    driver_key: tuple[str, int, float] | None
    timer_key: tuple[int, int] | None
    turn_deadline: float | None
    calza_asked: int
    last_resolved: bool

    if TYPE_CHECKING:
        # Defined by LiveTable: the one action path, and the seats' broadcast.
        async def _apply(self, seat: int | None, action: Any) -> None: ...

        def _broadcast_table(self) -> None: ...

    # -- the turn timer's clock -------------------------------------------------------------

    def _timer(self) -> float | None:
        if self.turn_deadline is None:
            return None
        return max(0.0, round(self.turn_deadline - time.monotonic(), 1))

    # -- a dropped connection ---------------------------------------------------------------

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

    # -- chance -----------------------------------------------------------------------------

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
