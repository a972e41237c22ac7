"""The compiled regret-minimization kernel (``_cfr.c``), through ctypes: the pruned updates of
:mod:`perudo.solve.cfr` (CFR+, and discounted CFR) written in C and split over the cores.

The tree is built in C from the tables :class:`~perudo.solve.game.RoundGame` takes from the
rules core (openings, which rank may follow which for each player, dice counted for each bid's
face) and the payoffs of :class:`~perudo.solve.vector.Kernel`; the C code decides no rule.
Nodes are numbered depth first with a node's raises side by side, so an iteration reads memory
forwards, and it visits only what the pruned update needs: when player ``u`` is updated, the
histories the other player reaches, and at the other player's nodes only the raises some hand
that reaches them takes (bit masks of hands per raise, rebuilt with the strategy). The other
player's average is accumulated on the same walk, with the reach it carries. With several
threads each update is split at a fixed depth: the subtrees below are disjoint, walked in
parallel, and the levels above are finished in order, so the result does not depend on the
number of threads.

The extension is built by ``pip install`` when a C compiler is there (``setup.py``);
:func:`available` says whether it was, and :func:`perudo.solve.solver.solve_round` falls back
to the numpy kernel when it was not.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .cfr import DCFR_ALPHA, DCFR_BETA
from .game import RoundGame
from .vector import Array, Kernel, Profile

__all__ = [
    "ALGORITHMS",
    "MARKS",
    "MAX_HANDS",
    "NativeCFR",
    "available",
    "default_threads",
    "fits",
    "library_path",
]

ALGORITHMS: Final = ("cfr+", "cfr+linear", "dcfr")
"""The algorithms the compiled kernel runs."""

_MAX_COUNT: Final = 32
"""Dice a player may hold for the kernel (its count tables are this wide)."""

MAX_HANDS: Final = 64
"""Hands a player may have for the kernel (a set of hands is one 64-bit mask)."""

MARKS: Final = 6
"""Slots for earlier averages (:meth:`NativeCFR.mark`)."""

_P = ctypes.c_void_p


def library_path() -> Path | None:
    """The built ``_cfr`` shared library beside this module, if there is one."""
    here = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = here / f"_cfr{suffix}"
        if path.exists():
            return path
    return None


@cache
def _library() -> ctypes.CDLL | None:
    path = library_path()
    if path is None:
        return None
    try:
        lib = ctypes.CDLL(str(path))
    except OSError:
        return None
    for sfx in ("f64", "f32"):
        new = getattr(lib, f"cfr_new_{sfx}")
        new.restype = _P
        new.argtypes = [ctypes.c_int, _P, _P, _P, *[ctypes.c_int] * 4, *[_P] * 6, ctypes.c_int]
        free = getattr(lib, f"cfr_free_{sfx}")
        free.restype = None
        free.argtypes = [_P]
        iterate = getattr(lib, f"cfr_iterate_{sfx}")
        iterate.restype = ctypes.c_long
        iterate.argtypes = [_P, ctypes.c_int, ctypes.c_double]
        br = getattr(lib, f"cfr_best_responses_{sfx}")
        br.restype = None
        br.argtypes = [_P, _P]
        for name in ("cfr_export", "cfr_import"):
            fn = getattr(lib, f"{name}_{sfx}")
            fn.restype = None
            fn.argtypes = [_P, ctypes.c_int, ctypes.c_int, _P, _P]
        floor = getattr(lib, f"cfr_set_floor_{sfx}")
        floor.restype = None
        floor.argtypes = [_P, ctypes.c_double]
        disc = getattr(lib, f"cfr_set_discount_{sfx}")
        disc.restype = None
        disc.argtypes = [_P, ctypes.c_int, ctypes.c_double, ctypes.c_double]
        its = getattr(lib, f"cfr_set_iterations_{sfx}")
        its.restype = None
        its.argtypes = [_P, ctypes.c_long]
        snap = getattr(lib, f"cfr_snapshot_{sfx}")
        snap.restype = ctypes.c_int
        snap.argtypes = [_P, ctypes.c_int]
        mark = getattr(lib, f"cfr_mark_{sfx}")
        mark.restype = ctypes.c_int
        mark.argtypes = [_P, ctypes.c_int]
        window = getattr(lib, f"cfr_window_{sfx}")
        window.restype = ctypes.c_int
        window.argtypes = [_P, ctypes.c_int, ctypes.c_double]
        visited = getattr(lib, f"cfr_visited_{sfx}")
        visited.restype = None
        visited.argtypes = [_P, _P]
    lib.cfr_tree_sizes.restype = None
    lib.cfr_tree_sizes.argtypes = [_P, ctypes.c_int, _P]
    return lib


def available() -> bool:
    """Whether the compiled kernel was built and loads."""
    return _library() is not None


def fits(game: RoundGame) -> bool:
    """Whether the compiled kernel takes ``game``: at most :data:`MAX_HANDS` hands and
    ``_MAX_COUNT - 1`` dice a player."""
    return max(len(h) for h in game.hands) <= MAX_HANDS and max(game.dice) + 1 <= _MAX_COUNT


def default_threads() -> int:
    """Threads an update is split over: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _ptr(a: Array) -> int:
    return int(a.ctypes.data)


