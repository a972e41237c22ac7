"""OpenSpiel's CFR on our game ``python_perudo``.

    python examples/openspiel_cfr.py --faces 4 --iterations 200
    python examples/openspiel_cfr.py --faces 6 --iterations 100   # liars_dice itself: ~300k nodes

The game is ``liars_dice_openspiel`` with one die each (one round), optionally on a smaller die
(``--faces``, the wild face being the highest, as in OpenSpiel's ``liars_dice(dice_sides=…)``).
Its tree is walked once through ``pyspiel`` and handed to OpenSpiel's C++ ``CFRSolver`` as an EFG
game; the script prints player 0's value and the exploitability of the average policy as CFR
runs, next to the same solver on OpenSpiel's own ``liars_dice`` (the values agree to ~1e-12).
With six faces the value heads for −7/258 ≈ −0.02713.
"""

from __future__ import annotations

import argparse
import time

import pyspiel

from perudo.research.openspiel_game import export_efg, load


def _value(game: pyspiel.Game, solver: pyspiel.CFRSolver) -> tuple[float, float]:
    policy = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    return value, pyspiel.exploitability(game, policy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--faces", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--every", type=int, default=0, help="print every N iterations")
    args = parser.parse_args()

    start = time.perf_counter()
    ours = load("liars_dice_openspiel", 2, 1, faces=args.faces, wild=args.faces)
    efg, infosets = export_efg(ours)
    game = pyspiel.load_efg_game(efg)
    print(
        f"python_perudo(liars_dice_openspiel, 1 die, {args.faces} faces): {sum(infosets)} "
        f"information states, tree built in {time.perf_counter() - start:.1f} s"
    )
    reference = pyspiel.load_game("liars_dice", {"dice_sides": args.faces})
    solvers = pyspiel.CFRSolver(game), pyspiel.CFRSolver(reference)
    every = args.every or max(1, args.iterations // 10)
    print(f"{'iteration':>9} {'value (ours)':>13} {'exploitability':>15} {'liars_dice':>11}")
    for i in range(1, args.iterations + 1):
        for solver in solvers:
            solver.evaluate_and_update_policy()
        if i % every == 0 or i == args.iterations:
            value, expl = _value(game, solvers[0])
            ref_value, _ = _value(reference, solvers[1])
            print(f"{i:>9} {value:>13.6f} {expl:>15.6f} {ref_value:>11.6f}")
    if args.faces == 6:
        print(f"liars_dice's value for player 0: -7/258 = {-7 / 258:.6f}")


if __name__ == "__main__":
    main()
