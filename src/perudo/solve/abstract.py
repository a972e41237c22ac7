"""Rounds too big for a perfect-recall solve: an abstraction solved on a small graph, and its
exploitability measured exactly in the full game.

Two dice each (Perudo, six faces) make ``2**23`` public nodes per player and about 3.5e8
information states per player: the arrays of a perfect-recall CFR (regrets, average and current
strategy for both players, reach and values) need more than 8 GiB in float32. Here a player
remembers only the *last k bids* (its hand, whose turn, and those bids): an imperfect-recall
abstraction in the spirit of Neller and Lanctot's Dudo solver.

Because the strategy depends on the last k bids only, the sum of a player's reach over every
history with the same last k bids follows the abstract graph, and so does the value below it
(a matrix over both players' hands). CFR+ on that graph (a few hundred to a few thousand nodes)
is therefore exactly CFR+ with the abstraction, summed over the full tree's histories, at a tiny
fraction of the cost. With ``k`` at least the number of bids the abstraction is the full game
and the iterates are those of :class:`~perudo.solve.cfr.CFRSolver` (checked in the tests).

The strategy found is then expanded, block by block, onto the full tree, where the exact best
response of each player is computed (:func:`exact_exploitability`, float32 arrays of
``2 × 2**(bids-1) × hands``): the figure is the true exploitability in the real game, not in
the abstraction.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import numpy.typing as npt

from .game import RoundGame
from .vector import Array, Kernel, single_threaded_blas

__all__ = ["AbstractCFR", "benchmark_big", "exact_exploitability", "node_states"]

_CHUNK = 1 << 19
"""Rows per chunk in the full-tree passes (bounds the temporary arrays)."""


class AbstractCFR:
    """CFR+ (quadratic averaging, alternating updates) on the graph of "last ``memory`` bids"
    states of ``game``."""

    def __init__(self, game: RoundGame, memory: int) -> None:
        if memory < 1:
            raise ValueError("the abstraction remembers at least the last bid")
        self.game = game
        self.memory = memory
        n = game.num_bids
        states: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        index = {states[0]: 0}
        src: list[int] = []
        dst: list[int] = []
        rank: list[int] = []
        i = 0
        while i < len(states):
            p, bids = states[i]
            last = bids[-1] if bids else -1
            for r in range(last + 1, n):
                ok = game.opening[r] if last < 0 else game.raise_ok[p][last, r]
                if not ok:
                    continue
                nxt = (1 - p, (*bids, r)[-memory:])
                j = index.get(nxt)
                if j is None:
                    j = index[nxt] = len(states)
                    states.append(nxt)
                src.append(i)
                dst.append(j)
                rank.append(r)
            i += 1
        self.states = states
        self.index = index
        s = len(states)
        self.player = np.array([p for p, _ in states], dtype=np.int64)
        self.last = np.array([b[-1] if b else -1 for _, b in states], dtype=np.int64)
        self.src = np.array(src, dtype=np.int64)
        self.dst = np.array(dst, dtype=np.int64)
        self.rank = np.array(rank, dtype=np.int64)
        self.sizes = (len(game.hands[0]), len(game.hands[1]))
        h0, h1 = self.sizes
        # Dudo payoff matrices (opener's payoff) of each state with a bid.
        c0, c1 = game.counts
        self.dudo_pay = np.zeros((s, h0, h1), dtype=np.float64)
        for k in range(s):
            r = int(self.last[k])
            if r < 0:
                continue
            f = game.bids[r].face - 1
            caller = int(self.player[k])
            self.dudo_pay[k] = game.utility[r, 1 - caller][c0[:, f][:, None] + c1[:, f][None, :]]
        self.has_dudo = self.last >= 0
        # Levels: states by last bid, to process the graph in topological order.
        self.levels = [np.flatnonzero(self.last == r) for r in range(-1, n)]
        self.edges_from = [np.flatnonzero(self.last[self.src] == r) for r in range(-1, n)]
        self.edges_into = [np.flatnonzero(self.rank == r) for r in range(n)]
        # Strategies and regrets per player: raises per edge (E × H_p, zero on the other
        # player's edges), dudo per state (S × H_p).
        e = len(src)
        self.regret_r = [np.zeros((e, h)) for h in self.sizes]
        self.regret_d = [np.zeros((s, h)) for h in self.sizes]
        self.avg_r = [np.zeros((e, h)) for h in self.sizes]
        self.avg_d = [np.zeros((s, h)) for h in self.sizes]
        self.mine_e = [self.player[self.src] == p for p in (0, 1)]
        from scipy import sparse  # type: ignore[import-untyped]

        ones = np.ones(e)
        self.out_sum = sparse.csr_matrix((ones, (self.src, np.arange(e))), shape=(s, e))
        """``out_sum @ x`` sums an edge array over each state's outgoing edges."""
        self.into = [
            sparse.csr_matrix(
                (np.ones(len(idx)), (self.dst[idx], np.arange(len(idx)))), shape=(s, len(idx))
            )
            for idx in self.edges_into
        ]
        self.outof = [
            sparse.csr_matrix(
                (np.ones(len(idx)), (self.src[idx], np.arange(len(idx)))), shape=(s, len(idx))
            )
            for idx in self.edges_from
        ]
        self.mine_s = [(self.player == p) & self.has_dudo for p in (0, 1)]
        self.cur_r: list[Array] = []
        self.cur_d: list[Array] = []
        for p in (0, 1):
            r_, d_ = self._match(p, self.regret_r[p], self.regret_d[p])
            self.cur_r.append(r_)
            self.cur_d.append(d_)
        self.iterations = 0

    @property
    def num_states(self) -> int:
        return len(self.states)

    def _match(self, p: int, rr: Array, rd: Array) -> tuple[Array, Array]:
        """Regret matching+ (uniform over the legal actions where all regrets are zero)."""
        pos_r = np.where(self.mine_e[p][:, None], np.maximum(rr, 0.0), 0.0)
        pos_d = np.where(self.mine_s[p][:, None], np.maximum(rd, 0.0), 0.0)
        norm = pos_d + self.out_sum @ pos_r
        count = self.mine_s[p] + self.out_sum @ self.mine_e[p].astype(np.float64)
        zero = norm <= 0.0
        safe = np.where(zero, 1.0, norm)
        uni = np.where(count > 0, 1.0 / np.maximum(count, 1.0), 0.0)[:, None] * zero
        sig_r = pos_r / safe[self.src] + uni[self.src] * self.mine_e[p][:, None]
        sig_d = pos_d / safe + uni * self.mine_s[p][:, None]
        return sig_r, sig_d

    def _reach(self, q: int) -> Array:
        """Player ``q``'s reach summed over the histories of each state (chance included)."""
        rho = np.zeros((self.num_states, self.sizes[q]))
        rho[0] = self.game.hands[q].weights
        w = np.where(self.mine_e[q][:, None], self.cur_r[q], 1.0)
        for idx, into in zip(self.edges_into, self.into, strict=True):
            if len(idx):
                rho += into @ (rho[self.src[idx]] * w[idx])
        return rho

    def _values(self) -> Array:
        """``W[state, i0, i1]``: the opener's expected payoff below each state, by hands."""
        w = np.zeros((self.num_states, *self.sizes))
        d0, d1 = self.cur_d
        w += self.dudo_pay * np.where(self.player == 0, 1.0, 0.0)[:, None, None] * d0[:, :, None]
        w += self.dudo_pay * np.where(self.player == 1, 1.0, 0.0)[:, None, None] * d1[:, None, :]
        r0, r1 = self.cur_r
        flat = w.reshape(self.num_states, -1)
        for idx, outof in zip(reversed(self.edges_from), reversed(self.outof), strict=True):
            if not len(idx):
                continue
            child = w[self.dst[idx]]
            mine0 = self.mine_e[0][idx]
            weight = np.where(mine0[:, None, None], r0[idx][:, :, None], r1[idx][:, None, :])
            flat += outof @ (weight * child).reshape(len(idx), -1)
        return w

    def iterate(self, count: int = 1) -> None:
        for _ in range(count):
            self.iterations += 1
            for u in (0, 1):
                self._update(u)

    def _update(self, u: int) -> None:
        q = 1 - u
        t = self.iterations
        w = self._values()
        rho_q = self._reach(q)
        own = self._reach(u)
        sign = 1.0 if u == 0 else -1.0
        if u == 0:
            cfv_e = sign * np.einsum("ej,eij->ei", rho_q[self.src], w[self.dst])
            cfv_d = sign * np.einsum("sj,sij->si", rho_q, self.dudo_pay)
        else:
            cfv_e = sign * np.einsum("ei,eij->ej", rho_q[self.src], w[self.dst])
            cfv_d = sign * np.einsum("si,sij->sj", rho_q, self.dudo_pay)
        mine_e = self.mine_e[u][:, None]
        mine_s = self.mine_s[u][:, None]
        node = cfv_d * self.cur_d[u] * mine_s + self.out_sum @ (cfv_e * self.cur_r[u] * mine_e)
        inst_r = (cfv_e - node[self.src]) * mine_e
        inst_d = (cfv_d - node) * mine_s
        weight = float(t) * float(t)
        self.avg_r[u] += weight * own[self.src] * self.cur_r[u] * mine_e
        self.avg_d[u] += weight * own * self.cur_d[u] * mine_s
        self.regret_r[u] = np.maximum(self.regret_r[u] + inst_r, 0.0)
        self.regret_d[u] = np.maximum(self.regret_d[u] + inst_d, 0.0)
        self.cur_r[u], self.cur_d[u] = self._match(u, self.regret_r[u], self.regret_d[u])

    def average(self) -> tuple[list[Array], list[Array]]:
        """The average strategy: per player, raise probabilities per edge and dudo per state."""
        rs, ds = [], []
        for p in (0, 1):
            r_, d_ = self._match(p, self.avg_r[p], self.avg_d[p])
            rs.append(r_)
            ds.append(d_)
        return rs, ds

    def tables(self, dtype: npt.DTypeLike = np.float32) -> tuple[list[Array], list[Array]]:
        """The average strategy as dense tables: ``raise[p][state, rank, hand]`` and
        ``dudo[p][state, hand]``."""
        rs, ds = self.average()
        n = self.game.num_bids
        raise_t, dudo_t = [], []
        for p in (0, 1):
            t = np.zeros((self.num_states, n, self.sizes[p]), dtype=dtype)
            mine = self.mine_e[p]
            t[self.src[mine], self.rank[mine]] = rs[p][mine]
            raise_t.append(t)
            dudo_t.append(ds[p].astype(dtype))
        return raise_t, dudo_t


