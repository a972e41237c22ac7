"""One whole game between bots, driven through the rules core.

:func:`play_game` is the trusted side of the table: it holds the :class:`~perudo.core.GameState`,
rolls the dice with the injected generator (:func:`~perudo.core.chance_action`), and gives each
bot only its seat's :func:`~perudo.core.view` (P-70). The order of decisions is
:func:`perudo.sim.driver.run`'s, the same in every front end: chance, the seat to act, and the
out-of-turn calza windows (P-50, P-53: after a bid and after a V-9 re-roll, left of the bidder
first; the first bot that says yes calls it). Every action a bot returns goes through
:func:`~perudo.core.apply`; an illegal one raises :class:`IllegalBotAction`, naming the bot, the
seat and the rule broken (or, with ``faults="first_legal"``, the policy the server plays by,
the seat plays its first legal action: :data:`perudo.sim.driver.Faults`).

>>> import random
>>> from perudo import PERUDO
>>> from perudo.bots import RandomBot
>>> result = play_game(PERUDO, [RandomBot(1), RandomBot(2), RandomBot(3)], random.Random(5))
>>> sorted(result.places), result.places[result.winner]
([1, 2, 3], 1)
>>> result.record.replay().winner == result.winner
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from perudo.bots.base import Bot
from perudo.core import (
    Action,
    Calza,
    GameRecord,
    GameState,
    IllegalActionError,
    PlayerAction,
    PlayerView,
    RoundResolved,
    RuleSet,
    apply,
    new_game,
    view,
)

from .driver import Faults, run

__all__ = ["ActHook", "IllegalBotAction", "MatchResult", "finishing_places", "play_game"]


class IllegalBotAction(IllegalActionError):
    """A bot returned an action the rules do not allow now (the core's reason included)."""

    def __init__(self, bot: Bot, seat: int, view: PlayerView, action: object, reason: str) -> None:
        self.bot = bot
        self.seat = seat
        self.view = view
        self.action = action
        self.reason = reason
        super().__init__(
            f"bot {getattr(bot, 'name', type(bot).__name__)!r} at seat {seat} returned "
            f"{action!r}, which is illegal now: {reason}"
        )


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished game: its record, the winner and every seat's finishing place."""

    record: GameRecord
    """The whole game (every roll and action): replays to the final state."""
    winner: int
    places: tuple[int, ...]
    """Finishing place per seat, 1 = the winner (P-23). Seats knocked out in the same round
    (possible with V-4 ``difference``) share a place; those out earlier place lower."""
    eliminated: tuple[tuple[int, ...], ...]
    """The seats knocked out, round by round, earliest first."""
    rounds: int
    decisions: int
    """Actions the bots took (out-of-turn calls included)."""


ActHook = Callable[[GameState, int, Bot, PlayerView], PlayerAction]
"""How a driver asks a bot for an action: ``(state, seat, bot, view) -> action``. The default
calls ``bot.act(view)``; :func:`perudo.testing.check_bot` wraps it to check the bot. The state
never reaches the bot."""


def _ask(state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> PlayerAction:
    return bot.act(seat_view)


def finishing_places(n: int, winner: int, eliminated: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each of ``n`` seats' finishing place (P-23): 1 for ``winner``, then the reverse of the
    order of knock-outs (``eliminated``, round by round, earliest first); seats out in the
    same round share a place. The arena's tally and the server's rated games both use it."""
    places = [0] * n
    places[winner] = 1
    better = 1
    for out in reversed(eliminated):
        for seat in out:
            places[seat] = better + 1
        better += len(out)
    return tuple(places)


def play_game(
    rules: RuleSet,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    ask: ActHook = _ask,
    ask_calza: Callable[[GameState, int, Bot, PlayerView], bool] | None = None,
    faults: Faults = "raise",
) -> MatchResult:
    """Play one game, ``bots[s]`` in seat ``s``; dice come from ``rng``.

    ``ask`` and ``ask_calza`` (``(state, seat, bot, view)``) replace how a bot is asked for
    an action and for an out-of-turn calza; the defaults call ``bot.act(view)`` and
    ``bot.call_calza(view)``. ``faults`` is what a bot that fails does
    (:data:`perudo.sim.driver.Faults`): by default its error goes up; ``"first_legal"`` plays
    on as the server does.

    :raises IllegalBotAction: when a bot returns an action the core refuses (unless
        ``faults="first_legal"``).
    :raises ValueError: on a player count the rules do not allow (P-1).
    """
    n = len(bots)
    eliminated: list[tuple[int, ...]] = []
    decisions = 0

    def act(state: GameState, seat: int) -> PlayerAction:
        nonlocal decisions
        decisions += 1
        return ask(state, seat, bots[seat], view(state, seat))

    def calza(state: GameState, seat: int) -> bool:
        bot = bots[seat]
        seat_view = view(state, seat)
        if ask_calza is not None:
            return ask_calza(state, seat, bot, seat_view)
        return bot.call_calza(seat_view)

    def step(state: GameState, seat: int | None, action: Action) -> GameState:
        nonlocal decisions
        if seat is None:
            state, events = apply(state, action)
        else:
            if isinstance(action, Calza) and state.to_act != seat:
                decisions += 1  # an out-of-turn call is a decision too
            try:
                state, events = apply(state, action, seat)
            except IllegalActionError as err:
                bot = bots[seat]
                raise IllegalBotAction(bot, seat, view(state, seat), action, str(err)) from None
        for event in events:
            if isinstance(event, RoundResolved) and event.eliminated:
                eliminated.append(event.eliminated)
        return state

    state = run(new_game(rules, n, rng), rng, act, calza, step=step, faults=faults)
    winner = state.winner
    assert winner is not None  # run() returns a finished game (P-23)
    return MatchResult(
        record=GameRecord.from_state(state),
        winner=winner,
        places=finishing_places(n, winner, eliminated),
        eliminated=tuple(eliminated),
        rounds=state.round - 1,
        decisions=decisions,
    )
