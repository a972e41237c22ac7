"""Exact exploitability of every bot level, per seat, in heads-up rounds.

Run (on a shared machine, nicely)::

    nice -n 10 .venv/bin/python benchmarks/levels.py                      # every cell
    nice -n 10 .venv/bin/python benchmarks/levels.py --dice 1,1 --games joker
    nice -n 10 .venv/bin/python benchmarks/levels.py --dice 2,1 --levels medium,hard

Games: ``joker`` is the single-round game of thomasahle/liars-dice (dudo.ai's engine): six
faces, 1s wild and ranked as the lowest ordinary face, bids ordered by quantity then face, the
call decides the round: ``dataclasses.replace(LIARS_DICE_OPENSPIEL, wild_face=1,
dice_per_player=max(d1, d2))``. ``perudo`` is Perudo's rules (aces wild with the ½ / 2n+1
conversions), a normal round. ``perudo-match`` is the same round valued as part of a Perudo
match: each way the round can end is worth the opener's chance to win the match from there
(``2·W − 1``, :func:`perudo.solve.solve_match` over the positions with fewer dice), the game the
shipped book solves for Perudo (``docs/solver.md``). At one die each the two coincide (the loser
is out). Dice ``A,B``: the opener holds ``A`` dice, the other player ``B``.

For each game and dice the round is solved first (``solve_round``: the LP at one die each, DCFR
in the compiled kernel otherwise, to ``--target``), which gives the equilibrium value. Then each
level (``make_bot(level)``, exactly as the app builds it) is tabulated in each seat through the
core (:func:`perudo.solve.exploit.exploit`: every view it can meet, as in play, P-70) and
best-responded to exactly. The figure printed per seat is the **gain**: what a best response
wins per round (±1 a round) against the level sitting in that seat, less what it would win
against the equilibrium. 0 is unexploitable; 1 means the best response wins every round it
could otherwise only draw at the equilibrium value. "opener" is the level opening the round,
"responder" the level replying to the opener: the same convention as ``perudo exploit``.
The solver's own exploitability bounds the error of each gain (the equilibrium value is known
to within it). ``--cache DIR`` keeps the solved rounds (``.npz``) for the next run: a 2v1
round takes one to three minutes to solve on the shared machine.

A level whose policy puts weight on every action (``easy``) is asked about every view of the
round: about 0.13 ms a view, so 1v1 takes a second but 2v1 and 1v2 several minutes a seat.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from perudo.core import RuleSet
from perudo.registry import LEVELS, make_bot
from perudo.solve import RoundGame, Solution, solve_match, solve_round
from perudo.solve.exploit import exploit, policy_of
from perudo.solve.shipped import round_rules

GAMES = ("joker", "perudo", "perudo-match")
DICE = ((1, 1), (2, 1), (1, 2))


def rules_of(game: str, dice: tuple[int, int]) -> RuleSet:
    """The rule set of ``game`` for a round of ``dice`` (``perudo-match``: Perudo's)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return round_rules("perudo" if game == "perudo-match" else game, dice)


def solved(game: str, dice: tuple[int, int], target: float, cache: Path | None) -> Solution:
    """The round solved to ``target``, read from (or written to) ``cache`` when given."""
    rules = rules_of(game, dice)
    path = cache / f"{game}_{dice[0]}v{dice[1]}.npz" if cache is not None else None
    if path is not None and path.is_file():
        sol = Solution.load(path)
        if sol.game.rules == rules and sol.exploitability <= target:
            return sol
    if game == "perudo-match":
        match = solve_match(rules, sum(dice) - 1)
        round_game = RoundGame(rules, dice, payoff=match.payoff)
    else:
        round_game = RoundGame(rules, dice)
    sol = solve_round(round_game, target=target)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        sol.save(path)
    return sol


def measure(
    game: str, dice: tuple[int, int], levels: list[str], target: float, cache: Path | None
) -> None:
    """Solve the round, then print each level's gain per seat."""
    t = time.perf_counter()
    sol = solved(game, dice, target, cache)
    round_game = sol.game
    print(
        f"\n{game} {dice[0]}v{dice[1]}: {len(round_game.bids)} bids, "
        f"{round_game.num_infostates():,} information states; equilibrium value for the opener "
        f"{sol.value:+.6f}, solver's exploitability {sol.exploitability:.1e} "
        f"({time.perf_counter() - t:.1f} s)"
    )
    print(f"  {'level':8} {'bot':7} {'opener':>9} {'responder':>10} {'views':>10} {'time':>7}")
    for level in levels:
        gains = []
        views = 0
        t = time.perf_counter()
        for seat in (0, 1):
            bot = make_bot(level, seed=0)
            res = exploit(round_game, policy_of(bot), seat, game_value=sol.value)
            gains.append(res.gain)
            views += res.calls
        print(
            f"  {level:8} {LEVELS.get(level, level):7} {gains[0]:+9.4f} {gains[1]:+10.4f} "
            f"{views:10,} {time.perf_counter() - t:6.1f}s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", default="joker,perudo", help="joker, perudo, perudo-match (comma-separated)"
    )
    parser.add_argument(
        "--dice", nargs="+", default=[f"{a},{b}" for a, b in DICE], help="rounds, e.g. 1,1 2,1"
    )
    parser.add_argument("--levels", default="easy,medium,hard,expert")
    parser.add_argument("--target", type=float, default=1e-5, help="solver's exploitability")
    parser.add_argument("--cache", type=Path, default=None, help="keep solved rounds here")
    args = parser.parse_args()
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    for level in levels:
        make_bot(level)  # an unknown name fails here, before any solving
    for game in args.games.split(","):
        for text in args.dice:
            a, b = (int(x) for x in text.split(","))
            measure(game.strip(), (a, b), levels, args.target, args.cache)


if __name__ == "__main__":
    main()
