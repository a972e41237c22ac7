"""The decision sequence every research adapter shares, one step at a time.

The order of decisions is :mod:`perudo.sim.driver`'s — the same as in the arena, the terminal
and the server: chance (a deal, a V-9 re-roll), the seat to act (the P-34 palifico choice
included), and the **calza windows** of out-of-turn calza (P-50). Turn-based interfaces
(PettingZoo's AEC, OpenSpiel's sequential games, a Gymnasium agent) need one seat at a time, and
a window is exactly that:

* it opens where :func:`perudo.sim.driver.calza_window` says (after every bid, and after every
  V-9 re-roll under a standing bid, when the rules play calza out of turn, ``calza="on"``); each
  seat it names gets one decision, in that order (P-53: left of the bidder first);
* its legal actions are ``Calza()`` and **no calza** (the adapter's extra id ``no_calza``,
  one past the core encoding's last id);
* the first seat that calls calza resolves the round (P-53: the first call received wins); if
  every asked seat declines, the seat to act takes its turn as usual.

Under ``calza="to_act"`` (V-7) calza is an ordinary in-turn action and no window opens.

A :class:`Table` only translates: which actions are legal, what happens, who is out and who
wins all come from :mod:`perudo.core`, and what comes next from :mod:`perudo.sim.driver`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from perudo.core import (
    Calza,
    ChanceAction,
    DiceDealt,
    DiceRerolled,
    Event,
    GameState,
    IllegalActionError,
    PlayerAction,
    PlayerView,
    RuleSet,
    apply,
    chance_action,
    check_action,
    legal_actions,
    new_game,
    view,
    visible_to,
)
from perudo.core.encoding import ActionEncoding, encoding
from perudo.sim.driver import CalzaWindow, Pending, Roll, calza_window, pending

__all__ = ["NO_CALZA_NAME", "Table", "num_ids"]

NO_CALZA_NAME: Final = "no calza"
"""How the adapters print the declining answer in a calza window."""


def num_ids(rules: RuleSet, num_players: int) -> int:
    """How many action ids the adapters use: the core encoding's, plus ``no calza`` when
    calza is played out of turn (P-50)."""
    enc = encoding(rules, num_players)
    return enc.num_actions + (1 if rules.calza == "on" else 0)


class Table:
    """A game in progress: the core's state, the open calza window, and each seat's private
    record of its own dice (what perfect recall needs and a view no longer shows).

    Mutable on purpose (the adapters step it in place); :meth:`copy` is cheap because the core
    state is an immutable value shared between copies.
    """

    __slots__ = ("asking", "enc", "no_calza", "private", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        """The core state."""
        self.enc: ActionEncoding = encoding(state.rules, state.num_players)
        """The dense action ids (:mod:`perudo.core.encoding`)."""
        self.no_calza: int | None = self.enc.num_actions if state.rules.calza == "on" else None
        """The adapters' extra id for declining calza in a window, or ``None`` without
        out-of-turn calza."""
        self.asking: tuple[int, ...] = calza_window(state)
        """Seats still to be asked in the open calza window, in P-53 order (empty: none)."""
        self.private: list[tuple[tuple[int, tuple[int, ...]], ...]] = [
            () for _ in range(state.num_players)
        ]
        """Per seat: ``(round, dice)`` for every hand dealt to it and every re-roll of its
        dice (V-9), oldest first: the seat's own memory."""
        if state.hands and any(state.hands):
            for seat, hand in enumerate(state.hands):
                if hand:
                    self.private[seat] = ((state.round, hand),)

    @classmethod
    def new(cls, rules: RuleSet, num_players: int, rng: random.Random) -> Table:
        """A new game: the P-2 roll-off and the first deal, from ``rng``."""
        return cls(new_game(rules, num_players, rng))

    def copy(self) -> Table:
        new = Table.__new__(Table)
        new.state = self.state
        new.enc = self.enc
        new.no_calza = self.no_calza
        new.asking = self.asking
        new.private = list(self.private)
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        return self.copy()

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def num_ids(self) -> int:
        """Action ids: the core encoding's plus ``no calza`` where it exists."""
        return self.enc.num_actions + (0 if self.no_calza is None else 1)

    @property
    def pending(self) -> Pending:
        """What the game waits for (:func:`perudo.sim.driver.pending`), the open window
        reduced to the seats still to be asked."""
        if self.asking:
            return CalzaWindow(self.asking)
        return pending(self.state, window_answered=True)

    @property
    def actor(self) -> int | None:
        """The seat that decides now: the head of the calza window, else the seat to act;
        ``None`` while chance acts or once the game is over."""
        if self.asking:
            return self.asking[0]
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def needs_chance(self) -> bool:
        """Whether chance acts now: a new round's deal, or a V-9 re-roll."""
        return isinstance(self.pending, Roll)

    def legal_actions(self, seat: int) -> list[PlayerAction | None]:
        """What ``seat`` may do now, from the core; ``None`` stands for *no calza*."""
        if self.asking:
            if seat != self.asking[0]:
                return []
            calza: list[PlayerAction | None] = list(legal_actions(self.state, seat))
            return [*calza, None]
        if seat != self.state.to_act:
            return []
        return list(legal_actions(self.state, seat))

    def legal_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` may take now, ascending."""
        enc = self.enc
        out: list[int] = []
        for a in self.legal_actions(seat):
            if a is None:
                assert self.no_calza is not None
                out.append(self.no_calza)
            else:
                out.append(enc.action_to_id(a))
        out.sort()
        return out

    def mask(self, seat: int) -> list[bool]:
        """A list of :attr:`num_ids` bools: the ids ``seat`` may take now."""
        out = [False] * self.num_ids
        for i in self.legal_ids(seat):
            out[i] = True
        return out

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (P-70): :func:`perudo.core.view`."""
        return view(self.state, seat)

    def action_name(self, action_id: int) -> str:
        """The notation of an id (``no calza`` for the window's declining answer)."""
        if self.no_calza is not None and action_id == self.no_calza:
            return NO_CALZA_NAME
        return str(self.enc.id_to_action(action_id))

    def play(self, seat: int, action_id: int) -> tuple[Event, ...]:
        """Take action ``action_id`` for ``seat``; returns the core's events.

        :raises IllegalActionError: naming the rule when it is not legal now (nothing changes).
        """
        if self.no_calza is not None and action_id == self.no_calza:
            if not self.asking or seat != self.asking[0]:
                raise IllegalActionError(
                    f"seat {seat} is not being asked about calza now; no calza is an answer "
                    "in a calza window (P-50, P-53)"
                )
            self.asking = self.asking[1:]
            return ()
        try:
            action = self.enc.id_to_action(action_id)
        except ValueError as err:
            raise IllegalActionError(str(err)) from None
        if self.asking:
            if seat != self.asking[0] or not isinstance(action, Calza):
                raise IllegalActionError(
                    f"seat {self.asking[0]} answers calza or no calza first; calls are asked "
                    "in seat order from the bidder's left (P-53)"
                )
        elif seat != self.state.to_act:
            # Out of turn is only ever calza, and only in a window here (P-50).
            check_action(self.state, action, seat)
            raise IllegalActionError(
                f"it is seat {self.state.to_act}'s turn; seat {seat} may call calza only "
                "when its calza window asks it (P-50, P-53)"
            )
        state, events = apply(self.state, action, seat)
        self._advance(state, events)
        return events

    def chance(self, action: ChanceAction) -> tuple[Event, ...]:
        """Apply a chance action (a :class:`Deal` or a V-9 :class:`Reroll`)."""
        state, events = apply(self.state, action)
        self._advance(state, events)
        return events

    def roll(self, rng: random.Random) -> tuple[Event, ...]:
        """Roll the chance action due now with ``rng`` (:func:`perudo.core.chance_action`)."""
        return self.chance(chance_action(self.state, rng))

    def settle_chance(self, rng: random.Random) -> list[Event]:
        """Roll every chance action due until a seat decides or the game ends."""
        events: list[Event] = []
        while self.needs_chance:
            events.extend(self.roll(rng))
        return events

    def _advance(self, state: GameState, events: Sequence[Event]) -> None:
        self.state = state
        self.asking = calza_window(state)
        for event in events:
            if isinstance(event, DiceDealt):
                self.private[event.seat] = (*self.private[event.seat], (state.round, event.hand))
            elif isinstance(event, DiceRerolled):
                self.private[event.seat] = (*self.private[event.seat], (state.round, event.dice))

    @staticmethod
    def visible(events: Sequence[Event], seat: int | None) -> list[Event]:
        """The events ``seat`` may see (P-70)."""
        return [e for e in events if visible_to(e, seat)]
