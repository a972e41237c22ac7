"""solve_round drives both CFR solvers through one protocol (perudo.solve.solver.RoundSolver)."""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

from perudo import PERUDO
from perudo.solve import RoundGame, solve_round
from perudo.solve import solver as solver_module
from perudo.solve.cfr import CFRSolver


def test_solve_round_has_no_branch_on_the_solver_class() -> None:
    tree = ast.parse(inspect.getsource(solver_module.solve_round))
    calls = [
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    ]
    assert "isinstance" not in calls


def test_the_numpy_solver_keeps_the_halves_of_the_average_it_measured() -> None:
    game = RoundGame(PERUDO, (1, 1))
    solver = CFRSolver(game, "cfr+")
    with pytest.raises(ValueError, match="measured"):
        solver.keep(0)
    solver.iterate(30)
    br0, br1, expl = solver.exploitability()
    assert expl == pytest.approx((br0 + br1) / 2)
    solver.keep(0)
    with pytest.raises(ValueError, match="player 1"):
        solver.kept()
    solver.keep(1)
    average = solver.average()
    solver.iterate(30)
    kept = solver.kept()
    for p in (0, 1):
        np.testing.assert_array_equal(kept.raises[p], average.raises[p])
        np.testing.assert_array_equal(kept.dudo[p], average.dudo[p])
    assert solver.mark_slots == 0 and solver.marks() == {}


def test_solve_round_reports_the_kept_profile_on_numpy() -> None:
    game = RoundGame(PERUDO, (1, 1))
    sol = solve_round(game, method="cfr+", backend="numpy", max_iterations=300, target=0)
    assert sol.info["backend"] == "numpy"
    assert sol.iterations == 300
    assert sol.exploitability < 0.05