def node_states(game: RoundGame, cfr: AbstractCFR, player: int) -> npt.NDArray[np.int32]:
    """The abstract state of every node of ``player`` in the full tree (its last bids)."""
    rows = game.rows
    k = cfr.memory
    j = np.arange(rows, dtype=np.int64)
    b0 = (np.bitwise_count(j.astype(np.uint64)).astype(np.int64) + player) % 2
    m = 2 * j + b0
    tops = []
    rest = m.copy()
    for _ in range(k):
        _, e = np.frexp(rest.astype(np.float64))
        top = np.where(rest > 0, e.astype(np.int64) - 1, -1)
        tops.append(top)
        rest = np.where(rest > 0, rest - (np.int64(1) << np.maximum(top, 0)), 0)
    n = game.num_bids
    dense = np.full((n + 1,) * k, -1, dtype=np.int32)
    for idx, (p, bids) in enumerate(cfr.states):
        if p != player:
            continue
        padded = (-1,) * (k - len(bids)) + bids
        dense[tuple(b + 1 for b in padded)] = idx
    # tops[0] is the last bid, tops[1] the one before, …; the key is oldest first.
    key = tuple(tops[k - 1 - i] + 1 for i in range(k))
    out: npt.NDArray[np.int32] = dense[key]
    return out


