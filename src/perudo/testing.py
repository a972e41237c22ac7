"""Conformance checks for bots: :func:`check_bot` (ARCHITECTURE.md, "Bots").

A bot passes when, in many seeded games against random bots on every preset and on rule sets
that turn on each switch a bot must cope with (calza out of turn and by the player to act,
palifico with the two-player choice P-34, passing V-10, set aside and re-roll V-9, losses by
the difference V-4, straights V-11, monotone raises V-1, no wilds V-2), it

* only ever receives a :class:`~perudo.core.PlayerView` (never a game state),
* only returns actions in ``view.legal`` (and the core accepts them),
* answers ``call_calza`` with a bool,
* does not peek (P-70): now and then the check copies the bot just before it decides, re-rolls
  every die the seat cannot see (its view stays identical), and asks the copy; a bot whose
  choice changes with dice it cannot see fails. (The bot must survive :func:`copy.deepcopy`
  and draw its randomness from its own state for this check to be fair.)

Failures are :class:`AssertionError` s naming the rule set, the seat, the view and the action.

>>> from perudo.bots import RandomBot
>>> report = check_bot(RandomBot, games=1, seed=3)
>>> report.games > 0 and report.decisions > 0
True
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from perudo.bots.base import Bot
from perudo.bots.random_bot import RandomBot
from perudo.core import (
    BLUFF,
    LIARS_DICE,
    LIARS_DICE_OPENSPIEL,
    PERUDO,
    PERUDO_CALZA,
    GameState,
    PlayerAction,
    PlayerView,
    RuleSet,
    view,
)
from perudo.sim.match import IllegalBotAction, play_game

__all__ = ["CHECK_RULESETS", "CheckReport", "check_bot"]

CHECK_RULESETS: dict[str, RuleSet] = {
    "perudo": PERUDO,
    "perudo_calza": PERUDO_CALZA,
    "liars_dice": LIARS_DICE,
    "bluff": BLUFF,
    "liars_dice_openspiel": LIARS_DICE_OPENSPIEL,
    "calza to_act (V-7)": dataclasses.replace(PERUDO, calza="to_act"),
    "palifico, no P-34 (V-6)": dataclasses.replace(PERUDO_CALZA, palifico="not_two_players"),
    "pass (V-10)": dataclasses.replace(PERUDO_CALZA, passing=True),
    "set aside (V-9)": dataclasses.replace(PERUDO, set_aside=True, palifico="on"),
    "bluff with calza and pass": dataclasses.replace(BLUFF, calza="on", passing=True),
    "straights, reveal all (V-11, V-8)": dataclasses.replace(
        PERUDO, straight_counts_nothing=True, reveal="all"
    ),
    "monotone, no wilds, 3 dice (V-1, V-2)": dataclasses.replace(
        PERUDO, raise_order="monotone", wild_face=None, dice_per_player=3
    ),
    "difference losses, 2 dice (V-4)": dataclasses.replace(
        PERUDO_CALZA, loss="difference", next_opener="winner", dice_per_player=2
    ),
}
"""The rule sets :func:`check_bot` plays by default: the presets and each switch."""

BotSource = Bot | Callable[[int], Bot]


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What :func:`check_bot` played."""

    games: int
    decisions: int
    """Actions the bot under test chose (out-of-turn calza answers included)."""
    peeks_checked: int
    """Decisions re-asked of a copy with the unseen dice re-rolled."""
    rulesets: tuple[str, ...]


def _is_factory(source: object) -> bool:
    return isinstance(source, type) or not isinstance(source, Bot)


def _make(source: BotSource, seed: int) -> Bot:
    if _is_factory(source):
        made = source(seed)  # type: ignore[operator]
        assert isinstance(made, Bot), f"the factory made {made!r}, which is not a bot"
        return made
    assert isinstance(source, Bot)
    return source


def _show(seat_view: PlayerView) -> str:
    return json.dumps(seat_view.to_json())