class NativeCFR:
    """Regret minimization in compiled code, with the interface of
    :class:`~perudo.solve.cfr.CFRSolver` (``iterate``, ``average``, ``current``, ``regrets``,
    ``iterations``, ``kernel``): both are a :class:`~perudo.solve.solver.RoundSolver`, the
    protocol :func:`~perudo.solve.solver.solve_round` drives (``exploitability``, ``keep``,
    ``kept``, and the marks and windows of the average, :data:`MARKS` of them here).

    Algorithms: ``cfr+`` (regret matching+, average weighted by ``t²``), ``cfr+linear`` (weight
    ``t``) and ``dcfr`` (discounted CFR, α = 1.5, β = 0, average weighted by ``t²``: positive
    regrets are discounted by ``t^α/(t^α+1)`` and negative ones halved each iteration, applied
    when a node is next visited, which is exact: a node the other player does not reach adds
    nothing to its regrets, and a common factor leaves its strategy as it is).

    Alternating updates: player 0, then player 1 against player 0's new strategy. Each player's
    average takes the strategies the other player's regrets were computed against (player 1's
    of iteration ``t``, player 0's after its update of iteration ``t``), accumulated on the other
    player's walk with the reach it carries; averages are kept in float64 whatever ``dtype``.

    Args:
        game: the round.
        algorithm: ``cfr+``, ``cfr+linear`` or ``dcfr``.
        dtype: float type of regrets and strategies (``float32`` or ``float64``).
        kernel: the numpy :class:`~perudo.solve.vector.Kernel` used to normalize averages.
        threads: threads each update is split over (default: :func:`default_threads`); the
            results do not depend on it.
        reach_floor: raises that bring the other player's reach (chance included) below this
            for every hand are walked as if that reach were zero (dynamic thresholding). ``0``
            is the exact pruned update; ``solve_round`` uses a small floor on large rounds, and
            the exploitability it reports is always measured exactly on the whole tree.

    :raises RuntimeError: when the kernel is not built (see :func:`available`) or memory runs
        out.
    :raises ValueError: for an unknown algorithm, float type, thread count or floor.
    """

    mark_slots = MARKS
    """Slots for :meth:`mark` (the starts of :meth:`window` s)."""

    def __init__(
        self,
        game: RoundGame,
        algorithm: str = "cfr+",
        *,
        dtype: npt.DTypeLike = np.float64,
        kernel: Kernel | None = None,
        threads: int | None = None,
        reach_floor: float = 0.0,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(
                f"the compiled kernel runs {' and '.join(ALGORITHMS)}, not {algorithm!r}"
            )
        lib = _library()
        if lib is None:
            raise RuntimeError(
                "perudo.solve._cfr is not built (reinstall with a C compiler: pip install -e .)"
            )
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.float64), np.dtype(np.float32)):
            raise ValueError(f"the compiled kernel runs float64 or float32, not {dt}")
        if max(game.dice) + 1 > _MAX_COUNT:
            raise ValueError(f"the compiled kernel takes at most {_MAX_COUNT - 1} dice a player")
        hands = max(len(h) for h in game.hands)
        if hands > MAX_HANDS:
            raise ValueError(
                f"the compiled kernel takes at most {MAX_HANDS} hands a player, not {hands} "
                f"({game.describe()})"
            )
        if threads is None:
            threads = default_threads()
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        if not 0.0 <= reach_floor < 1.0:
            raise ValueError(f"reach_floor must be in [0, 1), not {reach_floor}")
        self.reach_floor = float(reach_floor)
        self.threads = threads
        self.game = game
        self.algorithm = algorithm
        self.dtype = dt
        self.kernel = kernel if kernel is not None else Kernel(game, dt)
        self._sfx = "f32" if dt == np.dtype(np.float32) else "f64"
        self._lib = lib
        n = game.num_bids
        # Kept alive while the solver exists: the C side reads them while building.
        opening = np.ascontiguousarray(game.opening, dtype=np.uint8)
        ok = [np.ascontiguousarray(game.raise_ok[p], dtype=np.uint8) for p in (0, 1)]
        faces = np.array([b.face - 1 for b in game.bids], dtype=np.int64)
        cnt = [np.ascontiguousarray(game.counts[p][:, faces].T, dtype=np.uint8) for p in (0, 1)]
        w = [np.ascontiguousarray(game.hands[p].weights, dtype=np.float64) for p in (0, 1)]
        k = Kernel(game, np.float64) if self.kernel.dtype != np.float64 else self.kernel
        pay = [
            np.ascontiguousarray(
                np.stack([np.stack([k.pay[u][(c, r)] for r in range(n)]) for c in (0, 1)]).astype(
                    np.float64
                )
            )
            for u in (0, 1)
        ]
        handle = getattr(lib, f"cfr_new_{self._sfx}")(
            n,
            _ptr(opening),
            _ptr(ok[0]),
            _ptr(ok[1]),
            len(game.hands[0]),
            len(game.hands[1]),
            game.dice[0],
            game.dice[1],
            _ptr(cnt[0]),
            _ptr(cnt[1]),
            _ptr(w[0]),
            _ptr(w[1]),
            _ptr(pay[0]),
            _ptr(pay[1]),
            threads,
        )
        if not handle:
            raise RuntimeError(f"out of memory building the compiled solver for {game.describe()}")
        self._handle: int | None = int(handle)
        self.iterations = 0
        self._kept: list[int | None] = [None, None]
        self._marks: dict[int, int] = {}
        self.gamma = 2.0
        """The average weighs iteration ``t`` by ``t**gamma`` (``cfr+linear``: 1)."""
        if algorithm == "dcfr":
            self._call("cfr_set_discount", 1, DCFR_ALPHA, DCFR_BETA)
        if self.reach_floor:
            self._call("cfr_set_floor", self.reach_floor)
        sizes = np.zeros(4, dtype=np.int32)
        lib.cfr_tree_sizes(self._handle, int(self._sfx == "f32"), _ptr(sizes))
        self.nodes = (int(sizes[0]), int(sizes[1]))
        """Reachable nodes where each player is to act."""
        self.edges = (int(sizes[2]), int(sizes[3]))
        """Legal raises out of each player's nodes."""

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle:
            getattr(self._lib, f"cfr_free_{self._sfx}")(handle)
            self._handle = None

    def _call(self, name: str, *args: Any) -> Any:
        if self._handle is None:  # pragma: no cover - only after __del__
            raise RuntimeError("the compiled solver was freed")
        return getattr(self._lib, f"{name}_{self._sfx}")(self._handle, *args)

    # -- iterating ----------------------------------------------------------------------------

    def iterate(self, count: int = 1, callback: Callable[[int], None] | None = None) -> None:
        """Run ``count`` iterations (each updates player 0, then player 1)."""
        linear = 1.0 if self.algorithm == "cfr+linear" else self.gamma
        if callback is None:
            self._advance(count, linear)
            return
        for _ in range(count):
            self._advance(1, linear)
            callback(self.iterations)

    def _advance(self, count: int, linear: float) -> None:
        done = int(self._call("cfr_iterate", int(count), linear))
        if done == -2:
            raise RuntimeError("no iteration while a window of the average stands")
        if done < 0:
            raise MemoryError(f"out of memory in the compiled solver: {self.game.describe()}")
        self.iterations = done

    def visited(self) -> tuple[int, int]:
        """Nodes the last update of each player visited (the pruned walk's size)."""
        out = np.zeros(2, dtype=np.int64)
        self._call("cfr_visited", _ptr(out))
        return int(out[0]), int(out[1])

    # -- results ------------------------------------------------------------------------------

    def _export(self, which: int) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        raises, dudo = [], []
        for p in (0, 1):
            r = np.zeros((self.game.rows, len(self.game.hands[p])), dtype=np.float64)
            d = np.zeros_like(r)
            self._call("cfr_export", p, which, _ptr(r), _ptr(d))
            raises.append(r.astype(self.dtype, copy=False))
            dudo.append(d.astype(self.dtype, copy=False))
        return (raises[0], raises[1]), (dudo[0], dudo[1])

    def load(self, regrets: Profile, current: Profile, average: Profile, iterations: int) -> None:
        """Start from a given state (numpy layout, as :meth:`regrets`, :meth:`current` and the
        unnormalized average): what the tests compare one iteration from."""
        self._call("cfr_set_iterations", int(iterations))
        self.iterations = int(iterations)
        for which, prof in enumerate((regrets, current, average)):
            for p in (0, 1):
                r = np.ascontiguousarray(prof.raises[p], dtype=np.float64)
                d = np.ascontiguousarray(prof.dudo[p], dtype=np.float64)
                self._call("cfr_import", p, which, _ptr(r), _ptr(d))

    def average_weights(self) -> Profile:
        """The unnormalized average (the weighted sums of the strategies), numpy layout."""
        r, d = self._export(2)
        return Profile(r, d)

    def regrets(self) -> Profile:
        """The cumulative regrets (clipped at zero), in the numpy layout (zero off the tree)."""
        r, d = self._export(0)
        return Profile(r, d)

    def current(self) -> Profile:
        """The strategy of the last iteration, in the numpy layout (zero off the tree)."""
        r, d = self._export(1)
        return Profile(r, d)

    def average(self) -> Profile:
        """The average strategy, normalized as :meth:`CFRSolver.average` does."""
        return self._normalized(2)

    def keep(self, player: int) -> None:
        """Keep a copy of ``player``'s average as it is now (in the compiled solver's memory,
        no export): :meth:`kept` returns the profile of the last copies of both players."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player}")
        if not self._call("cfr_snapshot", int(player)):
            raise MemoryError(f"out of memory in the compiled solver: {self.game.describe()}")
        self._kept[player] = self.iterations

    def kept(self) -> Profile:
        """The profile of the averages last kept by :meth:`keep`, normalized as
        :meth:`average`.

        :raises ValueError: if either player's average was never kept.
        """
        missing = [p for p in (0, 1) if self._kept[p] is None]
        if missing:
            raise ValueError(f"no average kept for player {missing[0]} (call keep first)")
        return self._normalized(3)

    def mark(self, slot: int) -> None:
        """Copy both players' averages (their sums, in float32) to ``slot`` (0 to
        :data:`MARKS` - 1): the start of later :meth:`window` s."""
        if not 0 <= slot < MARKS:
            raise ValueError(f"slot must be in 0..{MARKS - 1}, not {slot}")
        if not self._call("cfr_mark", int(slot)):
            raise MemoryError(f"out of memory in the compiled solver: {self.game.describe()}")
        self._marks[slot] = self.iterations

    def marks(self) -> dict[int, int]:
        """The iteration each marked slot was marked at."""
        return dict(self._marks)

    @contextmanager
    def window(self, slot: int, lam: float) -> Iterator[None]:
        """While in the block, the average is its window since mark ``slot``: the sums less
        ``lam`` (in (0, 1]) times the sums then, floored at zero — the strategies of the
        iterations since, and ``lam`` less of those before. :meth:`exploitability`,
        :meth:`keep`, :meth:`average` and :meth:`average_weights` see the window; the sums
        are restored exactly after. No iteration may run in the block.

        :raises ValueError: for a slot never marked or ``lam`` outside (0, 1].
        """
        if slot not in self._marks:
            raise ValueError(f"slot {slot} was never marked")
        if not 0.0 < lam <= 1.0:
            raise ValueError(f"lam must be in (0, 1], not {lam}")
        if not self._call("cfr_window", int(slot), float(lam)):
            raise MemoryError(f"out of memory in the compiled solver: {self.game.describe()}")
        try:
            yield
        finally:
            self._call("cfr_window", 0, 0.0)

    def kept_iterations(self) -> tuple[int | None, int | None]:
        """The iteration at which each player's kept average was copied."""
        return self._kept[0], self._kept[1]

    def _normalized(self, which: int) -> Profile:
        raises, dudo = self._export(which)
        return self.kernel.profile_of(raises, dudo)

    def exploitability(self) -> tuple[float, float, float]:
        """``(br0, br1, exploitability)`` of the average strategy, by best responses walked in
        the compiled tree in float64, pruned to what the other player's average reaches, the
        two side by side on two threads: the figures of :meth:`Kernel.exploitability` of
        :meth:`average`."""
        out = np.zeros(2, dtype=np.float64)
        self._call("cfr_best_responses", _ptr(out))
        br0, br1 = float(out[0]), float(out[1])
        return br0, br1, (br0 + br1) / 2.0
