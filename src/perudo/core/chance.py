"""Chance: the only place dice are rolled, always with a generator the caller injects.

The rest of the core never samples (ARCHITECTURE.md): dice enter as :class:`Deal` and
:class:`Reroll` actions, so a game record holds every roll and replays exactly. Pass a seeded
:class:`random.Random` in tests and simulations, and :class:`SystemDice` (the operating
system's randomness, as :class:`secrets.SystemRandom`) on a server.
"""

from __future__ import annotations

import os
import random
import weakref

from .actions import Deal, Reroll
from .engine import _check_players, apply, rerolling_seat, start_game
from .errors import IllegalActionError
from .rules import RuleSet
from .state import GameState, Phase

# Phase's members as module globals: CPython 3.11 reads an Enum member off its class several
# times slower than a global, and the chance moves compare phases on every move.
_DEAL, _REROLL = Phase.DEAL, Phase.REROLL

__all__ = ["SystemDice", "chance_action", "deal", "new_game", "roll_off"]


class SystemDice(random.SystemRandom):
    """:class:`secrets.SystemRandom` (``os.urandom``, unpredictable) read ahead 512 bytes at a
    time: a deal of thirty dice (seven bytes a die) is one system call rather than thirty, drawn
    alike (the same bytes make the same numbers as :class:`~random.SystemRandom` makes them),
    and a server's thousand tables hold half a megabyte ahead. What is read ahead is this
    process's own: a child process forgets it at ``fork``, so two processes never deal the
    same dice. For one thread (a table's dice are rolled on its server's event loop)."""

    _AHEAD = 512

    def __init__(self) -> None:
        super().__init__()
        self._ahead = b""
        self._at = 0
        _DICE.add(self)

    def _read(self, n: int) -> bytes:
        at = self._at
        if at + n > len(self._ahead):
            self._ahead = os.urandom(max(self._AHEAD, n))
            at = 0
        self._at = at + n
        return self._ahead[at : at + n]

    def _forget(self) -> None:
        self._ahead = b""
        self._at = 0

    def random(self) -> float:
        return (int.from_bytes(self._read(7)) >> 3) * _RECIP_53

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        size = (k + 7) // 8
        return int.from_bytes(self._read(size)) >> (size * 8 - k)

    def randbytes(self, n: int) -> bytes:
        if n < 0:
            raise ValueError("negative argument not allowed")
        return self._read(n)


_RECIP_53 = 2.0**-53
_DICE: weakref.WeakSet[SystemDice] = weakref.WeakSet()


def _forget_after_fork() -> None:
    for dice in list(_DICE):
        dice._forget()


os.register_at_fork(after_in_child=_forget_after_fork)


def _roll(rng: random.Random, faces: int, k: int) -> tuple[int, ...]:
    return tuple(sorted(rng.choices(range(1, faces + 1), k=k)))


def roll_off(rules: RuleSet, num_players: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Every player rolls one die; a tie for highest means all roll again (P-2)."""
    faces = rules.faces
    throws: list[tuple[int, ...]] = []
    while True:
        throw = tuple(rng.choices(range(1, faces + 1), k=num_players))
        throws.append(throw)
        if throw.count(max(throw)) == 1:
            return tuple(throws)


def chance_action(state: GameState, rng: random.Random) -> Deal | Reroll:
    """The chance action due now, rolled with ``rng``: a new round's hands, or a re-roll.

    :raises IllegalActionError: when no chance action is due.
    """
    faces = state.rules.faces
    if state.phase is _DEAL:
        return Deal(tuple(_roll(rng, faces, c) for c in state.dice_counts))
    if state.phase is _REROLL:
        return Reroll(_roll(rng, faces, len(state.hands[rerolling_seat(state)])))
    raise IllegalActionError(
        f"no dice are due to be rolled now ({state.phase.value})",
        code="chance.not_due",
        params={"phase": state.phase.value},
    )


def deal(state: GameState, rng: random.Random) -> GameState:
    """Roll the dice due now (a new round's hands, or a V-9 re-roll) and return the new state.

    Use ``apply(state, chance_action(state, rng))`` to get the events too.
    """
    return apply(state, chance_action(state, rng))[0]


def new_game(rules: RuleSet, num_players: int, rng: random.Random) -> GameState:
    """A new game: roll-off done (P-2), first round dealt (P-3), the opener to bid.

    >>> import random
    >>> from perudo import find_ruleset
    >>> game = new_game(find_ruleset("perudo"), 4, random.Random(7))
    >>> game.dice_counts, game.phase.value
    ((5, 5, 5, 5), 'bidding')
    """
    _check_players(rules, num_players)
    state = start_game(rules, num_players, roll_off(rules, num_players, rng))
    return deal(state, rng)
