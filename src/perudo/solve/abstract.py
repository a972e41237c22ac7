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

import hashlib
import json
import os
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from perudo.core import Bid, Dudo, Phase, PlayerAction, PlayerView, RuleSet

from .cfr import dcfr_discount
from .game import RoundGame
from .saved import read_npz, write_npz
from .solution import heads_up_seats
from .vector import Array, Kernel, single_threaded_blas

__all__ = [
    "FORMAT",
    "AbstractCFR",
    "AbstractStrategy",
    "Method",
    "benchmark_big",
    "exact_exploitability",
    "node_states",
    "round_fingerprint",
]

_CHUNK = 1 << 19
"""Rows per chunk in the full-tree passes (bounds the temporary arrays)."""


Method = Literal["cfr+", "dcfr"]


class AbstractCFR:
    """CFR+ (quadratic averaging, alternating updates) or DCFR (α = 1.5, β = 0, γ = 2, as
    :mod:`perudo.solve.cfr`) on the graph of "last ``memory`` bids" states of ``game``.

    Arrays are per player ``p``: its edges (raises from the states where it acts, ``E_p`` rows,
    in the order of the global edge list, so grouped by their source state) and its states
    (``S_p`` rows), each × its hands.
    """

    def __init__(self, game: RoundGame, memory: int, *, method: Method = "cfr+") -> None:
        if memory < 1:
            raise ValueError("the abstraction remembers at least the last bid")
        if method not in ("cfr+", "dcfr"):
            raise ValueError(f"method {method!r}: expected 'cfr+' or 'dcfr'")
        self.game = game
        self.memory = memory
        self.method = method
        n = game.num_bids
        states: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        paths: list[tuple[int, ...]] = [()]
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
                    paths.append((*paths[i], r))
                src.append(i)
                dst.append(j)
                rank.append(r)
            i += 1
        self.states = states
        self.index = index
        self.paths = paths
        """A shortest history of bids (ranks) reaching each state (breadth first)."""
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
        from scipy import sparse  # type: ignore[import-untyped]

        # Per player: its states, its edges, each edge's source as a row of its states.
        self.nodes = [np.flatnonzero(self.player == p) for p in (0, 1)]
        self.edges = [np.flatnonzero(self.player[self.src] == p) for p in (0, 1)]
        local = [np.full(s, -1, dtype=np.int64) for _ in (0, 1)]
        for p in (0, 1):
            local[p][self.nodes[p]] = np.arange(len(self.nodes[p]))
        self.local_src = [local[p][self.src[self.edges[p]]] for p in (0, 1)]
        self.dudo_ok = [self.has_dudo[self.nodes[p]] for p in (0, 1)]
        self.out_sum = [
            sparse.csr_matrix(
                (np.ones(len(self.edges[p])), (self.local_src[p], np.arange(len(self.edges[p])))),
                shape=(len(self.nodes[p]), len(self.edges[p])),
            )
            for p in (0, 1)
        ]
        """``out_sum[p] @ x`` sums an array over ``p``'s edges by their source state."""
        self.count = [
            self.dudo_ok[p] + self.out_sum[p] @ np.ones(len(self.edges[p])) for p in (0, 1)
        ]
        # The backward pass: per last bid (descending) and player, the edges out of those
        # states (grouped by source) with where each source's group starts.
        self.levels: list[tuple[int, Array, Any, Array]] = []
        for r in range(n - 1, -2, -1):
            for p in (0, 1):
                idx = np.flatnonzero((self.last[self.src] == r) & (self.player[self.src] == p))
                if not len(idx):
                    continue
                s_idx = self.src[idx]
                usrc, group = np.unique(s_idx, return_inverse=True)
                sums = sparse.csr_matrix(
                    (np.ones(len(idx)), (group, np.arange(len(idx)))), shape=(len(usrc), len(idx))
                )
                self.levels.append((p, idx, sums, usrc))
        # The forward pass: per rank, the edges into states whose last bid is that rank.
        self.into = []
        for r in range(n):
            idx = np.flatnonzero(self.rank == r)
            if len(idx):
                mat = sparse.csr_matrix(
                    (np.ones(len(idx)), (self.dst[idx], np.arange(len(idx)))), shape=(s, len(idx))
                )
                self.into.append((idx, mat))
        self.regret_r = [np.zeros((len(self.edges[p]), self.sizes[p])) for p in (0, 1)]
        self.regret_d = [np.zeros((len(self.nodes[p]), self.sizes[p])) for p in (0, 1)]
        self.avg_r = [np.zeros_like(a) for a in self.regret_r]
        self.avg_d = [np.zeros_like(a) for a in self.regret_d]
        self.cur_r: list[Array] = []
        self.cur_d: list[Array] = []
        for p in (0, 1):
            r_, d_ = self._match(p, self.regret_r[p], self.regret_d[p])
            self.cur_r.append(r_)
            self.cur_d.append(d_)
        self.iterations = 0
        self.model: tuple[int, float, Array, Array] | None = None
        """``(player, weight, raises, dudo)`` set by :meth:`restrict`."""
        self._model_reach: Array | None = None
        """The model's reach per state (it never changes)."""

    def restrict(self, player: int, weight: float, raises: Array, dudo: Array) -> None:
        """Make this a *restricted Nash response* (Johanson, Zinkevich and Bowling, 2008):
        with probability ``weight``, dealt before the round and seen by no one, ``player``
        plays the fixed model ``(raises, dudo)`` (per edge and per state of ``player``, as
        :meth:`average` gives them); otherwise it plays freely. The other player's strategy
        is then the one that wins most against the model among those that lose at most what
        ``weight`` allows against anyone: the equilibrium at 0, a best response to the model
        at 1. (The free player's average is a by-product.)

        :raises ValueError: after the first iteration, or if the model is not a strategy of
            ``player`` on this graph.
        """
        if self.iterations:
            raise ValueError("restrict the solver before its first iteration")
        if player not in (0, 1):
            raise ValueError(f"player is 0 (the opener) or 1, not {player}")
        if not 0.0 <= weight <= 1.0:
            raise ValueError(f"the model's weight lies in [0, 1], not {weight}")
        self._check_shapes(player, raises, dudo)
        if np.any(raises < 0) or np.any(dudo < 0) or np.any(dudo[~self.dudo_ok[player]] > 0):
            raise ValueError("the model gives a negative or an illegal probability")
        total = dudo + self.out_sum[player] @ raises
        if not np.allclose(total, 1.0, atol=1e-6):
            raise ValueError("the model's probabilities do not sum to one at every state")
        self.model = (player, float(weight), raises.astype(np.float64), dudo.astype(np.float64))
        self._model_reach = self._reach(player, self.model[2])

    def _check_shapes(self, p: int, raises: Array, dudo: Array) -> None:
        """Refuse arrays that are not player ``p``'s per edge (raises) and per state (dudo)."""
        want_r, want_d = (len(self.edges[p]), self.sizes[p]), (len(self.nodes[p]), self.sizes[p])
        if raises.shape != want_r or dudo.shape != want_d:
            raise ValueError(
                f"player {p}'s arrays are {raises.shape} and {dudo.shape}: expected {want_r} "
                f"(its raises) and {want_d} (its states)"
            )

    @property
    def num_states(self) -> int:
        return len(self.states)

    def _match(self, p: int, rr: Array, rd: Array) -> tuple[Array, Array]:
        """Regret matching (uniform over the legal actions where no regret is positive)."""
        pos_r = np.maximum(rr, 0.0)
        pos_d = np.maximum(rd, 0.0) * self.dudo_ok[p][:, None]
        norm = pos_d + self.out_sum[p] @ pos_r
        zero = norm <= 0.0
        safe = np.where(zero, 1.0, norm)
        uni = (1.0 / np.maximum(self.count[p], 1.0))[:, None] * zero
        src = self.local_src[p]
        sig_r = pos_r / safe[src] + uni[src]
        sig_d = pos_d / safe + uni * self.dudo_ok[p][:, None]
        return sig_r, sig_d

    def _reach(self, q: int, raises: Array | None = None) -> Array:
        """Player ``q``'s reach summed over the histories of each state (chance included),
        playing its current raises or ``raises``."""
        rho = np.zeros((self.num_states, self.sizes[q]))
        rho[0] = self.game.hands[q].weights
        w = np.ones((len(self.src), self.sizes[q]))
        w[self.edges[q]] = self.cur_r[q] if raises is None else raises
        for idx, into in self.into:
            rho += into @ (rho[self.src[idx]] * w[idx])
        return rho

    def _chunks(self, n: int) -> list[slice]:
        """``range(n)`` in slices of at most :data:`CHUNK_BYTES` of hand-by-hand matrices, so
        that copying the matrices of many states at once (5v5: 0.5 MB each, tens of thousands
        of edges) never holds more than that."""
        step = max(1, CHUNK_BYTES // (8 * self.sizes[0] * self.sizes[1]))
        return [slice(a, min(n, a + step)) for a in range(0, n, step)]

    def _values(self, fixed: tuple[int, Array, Array] | None = None) -> Array:
        """``W[state, i0, i1]``: the opener's expected payoff below each state, by hands, with
        the current strategies (or, with ``fixed = (p, raises, dudo)``, ``p`` playing those)."""
        cur_r, cur_d = list(self.cur_r), list(self.cur_d)
        if fixed is not None:
            cur_r[fixed[0]], cur_d[fixed[0]] = fixed[1], fixed[2]
        return self._values_of(cur_r, cur_d)

    def _values_of(self, cur_r: list[Array], cur_d: list[Array]) -> Array:
        """:meth:`_values` with each player ``p`` playing ``cur_r[p]`` and ``cur_d[p]``."""
        w = np.zeros((self.num_states, *self.sizes))
        for p in (0, 1):
            nodes = self.nodes[p]
            d = cur_d[p]
            for c in self._chunks(len(nodes)):
                dc = d[c]
                w[nodes[c]] = self.dudo_pay[nodes[c]] * (
                    dc[:, :, None] if p == 0 else dc[:, None, :]
                )
        pos = [np.full(len(self.src), -1, dtype=np.int64) for _ in (0, 1)]
        for p in (0, 1):
            pos[p][self.edges[p]] = np.arange(len(self.edges[p]))
        flat = w.reshape(self.num_states, -1)
        for p, idx, sums, usrc in self.levels:
            # A level's edges lead to states of later bids only: its sources are written
            # after every child is final, chunk by chunk.
            for c in self._chunks(len(idx)):
                child = w[self.dst[idx[c]]]
                sig = cur_r[p][pos[p][idx[c]]]
                child *= sig[:, :, None] if p == 0 else sig[:, None, :]
                part = sums if c.start == 0 and c.stop == len(idx) else sums[:, c]
                flat[usrc] += part @ child.reshape(len(child), -1)
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
        e, nodes = self.edges[u], self.nodes[u]
        rq_e = rho_q[self.src[e]][:, :, None]
        rq_s = rho_q[nodes][:, :, None]
        cfv_e = self._against(w, self.dst[e], rq_e, u)
        cfv_d = self._against(self.dudo_pay, nodes, rq_s, u)
        if self.model is not None and self.model[0] == q:
            # The restricted response: u's information sets span both deals of the model.
            del w
            _, share, m_r, m_d = self.model
            w_m = self._values((q, m_r, m_d))
            rho_m = self._model_reach
            assert rho_m is not None
            cfv_e *= 1.0 - share
            cfv_e += share * self._against(w_m, self.dst[e], rho_m[self.src[e]][:, :, None], u)
            del w_m
            cfv_d *= 1.0 - share
            cfv_d += share * self._against(self.dudo_pay, nodes, rho_m[nodes][:, :, None], u)
        cfv_d *= self.dudo_ok[u][:, None]
        src = self.local_src[u]
        node = cfv_d * self.cur_d[u] + self.out_sum[u] @ (cfv_e * self.cur_r[u])
        inst_r = cfv_e - node[src]
        inst_d = (cfv_d - node) * self.dudo_ok[u][:, None]
        weight = float(t) * float(t)
        own_s = own[nodes]
        self.avg_r[u] += weight * own_s[src] * self.cur_r[u]
        self.avg_d[u] += weight * own_s * self.cur_d[u]
        rr, rd = self.regret_r[u], self.regret_d[u]
        if self.method == "dcfr":
            dcfr_discount(t, rr, rd)
            rr += inst_r
            rd += inst_d
        else:
            np.maximum(rr + inst_r, 0.0, out=rr)
            np.maximum(rd + inst_d, 0.0, out=rd)
        self.cur_r[u], self.cur_d[u] = self._match(u, rr, rd)

    def value(self, raises: list[Array], dudo: list[Array]) -> float:
        """The opener's expected payoff when each player ``p`` plays ``raises[p]`` (per edge of
        ``p``) and ``dudo[p]`` (per state of ``p``): exact in the full game, since both
        strategies depend on the abstraction's states only."""
        for p in (0, 1):
            self._check_shapes(p, raises[p], dudo[p])
        w = self._values_of(list(raises), list(dudo))
        h0, h1 = (self.game.hands[p].weights for p in (0, 1))
        return float(h0 @ w[0] @ h1)

    def _against(self, mats: Array, rows: Array, reach: Array, u: int) -> Array:
        """Player ``u``'s values ``±mats[rows] @ reach`` (the opener's payoff matrices of
        ``rows``, turned to ``u``'s side, against the other player's ``reach`` per row),
        computed a chunk of rows at a time (:meth:`_chunks`)."""
        out = np.empty((len(rows), self.sizes[u]))
        for c in self._chunks(len(rows)):
            m = mats[rows[c]]
            if u == 0:
                out[c] = np.matmul(m, reach[c])[:, :, 0]
            else:
                out[c] = -np.matmul(m.transpose(0, 2, 1), reach[c])[:, :, 0]
        return out

    def average(self) -> tuple[list[Array], list[Array]]:
        """The average strategy: per player, raise probabilities per edge of that player
        (:attr:`edges`) and dudo per state of that player (:attr:`nodes`)."""
        rs, ds = [], []
        for p in (0, 1):
            r_, d_ = self._match(p, self.avg_r[p], self.avg_d[p])
            rs.append(r_)
            ds.append(d_)
        return rs, ds

    def tables(self, dtype: npt.DTypeLike = np.float32) -> tuple[list[Array], list[Array]]:
        """The average strategy as dense tables: ``raise[p][state, rank, hand]`` and
        ``dudo[p][state, hand]`` (zero at the other player's states)."""
        rs, ds = self.average()
        n = self.game.num_bids
        raise_t, dudo_t = [], []
        for p in (0, 1):
            t = np.zeros((self.num_states, n, self.sizes[p]), dtype=dtype)
            e = self.edges[p]
            t[self.src[e], self.rank[e]] = rs[p]
            raise_t.append(t)
            d = np.zeros((self.num_states, self.sizes[p]), dtype=dtype)
            d[self.nodes[p]] = ds[p]
            dudo_t.append(d)
        return raise_t, dudo_t


CHUNK_BYTES = 1 << 28
"""The most bytes of hand-by-hand matrices :class:`AbstractCFR` gathers at once (5v5 remembering
two bids peaked at 18.7 GB gathering every edge's matrix at once; in chunks, 5.3 GB)."""


FORMAT = "perudo-abstract-round/1"
"""The ``format`` field of a saved abstract strategy."""


def round_fingerprint(game: RoundGame) -> str:
    """A hash of everything a round's play depends on: dice, round kind, the bids, which bid
    may follow which for each player, every hand's counts and the challenge's utilities.

    Two rule sets whose rounds have the same fingerprint are the same game (``perudo`` and
    ``perudo_calza`` heads-up, where calza is never legal: P-50), so one table serves both.
    """
    h = hashlib.sha256()
    h.update(json.dumps([list(game.dice), game.palifico, game.rules.faces]).encode())
    h.update(json.dumps([[b.quantity, b.face] for b in game.bids]).encode())
    for arr in (game.opening, *game.raise_ok, *game.counts):
        h.update(np.ascontiguousarray(arr).astype(np.int8).tobytes())
    h.update(np.ascontiguousarray(game.utility, dtype=np.float64).tobytes())
    return h.hexdigest()[:16]


@dataclass(eq=False)
class AbstractStrategy:
    """A solved abstraction: each player's action probabilities by (last bids, hand).

    ``states[s] = (player to act, the last bids' ranks, oldest first)``. Player ``p``'s raises
    are its edges: ``edge_src[p][e]`` (a state, ascending), ``edge_rank[p][e]`` and
    ``raises[p][e, hand]``; its challenges ``dudo[p][s, hand]`` (zero at the other player's
    states). At each of ``p``'s states the probabilities sum to one over the legal actions. It
    plays a live view through :meth:`policy` (P-70: the view's own hand, the round's public
    bids and the dice counts).
    """

    game: RoundGame
    memory: int
    states: list[tuple[int, tuple[int, ...]]]
    edge_src: list[Array]
    edge_rank: list[Array]
    raises: list[Array]
    dudo: list[Array]
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {st: i for i, st in enumerate(self.states)}

    @classmethod
    def from_cfr(cls, cfr: AbstractCFR, info: dict[str, Any] | None = None) -> AbstractStrategy:
        rs, ds = cfr.average()
        dudo = []
        for p in (0, 1):
            d = np.zeros((cfr.num_states, cfr.sizes[p]), dtype=np.float32)
            d[cfr.nodes[p]] = ds[p]
            dudo.append(d)
        return cls(
            cfr.game,
            cfr.memory,
            list(cfr.states),
            [cfr.src[cfr.edges[p]] for p in (0, 1)],
            [cfr.rank[cfr.edges[p]] for p in (0, 1)],
            [r.astype(np.float32) for r in rs],
            dudo,
            dict(info or {}),
        )

    def tables(self, dtype: npt.DTypeLike = np.float32) -> tuple[list[Array], list[Array]]:
        """Dense ``raise[p][state, rank, hand]`` and ``dudo[p][state, hand]``."""
        raise_t = []
        for p in (0, 1):
            t = np.zeros((len(self.states), self.game.num_bids, self.raises[p].shape[1]), dtype)
            t[self.edge_src[p], self.edge_rank[p]] = self.raises[p]
            raise_t.append(t)
        return raise_t, [d.astype(dtype) for d in self.dudo]

    @property
    def fingerprint(self) -> str:
        return round_fingerprint(self.game)

    def state_of(self, history: tuple[int, ...] | list[int]) -> tuple[int, int]:
        """``(player to act, abstract state)`` after the bids of ranks ``history``.

        :raises ValueError: if the history cannot occur in this round.
        """
        player = len(history) % 2
        key = (player, tuple(history[-self.memory :]) if history else ())
        s = self.index.get(key)
        if s is None:
            raise ValueError(f"bids {list(history)} do not occur in this round")
        return player, s

    def probabilities(self, history: tuple[int, ...] | list[int], hand: int) -> dict[int, float]:
        """``{rank: p, -1: p of dudo}`` of the player to act at ``history`` holding its hand
        number ``hand`` (positive entries only)."""
        p, s = self.state_of(history)
        src = self.edge_src[p]
        lo, hi = np.searchsorted(src, s), np.searchsorted(src, s, side="right")
        out = {
            int(r): float(x)
            for r, x in zip(self.edge_rank[p][lo:hi], self.raises[p][lo:hi, hand], strict=True)
            if x > 0.0
        }
        d = float(self.dudo[p][s, hand])
        if d > 0.0:
            out[-1] = d
        return out

    def matches(self, view: PlayerView) -> bool:
        """Whether ``view`` is a turn to bid or challenge in a round this strategy plays."""
        g = self.game
        if view.seat is None or not view.my_turn or view.phase is not Phase.BIDDING:
            return False
        if view.palifico != g.palifico:
            return False
        seats = heads_up_seats(view)
        if seats is None or tuple(view.dice_counts[s] for s in seats) != g.dice:
            return False
        return all(type(a) is Bid or type(a) is Dudo for _, a in view.actions)

    def _turn(self, view: PlayerView) -> tuple[int, list[int]]:
        """``(player to act, the round's bids as ranks)`` of a turn of this round.

        :raises ValueError: if the view is not a turn of this round.
        """
        if not self.matches(view):
            raise ValueError("this view is not a turn in the abstract strategy's round")
        g = self.game
        ranks = [g.ranks[a] for _, a in view.actions if isinstance(a, Bid)]
        player = len(ranks) % 2
        if player != (0 if view.seat == view.opener else 1):
            raise ValueError("the view's history does not put this seat to act")
        return player, ranks

    def hands(self, view: PlayerView) -> tuple[tuple[int, ...], ...]:
        """The hands the seat to act at ``view`` may hold, in the order of
        :meth:`policy_rows`' rows (sorted, lexicographic: :class:`perudo.solve.game.Hands`).

        :raises ValueError: if the view is not a turn of this round.
        """
        player, _ = self._turn(view)
        return self.game.hands[player].hands

    def policy_rows(self, view: PlayerView, hands: Sequence[Sequence[int]] | None = None) -> Array:
        """:meth:`policy` for each of ``hands`` (default: every hand the seat to act may
        hold, in the order of :meth:`hands`) in place of the view's own; columns in the order
        of ``view.legal``.

        :raises ValueError: if the view is not a turn of this round, a hand is not one its
            seat may hold, or a hand has no action.
        """
        g = self.game
        player, ranks = self._turn(view)
        if hands is not None:
            index = g.hands[player].index
            try:
                picked = [index[tuple(sorted(h))] for h in hands]
            except KeyError as err:
                raise ValueError(f"{err.args[0]} is not a hand of this seat") from None
            return self.policy_rows(view)[picked]
        _, s = self.state_of(ranks)
        src = self.edge_src[player]
        lo, hi = np.searchsorted(src, s), np.searchsorted(src, s, side="right")
        edge_of = {int(r): lo + i for i, r in enumerate(self.edge_rank[player][lo:hi])}
        size = self.raises[player].shape[1]
        rows = np.zeros((size, len(view.legal)), dtype=np.float64)
        for j, a in enumerate(view.legal):
            if isinstance(a, Bid):
                e = edge_of.get(g.ranks[a]) if a in g.ranks else None
                if e is not None:
                    rows[:, j] = self.raises[player][e]
            elif isinstance(a, Dudo):
                rows[:, j] = self.dudo[player][s]
        total = rows.sum(axis=1, keepdims=True)
        if not (total > 0.0).all():
            raise ValueError("the abstract strategy has no action for some hand at this view")
        out: Array = rows / total
        return out

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The strategy's action probabilities at ``view`` (the caller checks that the view's
        rules play this round: :class:`perudo.solve.abstract_book.AbstractBook`), in the
        order of ``view.legal``.

        :raises ValueError: if the view is not a turn of this round.
        """
        g = self.game
        player, ranks = self._turn(view)
        hand = g.hands[player].index[tuple(sorted(view.hand))]
        probs = self.probabilities(ranks, hand)
        out: dict[PlayerAction, float] = {}
        for a in view.legal:
            if isinstance(a, Bid):
                pr = probs.get(g.ranks[a], 0.0) if a in g.ranks else 0.0
            elif isinstance(a, Dudo):
                pr = probs.get(-1, 0.0)
            else:
                pr = 0.0
            if pr > 0.0:
                out[a] = pr
        total = sum(out.values())
        if total <= 0.0:
            raise ValueError("the abstract strategy has no action for this view")
        return {a: pr / total for a, pr in out.items()}

    # -- files ------------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write a compressed ``.npz``: the states, each player's edges with their
        probabilities and its challenges at its own states, as float16 (renormalized when
        loaded), the utility table and ``meta`` (JSON: rules, dice, memory, figures)."""
        g = self.game
        k = self.memory
        st = np.full((len(self.states), k + 1), -1, dtype=np.int16)
        for i, (p, bids) in enumerate(self.states):
            st[i, 0] = p
            st[i, 1 + k - len(bids) :] = bids
        meta = {
            "format": FORMAT,
            "rules": g.rules.to_dict(),
            "dice": list(g.dice),
            "palifico": g.palifico,
            "memory": k,
            "fingerprint": self.fingerprint,
            "info": self.info,
        }
        arrays: dict[str, Any] = {"states": st, "utility": g.utility}
        for p in (0, 1):
            arrays[f"src{p}"] = self.edge_src[p].astype(np.int32)
            arrays[f"rank{p}"] = self.edge_rank[p].astype(np.int16)
            arrays[f"raises{p}"] = self.raises[p].astype(np.float16)
            arrays[f"dudo{p}"] = self.dudo[p][st[:, 0] == p].astype(np.float16)
        return write_npz(path, meta, arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, sha256: str | None = None) -> AbstractStrategy:
        """Read a strategy written by :meth:`save` (its SHA-256 checked when given); the round
        is rebuilt from the rules through the core and must have the fingerprint saved.

        :raises ValueError: if the file is not a saved abstract strategy, has another hash or
            does not fit.
        """
        names = ["states", "utility"]
        names += [f"{k}{p}" for p in (0, 1) for k in ("src", "rank", "raises", "dudo")]
        meta, arrays = read_npz(
            path, "a saved abstract strategy", {"format": FORMAT}, names, sha256=sha256
        )
        rules = RuleSet.from_dict(meta["rules"])
        dice = (int(meta["dice"][0]), int(meta["dice"][1]))
        game = RoundGame(
            rules, dice, palifico=bool(meta["palifico"]), utility=arrays["utility"], max_bids=999
        )
        if round_fingerprint(game) != meta["fingerprint"]:
            raise ValueError(f"{path}: the round of these rules is not the one solved")
        st = arrays["states"].astype(np.int64)
        states = [(int(r[0]), tuple(int(b) for b in r[1:] if b >= 0)) for r in st]
        srcs, ranks, raises, dudo = [], [], [], []
        for p in (0, 1):
            src = arrays[f"src{p}"].astype(np.int64)
            rank = arrays[f"rank{p}"].astype(np.int64)
            if np.any(np.diff(src) < 0) or np.any(st[src, 0] != p):
                raise ValueError(f"{path}: player {p}'s edges do not leave its states in order")
            r = arrays[f"raises{p}"].astype(np.float32)
            d = np.zeros((len(states), r.shape[1]), dtype=np.float32)
            d[st[:, 0] == p] = arrays[f"dudo{p}"].astype(np.float32)
            total = d.copy()
            add_rows_by_source(total, src, r)
            safe = np.where(total > 0, total, 1.0)
            srcs.append(src)
            ranks.append(rank)
            raises.append(r / safe[src])
            dudo.append(d / safe)
        return cls(
            game, int(meta["memory"]), states, srcs, ranks, raises, dudo, dict(meta.get("info", {}))
        )


