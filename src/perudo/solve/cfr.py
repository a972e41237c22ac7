"""Counterfactual regret minimization over a round's public tree, vectorized over hands.

Four regret minimizers, all with alternating updates (player 0, then player 1 against the
opener's new strategy):

* ``cfr+`` — regret matching+ (regrets clipped at zero), the average weighted by ``t²``;
* ``cfr+linear`` — the same with linear averaging (weight ``t``), Tammelin's CFR+ as in
  OpenSpiel's ``CFRPlusSolver``;
* ``pcfr+`` — predictive regret matching+: the next strategy matches ``[R + r_last]+``, where
  ``r_last`` is the last instantaneous regret; quadratic averaging (Farina, Kroer, Sandholm 2021);
* ``dcfr`` — discounted CFR with α = 1.5, β = 0 (negative regrets halved each iteration), γ = 2
  (Brown, Sandholm 2019).

``cfr+`` is the default: measured on one-die rounds it needs the fewest iterations for a given
exploitability (``benchmarks/solve.py`` prints the comparison; on Liar's Dice 1v1, 1,000
iterations give 7.8e-5 against 1.3e-4 with linear averaging, and on Perudo 1v1 9e-8 against
9e-6).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from .game import RoundGame
from .vector import Array, Kernel, Profile, single_threaded_blas

__all__ = ["ALGORITHMS", "DCFR_ALPHA", "DCFR_BETA", "Algorithm", "CFRSolver", "dcfr_discount"]

_PRUNABLE: Final = ("cfr+", "cfr+linear")
"""The algorithms whose pruned update is exact: an instantaneous regret of zero leaves their
regrets (clipped at zero) and so their strategy unchanged. DCFR discounts every regret and
PCFR+ predicts with the last instantaneous regret, so both need every node each iteration."""

_PRUNE_ROWS: Final = 1 << 14
"""Prune by default from this many rows per player (three dice and more); on smaller trees the
gathers cost more than the slices they save."""

Algorithm = Literal["cfr+", "cfr+linear", "pcfr+", "dcfr"]
ALGORITHMS: Final[tuple[str, ...]] = ("cfr+", "cfr+linear", "pcfr+", "dcfr")

DCFR_ALPHA: Final = 1.5
DCFR_BETA: Final = 0.0
"""Discounted CFR's parameters (Brown and Sandholm 2019; γ = 2 is the ``t²`` average)."""


def dcfr_discount(t: int, *regrets: Array) -> None:
    """Discount ``regrets`` in place before iteration ``t``'s regrets are added (DCFR):
    positive regrets times ``t**α / (t**α + 1)``, the others times ``t**β / (t**β + 1)``
    (halved, with β = 0). Shared by :class:`CFRSolver` and
    :class:`~perudo.solve.abstract.AbstractCFR`; the compiled kernel gets the same parameters."""
    pos = t**DCFR_ALPHA / (t**DCFR_ALPHA + 1.0)
    neg = t**DCFR_BETA / (t**DCFR_BETA + 1.0)
    for arr in regrets:
        np.multiply(arr, np.where(arr > 0, pos, neg), out=arr)


def _take(a: Array, idx: Array) -> Array:
    """Rows ``idx`` of a 2-D array (a copy; ``np.take`` is several times faster than ``a[idx]``)."""
    return np.take(a, idx, axis=0)


def _put(a: Array, idx: Array, rows: Array) -> None:
    """``a[idx] = rows`` for a C-contiguous 2-D ``a`` and distinct ``idx``: each row is put as
    one opaque item (several times faster than numpy's row assignment)."""
    item = np.dtype((np.void, a.shape[1] * a.itemsize))
    src = np.ascontiguousarray(rows, dtype=a.dtype)
    np.put(a.view(item).reshape(-1), idx, src.view(item).reshape(-1))


