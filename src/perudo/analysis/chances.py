"""Each seat's chance to win the game from a position between two rounds, from public facts.

One place for the game's chance after a round, read from the public view just after it only
(the dice counts, who opens, palifico, P-70). Both ask it, from the same exact part:

- the chart's points (:func:`.game.chart`): :func:`wins_after`, ``exact`` from the shipped
  book's match values for a heads-up position it holds (or once the game is over), else
  ``estimate`` from games of self-play from fresh dice;
- each rollout's outcome, which gives an estimated decision its game loss (:mod:`.rollouts`):
  :func:`seat_chance`, exact where :func:`wins_after` is, else the dice-count model
  (:func:`dice_model`), the chance to win if every round's loser were equally likely to be any
  seat in play. A rollout's outcomes are many and close (one seat or another a die short): the
  self-play's games would cost seconds a decision and differ by less than their own noise,
  where the model costs nothing and agrees with the self-play within it (docs/analysis.md).

An estimate is drawn from a generator seeded by the seed and the position alone, and kept per
process, so a position is valued alike wherever and in whatever order it is asked (the same
seed gives the same chart with any number of worker processes).
"""

from __future__ import annotations

import functools
import json
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final, Literal

from perudo.bots.prob_bot import ProbBot
from perudo.core import GameState, Phase, PlayerAction, PlayerView, RuleSet, start_round, view
from perudo.sim.driver import run
from perudo.solve.match import Position
from perudo.solve.shipped import read_book

__all__ = [
    "Chances",
    "dice_model",
    "match_wins",
    "position_key",
    "rules_key",
    "seat_chance",
    "wins_after",
]


@dataclass(frozen=True)
class Chances:
    """Each seat's chance to win the game from one position."""

    wins: tuple[float, ...] | None
    """By seat; ``None`` where no game was played to estimate it."""
    method: Literal["exact", "estimate", "none"]
    games: int
    """The self-play games of an estimate (0 when exact)."""


def rules_key(rules: RuleSet) -> str:
    """The rules by their fields (a rule set that crossed to a worker process is found by its
    fields, not by its identity)."""
    return json.dumps(rules.to_dict(), sort_keys=True)


@functools.cache
def match_wins() -> dict[Any, float]:
    """The shipped book's match values: the opener's chance to win from each position, by
    :func:`rules_key` and the position."""
    return {(rules_key(rules), pos): w for (rules, pos), w in read_book().wins.items()}


def position_key(public: PlayerView) -> tuple[Any, ...]:
    """What :func:`wins_after` reads of a public view, as a key."""
    return (
        rules_key(public.rules),
        public.phase.value,
        public.winner,
        public.dice_counts,
        public.opener,
        public.palifico,
        public.palifico_used,
    )


_CACHE: OrderedDict[tuple[Any, ...], Chances] = OrderedDict()
_CACHE_SIZE: Final = 4096
_LOCK = threading.Lock()


def wins_after(public: PlayerView, games: int, seed: int = 0) -> Chances:
    """Each seat's chance to win the game from ``public``, the public view just after a round:
    exact for a game over or a heads-up match position the book holds, else estimated from
    ``games`` games of self-play (more with fewer players in: ``games × 6 / players``) by
    ``prob`` bots from fresh dice, or none when ``games`` is 0."""
    key = (*position_key(public), games, seed)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    found = _compute(public, games, random.Random(repr(key)))
    with _LOCK:
        _CACHE[key] = found
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def seat_chance(public: PlayerView, seat: int) -> tuple[float, Literal["exact", "model"]]:
    """``seat``'s chance to win the game from ``public``, the public view just after a round:
    exact where :func:`wins_after` is, else :func:`dice_model`'s."""
    exact = _exact(public)
    if exact is not None:
        return exact[seat], "exact"
    return dice_model(public.dice_counts, seat), "model"


def dice_model(counts: tuple[int, ...], seat: int) -> float:
    """``seat``'s chance to win the game from these dice counts if every round's loser were
    equally likely to be any seat in play, and nobody gained a die: a random walk on the dice
    counts, solved exactly (seats in play with equal skill; who opens, palifico and calza are
    left out).

    >>> dice_model((1, 1), 0), dice_model((2, 1), 0), dice_model((0, 3), 1)
    (0.5, 0.75, 1.0)
    """
    others = tuple(sorted(c for s, c in enumerate(counts) if s != seat and c))
    return _walk(counts[seat], others)


@functools.cache
def _walk(mine: int, others: tuple[int, ...]) -> float:
    if mine == 0:
        return 0.0
    if not others:
        return 1.0
    total = _walk(mine - 1, others)
    for k, c in enumerate(others):
        rest = (*others[:k], *((c - 1,) if c > 1 else ()), *others[k + 1 :])
        total += _walk(mine, tuple(sorted(rest)))
    return total / (1 + len(others))


def _exact(public: PlayerView) -> tuple[float, ...] | None:
    """Each seat's chance where it is known exactly: the game is over, or a heads-up match
    position the book holds."""
    n = public.num_players
    if public.phase is Phase.GAME_OVER:
        return tuple(1.0 if s == public.winner else 0.0 for s in range(n))
    alive = [s for s, c in enumerate(public.dice_counts) if c]
    if len(alive) == 2 and public.opener in alive:
        other = alive[0] if alive[1] == public.opener else alive[1]
        kind = (
            "choose"
            if public.phase is Phase.CHOOSE_PALIFICO
            else ("palifico" if public.palifico else "normal")
        )
        pos = Position(
            (public.dice_counts[public.opener], public.dice_counts[other]),
            (public.palifico_used[public.opener], public.palifico_used[other]),
            kind,  # type: ignore[arg-type]
        )
        w = match_wins().get((rules_key(public.rules), pos))
        if w is not None:
            out = [0.0] * n
            out[public.opener], out[other] = w, 1.0 - w
            return tuple(out)
    return None


def _compute(public: PlayerView, games: int, rng: random.Random) -> Chances:
    n = public.num_players
    exact = _exact(public)
    if exact is not None:
        return Chances(exact, "exact", 0)
    alive = [s for s, c in enumerate(public.dice_counts) if c]
    if games <= 0:
        return Chances(None, "none", 0)
    # Fewer players make shorter, cheaper games: more of them for the same time.
    games = games * 6 // max(2, len(alive))
    counts = [0] * n
    bots = [ProbBot(s, temperature=0.0) for s in range(n)]

    def act(state: GameState, seat: int) -> PlayerAction:
        return bots[seat].act(view(state, seat))

    def calza(state: GameState, seat: int) -> bool:
        return bots[seat].call_calza(view(state, seat))

    for _ in range(games):
        faces = public.rules.faces
        hands = [tuple(rng.randint(1, faces) for _ in range(c)) for c in public.dice_counts]
        start = start_round(
            public.rules,
            hands,
            opener=public.opener,
            palifico=public.palifico,
            palifico_used=[s for s, u in enumerate(public.palifico_used) if u],
        )
        end = run(start, rng, act, calza)
        assert end.winner is not None
        counts[end.winner] += 1
    return Chances(tuple(c / games for c in counts), "estimate", games)
