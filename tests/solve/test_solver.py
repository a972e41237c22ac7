"""Equilibria and exploitability: pinned values, and every figure computed two ways."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perudo import LIARS_DICE_OPENSPIEL, PERUDO
from perudo.solve import Kernel, RoundGame, Solution, solve_round
from perudo.solve import solver as solver_module
from perudo.solve.cfr import ALGORITHMS, CFRSolver
from perudo.solve.native import NativeCFR
from perudo.solve.packed import PackedRound
from perudo.solve.reference import reference_best_response, reference_value
from perudo.solve.solution import PlayedRound

PERUDO3 = dataclasses.replace(PERUDO, faces=3)
PERUDO4 = dataclasses.replace(PERUDO, faces=4)


def test_openspiel_liars_dice_one_die_each_is_worth_minus_7_over_258_to_the_opener():
    sol = solve_round(RoundGame(LIARS_DICE_OPENSPIEL, (1, 1)), method="lp")
    assert sol.value == pytest.approx(-7 / 258, abs=1e-6)
    assert sol.exploitability <= 1e-9
    lo, hi = sol.value_bounds
    assert lo - 1e-9 <= -7 / 258 <= hi + 1e-9


def test_perudo_one_die_each_normal_and_palifico_values():
    normal = solve_round(RoundGame(PERUDO, (1, 1)), method="lp")
    palifico = solve_round(RoundGame(PERUDO, (1, 1), palifico=True), method="lp")
    assert normal.value == pytest.approx(-1 / 18, abs=1e-9)
    assert palifico.value == pytest.approx(-1 / 9, abs=1e-9)


def test_cfr_plus_reaches_the_lp_value():
    game = RoundGame(PERUDO4, (1, 1))
    exact = solve_round(game, method="lp")
    approx = solve_round(game, method="cfr+", target=1e-7, max_iterations=5000)
    assert approx.exploitability <= 1e-7
    assert approx.value == pytest.approx(exact.value, abs=2e-7)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_lowers_exploitability(algorithm):
    game = RoundGame(PERUDO3, (2, 1))
    solver = CFRSolver(game, algorithm)
    k = solver.kernel
    solver.iterate(5)
    early = k.exploitability(solver.average())[2]
    solver.iterate(195)
    late = k.exploitability(solver.average())[2]
    assert late < early / 5
    assert late < 2e-3


CASES = [
    ("perudo 4 faces 1v1", PERUDO4, (1, 1), False),
    ("perudo 3 faces 2v1", PERUDO3, (2, 1), False),
    ("perudo 3 faces 1v2 palifico", PERUDO3, (1, 2), True),
    (
        "openspiel 4 faces",
        dataclasses.replace(LIARS_DICE_OPENSPIEL, faces=4, wild_face=4),
        (1, 1),
        False,
    ),
]


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), CASES)
def test_exploitability_two_ways_vectorized_and_walked_through_apply(label, rules, dice, palifico):
    """A strategy far from equilibrium (a few CFR iterations): the solver's vectorized best
    responses and values equal those of a walk through the core's own tree (apply)."""
    game = RoundGame(rules, dice, palifico=palifico)
    sol = solve_round(game, method="cfr+", max_iterations=7, target=0.0)
    assert sol.exploitability > 1e-3
    br0 = reference_best_response(rules, dice, 0, sol.policy, palifico=palifico)
    br1 = reference_best_response(rules, dice, 1, sol.policy, palifico=palifico)
    value = reference_value(rules, dice, (sol.policy, sol.policy), palifico=palifico)
    assert br0 == pytest.approx(sol.br[0], abs=1e-12)
    assert br1 == pytest.approx(sol.br[1], abs=1e-12)
    assert value == pytest.approx(sol.value, abs=1e-12)


def test_float32_solves_too():
    game = RoundGame(PERUDO4, (1, 1))
    sol = solve_round(game, method="cfr+", target=1e-5, max_iterations=3000, dtype=np.float32)
    assert sol.exploitability <= 1e-5


def test_save_and_load_round_trip(tmp_path):
    game = RoundGame(PERUDO3, (1, 2), palifico=True, palifico_used=(True, True))
    sol = solve_round(game, method="lp")
    path = sol.save(tmp_path / "round")
    assert path.suffix == ".npz"
    back = Solution.load(path)
    assert back.key == sol.key
    assert back.value == pytest.approx(sol.value)
    assert back.method == "lp"
    assert back.game.palifico and back.game.palifico_used == (True, True)
    np.testing.assert_array_equal(back.game.utility, game.utility)
    again = Kernel(back.game).exploitability(back.profile)
    assert again[2] == pytest.approx(sol.exploitability, abs=1e-6)


def test_load_refuses_other_files(tmp_path):
    bad = tmp_path / "x.npz"
    np.savez(bad, something=np.zeros(3))
    with pytest.raises(ValueError, match="not a saved perudo round"):
        Solution.load(bad)


