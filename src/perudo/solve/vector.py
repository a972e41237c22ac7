"""The solver's passes over a round's public tree, vectorized over hands (numpy).

Arrays follow the layout of :mod:`perudo.solve.game`. A player's *strategy* is two arrays of
``game.rows`` rows × its hands: ``raises[edge, hand]`` and ``dudo[node, hand]``. *Reach* and
*value* arrays are stacked over the two actors: ``(2, rows, hands)``, ``[actor, node, hand]``.

Only the reach and value passes follow the tree (``num_bids`` slice steps: the raises to rank
``r`` are rows ``[2**(r-1), 2**r)``, their parents rows ``[0, 2**(r-1))``); everything else
(normalizing a strategy, regrets, averaging) is whole-array work through ``parent``, the parent
node of every edge.

*Reach* holds one player's contribution to reaching each node, chance included (at the root:
the chance weight of each of its hands). *Counterfactual values* for player ``u`` are summed
over the other player's hands weighted by that player's reach, so the value of a strategy is
``weights_u · values[0, root]`` and a best response takes the larger value at each of ``u``'s
information states (node, hand): with perfect recall every (node, hand) is its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from .game import RoundGame

__all__ = ["Array", "Kernel", "Profile", "keep_freed_memory", "single_threaded_blas"]

Array: TypeAlias = npt.NDArray[Any]


def keep_freed_memory() -> bool:
    """Ask glibc to keep freed large blocks for reuse (for a solving process; returns whether
    it could).

    Every pass makes temporary arrays of megabytes; by default glibc maps each one fresh from
    the kernel and unmaps it when freed, so each first touch of a page faults: a third of the
    time of a CFR iteration on three dice (measured 64 → 41–46 ms). With these thresholds the
    blocks are reused instead. The peak memory is unchanged; freed memory is kept by the
    process rather than returned to the system.
    """
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    ok = mallopt(m_mmap_threshold, 1 << 30) == 1
    return bool(mallopt(m_trim_threshold, 1 << 31) == 1 and ok)


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Run the block below with one BLAS thread, if ``threadpoolctl`` is installed.

    The solver's matrix products are skinny (a handful of hands or counts wide); on a busy
    machine a multi-threaded BLAS spends more time synchronizing than computing (×10 measured).
    """
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the research extra installs it
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


@dataclass(frozen=True, eq=False)
class Profile:
    """A behaviour strategy for both players: ``raises[p][edge, hand]``, ``dudo[p][node, hand]``.

    At each node, a hand's probabilities over the legal raises and dudo sum to 1.
    """

    raises: tuple[Array, Array]
    dudo: tuple[Array, Array]

    def astype(self, dtype: npt.DTypeLike) -> Profile:
        return Profile(
            (self.raises[0].astype(dtype), self.raises[1].astype(dtype)),
            (self.dudo[0].astype(dtype), self.dudo[1].astype(dtype)),
        )