class _Expanded:
    """An abstract strategy read block by block as full-tree rows (never stored whole)."""

    def __init__(self, game: RoundGame, cfr: AbstractCFR, dtype: npt.DTypeLike) -> None:
        self.raise_t, self.dudo_t = cfr.tables(dtype)
        self.node_state = [node_states(game, cfr, p) for p in (0, 1)]

    def raises(self, p: int, lo: int, hi: int, rank: int) -> Array:
        """Probabilities of the raises to ``rank`` from nodes ``lo:hi`` of player ``p``."""
        st = self.node_state[p][lo:hi]
        out: Array = self.raise_t[p][np.maximum(st, 0), rank]
        out[st < 0] = 0.0
        return out

    def dudo(self, p: int, lo: int, hi: int) -> Array:
        st = self.node_state[p][lo:hi]
        out: Array = self.dudo_t[p][np.maximum(st, 0)]
        out[st < 0] = 0.0
        return out


def _reach(k: Kernel, q: int, strat: _Expanded) -> Array:
    out = k.stacked(q)
    mine, other = out[q], out[1 - q]
    out[0, 0] = k.weights[q]
    first = strat.raises(0, 0, 1, 0)[0] if q == 0 else k.legal_f[0][0]
    out[1, 0] = out[0, 0] * first
    for r in range(1, k.n):
        h = 1 << (r - 1)
        for lo in range(0, h, _CHUNK):
            hi = min(h, lo + _CHUNK)
            np.multiply(mine[lo:hi], strat.raises(q, lo, hi, r), out=other[h + lo : h + hi])
        np.copyto(mine[h : 2 * h], other[:h])
    return out