def add_rows_by_source(total: np.ndarray, src: np.ndarray, rows: np.ndarray) -> None:
    """``np.add.at(total, src, rows)`` for ``src`` sorted ascending (each state's edges
    together, as :meth:`AbstractStrategy.load` checks), bit for bit: the k-th edge of every
    state is added in one vectorised step, k = 0, 1, …, so each state's sum is taken in the
    edges' order as ``np.add.at`` takes it, in a few dozen steps rather than one per edge (a
    5v5 table's 34,000 edges: 0.16 s with ``np.add.at``, 0.03 s so)."""
    if len(src) == 0:
        return
    starts = np.flatnonzero(np.r_[True, src[1:] != src[:-1]])
    lengths = np.diff(np.r_[starts, len(src)])
    owners = src[starts]
    for k in range(int(lengths.max())):
        live = lengths > k
        total[owners[live]] += rows[starts[live] + k]


class _Abstraction(Protocol):
    """What the full-tree passes read of an abstract strategy (a solver or a saved one)."""

    memory: int
    states: list[tuple[int, tuple[int, ...]]]

    def tables(self, dtype: npt.DTypeLike = ...) -> tuple[list[Array], list[Array]]: ...


def node_states(game: RoundGame, cfr: _Abstraction, player: int) -> npt.NDArray[np.int32]:
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

    def __init__(self, game: RoundGame, cfr: _Abstraction, dtype: npt.DTypeLike) -> None:
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
    game: RoundGame, cfr: _Abstraction, dtype: npt.DTypeLike = np.float32
) -> tuple[float, float, float]:
    """``(br0, br1, exploitability)`` of ``cfr``'s strategy (a solver's average, or a saved
    :class:`AbstractStrategy`) in the full game of ``game`` (perfect recall, every history)."""
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
