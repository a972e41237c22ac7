"""The sequence-form linear program of a round, solved with HiGHS (scipy).

Koller, Megiddo and von Stengel's sequence form: the opener's realization plan ``x`` and the
other player's ``y`` satisfy ``E x = e`` and ``F y = f``; the game value is
``max_x min_y xᵀ A y``. Dualizing the inner minimum gives one LP,

    maximize z₀  subject to  Fᵀ z − Aᵀ x ≤ 0,  E x = e,  x ≥ 0,

whose duals on ``Fᵀ z − Aᵀ x ≤ 0`` are the other player's realization plan. Only reachable
nodes and legal actions become sequences. Exact to HiGHS's tolerances, and fast for small
rounds (one die each); the matrix grows with ``2**bids`` × hands², so larger rounds go to
:mod:`perudo.solve.cfr`.
"""

from __future__ import annotations

import numpy as np

from .game import RoundGame
from .vector import Array, Kernel, Profile

__all__ = ["solve_lp"]


def _parent(k: int) -> int:
    return k - (1 << (k.bit_length() - 1))


class _Sequences:
    """Sequence numbering of one player: 0 is the empty sequence."""

    def __init__(self, game: RoundGame, p: int) -> None:
        self.p = p
        hands = len(game.hands[p])
        reach = game.reachable[p]
        lr = game.raise_legal[p]
        rows = game.rows
        # Raise edge j is a sequence when its parent node is reachable and the raise legal.
        parent = np.zeros(rows, dtype=np.int64)
        idx = np.arange(rows)
        for r in range(1, game.num_bids):
            h = 1 << (r - 1)
            parent[h : 2 * h] = idx[:h]
        edge_ok = lr & reach[parent]
        dudo_ok = game.dudo_legal[p] & reach
        self.edge_ok = edge_ok
        self.dudo_ok = dudo_ok
        self.edge_id = np.full((rows, hands), -1, dtype=np.int64)
        self.dudo_id = np.full((rows, hands), -1, dtype=np.int64)
        n = 1
        ne = int(edge_ok.sum())
        self.edge_id[edge_ok] = n + np.arange(ne * hands).reshape(ne, hands)
        n += ne * hands
        nd = int(dudo_ok.sum())
        self.dudo_id[dudo_ok] = n + np.arange(nd * hands).reshape(nd, hands)
        n += nd * hands
        self.count = n
        self.parent = parent
        self.hands = hands

    def node_parent_seq(self, node: int, hand: int) -> int:
        """The player's last sequence before its node ``node`` (0: empty)."""
        if self.p == 0:
            return 0 if node == 0 else int(self.edge_id[_parent(node), hand])
        if node == 0:
            return 0
        grand = _parent(node)
        return 0 if grand == 0 else int(self.edge_id[grand, hand])


def _constraints(game: RoundGame, seq: _Sequences) -> tuple[list[int], list[int], list[float], int]:
    """Rows of ``E`` (one per information state, plus the empty sequence): the sum of the
    actions' sequences equals the parent sequence."""
    rows: list[int] = [0]
    cols: list[int] = [0]
    vals: list[float] = [1.0]
    row = 1
    p = seq.p
    for k in game.iter_reachable(p):
        actions: list[int] = []
        if p == 0 and k == 0 and seq.edge_ok[0]:
            actions.append(0)
        top = int(game.top[p][k])
        for r in range(max(top, 0) + 1, game.num_bids):
            j = game.edge_of(k, r)
            if seq.edge_ok[j]:
                actions.append(j)
        for i in range(seq.hands):
            for j in actions:
                rows.append(row)
                cols.append(int(seq.edge_id[j, i]))
                vals.append(1.0)
            if seq.dudo_ok[k]:
                rows.append(row)
                cols.append(int(seq.dudo_id[k, i]))
                vals.append(1.0)
            rows.append(row)
            cols.append(seq.node_parent_seq(k, i))
            vals.append(-1.0)
            row += 1
    return rows, cols, vals, row