def _reroll_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every hidden die ``seat`` cannot see re-rolled (its view is unchanged)."""
    faces = state.rules.faces
    hands = tuple(
        h if s == seat else tuple(sorted(rng.choices(range(1, faces + 1), k=len(h))))
        for s, h in enumerate(state.hands)
    )
    return state._replace(hands=hands)


class _Checker:
    """Asks the bot under test, checking every answer; counts what it checked."""

    def __init__(self, label: str, under_test: Bot, peek_every: int, rng: random.Random) -> None:
        self.label = label
        self.bot = under_test
        self.peek_every = peek_every
        self.rng = rng
        self.decisions = 0
        self.peeks = 0

    def _twin(self) -> Bot | None:
        if self.peek_every <= 0 or self.decisions % self.peek_every:
            return None
        try:
            return copy.deepcopy(self.bot)
        except Exception as err:
            raise AssertionError(
                f"{self.label}: check_bot copies the bot to check that it does not peek "
                f"(P-70), and copying failed: {err!r}"
            ) from err

    def _where(self, seat: int, seat_view: PlayerView, answer: object) -> str:
        return (
            f"{self.label}: bot {self.bot.name!r} at seat {seat}, answer {answer!r}, "
            f"view {_show(seat_view)}"
        )

    def ask(self, state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> PlayerAction:
        if bot is not self.bot:
            return bot.act(seat_view)
        twin = self._twin()
        self.decisions += 1
        assert type(seat_view) is PlayerView, f"{self.label}: a bot must be given a PlayerView"
        action = bot.act(seat_view)
        assert (
            action in seat_view.legal
        ), f"{self._where(seat, seat_view, action)}: the action is not legal now"
        if twin is not None:
            other = _peek_world(state, seat, self.rng)
            twin_action = _ask_in(other, twin, seat)
            self.peeks += 1
            assert twin_action == action, (
                f"{self._where(seat, seat_view, action)}: with the dice it cannot see re-rolled "
                f"(same view) it chose {twin_action!r}: it peeks at hidden dice (P-70)"
            )
        return action

    def ask_calza(self, state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> bool:
        if bot is not self.bot:
            return bot.call_calza(seat_view)
        twin = self._twin()
        self.decisions += 1
        assert type(seat_view) is PlayerView, f"{self.label}: a bot must be given a PlayerView"
        says = bot.call_calza(seat_view)
        assert isinstance(
            says, bool
        ), f"{self._where(seat, seat_view, says)}: call_calza must answer True or False"
        if twin is not None:
            other = _peek_world(state, seat, self.rng)
            twin_says = _ask_calza_in(other, twin, seat)
            self.peeks += 1
            assert twin_says == says, (
                f"{self._where(seat, seat_view, says)}: with the dice it cannot see re-rolled "
                f"(same view) it answered {twin_says!r}: it peeks at hidden dice (P-70)"
            )
        return says


def _peek_world(state: GameState, seat: int, rng: random.Random) -> GameState:
    other = _reroll_unseen(state, seat, rng)
    assert view(other, seat) == view(state, seat), "re-rolling unseen dice changed a view (P-70)"
    return other


def _ask_in(state: GameState, twin: Bot, seat: int) -> PlayerAction:
    # ``state`` here is the re-rolled world: a bot that looks for the game state on the call
    # stack finds this one first.
    return twin.act(view(state, seat))


def _ask_calza_in(state: GameState, twin: Bot, seat: int) -> bool:
    return twin.call_calza(view(state, seat))


def _player_counts(rules: RuleSet) -> list[int]:
    wanted = [2, 3, 4, 6, 2, 5]
    return [n for n in wanted if rules.min_players <= n <= rules.max_players] or [rules.min_players]


def check_bot(
    bot: BotSource,
    rules: RuleSet | Sequence[RuleSet] | None = None,
    *,
    games: int = 4,
    seed: int = 0,
    peek_every: int = 5,
) -> CheckReport:
    """Play ``games`` games per seat arrangement and rule set with ``bot`` against random
    bots, and fail on any illegal action or peek (see the module docstring).

    ``bot`` is a bot (reused across games) or a factory ``seed -> bot`` (a class such as
    ``ProbBot`` works). ``rules``: one rule set, several, or ``None`` for
    :data:`CHECK_RULESETS`. Each game puts the bot in a different seat, cycling through table
    sizes 2, 3, 4, 6 (as the rules allow). ``peek_every``: re-ask a copy every that many
    decisions (0: never).

    :raises AssertionError: naming the rule set, seat, view and action at fault.
    """
    if rules is None:
        named = list(CHECK_RULESETS.items())
    elif isinstance(rules, RuleSet):
        named = [(str(rules), rules)]
    else:
        named = [(str(r), r) for r in rules]
    total_games = decisions = peeks = 0
    for label, ruleset in named:
        counts = _player_counts(ruleset)
        for g in range(games):
            n = counts[g % len(counts)]
            game_seed = seed * 1_000_003 + total_games
            rng = random.Random(game_seed)
            under_test = _make(bot, game_seed)
            seat = g % n
            bots: list[Bot] = [RandomBot(game_seed + 7 * s + 1) for s in range(n)]
            bots[seat] = under_test
            checker = _Checker(
                f"{label}, game {g} (seed {game_seed})",
                under_test,
                peek_every,
                random.Random(game_seed + 1),
            )
            try:
                play_game(ruleset, bots, rng, ask=checker.ask, ask_calza=checker.ask_calza)
            except IllegalBotAction as err:
                raise AssertionError(f"{checker.label}: {err}; view {_show(err.view)}") from err
            total_games += 1
            decisions += checker.decisions
            peeks += checker.peeks
    return CheckReport(total_games, decisions, peeks, tuple(label for label, _ in named))
