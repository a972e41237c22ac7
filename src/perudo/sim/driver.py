"""The decision sequence of a game: one place, below every front end.

Every front end plays a game the same way: chance rolls the dice due (a new round's deal, P-3,
or a V-9 re-roll), the seat to act decides (a bid, dudo, a pass, a set-aside, or the two-player
palifico choice of P-34), its action is applied, and — when calza is played out of turn
(``calza="on"``, P-50) — the seats that may call calza are offered it in the order P-53 gives.
This module owns that sequence; the arena (:mod:`perudo.sim.match`), the RL table
(:mod:`perudo.research.table`, and through it the PettingZoo, Gymnasium and OpenSpiel
adapters), the terminal (:mod:`perudo.cli.tui.session`) and the server's scheduler
(:mod:`perudo.server.tables.schedule`) only supply the decisions.

Two ways in:

* :func:`pending` — pure: what the game waits for next, given the state and whether the calza
  window of this position has been answered. The server's scheduler and the RL table, which
  take one step at a time, ask it after every change.
* :func:`run` — a whole loop for synchronous callers (the arena, the terminal): rolls chance
  with the injected generator, asks ``act`` and ``calza`` callbacks, applies through a ``step``
  hook the caller may wrap (to show events, to name a bot in an error).
  :func:`play_out_round` is :func:`run` stopped when the round under way is resolved (self-play,
  the single-round head to head).

When a calza window opens
-------------------------
A window opens after every **bid** and after every **V-9 re-roll** that leaves a bid standing,
when the rules play calza out of turn and :func:`perudo.core.calza_callers` names someone.
Why after a re-roll too: P-50 lets an eligible player call calza at any moment *while a bid
stands*, and a re-roll happens while the bid stands and puts dice face up beside the cup (V-9):
public information (P-70) that can turn "probably not exactly right" into "exactly right". An
engine that asks (P-53) therefore asks at each point where the public position changes under a
standing bid: after the bid, and after a re-roll. The set-aside itself is followed at once by
chance's re-roll, with no decision between, so the one window after the re-roll covers both;
the seat that re-rolled is the seat to act and never a caller (P-50). No window opens after a
pass (calza is called on a bid, not on a pass: V-10), after the deal, or under
``calza="to_act"`` (V-7), where calza is one of the seat to act's ordinary actions.

In a window the seats are asked one at a time in :func:`~perudo.core.calza_callers` order (left
of the bidder first, P-53); the first that calls calza resolves the round; if every one
declines, the seat to act takes its turn. A front end that lets people call calza whenever they
like (the server) asks only its bots (:func:`pending`'s ``asks``): P-50 lets a person call at
any moment while the bid stands, so the window does not wait for them, and a window with no bot
in it is answered at once. That makes the same moves as asking the people too and hearing them
decline; a person's call arrives later as an ordinary out-of-turn action.

A decision that fails
---------------------
A bot may fail: raise, or return an action the core refuses. What then is the driver's policy,
:data:`Faults`, one of two:

* ``"raise"`` (:func:`run`'s default: the arena, the terminal, the RL table): the error goes
  up and the game stops there, so that a bot's bug is seen (the arena names the bot,
  :class:`perudo.sim.match.IllegalBotAction`).
* ``"first_legal"`` (the server, whose tables have people at them and must go on; the arena
  with ``play_game(..., faults="first_legal")``): the failure is logged and the seat plays
  :func:`first_legal` instead; a calza question that raises is taken as a no.

>>> import random
>>> from perudo.core import PERUDO_CALZA, Bid, apply, new_game
>>> game = new_game(PERUDO_CALZA, 4, random.Random(3))
>>> pending(game)
Turn(seat=3, palifico_choice=False)
>>> game, _ = apply(game, Bid(2, 5))
>>> pending(game)
CalzaWindow(seats=(1, 2))
>>> pending(game, window_answered=True)
Turn(seat=0, palifico_choice=False)
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from perudo.core import (
    Action,
    Bid,
    Calza,
    GameState,
    IllegalActionError,
    Phase,
    PlayerAction,
    Reroll,
    apply,
    calza_callers,
    chance_action,
    legal_actions,
)

# Phase's members as module globals: CPython 3.11 reads an Enum member off its class several
# times slower than a global, and the driver compares phases on every move.
_BIDDING, _CHOOSE_PALIFICO, _GAME_OVER, _REROLL = (
    Phase.BIDDING,
    Phase.CHOOSE_PALIFICO,
    Phase.GAME_OVER,
    Phase.REROLL,
)

__all__ = [
    "CalzaWindow",
    "Faults",
    "Pending",
    "Roll",
    "Step",
    "Turn",
    "apply_step",
    "calza_window",
    "first_legal",
    "pending",
    "play_out_round",
    "run",
]


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance rolls the dice due now: a new round's deal (P-3) or a V-9 re-roll."""

    reroll: bool
    """``True`` for a V-9 re-roll of the seat to act's hidden dice."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The seat to act decides: a bid, dudo, a pass, a set-aside, calza under V-7 ``to_act``,
    or — before a two-player round's deal — the palifico choice (P-34)."""

    seat: int
    palifico_choice: bool
    """The decision is P-34's palifico-or-normal choice (``ChoosePalifico``), made before the
    seat sees its die."""