class Kernel:
    """Precomputed tables of one game for one float type, and the passes over its tree."""

    def __init__(self, game: RoundGame, dtype: npt.DTypeLike = np.float64) -> None:
        self.game = game
        self.dtype = dt = np.dtype(dtype)
        self.tiny = float(np.finfo(dt).tiny)
        self.n = n = game.num_bids
        self.rows = rows = game.rows
        self.sizes = (len(game.hands[0]), len(game.hands[1]))
        self.weights = tuple(game.hands[p].weights.astype(dt) for p in (0, 1))
        parent = np.zeros(rows, dtype=np.int64)
        idx = np.arange(rows, dtype=np.int64)
        for r in range(1, n):
            h = 1 << (r - 1)
            parent[h : 2 * h] = idx[:h]
        self.parent = parent
        """The node each edge leaves from (edge 0: the root's opening of rank 0)."""
        self.raise_legal = game.raise_legal
        self.legal_f = tuple(game.raise_legal[p].astype(dt)[:, None] for p in (0, 1))
        self.dudo_f = tuple(game.dudo_legal[p].astype(dt)[:, None] for p in (0, 1))
        self.block_all_legal = tuple(
            [bool(game.raise_legal[p][1 << (r - 1) : 1 << r].all()) for r in range(1, n)]
            for p in (0, 1)
        )
        faces = game.rules.faces
        self.onehot = tuple(
            [np.eye(game.dice[q] + 1, dtype=dt)[game.counts[q][:, f]] for f in range(faces)]
            for q in (0, 1)
        )
        """``onehot[q][f][j, c]``: whether hand ``j`` of player ``q`` has ``c`` dice for face f."""
        self.pay = [self._pay(u) for u in (0, 1)]
        self.mats = [self._mats(u) for u in (0, 1)]
        self.nlegal = tuple(game.num_legal[p].astype(dt)[:, None] for p in (0, 1))
        uniform_r, uniform_d = [], []
        for p in (0, 1):
            # Every node has a legal action (dudo everywhere but at the root, P-11; openings
            # at the root), so the counts are at least 1.
            share = 1.0 / game.num_legal[p]
            ur = game.raise_legal[p] * share[self.parent]
            ur[0] = game.raise_legal[p][0] * share[0]
            uniform_r.append(ur.astype(dt)[:, None])
            uniform_d.append((game.dudo_legal[p] * share).astype(dt)[:, None])
        self.uniform_r, self.uniform_d = tuple(uniform_r), tuple(uniform_d)
        """Each player's uniform strategy (``rows × 1``): raises by edge, dudo by node."""

    def _pay(self, u: int) -> dict[tuple[int, int], Array]:
        """``pay[(caller, rank)][c, i]``: ``u``'s payoff with hand ``i`` when the other player's
        hand has ``c`` dice for the bid's face."""
        game = self.game
        q = 1 - u
        sign = 1.0 if u == 0 else -1.0
        cu = game.counts[u]
        out: dict[tuple[int, int], Array] = {}
        for caller in (0, 1):
            for rank in range(game.num_bids):
                f = game.bids[rank].face - 1
                total = cu[:, f][None, :] + np.arange(game.dice[q] + 1)[:, None]
                total = np.minimum(total, game.total)
                out[(caller, rank)] = (sign * game.utility[rank, 1 - caller, total]).astype(
                    self.dtype
                )
        return out

    def _mats(self, u: int) -> list[tuple[Array, Array] | Array]:
        """Per rank, ``u``'s payoff against the other player's hands when each actor calls
        dudo on a bid of that rank: one ``(2, hands_q, hands_u)`` matrix, or, when the hands
        are many, its two factors (count one-hot, payoff by count) to multiply in turn."""
        q = 1 - u
        hq, hu, cq = self.sizes[q], self.sizes[u], self.game.dice[q] + 1
        combined = hq * hu <= 2 * (hq + hu) * cq
        out: list[tuple[Array, Array] | Array] = []
        for r in range(self.n):
            f = self.game.bids[r].face - 1
            oh = self.onehot[q][f]
            pay = np.stack([self.pay[u][(a, r)] for a in (0, 1)])
            out.append(oh @ pay if combined else (oh, pay))
        return out

    # -- allocation ------------------------------------------------------------------------

    def zeros(self, player: int) -> Array:
        """A ``rows × hands of player`` array of zeros."""
        return np.zeros((self.rows, self.sizes[player]), dtype=self.dtype)

    def stacked(self, player: int) -> Array:
        """A ``2 × rows × hands of player`` array of zeros (reach or values of ``player``)."""
        return np.zeros((2, self.rows, self.sizes[player]), dtype=self.dtype)

    # -- strategies ------------------------------------------------------------------------

    def normalize(
        self,
        p: int,
        raises: Array,
        dudo: Array,
        out: tuple[Array, Array] | None = None,
    ) -> None:
        """Turn non-negative weights into a behaviour strategy of player ``p`` (uniform over
        the legal actions where a node's weights are all zero), in place or into ``out``
        (``(raises, dudo)`` arrays of the same shapes; the weights are then left unchanged).

        Each array is read and written once more than it is summed (one division per entry);
        nodes without weight take the precomputed uniform strategy, copied under a mask.
        """
        n = self.n
        out_r, out_d = (raises, dudo) if out is None else out
        norm = dudo.copy()
        norm[0] += raises[0]
        for r in range(1, n):
            h = 1 << (r - 1)
            norm[:h] += raises[h : 2 * h]
        # Where a node has no weight (below the smallest normal float, whose reciprocal would
        # overflow) the division gives 0/0 or a meaningless ratio: those entries are then
        # overwritten by the uniform strategy.
        zero = norm <= self.tiny
        uni_r, uni_d = self.uniform_r[p], self.uniform_d[p]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            np.divide(raises[0], norm[0], out=out_r[0])
            np.copyto(out_r[0], uni_r[0], where=zero[0])
            for r in range(1, n):
                h = 1 << (r - 1)
                block = out_r[h : 2 * h]
                np.divide(raises[h : 2 * h], norm[:h], out=block)
                np.copyto(block, uni_r[h : 2 * h], where=zero[:h])
            np.divide(dudo, norm, out=out_d)
        np.copyto(out_d, uni_d, where=zero)

    def profile_of(self, raises: tuple[Array, Array], dudo: tuple[Array, Array]) -> Profile:
        """Both players' weights, normalized in place (:meth:`normalize`), as a profile."""
        for p in (0, 1):
            self.normalize(p, raises[p], dudo[p])
        return Profile(raises, dudo)

    def uniform(self) -> Profile:
        """Every player picks uniformly among its legal actions."""
        return self.profile_of((self.zeros(0), self.zeros(1)), (self.zeros(0), self.zeros(1)))

    # -- passes ------------------------------------------------------------------------------

    def reach(self, q: int, raises_q: Array, out: Array | None = None) -> Array:
        """Player ``q``'s reach (chance weight × its own action probabilities) at every node.

        The other player's actions do not change it; raises that are illegal for the other
        player lead to nodes no legal history reaches, whose values are never used.
        """
        out = self.stacked(q) if out is None else out
        mine, other = out[q], out[1 - q]
        out[0, 0] = self.weights[q]
        out[1, 0] = out[0, 0] * (raises_q[0] if q == 0 else self.legal_f[0][0])
        for r in range(1, self.n):
            h = 1 << (r - 1)
            np.multiply(mine[:h], raises_q[h : 2 * h], out=other[h : 2 * h])
            np.copyto(mine[h : 2 * h], other[:h])
        return out

    def terminal(self, u: int, reach_q: Array, dudo_q: Array, out: Array) -> Array:
        """``u``'s counterfactual values of calling dudo at every node, into ``out``.

        ``reach_q`` is the other player's reach and ``dudo_q`` its dudo probabilities.
        """
        q = 1 - u
        for r, m in enumerate(self.mats[u]):
            lo, hi = (0, 1) if r == 0 else (1 << (r - 1), 1 << r)
            for a in (0, 1) if r else (1,):
                rho = reach_q[a, lo:hi]
                if a == q:
                    rho = rho * dudo_q[lo:hi]
                if isinstance(m, tuple):
                    np.matmul(rho @ m[0], m[1][a], out=out[a, lo:hi])
                else:
                    np.matmul(rho, m[a], out=out[a, lo:hi])
        out[0, 0] = 0.0
        return out

    def backward(self, u: int, raises_u: Array, values: Array) -> Array:
        """Add the raises' values into ``values`` (already holding each node's dudo share):
        ``u``'s nodes weigh children by ``raises_u``, the other player's nodes sum them (its
        probabilities are in its reach)."""
        q = 1 - u
        vu, vq = values[u], values[q]
        for r in range(self.n - 1, 0, -1):
            h = 1 << (r - 1)
            vu[:h] += raises_u[h : 2 * h] * vq[h : 2 * h]
            vq[:h] += vu[h : 2 * h]
        if u == 0:
            vu[0] += raises_u[0] * vq[0]
        else:
            vq[0] += vu[0]
        return values

    def best_response(
        self, u: int, reach_q: Array, dudo_q: Array, values: Array | None = None
    ) -> tuple[float, Array]:
        """``u``'s best-response value against the other player's strategy, and the
        counterfactual values of its best response at every node.

        ``values``, if given, already holds :meth:`terminal`'s values for ``reach_q`` and
        ``dudo_q`` (a caller that keeps them too); the pass overwrites it.
        """
        q = 1 - u
        if values is None:
            values = self.terminal(u, reach_q, dudo_q, self.stacked(u))
        vu, vq = values[u], values[q]
        if u == 0:
            vu[0] = -np.inf
        neg = np.array(-np.inf, dtype=self.dtype)
        lr = self.raise_legal[u]
        for r in range(self.n - 1, 0, -1):
            h = 1 << (r - 1)
            child = vq[h : 2 * h]
            if self.block_all_legal[u][r - 1]:
                np.maximum(vu[:h], child, out=vu[:h])
            else:
                np.maximum(vu[:h], np.where(lr[h : 2 * h, None], child, neg), out=vu[:h])
            vq[:h] += vu[h : 2 * h]
        if u == 0:
            if lr[0]:
                np.maximum(vu[0], vq[0], out=vu[0])
        else:
            vq[0] += vu[0]
        return float(self.weights[u] @ values[0, 0]), values

    def value(self, profile: Profile) -> float:
        """The opener's expected payoff when both players follow ``profile``."""
        reach1 = self.reach(1, profile.raises[1])
        values = self.terminal(0, reach1, profile.dudo[1], self.stacked(0))
        values[0] *= profile.dudo[0]
        self.backward(0, profile.raises[0], values)
        return float(self.weights[0] @ values[0, 0])

    def exploitability(self, profile: Profile) -> tuple[float, float, float]:
        """``(br0, br1, exploitability)``: each player's best-response value against the other's
        strategy and their mean (half of NashConv, OpenSpiel's ``exploitability``).

        The game value for the opener lies in ``[-br1, br0]``.
        """
        br0, _ = self.best_response(0, self.reach(1, profile.raises[1]), profile.dudo[1])
        br1, _ = self.best_response(1, self.reach(0, profile.raises[0]), profile.dudo[0])
        return br0, br1, (br0 + br1) / 2.0
