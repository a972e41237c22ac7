"""Solve the abstraction tables of every heads-up Perudo round up to five dice a side.

    nice -n 15 .venv/bin/python benchmarks/heads_up_tables.py --out DIR
    nice -n 15 .venv/bin/python benchmarks/heads_up_tables.py --out DIR --respond-to hard

The first writes the equilibrium tables (``perudo abstract`` round by round, remembering the last
two bids: docs/solver.md, "Abstraction equilibria"), the second each seat's restricted Nash
response to ``hard`` at share 0.75 (docs/solver.md, "Restricted Nash responses"), both in the
order a match meets the rounds (5v5 first). A round whose table is in ``DIR``'s index already
(same rules, dice, memory and kind) is skipped, so a run cut short goes on where it stopped.
A response skips 5v5: that is only ever a match's first round, which the gate never reads as
a chance player's (``perudo.solve.gate``).

    nice -n 15 .venv/bin/python benchmarks/heads_up_tables.py --palifico \
        --out src/perudo/solve/tables

solves the palifico rounds instead (P-30: the opener holds one die, the other three to five;
1v1 and 1v2 are the exact book's), remembering the last :data:`PALIFICO_MEMORY` bids for
:data:`PALIFICO_ITERATIONS` iterations: a few minutes in all. Those are shipped (docs/bots.md,
"The palifico round heads-up").

The budgets are what the shipped tables were solved with (:data:`EQUILIBRIUM`,
:data:`RESPONSE`): iterations, and minutes a solve (a response is two solves, one a
seat). Name ``DIR`` in ``PERUDO_ABSTRACT`` (tables) or ``PERUDO_RESPONSES`` (responses) to
play from it, or copy the files and merge the index into ``src/perudo/solve/tables/`` or
``responses/`` to ship them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from perudo.core import find_ruleset
from perudo.registry import make_bot
from perudo.solve.abstract_book import Response, build_table, read_index
from perudo.solve.exploit import policy_of

MEMORY = 2

EQUILIBRIUM: dict[tuple[int, int], tuple[int, float]] = {
    (5, 5): (80, 45.0),
    (4, 5): (100, 20.0),
    (4, 4): (150, 14.0),
    (3, 5): (150, 12.0),
    (4, 3): (150, 10.0),
    (3, 4): (150, 10.0),
}
"""Round → (iterations, minutes) of an equilibrium solve; rounds not listed: (150, 8)."""

PALIFICO_MEMORY = 4
PALIFICO_ITERATIONS = 1000
PALIFICO_ROUNDS = ((1, 3), (1, 4), (1, 5))
"""The heads-up palifico rounds past the exact book: the one-die opener against three to five
dice (P-30, P-34). A palifico round is small (one face in play, which only the one-die
player may change: P-32, P-33), so its table remembers more bids than a normal round's and is
solved to more iterations."""

RESPONSE: dict[tuple[int, int], tuple[int, float]] = {
    (4, 5): (100, 15.0),
    (4, 4): (150, 15.0),
    (3, 5): (150, 8.0),
    (4, 3): (150, 7.0),
    (3, 4): (150, 7.0),
}
"""Round → (iterations, minutes of each seat's solve) of a response; not listed: (150, 5)."""


def rounds(max_dice: int = 5) -> list[tuple[int, int]]:
    """The heads-up rounds up to ``max_dice`` a side that a match meets and neither the exact
    book (1v1, 2v1, 1v2) nor the first tables (2v2 … 3v3) hold, most dice first: the order a
    match meets them. The one that lost a die opens the next round (P-22), so past the first
    round the opener never holds ``max_dice``: 5v4, 5v3, … arise only where a third player
    went out, and are left to ``--only``."""
    out = [
        (a, b)
        for a in range(1, max_dice + 1)
        for b in range(1, max_dice + 1)
        if (max(a, b) >= 4 or (min(a, b) == 1 and max(a, b) == 3)) and (a < max_dice or a == b)
    ]
    return sorted(out, key=lambda d: (-(d[0] + d[1]), -d[0]))


def budget(dice: tuple[int, int], response: bool) -> tuple[int, float]:
    """``(iterations, minutes)`` of a round's solve (each seat's, for a response)."""
    if response:
        return RESPONSE.get(dice, (150, 5.0))
    return EQUILIBRIUM.get(dice, (150, 8.0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="directory of the tables")
    ap.add_argument("--respond-to", default=None, help="solve responses to this bot level")
    ap.add_argument("--share", type=float, default=0.75, help="the model's share (responses)")
    ap.add_argument("--max-dice", type=int, default=5)
    ap.add_argument("--only", default=None, help="one round, e.g. 5,4")
    ap.add_argument(
        "--palifico", action="store_true", help="the palifico rounds 1v3 … 1v5 (no --max-dice)"
    )
    args = ap.parse_args()
    if args.palifico and args.respond_to is not None:
        ap.error("--palifico solves equilibria: no --respond-to")
    rules = find_ruleset("perudo")
    response = None
    if args.respond_to is not None:
        policy = policy_of(make_bot(args.respond_to, seed=0))
        response = Response(args.respond_to, args.share, policy)
    todo = list(PALIFICO_ROUNDS) if args.palifico else rounds(args.max_dice)
    if args.only:
        todo = [tuple(int(x) for x in args.only.split(","))]  # type: ignore[misc]
    memory = PALIFICO_MEMORY if args.palifico else MEMORY
    for dice in todo:
        if response is not None and dice[0] == dice[1] == args.max_dice:
            continue  # the first round of every match: never behind the gate
        held = {
            (tuple(e["dice"]), e.get("response", {}).get("model"))
            for e in read_index(args.out)
            if "perudo" in e["covers"] and e["palifico"] == args.palifico and e["memory"] == memory
        }
        if (dice, args.respond_to) in held:
            print(f"{dice[0]}v{dice[1]}: in the index already")
            continue
        if args.palifico:
            iterations, minutes = PALIFICO_ITERATIONS, None
        else:
            iterations, minutes = budget(dice, response is not None)
        t0 = time.perf_counter()
        build_table(
            rules,
            dice,
            memory,
            args.out,
            palifico=args.palifico,
            iterations=iterations,
            minutes=minutes,
            measure=False,
            response=response,
        )
        print(f"{dice[0]}v{dice[1]}: {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