@dataclass(frozen=True, slots=True)
class CalzaWindow:
    """Out-of-turn calza is offered to ``seats``, one at a time, in this order (P-50, P-53)."""

    seats: tuple[int, ...]


Pending: TypeAlias = Roll | Turn | CalzaWindow | None
"""What a game waits for; ``None`` once it is over (P-23)."""

Faults: TypeAlias = Literal["raise", "first_legal"]
"""What :func:`run` does with a decision that fails (a callback that raises, an action the
core refuses): ``"raise"`` lets the error up; ``"first_legal"`` plays :func:`first_legal`
instead (a calza question that fails is a no). See the module's docstring."""

log = logging.getLogger("perudo.sim")

Step: TypeAlias = Callable[[GameState, "int | None", Action], GameState]
"""How :func:`run` applies a move: ``(state, seat, action) -> new state`` (``seat`` is
``None`` for chance). The default is :func:`apply_step`."""


def calza_window(state: GameState) -> tuple[int, ...]:
    """The seats a calza window asks at this position, in P-53 order; empty when none opens.

    A window opens right after a bid, or right after a V-9 re-roll under a standing bid, when
    calza is played out of turn (``calza="on"``, P-50); see the module's docstring for why the
    re-roll opens one too.
    """
    if state.rules.calza != "on" or state.phase is not _BIDDING or state.log is None:
        return ()
    last = state.log[2]
    if last.__class__ is not Bid and last.__class__ is not Reroll:
        return ()
    return calza_callers(state)


def pending(
    state: GameState,
    *,
    window_answered: bool = False,
    asks: Callable[[int], bool] | None = None,
) -> Pending:
    """What the game waits for next.

    ``window_answered`` says whether the calza window of this position (:func:`calza_window`)
    has been offered already and every seat in it declined; a front end keeps that one bit
    (the server: the version it asked at) and clears it after every move.

    ``asks`` picks the seats a window asks (default: every one). A front end whose people
    call calza whenever they like asks only its bots; a window with none of its seats asked is
    answered already (the same moves as asking every seat and hearing each decline).
    """
    to_act = state.to_act
    if to_act is None:
        if state.phase is _GAME_OVER:
            return None
        return _ROLLS[state.phase is _REROLL]
    if not window_answered:
        seats = calza_window(state)
        if seats and asks is not None:
            seats = tuple(s for s in seats if asks(s))
        if seats:
            return CalzaWindow(seats)
    return _turn(to_act, state.phase is _CHOOSE_PALIFICO)


def first_legal(state: GameState, seat: int) -> PlayerAction:
    """What ``seat`` (the seat to act) plays in place of a decision that failed under the
    ``"first_legal"`` policy (:data:`Faults`): the first action the core lists for it
    (:func:`perudo.core.legal_actions`, the order of its view's ``legal``)."""
    return legal_actions(state, seat).as_tuple()[0]


_ROLLS = (Roll(reroll=False), Roll(reroll=True))


@functools.cache
def _turn(seat: int, palifico_choice: bool) -> Turn:
    """One :class:`Turn` per seat and kind, made once (they are immutable): every decision
    of every game asks :func:`pending`."""
    return Turn(seat, palifico_choice)


def apply_step(state: GameState, seat: int | None, action: Action) -> GameState:
    """:func:`perudo.core.apply`, keeping only the new state (the default :data:`Step`)."""
    return apply(state, action, seat)[0]


