"""Head to head: one bot against copies of another, whole games or single rounds, with a running
tally.

Run (nicely, on a shared machine)::

    nice -n 10 .venv/bin/python benchmarks/head_to_head.py expert hard --rules perudo \
        --players 2 --games 2000 --seed 1
    nice -n 10 .venv/bin/python benchmarks/head_to_head.py expert hard --rules perudo_calza \
        --players 6 --games 2000 --seed 1 --minutes 30
    nice -n 10 .venv/bin/python benchmarks/head_to_head.py expert strong --round 2,1 \
        --games 2000 --seed 1 --minutes 10
    nice -n 10 .venv/bin/python benchmarks/head_to_head.py expert strong --round 1,3 \
        --palifico --games 2000 --seed 1

The first bot takes one seat, the second every other seat; game ``g`` seats the first bot at
seat ``g mod players``, so over a multiple of ``players`` games it sits in every seat equally
often. Game ``g``'s dice and bot seeds come from ``(seed, g)`` only. Every ``--every`` games
(and at the end) it prints the first bot's wins, win rate and 95% Wilson interval, so a run
stopped by ``--minutes`` still reports every game it finished. ``perudo arena`` gives the
full table (places, ratings); this is the long-running, interruptible form of one line of it.

``--round D1,D2`` plays heads-up **single rounds** instead (``--games`` of them), from
:func:`perudo.core.start_round` through the one driver (:func:`perudo.sim.driver.play_out_round`):
the first bot holds ``D1`` dice, the other ``D2``, whichever seat it sits in; with
``--seat-dice`` the dice stay with the seat instead: the opener holds ``D1``, the responder
``D2``, whoever sits there (issue 17's convention, where ``2v1`` and ``1v2`` are two different
rounds and an even match is 50%). Round ``r`` seats the first bot as the opener when ``r`` is
even and as the responder when it is odd, so every two rounds it opens once; round ``r``'s dice
and bot seeds come from ``(seed, r)`` only. It wins the round when it loses no die (P-20,
P-21); the tally also splits its wins by seat (as opener / as responder). ``--rules joker`` (the
default with ``--round``) is issue 17's joker game, thomasahle/liars-dice's (dudo.ai's) rules:
six faces, 1s wild and ranked as the lowest ordinary face, bids by quantity then face, the call
decides the round — :func:`perudo.solve.shipped.joker_rules` with ``max(D1, D2)`` dice; a
preset name plays one round of that preset. ``--palifico`` (``--round 1,N``, Perudo unless
``--rules`` says another preset with palifico heads-up) makes each round a palifico round that
the one-die opener declares (P-30, P-34), the dice with the seat: the round where `strong`
could be read heads-up (docs/bots.md). ``--habit H`` seats the first bot with one habit of
:mod:`perudo.bots.deviations` (as ``benchmarks/exploiters.py`` seats its deviant), in games or
rounds: against players who do not read it, is the habit a better way to play, or only a read?
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from perudo.arena.stats import wilson
from perudo.bots.base import Bot
from perudo.bots.deviations import DEVIATIONS, deviate
from perudo.core import GameState, PlayerAction, RuleSet, find_ruleset, start_round, view
from perudo.registry import make_bot
from perudo.sim.driver import play_out_round
from perudo.sim.match import play_game
from perudo.solve.shipped import round_rules

T = TypeVar("T")


@dataclass(frozen=True)
class RoundOutcome:
    """One single round of the head to head: who opened and whether the first bot won."""

    index: int
    opened: bool
    """The first bot opened the round (seat 0)."""
    dice: tuple[int, int]
    """Dice per seat as dealt (seat 0 opens)."""
    won: bool
    """The first bot lost no die."""


def play_rounds(
    rules: RuleSet,
    bot: str,
    other: str,
    dice: tuple[int, int],
    rounds: int,
    seed: int,
    *,
    seat_dice: bool = False,
    palifico: bool = False,
    habit: str | None = None,
) -> Iterator[RoundOutcome]:
    """``rounds`` single rounds, ``bot`` holding ``dice[0]`` dice and ``other`` ``dice[1]``
    (``seat_dice``: the opener ``dice[0]``, the responder ``dice[1]``); ``bot`` opens round
    ``r`` when ``r`` is even. Round ``r``'s dice and seeds: ``(seed, r)``. ``palifico``: each
    round is a palifico round, declared by its one-die opener (P-30): the dice stay with the
    seat. ``habit``: the first bot plays with that deviation (:func:`first_bot`)."""
    if palifico and dice[0] != 1:
        raise ValueError(f"a palifico round is opened with one die (P-30), not {dice[0]}")
    seat_dice = seat_dice or palifico
    for r in range(rounds):
        rng = random.Random(f"h2h-round:{seed}:{r}")
        me = r % 2
        counts = (dice[0], dice[1]) if me == 0 or seat_dice else (dice[1], dice[0])
        seeds = (rng.getrandbits(62), rng.getrandbits(62))
        bots = [
            first_bot(bot, seeds[s], habit) if s == me else make_bot(other, seeds[s])
            for s in (0, 1)
        ]
        hands = [[rng.randint(1, rules.faces) for _ in range(c)] for c in counts]
        state = start_round(rules, hands, opener=0, palifico=palifico)

        def act(state: GameState, seat: int, bots: list[Bot] = bots) -> PlayerAction:
            return bots[seat].act(view(state, seat))

        def calza(state: GameState, seat: int, bots: list[Bot] = bots) -> bool:
            return bots[seat].call_calza(view(state, seat))

        end = play_out_round(state, rng, act, calza)
        yield RoundOutcome(r, me == 0, counts, end.dice_counts[me] >= counts[me])


def first_bot(name: str, seed: int, habit: str | None) -> Bot:
    """The first bot: ``name``, playing with the deviation ``habit`` of
    :mod:`perudo.bots.deviations` where one is named (as ``benchmarks/exploiters.py`` seats its
    deviant): is a habit a read of the others, or a better way to play against them?"""
    made = make_bot(name, seed)
    return made if habit is None else deviate(made, habit)


def play_games(
    rules: RuleSet,
    bot: str,
    other: str,
    players: int,
    games: int,
    seed: int,
    *,
    habit: str | None = None,
) -> Iterator[bool]:
    """``games`` whole games, one ``bot`` against ``players - 1`` copies of ``other``; ``bot``
    sits at seat ``g mod players`` in game ``g``, whose dice and seeds come from ``(seed, g)``.
    ``habit``: ``bot`` plays with that deviation. Yields whether ``bot`` won each game."""
    for g in range(games):
        rng = random.Random(f"h2h:{seed}:{g}")
        me = g % players
        bots = [
            first_bot(bot, rng.getrandbits(62), habit)
            if s == me
            else make_bot(other, rng.getrandbits(62))
            for s in range(players)
        ]
        yield play_game(rules, bots, rng).winner == me


def tally(
    outcomes: Iterable[T],
    won: Callable[[T], bool],
    label: str,
    note: Callable[[list[T]], str],
    *,
    total: int,
    every: int,
    minutes: float,
) -> list[T]:
    """Play ``outcomes`` out, printing the first bot's wins, win rate, 95% Wilson interval,
    ``note`` of the outcomes so far and the seconds taken every ``every`` outcomes, at the
    ``total``-th and when ``minutes`` have run out (then it stops); returns the outcomes."""
    done: list[T] = []
    wins = 0
    start = time.perf_counter()
    for out in outcomes:
        done.append(out)
        wins += won(out)
        n = len(done)
        elapsed = time.perf_counter() - start
        if n % every == 0 or n == total or elapsed > minutes * 60:
            lo, hi = wilson(wins, n)
            print(
                f"{label}: {wins}/{n} = {wins / n:.1%} (95% CI {lo:.1%}–{hi:.1%}; "
                f"{note(done)}) {elapsed:.0f}s",
                flush=True,
            )
        if elapsed > minutes * 60:
            break
    return done


def seat_split(outs: list[RoundOutcome]) -> str:
    """The first bot's wins as opener and as responder."""
    opening = [o.won for o in outs if o.opened]
    responding = [o.won for o in outs if not o.opened]
    return f"opening {sum(opening)}/{len(opening)}, responding {sum(responding)}/{len(responding)}"