def solve_lp(game: RoundGame) -> tuple[Profile, float]:
    """An exact equilibrium of ``game`` and its value for the opener, by linear programming.

    :raises RuntimeError: if HiGHS does not report an optimal solution.
    """
    try:
        from scipy import sparse  # type: ignore[import-untyped]
        from scipy.optimize import linprog  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the research extra installs scipy
        raise ImportError(
            "the LP solver needs scipy (HiGHS): pip install 'perudo[research]'"
        ) from None

    s0, s1 = _Sequences(game, 0), _Sequences(game, 1)
    w0, w1 = game.hands[0].weights, game.hands[1].weights
    c0, c1 = game.counts
    # A (player 0 sequences × player 1 sequences): the opener's payoff at each dudo.
    a_rows: list[np.ndarray] = []
    a_cols: list[np.ndarray] = []
    a_vals: list[np.ndarray] = []
    for p in (0, 1):
        caller_seq = (s0, s1)[p]
        bidder_seq = (s0, s1)[1 - p]
        for k in game.iter_reachable(p):
            if not game.dudo_legal[p][k]:
                continue
            r = int(game.top[p][k])
            f = game.bids[r].face - 1
            u = game.utility[r, 1 - p][c0[:, f][:, None] + c1[:, f][None, :]]
            u = u * w0[:, None] * w1[None, :]
            if p == 0:
                seq0 = caller_seq.dudo_id[k]
                seq1 = bidder_seq.edge_id[k]
            else:
                seq0 = bidder_seq.edge_id[k]
                seq1 = caller_seq.dudo_id[k]
            a_rows.append(np.repeat(seq0, len(seq1)))
            a_cols.append(np.tile(seq1, len(seq0)))
            a_vals.append(u.ravel())
    a = sparse.csr_matrix(
        (np.concatenate(a_vals), (np.concatenate(a_rows), np.concatenate(a_cols))),
        shape=(s0.count, s1.count),
    )
    er, ec, ev, ne = _constraints(game, s0)
    e = sparse.csr_matrix((ev, (er, ec)), shape=(ne, s0.count))
    fr, fc, fv, nf = _constraints(game, s1)
    f_mat = sparse.csr_matrix((fv, (fr, fc)), shape=(nf, s1.count))
    # Variables: x (s0.count, ≥ 0) then z (nf, free). Maximize z[0].
    nx = s0.count
    cost = np.zeros(nx + nf)
    cost[nx] = -1.0
    a_ub = sparse.hstack([-a.T, f_mat.T]).tocsc()
    b_ub = np.zeros(s1.count)
    a_eq = sparse.hstack([e, sparse.csr_matrix((ne, nf))]).tocsc()
    b_eq = np.zeros(ne)
    b_eq[0] = 1.0
    bounds = np.array([(0.0, None)] * nx + [(None, None)] * nf, dtype=object)
    res = linprog(
        cost,
        A_ub=a_ub,
        b_ub=b_ub,
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds.tolist(),
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"HiGHS did not solve the round's LP: {res.message}")
    x = res.x[:nx]
    y = -np.asarray(res.ineqlin.marginals)
    kernel = Kernel(game)
    raises: list[Array] = []
    dudo: list[Array] = []
    for seq, plan in ((s0, x), (s1, y)):
        rr = kernel.zeros(seq.p)
        dd = kernel.zeros(seq.p)
        ok = seq.edge_id >= 0
        rr[ok] = np.maximum(plan[seq.edge_id[ok]], 0.0)
        ok = seq.dudo_id >= 0
        dd[ok] = np.maximum(plan[seq.dudo_id[ok]], 0.0)
        kernel.normalize(seq.p, rr, dd)
        raises.append(rr)
        dudo.append(dd)
    return Profile((raises[0], raises[1]), (dudo[0], dudo[1])), float(-res.fun)
