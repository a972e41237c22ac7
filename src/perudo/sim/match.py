"""One whole game between bots, driven through the rules core.

:func:`play_game` is the trusted side of the table: it holds the :class:`~perudo.core.GameState`,
rolls the dice with the injected generator (:func:`~perudo.core.chance_action`), and gives each
bot only its seat's :func:`~perudo.core.view` (P-70). After every bid it offers an out-of-turn
calza (P-50) to the seats :func:`~perudo.core.calza_callers` lists, in that order (P-53: left of
the bidder first); the first that says yes calls it. Every action a bot returns goes through
:func:`~perudo.core.apply`; an illegal one raises :class:`IllegalBotAction`, naming the bot, the
seat and the rule broken.

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
    Bid,
    Calza,
    Event,
    GameRecord,
    GameState,
    IllegalActionError,
    PlayerAction,
    PlayerView,
    RoundResolved,
    RuleSet,
    apply,
    calza_callers,
    chance_action,
    new_game,
    view,
)

__all__ = ["ActHook", "IllegalBotAction", "MatchResult", "play_game"]


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


def _places(n: int, winner: int, eliminated: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
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
) -> MatchResult:
    """Play one game, ``bots[s]`` in seat ``s``; dice come from ``rng``.

    ``ask`` and ``ask_calza`` (``(state, seat, bot, view)``) replace how a bot is asked for
    an action and for an out-of-turn calza; the defaults call ``bot.act(view)`` and
    ``bot.call_calza(view)``.

    :raises IllegalBotAction: when a bot returns an action the core refuses.
    :raises ValueError: on a player count the rules do not allow (P-1).
    """
    n = len(bots)
    state = new_game(rules, n, rng)
    eliminated: list[tuple[int, ...]] = []
    decisions = 0
    calza_out_of_turn = rules.calza == "on"
    while state.winner is None:
        seat = state.to_act
        if seat is None:
            state, _ = apply(state, chance_action(state, rng))
            continue
        bot = bots[seat]
        seat_view = view(state, seat)
        action = ask(state, seat, bot, seat_view)
        decisions += 1
        state, events = _apply_for(state, seat, bot, seat_view, action)
        if calza_out_of_turn and isinstance(action, Bid):
            for caller in calza_callers(state):
                caller_bot = bots[caller]
                caller_view = view(state, caller)
                if ask_calza is not None:
                    says = ask_calza(state, caller, caller_bot, caller_view)
                else:
                    says = caller_bot.call_calza(caller_view)
                if says:
                    decisions += 1
                    state, events = _apply_for(state, caller, caller_bot, caller_view, Calza())
                    break
        for event in events:
            if isinstance(event, RoundResolved) and event.eliminated:
                eliminated.append(event.eliminated)
    winner = state.winner
    return MatchResult(
        record=GameRecord.from_state(state),
        winner=winner,
        places=_places(n, winner, eliminated),
        eliminated=tuple(eliminated),
        rounds=state.round - 1,
        decisions=decisions,
    )


def _apply_for(
    state: GameState, seat: int, bot: Bot, seat_view: PlayerView, action: object
) -> tuple[GameState, tuple[Event, ...]]:
    try:
        return apply(state, action, seat)  # type: ignore[arg-type]
    except IllegalActionError as err:
        raise IllegalBotAction(bot, seat, seat_view, action, str(err)) from None