def round_main(args: argparse.Namespace) -> None:
    """The ``--round`` mode: single rounds with a running tally."""
    a, b = (int(x) for x in args.round.split(","))
    name = args.rules or ("perudo" if args.palifico else "joker")
    rules = round_rules(name, (a, b))
    if args.palifico and (a != 1 or rules.palifico != "on"):
        raise SystemExit(
            f"--palifico: the opener holds one die (--round 1,N; P-30) under rules with "
            f"palifico heads-up (P-34), not {a} dice under {name}"
        )
    seat_dice = args.seat_dice or args.palifico
    kind = "palifico rounds" if args.palifico else "rounds"
    seats = ", dice with the seat" if seat_dice else ""
    label = f"{_first_label(args)} vs {args.others} ({name} {a}v{b} {kind}{seats})"
    outs = play_rounds(
        rules,
        args.bot,
        args.others,
        (a, b),
        args.games,
        args.seed,
        seat_dice=seat_dice,
        palifico=args.palifico,
        habit=args.habit,
    )
    tally(
        outs,
        lambda out: out.won,
        label,
        seat_split,
        total=args.games,
        every=args.every,
        minutes=args.minutes,
    )


def game_main(args: argparse.Namespace) -> None:
    """Whole games with a running tally."""
    if args.palifico or args.seat_dice:
        raise SystemExit("--palifico and --seat-dice are options of single rounds (--round)")
    rules_name = args.rules or "perudo"
    n = args.players
    rules = find_ruleset(rules_name)
    games = play_games(rules, args.bot, args.others, n, args.games, args.seed, habit=args.habit)
    tally(
        games,
        bool,
        f"{_first_label(args)} vs {args.others} ({rules_name}, {n} seats)",
        lambda _: f"fair share {1 / n:.1%}",
        total=args.games,
        every=args.every,
        minutes=args.minutes,
    )


def _first_label(args: argparse.Namespace) -> str:
    return str(args.bot) if args.habit is None else f"{args.bot} with {args.habit}"


def arguments() -> argparse.ArgumentParser:
    """The command line (``main`` reads it; the tests give it theirs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("others")
    parser.add_argument("--rules", default=None, help="perudo (games) / joker (--round)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=float("inf"))
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--round", default=None, help="D1,D2: single heads-up rounds")
    parser.add_argument(
        "--seat-dice", action="store_true", help="--round: the opener holds D1, the responder D2"
    )
    parser.add_argument(
        "--palifico",
        action="store_true",
        help="--round 1,N: palifico rounds, opened with one die (implies --seat-dice)",
    )
    parser.add_argument(
        "--habit",
        default=None,
        choices=sorted(DEVIATIONS),
        help="the first bot plays with this habit (perudo.bots.deviations)",
    )
    return parser


def main() -> None:
    args = arguments().parse_args()
    if args.round is not None:
        round_main(args)
    else:
        game_main(args)


if __name__ == "__main__":
    main()