def run(
    state: GameState,
    rng: random.Random,
    act: Callable[[GameState, int], PlayerAction],
    calza: Callable[[GameState, int], bool] | None,
    *,
    step: Step = apply_step,
    until: Callable[[GameState], bool] | None = None,
    faults: Faults = "raise",
) -> GameState:
    """Play ``state`` to the end (or until ``until(state)`` holds, checked before anything
    more is rolled or asked: a trainer stops at the end of its round) and return the state.

    Chance's dice come from ``rng`` (:func:`perudo.core.chance_action`); ``act(state, seat)``
    gives the seat to act's action, ``calza(state, seat)`` whether a seat in a calza window
    calls calza; every move goes through ``step``. A front end that stops early (a person who
    leaves) raises out of a callback.

    ``calza=None`` says that no seat ever calls calza out of turn (the reference random policy,
    a player of the single-round head to head without it): the windows are not opened at all,
    which makes the same moves as opening each one and hearing every seat decline, without
    working out who would be asked (a third of a random six-seat game's time).

    ``faults`` is what a decision that fails does (:data:`Faults`): under ``"raise"`` an
    ``act`` or ``calza`` that raises, or a ``step`` that refuses the action, stops the game
    with that error; under ``"first_legal"`` the seat plays :func:`first_legal` instead and a
    ``calza`` that raises is a no.

    >>> import random
    >>> from perudo.core import PERUDO, legal_actions, new_game
    >>> rng = random.Random(1)
    >>> end = run(new_game(PERUDO, 3, rng), rng,
    ...           lambda s, seat: legal_actions(s)[-1], lambda s, seat: False)
    >>> end.is_over
    True
    """
    asks = calza is not None
    lenient = faults == "first_legal"
    answered = False
    while until is None or not until(state):
        due = pending(state, window_answered=answered or not asks)
        if due is None:
            return state
        if isinstance(due, Roll):
            state = step(state, None, chance_action(state, rng))
        elif isinstance(due, CalzaWindow):
            assert calza is not None  # no window is due when nobody is asked
            for seat in due.seats:
                if _calls(calza, state, seat) if lenient else calza(state, seat):
                    state = step(state, seat, Calza())
                    break
            else:
                answered = True
                continue
        elif lenient:
            state = _turn_or_first_legal(state, due.seat, act, step)
        else:
            state = step(state, due.seat, act(state, due.seat))
        answered = False
    return state


def _calls(calza: Callable[[GameState, int], bool], state: GameState, seat: int) -> bool:
    """``calza(state, seat)``, a no when it raises (the ``"first_legal"`` policy)."""
    try:
        return calza(state, seat)
    except Exception:
        log.exception("seat %d failed to answer the calza window; taken as no", seat)
        return False


def _turn_or_first_legal(
    state: GameState, seat: int, act: Callable[[GameState, int], PlayerAction], step: Step
) -> GameState:
    """The seat to act's turn under the ``"first_legal"`` policy: :func:`first_legal` in
    place of an ``act`` that raises or an action the core refuses."""
    try:
        action = act(state, seat)
    except Exception:
        log.exception("seat %d failed to decide; it plays its first legal action", seat)
        return step(state, seat, first_legal(state, seat))
    try:
        return step(state, seat, action)
    except IllegalActionError as err:
        log.error("seat %d played an illegal action (%s); it plays its first legal one", seat, err)
        return step(state, seat, first_legal(state, seat))


def play_out_round(
    state: GameState,
    rng: random.Random,
    act: Callable[[GameState, int], PlayerAction],
    calza: Callable[[GameState, int], bool] | None = None,
) -> GameState:
    """Play the round under way to its end through :func:`run`: chance's re-rolls (V-9) from
    ``rng``, the seat to act by ``act``, the P-50 windows by ``calza`` (every one declined when
    ``None``). The state just after the round is resolved (P-20…P-23): the next round's deal is
    not rolled. Self-play (:mod:`perudo.train.selfplay`) and the single-round head to head
    (``benchmarks/head_to_head.py --round``) play rounds this way.

    >>> from perudo.core import LIARS_DICE_OPENSPIEL, legal_actions, start_round
    >>> end = play_out_round(start_round(LIARS_DICE_OPENSPIEL, [[1, 2], [3, 4]]),
    ...                      random.Random(1), lambda s, seat: legal_actions(s)[-1])
    >>> end.round, sum(end.dice_counts)
    (2, 3)
    """
    start = state.round
    return run(state, rng, act, calza, until=lambda s: s.round != start)