def _best_response(k: Kernel, u: int, reach_q: Array, strat: _Expanded) -> float:
    """Like :meth:`Kernel.best_response`, in chunks, with the other player's dudo read from
    the abstract strategy; ``reach_q`` is overwritten by the values."""
    q = 1 - u
    # With equal hand counts the values overwrite the reach in place (each chunk's reach is
    # read before it is overwritten): half the memory at two dice each.
    values = reach_q if k.sizes[0] == k.sizes[1] else k.stacked(u)
    groups = [(1, 0, 0, 1)] + [(a, r, 1 << (r - 1), 1 << r) for r in range(1, k.n) for a in (0, 1)]
    for a, r, lo0, hi0 in groups:
        mats = k.mats[u][r]
        for lo in range(lo0, hi0, _CHUNK):
            hi = min(hi0, lo + _CHUNK)
            rho = reach_q[a, lo:hi]
            if a == q:
                rho = rho * strat.dudo(q, lo, hi)
            values[a, lo:hi] = (
                (rho @ mats[0]) @ mats[1][a] if isinstance(mats, tuple) else rho @ mats[a]
            )
    vu, vq = values[u], values[q]
    if u == 0:
        vu[0] = -np.inf
    else:
        vq[0] = 0.0
    lr = k.raise_legal[u]
    for r in range(k.n - 1, 0, -1):
        h = 1 << (r - 1)
        bad = np.flatnonzero(~lr[h : 2 * h])
        if len(bad) * 4 < h:
            keep = vu[bad].copy()
            np.maximum(vu[:h], vq[h : 2 * h], out=vu[:h])
            vu[bad] = keep
        else:
            for lo in range(0, h, _CHUNK):
                hi = min(h, lo + _CHUNK)
                child = np.where(lr[h + lo : h + hi, None], vq[h + lo : h + hi], -np.inf)
                np.maximum(vu[lo:hi], child, out=vu[lo:hi])
        vq[:h] += vu[h : 2 * h]
    if u == 0:
        if lr[0]:
            np.maximum(vu[0], vq[0], out=vu[0])
    else:
        vq[0] += vu[0]
    return float(k.weights[u].astype(np.float64) @ values[0, 0].astype(np.float64))


def exact_exploitability(
    game: RoundGame, cfr: AbstractCFR, dtype: npt.DTypeLike = np.float32
) -> tuple[float, float, float]:
    """``(br0, br1, exploitability)`` of ``cfr``'s average strategy in the full game."""
    k = Kernel(game, dtype)
    strat = _Expanded(game, cfr, dtype)
    out = []
    with single_threaded_blas():
        for u in (0, 1):
            q = 1 - u
            reach = _reach(k, q, strat)
            out.append(_best_response(k, u, reach, strat))
            del reach
    return out[0], out[1], (out[0] + out[1]) / 2.0


def benchmark_big(seconds: float) -> None:
    """Section D of ``benchmarks/solve.py``: Perudo 2v2 within ``seconds`` and 8 GiB."""
    from perudo import PERUDO

    print(f"\nD. perudo 2v2, normal round, within {seconds / 60:.0f} minutes and 8 GiB")
    start = time.perf_counter()
    t0 = time.perf_counter()
    game = RoundGame(PERUDO, (2, 2))
    secs = time.perf_counter() - t0
    per_player = game.rows * len(game.hands[0])
    print(
        f"  tree: {game.num_bids} bids, 2 x {game.rows:,} nodes, {per_player:,} information "
        f"states per player (built in {secs:.1f} s)"
    )
    # Each exact measurement takes about half a minute at this size; the rest goes to CFR+:
    # a quarter of the budget remembering two bids, half remembering three.
    for memory, share in ((2, 0.25), (3, 0.5)):
        cfr = AbstractCFR(game, memory)
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < share * seconds:
            cfr.iterate(5)
        solve_s = time.perf_counter() - t0
        tracemalloc.start()
        tracemalloc.reset_peak()
        t1 = time.perf_counter()
        br0, br1, expl = exact_exploitability(game, cfr)
        secs = time.perf_counter() - t1
        peak = tracemalloc.get_traced_memory()[1] / 2**30
        tracemalloc.stop()
        print(
            f"  remember {memory} bids: {cfr.num_states:,} abstract states, {cfr.iterations} "
            f"CFR+ iterations in {solve_s:.0f} s; exact exploitability in the full game "
            f"{expl:.4f} (best responses {br0:+.4f}, {br1:+.4f}: value in [{-br1:+.4f}, "
            f"{br0:+.4f}]), measured in {secs:.0f} s, peak {peak:.2f} GiB"
        )
    print(f"  total {time.perf_counter() - start:.0f} s")
