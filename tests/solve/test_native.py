"""The compiled kernel (perudo.solve.native) against the numpy kernel and the exact best
responses: same tree, same regrets and strategies after an iteration from the same state, the
average it accumulates, its best responses, and a result that does not depend on the threads."""

from __future__ import annotations

import dataclasses
import types

import numpy as np
import pytest
from tests.solve.support import GAMES

from perudo import PERUDO
from perudo.solve import Kernel, Profile, RoundGame, native, solve_round
from perudo.solve.cfr import CFRSolver
from perudo.solve.native import NativeCFR
from perudo.solve.solver import pick_backend, pick_method

PERUDO5 = dataclasses.replace(PERUDO, faces=5)


def test_the_kernel_is_built_where_the_tests_run():
    """make test installs with a C compiler: a missing kernel is a broken build, not a skip."""
    assert native.library_path() is not None
    assert native.available()


def _edges(game, k, p):
    """Player p's legal raises out of its reachable nodes (rows of its raise arrays)."""
    edges = game.raise_legal[p] & game.reachable[p][k.parent]
    if p == 1:
        edges[0] = False  # row 0 of player 1 is a node (the opening of rank 0), not a raise
    return edges


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), GAMES)
def test_tree_has_the_games_reachable_nodes_and_legal_raises(label, rules, dice, palifico):
    game = RoundGame(rules, dice, palifico=palifico)
    solver = NativeCFR(game, threads=1)
    for p in (0, 1):
        assert solver.nodes[p] == int(game.reachable[p].sum())
    # Every legal raise out of a reachable node leads to a reachable node of the other player.
    k = Kernel(game)
    for p in (0, 1):
        assert solver.edges[p] == int(_edges(game, k, p).sum())


def _dense_state(game, algorithm, iterations):
    dense = CFRSolver(game, algorithm, prune=False)
    dense.iterate(iterations)
    return dense


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), GAMES)
@pytest.mark.parametrize("algorithm", ["cfr+", "cfr+linear", "dcfr"])
def test_one_iteration_from_the_same_state_matches_the_numpy_kernel(
    label, rules, dice, palifico, algorithm
):
    """After 40 dense numpy iterations both kernels run one more from the same state: the same
    regrets (DCFR's discounts included) and the same strategy wherever a node's regrets are not
    within rounding of zero (there regret matching may fall back to uniform on either side)."""
    game = RoundGame(rules, dice, palifico=palifico)
    dense = CFRSolver(game, algorithm, prune=False)
    dense.iterate(40)
    k = dense.kernel
    solver = NativeCFR(game, algorithm, kernel=k, threads=1)
    solver.load(
        Profile(tuple(dense.regret_r), tuple(dense.regret_d)),
        Profile(tuple(dense.cur_r), tuple(dense.cur_d)),
        Profile(tuple(dense.avg_r), tuple(dense.avg_d)),
        dense.iterations,
    )
    dense.iterate(1)
    solver.iterate(1)
    got, cur = solver.regrets(), solver.current()
    for p in (0, 1):
        nodes, edges = game.reachable[p], _edges(game, k, p)
        scale = max(1.0, float(np.abs(dense.regret_r[p]).max()))
        np.testing.assert_allclose(got.dudo[p][nodes], dense.regret_d[p][nodes], atol=1e-12 * scale)
        np.testing.assert_allclose(
            got.raises[p][edges], dense.regret_r[p][edges], atol=1e-12 * scale
        )
        norm = np.maximum(dense.regret_d[p], 0.0)
        norm[0] += np.maximum(dense.regret_r[p][0], 0.0)
        for r in range(1, k.n):
            h = 1 << (r - 1)
            norm[:h] += np.maximum(dense.regret_r[p][h : 2 * h], 0.0)
        firm = (norm > 1e-9) & nodes[:, None]
        np.testing.assert_allclose(cur.dudo[p][firm], dense.cur_d[p][firm], atol=1e-9)
        firm_e = firm[k.parent] & edges[:, None]
        np.testing.assert_allclose(cur.raises[p][firm_e], dense.cur_r[p][firm_e], atol=1e-9)


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), GAMES)
def test_each_average_takes_the_strategy_the_other_player_faced(label, rules, dice, palifico):
    """In iteration t, player 1's average grows by t² x its reach under its strategy of that
    iteration, player 0's by t² x its reach under its strategy after its update (the one player
    1's regrets are computed against): dudo by node, raises by the reach after them."""
    game = RoundGame(rules, dice, palifico=palifico)
    k = Kernel(game)
    solver = NativeCFR(game, kernel=k, threads=1)
    solver.iterate(25)
    before, old = solver.average_weights(), solver.current()
    solver.iterate(1)
    after, new = solver.average_weights(), solver.current()
    w = 26.0**2
    for p, strategy in ((1, old), (0, new)):
        reach = k.reach(p, strategy.raises[p])
        nodes, edges = game.reachable[p], _edges(game, k, p)
        grow = after.dudo[p] - before.dudo[p]
        want = w * reach[p] * strategy.dudo[p]
        np.testing.assert_allclose(grow[nodes], want[nodes], rtol=1e-9, atol=1e-12 * w)
        grow = after.raises[p] - before.raises[p]
        want = w * reach[1 - p]
        np.testing.assert_allclose(grow[edges], want[edges], rtol=1e-9, atol=1e-12 * w)


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), GAMES)
def test_best_responses_equal_the_numpy_kernel(label, rules, dice, palifico):
    game = RoundGame(rules, dice, palifico=palifico)
    solver = NativeCFR(game, "dcfr", threads=1)
    for _ in range(3):
        solver.iterate(7)
        br0, br1, expl = solver.exploitability()
        want = solver.kernel.exploitability(solver.average())
        assert br0 == pytest.approx(want[0], abs=1e-12)
        assert br1 == pytest.approx(want[1], abs=1e-12)
        assert expl == pytest.approx(want[2], abs=1e-12)