class CFRSolver:
    """Regret minimization on one :class:`~perudo.solve.game.RoundGame`.

    ``iterate()`` runs one iteration (both players); :meth:`average` is the strategy that
    converges to an equilibrium. It is a :class:`~perudo.solve.solver.RoundSolver`, as the
    compiled :class:`~perudo.solve.native.NativeCFR` is: :meth:`exploitability` measures the
    average, :meth:`keep` copies a player's half of the average measured last and
    :meth:`kept` returns the profile of the copies; it keeps no marks, so it measures no
    windows of the average (``mark_slots == 0``).
    """

    mark_slots = 0
    """Marks for windows of the average: none in numpy (see :meth:`NativeCFR.window
    <perudo.solve.native.NativeCFR.window>`)."""

    def __init__(
        self,
        game: RoundGame,
        algorithm: str = "cfr+",
        *,
        dtype: npt.DTypeLike = np.float64,
        kernel: Kernel | None = None,
        prune: bool | None = None,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        self.algorithm = algorithm
        self.kernel = k = kernel if kernel is not None else Kernel(game, dtype)
        self.game = game
        self.iterations = 0
        self.regret_r = [k.zeros(0), k.zeros(1)]
        self.regret_d = [k.zeros(0), k.zeros(1)]
        self.avg_r = [k.zeros(0), k.zeros(1)]
        self.avg_d = [k.zeros(0), k.zeros(1)]
        self.pred_r: list[Array] = []
        self.pred_d: list[Array] = []
        if algorithm == "pcfr+":
            self.pred_r = [k.zeros(0), k.zeros(1)]
            self.pred_d = [k.zeros(0), k.zeros(1)]
        uni = k.uniform()
        self.cur_r = list(uni.raises)
        self.cur_d = list(uni.dudo)
        self._reach = [k.stacked(0), k.stacked(1)]
        self._reach_ok = [False, False]
        self._values = [k.stacked(0), k.stacked(1)]
        if prune is None:
            prune = game.rows >= _PRUNE_ROWS
        self.prune = prune and algorithm in _PRUNABLE
        """Whether the updates skip the histories the other player never reaches (exact)."""
        self._measured: Profile | None = None
        self._kept: list[tuple[Array, Array] | None] = [None, None]
        self._ones = tuple(np.ones(k.sizes[p], dtype=k.dtype) for p in (0, 1))
        self._bounds = np.array([0] + [1 << (r - 1) for r in range(1, k.n + 1)], dtype=np.int64)

    # -- one iteration -----------------------------------------------------------------------

    def iterate(self, count: int = 1, callback: Callable[[int], None] | None = None) -> None:
        """Run ``count`` iterations (each updates player 0, then player 1)."""
        with single_threaded_blas():
            for _ in range(count):
                self.iterations += 1
                for u in (0, 1):
                    if self.prune:
                        self._update_pruned(u)
                    else:
                        self._update(u)
                if callback is not None:
                    callback(self.iterations)

    def _reach_of(self, p: int) -> Array:
        """Player ``p``'s reach under its current strategy (kept until the strategy changes)."""
        if not self._reach_ok[p]:
            self.kernel.reach(p, self.cur_r[p], self._reach[p])
            self._reach_ok[p] = True
        return self._reach[p]

    def _update(self, u: int) -> None:
        k = self.kernel
        q = 1 - u
        t = self.iterations
        reach_q = self._reach_of(q)
        own = self._reach_of(u)[u]
        values = k.terminal(u, reach_q, self.cur_d[q], self._values[u])
        # Dudo's regret: its value minus the node's (subtracted once the node's is known).
        inst_d = values[u].copy()
        values[u] *= self.cur_d[u]
        k.backward(u, self.cur_r[u], values)
        inst_d -= values[u]
        inst_d *= k.dudo_f[u]
        inst_r = np.empty_like(self.regret_r[u])
        vu, vq = values[u], values[q]
        inst_r[0] = vq[0] - vu[0]
        for r in range(1, k.n):
            h = 1 << (r - 1)
            np.subtract(vq[h : 2 * h], vu[:h], out=inst_r[h : 2 * h])
            if not k.block_all_legal[u][r - 1]:
                inst_r[h : 2 * h] *= k.legal_f[u][h : 2 * h]
        inst_r[0] *= k.legal_f[u][0]
        self._accumulate(u, t, own)
        self._apply_regrets(u, t, inst_r, inst_d)
        self._strategy(u)
        self._reach_ok[u] = False

    def _update_pruned(self, u: int) -> None:
        """The update of :meth:`_update` (same regrets, strategy and average, up to rounding)
        restricted to the histories that matter: counterfactual values, regrets and the new
        strategy only at ``u``'s nodes the other player's reach (chance included) gets to,
        the average only where ``u``'s own reach is positive.

        Everywhere else the dense update adds an instantaneous regret of exactly zero (the
        values are weighted by the other player's reach), which leaves regret matching+'s
        regrets and strategy as they were, and an average weight of zero. Under regret
        matching+ most bid histories have probability zero, so the live part is small.

        ``live`` nodes of each actor are sorted row numbers; those below ``2**(r-1)`` (a
        prefix) are the parents of the raises to rank ``r``, which are their rows plus
        ``2**(r-1)``.
        """
        k = self.kernel
        q = 1 - u
        t = self.iterations
        n = k.n
        bounds = self._bounds
        reach_q = self._reach_of(q)
        own = self._reach_of(u)[u]
        cur_r, cur_d = self.cur_r[u], self.cur_d[u]

        # The average: where u's own reach is positive. A raise's weight is u's reach after
        # it, which the reach pass already holds at the other actor's node of the same row
        # (own reach of the parent × the raise's probability): only raises u makes with
        # positive probability are touched. Row 0 of the other actor is the raise of rank 0
        # for the opener, and the root (not a raise) for player 1.
        w = float(t) if self.algorithm == "cfr+linear" else float(t) * float(t)
        mine = np.flatnonzero(own @ self._ones[u] > 0)
        wown = _take(own, mine)
        wown *= w
        avg = self.avg_d[u]
        _put(avg, mine, _take(avg, mine) + wown * _take(cur_d, mine))
        after = self._reach_of(u)[q]
        e = np.flatnonzero(after @ self._ones[u] > 0)
        if u == 1 and e.size and e[0] == 0:
            e = e[1:]
        avg = self.avg_r[u]
        _put(avg, e, _take(avg, e) + _take(after, e) * w)

        # Counterfactual values where the other player's reach is positive.
        live = reach_q @ self._ones[q] > 0
        nodes = (np.flatnonzero(live[0]), np.flatnonzero(live[1]))
        ks = (np.searchsorted(nodes[0], bounds), np.searchsorted(nodes[1], bounds))
        a_nodes, ka = nodes[u], ks[u]
        values = self._values[u]
        dudo_q = self.cur_d[q]
        for r, m in enumerate(k.mats[u]):
            for a in (0, 1) if r else (1,):
                idx = nodes[a][ks[a][r] : ks[a][r + 1]]
                if not idx.size:
                    continue
                rho = _take(reach_q[a], idx)
                if a == q:
                    rho *= _take(dudo_q, idx)
                if isinstance(m, tuple):
                    _put(values[a], idx, (rho @ m[0]) @ m[1][a])
                else:
                    _put(values[a], idx, rho @ m[a])
        values[0, 0] = 0.0
        vu, vq = values[u], values[q]
        term = _take(vu, a_nodes)
        _put(vu, a_nodes, term * _take(cur_d, a_nodes))
        for r in range(n - 1, 0, -1):
            h = bounds[r]
            c = int(ka[r])
            if c:
                p = a_nodes[:c]
                e = p + h
                _put(vu, p, _take(vu, p) + _take(cur_r, e) * _take(vq, e))
            ch = a_nodes[ka[r] : ka[r + 1]]
            if ch.size:
                p = ch - h
                _put(vq, p, _take(vq, p) + _take(vu, ch))
        root_q = u == 0 and bool(live[q][0])
        if root_q:
            vu[0] += cur_r[0] * vq[0]

        # Regrets (clipped at zero) and the new strategy, at u's live nodes and their raises.
        rd, rr = self.regret_d[u], self.regret_r[u]
        term -= _take(vu, a_nodes)
        term *= _take(k.dudo_f[u], a_nodes)
        reg_d = _take(rd, a_nodes)
        reg_d += term
        np.maximum(reg_d, 0.0, out=reg_d)
        _put(rd, a_nodes, reg_d)
        norm = reg_d.copy()
        lf = k.legal_f[u]
        e, at = self._raises_of(a_nodes, ka)
        inst = _take(vq, e)
        inst -= _take(vu, a_nodes[at])
        inst *= _take(lf, e)
        reg = _take(rr, e)
        reg += inst
        np.maximum(reg, 0.0, out=reg)
        _put(rr, e, reg)
        start = 0
        for r in range(1, n):
            c = int(ka[r])
            norm[:c] += reg[start : start + c]
            start += c
        if u == 0:
            inst0 = (vq[0] if root_q else 0.0) - vu[0]
            inst0 *= lf[0]
            rr[0] += inst0
            np.maximum(rr[0], 0.0, out=rr[0])
            norm[0] += rr[0]
        zero = norm <= k.tiny
        uni_r, uni_d = k.uniform_r[u], k.uniform_d[u]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            np.divide(reg_d, norm, out=reg_d)
            np.copyto(reg_d, _take(uni_d, a_nodes), where=zero)
            _put(cur_d, a_nodes, reg_d)
            np.divide(reg, _take(norm, at), out=reg)
            np.copyto(reg, _take(uni_r, e), where=_take(zero, at))
            _put(cur_r, e, reg)
            if u == 0:
                cur_r[0] = np.where(zero[0], uni_r[0], rr[0] / norm[0])
        self._reach_ok[u] = False

    def _raises_of(self, nodes: Array, ks: Array) -> tuple[Array, Array]:
        """The raises out of ``nodes`` (sorted rows of one actor; ``ks`` their positions at
        the level bounds), level by level: ``(edges, at)`` with ``at`` the position in ``nodes``
        of each edge's parent (the raises to rank ``r`` leave the ``ks[r]`` nodes below
        ``2**(r-1)``, in order)."""
        bounds = self._bounds
        pos = np.arange(len(nodes), dtype=np.int64)
        counts = [int(ks[r]) for r in range(1, self.kernel.n)]
        if not any(counts):
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        at = np.concatenate([pos[:c] for c in counts])
        edges = np.concatenate([nodes[:c] + bounds[r] for r, c in enumerate(counts, start=1)])
        return edges, at

    def _accumulate(self, u: int, t: int, own: Array) -> None:
        """Add this iteration's strategy, weighted by ``u``'s own reach, to the average."""
        if self.algorithm == "cfr+linear":
            w = float(t)
        elif self.algorithm in ("cfr+", "pcfr+"):
            w = float(t) * float(t)
        else:
            w = 1.0
            f = (t / (t + 1.0)) ** 2
            self.avg_r[u] *= f
            self.avg_d[u] *= f
        wown = own * w
        self.avg_d[u] += wown * self.cur_d[u]
        avg, cur = self.avg_r[u], self.cur_r[u]
        avg[0] += wown[0] * cur[0]
        for r in range(1, self.kernel.n):
            h = 1 << (r - 1)
            avg[h : 2 * h] += wown[:h] * cur[h : 2 * h]

    def _apply_regrets(self, u: int, t: int, inst_r: Array, inst_d: Array) -> None:
        rr, rd = self.regret_r[u], self.regret_d[u]
        if self.algorithm == "dcfr":
            dcfr_discount(t, rr, rd)
        rr += inst_r
        rd += inst_d
        if self.algorithm != "dcfr":
            np.maximum(rr, 0.0, out=rr)
            np.maximum(rd, 0.0, out=rd)
        if self.algorithm == "pcfr+":
            self.pred_r[u] = inst_r
            self.pred_d[u] = inst_d

    def _strategy(self, u: int) -> None:
        """The next strategy of ``u`` from its regrets (and prediction, for ``pcfr+``)."""
        cur_r, cur_d = self.cur_r[u], self.cur_d[u]
        if self.algorithm == "pcfr+":
            np.add(self.regret_r[u], self.pred_r[u], out=cur_r)
            np.add(self.regret_d[u], self.pred_d[u], out=cur_d)
            np.maximum(cur_r, 0.0, out=cur_r)
            np.maximum(cur_d, 0.0, out=cur_d)
        elif self.algorithm == "dcfr":
            np.maximum(self.regret_r[u], 0.0, out=cur_r)
            np.maximum(self.regret_d[u], 0.0, out=cur_d)
        else:
            # Regret matching+: the regrets are already clipped at zero; normalize them
            # straight into the strategy (no copy).
            self.kernel.normalize(u, self.regret_r[u], self.regret_d[u], out=(cur_r, cur_d))
            return
        self.kernel.normalize(u, cur_r, cur_d)

    # -- results -------------------------------------------------------------------------------

    def average(self) -> Profile:
        """The average strategy (normalized copies)."""
        r, d = self.avg_r, self.avg_d
        return self.kernel.profile_of((r[0].copy(), r[1].copy()), (d[0].copy(), d[1].copy()))

    def exploitability(self) -> tuple[float, float, float]:
        """``(br0, br1, exploitability)`` of :meth:`average` (:meth:`Kernel.exploitability
        <perudo.solve.vector.Kernel.exploitability>`); :meth:`keep` copies from this average."""
        self._measured = average = self.average()
        with single_threaded_blas():
            return self.kernel.exploitability(average)

    def keep(self, player: int) -> None:
        """Keep ``player``'s half of the average last measured by :meth:`exploitability`."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player}")
        if self._measured is None:
            raise ValueError("no average measured yet (call exploitability first)")
        self._kept[player] = (self._measured.raises[player], self._measured.dudo[player])

    def kept(self) -> Profile:
        """The profile of the halves last kept by :meth:`keep`.

        :raises ValueError: if either player's half was never kept.
        """
        h0, h1 = self._kept
        if h0 is None or h1 is None:
            raise ValueError(f"no average kept for player {0 if h0 is None else 1}")
        return Profile((h0[0], h1[0]), (h0[1], h1[1]))

    def marks(self) -> dict[int, int]:
        """No marks (:attr:`mark_slots` is 0)."""
        return {}

    def mark(self, slot: int) -> None:
        raise ValueError("the numpy solver keeps no marks (mark_slots is 0)")

    def window(self, slot: int, lam: float) -> AbstractContextManager[None]:
        raise ValueError(f"slot {slot} was never marked (the numpy solver keeps no marks)")

    def current(self) -> Profile:
        """The strategy of the last iteration (copies)."""
        return Profile(
            (self.cur_r[0].copy(), self.cur_r[1].copy()),
            (self.cur_d[0].copy(), self.cur_d[1].copy()),
        )
