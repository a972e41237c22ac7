"""The pruned CFR+ update (skip the histories the other player never reaches) against the
dense update: the same regrets, averages and exploitability, on small games."""

from __future__ import annotations

import numpy as np
import pytest
from tests.solve.support import GAMES, PERUDO3

from perudo import PERUDO
from perudo.solve import RoundGame
from perudo.solve.cfr import CFRSolver

STATE = ("regret_r", "regret_d", "avg_r", "avg_d", "cur_r", "cur_d")


def _copy_state(src: CFRSolver, dst: CFRSolver) -> None:
    for name in STATE:
        setattr(dst, name, [a.copy() for a in getattr(src, name)])
    dst.iterations = src.iterations


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), GAMES)
@pytest.mark.parametrize("algorithm", ["cfr+", "cfr+linear"])
def test_one_pruned_iteration_equals_one_dense_iteration(label, rules, dice, palifico, algorithm):
    """From the same state (after enough iterations that regret matching+ has zeroed many
    histories), one pruned iteration gives the dense iteration's regrets and averages up to
    rounding, and the same strategy wherever a node's regrets are not within rounding of zero
    (there regret matching+ may fall back to the uniform strategy on either side)."""
    game = RoundGame(rules, dice, palifico=palifico)
    dense = CFRSolver(game, algorithm, prune=False)
    dense.iterate(60)
    pruned = CFRSolver(game, algorithm, prune=True, kernel=dense.kernel)
    assert pruned.prune and not dense.prune
    _copy_state(dense, pruned)
    live = [(dense._reach_of(1 - u).sum(axis=2) > 0).mean() for u in (0, 1)]
    assert min(live) < 0.9, "the test should exercise pruning"
    dense.iterate(1)
    pruned.iterate(1)
    for name in ("regret_r", "regret_d", "avg_r", "avg_d"):
        for p in (0, 1):
            scale = max(1.0, float(np.abs(getattr(dense, name)[p]).max()))
            np.testing.assert_allclose(
                getattr(pruned, name)[p], getattr(dense, name)[p], rtol=0, atol=1e-12 * scale
            )
    k = dense.kernel
    for p in (0, 1):
        norm = dense.regret_d[p].copy()
        norm[0] += dense.regret_r[p][0]
        for r in range(1, k.n):
            h = 1 << (r - 1)
            norm[:h] += dense.regret_r[p][h : 2 * h]
        firm = norm > 1e-9
        np.testing.assert_allclose(pruned.cur_d[p][firm], dense.cur_d[p][firm], atol=1e-9)
        edges = firm[k.parent]
        np.testing.assert_allclose(pruned.cur_r[p][edges], dense.cur_r[p][edges], atol=1e-9)


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), GAMES[:3])
def test_pruned_run_reaches_the_dense_run_exploitability(label, rules, dice, palifico):
    game = RoundGame(rules, dice, palifico=palifico)
    dense = CFRSolver(game, "cfr+", prune=False)
    pruned = CFRSolver(game, "cfr+", prune=True, kernel=dense.kernel)
    dense.iterate(200)
    pruned.iterate(200)
    k = dense.kernel
    e_dense = k.exploitability(dense.average())[2]
    e_pruned = k.exploitability(pruned.average())[2]
    assert e_pruned == pytest.approx(e_dense, rel=1e-3)


def test_pruning_is_only_for_regret_matching_plus_and_on_by_default_for_large_trees():
    small = RoundGame(PERUDO, (1, 1))
    big = RoundGame(PERUDO3, (2, 2))
    assert not CFRSolver(small).prune
    assert CFRSolver(small, prune=True).prune
    assert not CFRSolver(small, "dcfr", prune=True).prune
    assert not CFRSolver(small, "pcfr+", prune=True).prune
    assert CFRSolver(big).prune == (big.rows >= 1 << 14)
