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
    args = ap.parse_args()
    rules = find_ruleset("perudo")
    response = None
    if args.respond_to is not None:
        policy = policy_of(make_bot(args.respond_to, seed=0))
        response = Response(args.respond_to, args.share, policy)
    todo = rounds(args.max_dice)
    if args.only:
        todo = [tuple(int(x) for x in args.only.split(","))]  # type: ignore[misc]
    for dice in todo:
        if response is not None and dice[0] == dice[1] == args.max_dice:
            continue  # the first round of every match: never behind the gate
        held = {
            (tuple(e["dice"]), e.get("response", {}).get("model"))
            for e in read_index(args.out)
            if "perudo" in e["covers"] and not e["palifico"] and e["memory"] == MEMORY
        }
        if (dice, args.respond_to) in held:
            print(f"{dice[0]}v{dice[1]}: in the index already")
            continue
        iterations, minutes = budget(dice, response is not None)
        t0 = time.perf_counter()
        build_table(
            rules,
            dice,
            MEMORY,
            args.out,
            iterations=iterations,
            minutes=minutes,
            measure=False,
            response=response,
        )
        print(f"{dice[0]}v{dice[1]}: {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