@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr"])
def test_threads_do_not_change_the_result(algorithm):
    game = RoundGame(PERUDO5, (2, 1))
    runs = []
    for threads in (1, 2, 3):
        solver = NativeCFR(game, algorithm, dtype=np.float32, threads=threads, reach_floor=1e-8)
        solver.iterate(30)
        runs.append((solver.average_weights(), solver.regrets(), solver.exploitability()))
    for other in runs[1:]:
        for a, b in zip(runs[0][:2], other[:2], strict=True):
            for p in (0, 1):
                assert np.array_equal(a.raises[p], b.raises[p])
                assert np.array_equal(a.dudo[p], b.dudo[p])
        assert other[2] == runs[0][2]


@pytest.mark.parametrize("algorithm", ["cfr+", "cfr+linear", "dcfr"])
def test_converges_on_a_one_die_round(algorithm):
    game = RoundGame(PERUDO, (1, 1))
    solver = NativeCFR(game, algorithm, threads=2)
    solver.iterate(100)
    first = solver.exploitability()[2]
    solver.iterate(900)
    last = solver.exploitability()[2]
    assert last < first / 10
    assert last < (2e-5 if algorithm == "cfr+linear" else 1e-6)


def test_reach_floor_still_converges_and_walks_fewer_nodes():
    game = RoundGame(PERUDO5, (2, 1))
    exact = NativeCFR(game, "dcfr", dtype=np.float32, threads=2)
    floored = NativeCFR(game, "dcfr", dtype=np.float32, threads=2, reach_floor=1e-6)
    for s in (exact, floored):
        s.iterate(1500)
    assert sum(floored.visited()) < sum(exact.visited())
    assert floored.exploitability()[2] < 1e-4
    assert floored.exploitability()[2] < 3 * exact.exploitability()[2]


def test_solve_round_uses_the_compiled_kernel_on_large_rounds():
    game = RoundGame(PERUDO5, (2, 1))
    assert pick_method(game) == "dcfr"
    sol = solve_round(game, target=1e-4, time_limit=60)
    assert sol.info["backend"] == "native"
    assert sol.info["reach_floor"] == 1e-8
    assert sol.exploitability <= 1e-4
    # The figures are the returned profile's, recomputed on the whole tree in float64.
    br0, br1, expl = Kernel(game).exploitability(sol.profile)
    assert (br0, br1) == pytest.approx(sol.br, abs=1e-12)
    numpy_run = solve_round(game, method="cfr+", backend="numpy", target=1e-4, time_limit=60)
    assert numpy_run.info["backend"] == "numpy"
    assert sol.value == pytest.approx(numpy_run.value, abs=3e-4)