def test_a_played_round_must_say_its_strategy():
    """``PlayedRound`` is abstract: a round without ``strategy`` cannot be made."""

    class NoStrategy(PlayedRound):
        pass

    with pytest.raises(TypeError, match="strategy"):
        NoStrategy()  # type: ignore[abstract]
    assert PlayedRound.__abstractmethods__ == frozenset({"strategy"})
    assert not Solution.__abstractmethods__ and not PackedRound.__abstractmethods__


def test_cfr_needs_a_stopping_rule_and_a_known_method():
    game = RoundGame(PERUDO3, (1, 1))
    with pytest.raises(ValueError, match="stopping rule"):
        solve_round(game, method="cfr+", target=0.0)
    with pytest.raises(ValueError, match="unknown method"):
        solve_round(game, method="magic")


def test_auto_float_type_is_float32_for_three_dice_and_float64_otherwise():
    from perudo.solve.solver import pick_dtype

    assert pick_dtype(RoundGame(PERUDO, (2, 1)), 1e-6) is np.float32
    assert pick_dtype(RoundGame(PERUDO, (1, 2)), 1e-6) is np.float32
    # Tighter targets than float32 can be trusted with, and small rounds, stay float64.
    assert pick_dtype(RoundGame(PERUDO, (2, 1)), 1e-8) is np.float64
    assert pick_dtype(RoundGame(PERUDO, (1, 1)), 1e-6) is np.float64


def test_solution_records_the_float_type_cfr_ran_in():
    game = RoundGame(PERUDO4, (1, 1))
    auto = solve_round(game, method="cfr+", target=1e-3, max_iterations=50)
    single = solve_round(game, method="cfr+", target=1e-3, max_iterations=50, dtype=np.float32)
    assert auto.info["dtype"] == "float64"
    assert single.info["dtype"] == "float32"
    assert solve_round(game, method="lp").info == {}


def test_checks_go_halfway_to_where_the_curve_says_the_target_is_reached():
    from perudo.solve.solver import _halfway

    # Falling as 1/t: 1e-4 at 1,000 iterations, 5e-5 at 2,000 reaches 1e-6 at 100,000;
    # halfway is 49,000 iterations on, capped at half the iterations done.
    assert _halfway([(1000, 1e-4), (2000, 5e-5)], 1e-6) == 1000
    # Near the target: 2e-6 at 3,000 and 1.5e-6 at 4,000 (also as 1/t) reach 1e-6 at 6,000.
    assert _halfway([(3000, 2e-6), (4000, 1.5e-6)], 1e-6) == 1000
    # Steeper (as 1/t²): 1.6e-6 at 4,000 after 6.4e-6 at 2,000 reaches 1e-6 near 5,060.
    assert _halfway([(2000, 6.4e-6), (4000, 1.6e-6)], 1e-6) == 529
    # No fall, one check, or the target reached: no jump (the few-percent step applies).
    assert _halfway([(1000, 1e-4), (2000, 1e-4)], 1e-6) == 0
    assert _halfway([(1000, 1e-4)], 1e-6) == 0
    assert _halfway([(1000, 1e-4), (2000, 9e-7)], 1e-6) == 0


def test_best_of_each_keeps_each_players_best_half():
    from perudo.solve.solver import _BestOfEach

    best = _BestOfEach()
    # br0 measures player 1's strategy, br1 player 0's.
    assert best.improved(0.30, -0.20) == [0, 1]
    assert best.improved(0.25, -0.10) == [1]
    assert best.improved(0.26, -0.25) == [0]
    assert best.improved(0.27, -0.22) == []
    assert best.br == [0.25, -0.25]
    assert best.exploitability == 0.0


def test_checks_mark_the_average_and_measure_its_windows_near_the_target():
    """_windows: marks from _MARK_FROM on, each _MARK_GROWTH after the last; near the target,
    the windows since the newest mark at most half the iterations back are candidates of the
    best-of-each, and the kept profile is the best one measured."""
    game = RoundGame(PERUDO, (1, 1))
    solver = NativeCFR(game, "dcfr", threads=2)
    best = solver_module._BestOfEach()

    def check() -> None:
        br0, br1, _ = solver.exploitability()
        for player in best.improved(br0, br1):
            solver.keep(player)
        solver_module._windows(solver, best, target=1.0)

    solver.iterate(400)
    check()
    assert solver.marks() == {}
    solver.iterate(200)
    check()
    assert solver.marks() == {0: 600}
    solver.iterate(50)
    check()  # 650 < 1.15 x 600: no new mark
    assert solver.marks() == {0: 600}
    solver.iterate(550)
    full = solver.exploitability()
    with solver.window(0, 0.5):
        half = solver.exploitability()
    with solver.window(0, 1.0):
        whole = solver.exploitability()
    check()
    assert solver.marks() == {0: 600, 1: 1200}
    candidates = (full, half, whole)
    assert best.br[0] <= min(c[0] for c in candidates)
    assert best.br[1] <= min(c[1] for c in candidates)
    kernel = Kernel(game)
    br0, br1, _ = kernel.exploitability(solver.kept().astype(np.float64))
    assert (br0 + br1) / 2 == pytest.approx(best.exploitability, abs=1e-12)