def test_kept_averages_are_the_averages_at_the_time_they_were_kept():
    game = RoundGame(PERUDO5, (2, 1))
    solver = NativeCFR(game, "dcfr", dtype=np.float32, threads=2, reach_floor=1e-8)
    with pytest.raises(ValueError, match="no average kept for player 0"):
        solver.kept()
    solver.iterate(20)
    at20 = solver.average()
    solver.keep(0)
    solver.keep(1)
    solver.iterate(20)
    at40 = solver.average()
    solver.keep(1)
    assert solver.kept_iterations() == (20, 40)
    kept = solver.kept()
    for p, want in ((0, at20), (1, at40)):
        assert np.array_equal(kept.raises[p], want.raises[p])
        assert np.array_equal(kept.dudo[p], want.dudo[p])
    # A later average differs, so the copy really is of the time it was kept.
    assert not np.array_equal(at20.raises[0], at40.raises[0])
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        solver.keep(2)


def test_bad_requests_are_refused_by_name():
    game = RoundGame(PERUDO, (1, 1))
    with pytest.raises(ValueError, match="pcfr\\+"):
        NativeCFR(game, "pcfr+")
    with pytest.raises(ValueError, match="threads"):
        NativeCFR(game, threads=0)
    with pytest.raises(ValueError, match="reach_floor"):
        NativeCFR(game, reach_floor=-1.0)
    with pytest.raises(ValueError, match="float16"):
        NativeCFR(game, dtype=np.float16)
    with pytest.raises(ValueError, match="compiled kernel runs"):
        pick_backend("pcfr+", "native")
    with pytest.raises(ValueError, match="unknown backend"):
        pick_backend("cfr+", "gpu")
    with pytest.raises(ValueError, match="unknown backend"):
        solve_round(game, method="cfr+", backend="gpu", max_iterations=1)


def test_more_than_64_hands_a_player_go_to_numpy():
    """A set of hands is one 64-bit mask in the kernel: a round with more hands (six dice of
    four faces: 84) is refused by name there, and solve_round's auto backend runs numpy."""
    game = RoundGame(PERUDO, (1, 1))
    wide = dataclasses.replace(game.hands[0], hands=tuple((i,) for i in range(84)))
    big = types.SimpleNamespace(hands=(wide, game.hands[1]), dice=(6, 1))
    assert len(big.hands[0]) == 84
    assert not native.fits(big)
    assert native.fits(game)
    assert pick_backend("dcfr", "auto", big) == "numpy"
    assert pick_backend("dcfr", "auto", game) == "native"
    with pytest.raises(ValueError, match="at most 64 hands"):
        pick_backend("dcfr", "native", big)


def test_a_window_of_the_average_is_its_sums_since_a_mark_and_leaves_them_as_they_were():
    """NativeCFR.window: the sums less lam x the sums at the mark (in float32), floored at 0;
    what the best responses see meanwhile; the sums restored exactly after."""
    game = RoundGame(PERUDO, (1, 1))
    kernel = Kernel(game)
    solver = NativeCFR(game, "dcfr", threads=2)
    solver.iterate(40)
    solver.mark(0)
    then = solver.average_weights()
    solver.iterate(40)
    now = solver.average_weights()
    with solver.window(0, 0.5):
        windowed = solver.average_weights()
        br = solver.exploitability()
        with pytest.raises(RuntimeError, match="window"):
            solver.iterate(1)
    for p in (0, 1):
        for got, a, b in (
            (windowed.raises[p], now.raises[p], then.raises[p]),
            (windowed.dudo[p], now.dudo[p], then.dudo[p]),
        ):
            expected = np.maximum(a - 0.5 * b.astype(np.float32).astype(np.float64), 0.0)
            assert np.array_equal(got, expected)
    profile = Profile(
        tuple(w.copy() for w in windowed.raises), tuple(w.copy() for w in windowed.dudo)
    )
    for p in (0, 1):
        kernel.normalize(p, profile.raises[p], profile.dudo[p])
    assert br == pytest.approx(kernel.exploitability(profile), abs=1e-12)
    after = solver.average_weights()
    for p in (0, 1):
        assert np.array_equal(after.raises[p], now.raises[p])
        assert np.array_equal(after.dudo[p], now.dudo[p])
    assert solver.marks() == {0: 40}
    solver.iterate(1)  # iterations run again once the window is gone
    with pytest.raises(ValueError, match="never marked"), solver.window(1, 0.5):
        pass
    with pytest.raises(ValueError, match="lam"), solver.window(0, 1.5):
        pass
    with pytest.raises(ValueError, match="slot"):
        solver.mark(native.MARKS)
