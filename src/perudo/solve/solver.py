"""Solve one round: pick a method, run it to a target exploitability, report the figures.

``method="auto"`` takes the sequence-form LP (:mod:`perudo.solve.lp`, exact) for rounds whose
tree is small (one die each with six faces, about 2 s; palifico rounds where the player with
more dice may not change the face, P-32) and, otherwise, discounted CFR in the compiled kernel
(:mod:`perudo.solve.native`) — or CFR+ in numpy (:mod:`perudo.solve.cfr`) where the kernel is
not built — stopping at ``target`` exploitability, ``max_iterations`` or ``time_limit``
seconds, whichever comes first. ``benchmarks/solve.py`` prints the measurements behind this.

The exploitability is checked every few iterations by exact best responses (sparsely while the
target is far), and each player's best average so far is kept (copied aside in the compiled
kernel's memory): the exploitability of a profile is half the sum of one term per
player (the other's best response against it), so the best of each is a better profile than
the last average whenever the iterates wander (the figures reported are always those of the
profile returned, recomputed in float64 on the whole tree).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from . import native
from .cfr import ALGORITHMS, CFRSolver
from .game import RoundGame
from .lp import solve_lp
from .solution import Solution
from .vector import Kernel, Profile, single_threaded_blas

__all__ = [
    "BACKENDS",
    "METHODS",
    "Progress",
    "RoundSolver",
    "pick_backend",
    "pick_dtype",
    "solve_round",
]

METHODS: Final[tuple[str, ...]] = ("auto", "lp", *ALGORITHMS)

BACKENDS: Final[tuple[str, ...]] = ("auto", "native", "numpy")
"""Where CFR runs: the compiled kernel (``native``, for ``cfr+``, ``cfr+linear`` and ``dcfr``),
numpy, or ``auto`` (the compiled kernel when it is built and runs the method)."""


class RoundSolver(Protocol):
    """What :func:`solve_round` needs of a CFR solver: both the numpy
    :class:`~perudo.solve.cfr.CFRSolver` and the compiled :class:`~perudo.solve.native.NativeCFR`
    are one, so the loop has no branch on which it drives."""

    iterations: int
    """Iterations run."""

    @property
    def mark_slots(self) -> int:
        """How many marks the solver keeps for windows of the average (0: no windows)."""
        ...

    def iterate(self, count: int = 1, callback: Callable[[int], None] | None = None) -> None:
        """Run ``count`` iterations."""

    def exploitability(self) -> tuple[float, float, float]:
        """``(br0, br1, exploitability)`` of the average strategy now."""
        ...

    def keep(self, player: int) -> None:
        """Copy ``player``'s half of the average as measured last (its best so far)."""

    def kept(self) -> Profile:
        """The profile of the halves last kept."""
        ...

    def marks(self) -> dict[int, int]:
        """The iteration each marked slot was marked at."""
        ...

    def mark(self, slot: int) -> None:
        """Mark the average now in ``slot`` (below :attr:`mark_slots`)."""

    def window(self, slot: int, lam: float) -> AbstractContextManager[None]:
        """While in the block, the average is its window since mark ``slot``."""
        ...


_REACH_FLOOR: Final = 1e-8
"""The compiled kernel's reach floor on large rounds (:class:`~perudo.solve.native.NativeCFR`):
raises that bring the other player's reach below it are not followed. On Perudo 2v1 and 1v2 it
leaves the exploitability curve as it is (measured to 1e-6) and cuts the nodes walked by a
quarter to a third (``docs/solver.md``)."""

_WINDOWS: Final = (0.5, 1.0)
"""In the compiled kernel, each check also measures these windows of the average (the sums
less this share of the sums at a mark about half the iterations back) as candidates of the
best-of-each profile: on Perudo 2v1 they reach 1e-6 some 15% sooner (``docs/solver.md``)."""

_WINDOW_NEAR: Final = 4.0
"""Windows are measured once the exploitability is within this factor of the target."""

_MARK_FROM: Final = 500
_MARK_GROWTH: Final = 1.15
"""Marks are taken at checks from this iteration on, each at least this factor after the last:
five of them cover the span from half the iterations done to all of them."""

Progress = Callable[[int, float | None, float], None]
"""Called as ``progress(iterations, exploitability or None, seconds)`` while solving."""

_FLOAT32_ROWS: Final = 1 << 14
"""``dtype=None`` runs CFR in float32 from this many rows per player (three dice and more):
half the memory traffic, twice the iterations a second, and it still reaches 1e-6
(``docs/solver.md``, section C)."""

_FLOAT32_TARGET: Final = 1e-7
"""Below this target ``dtype=None`` keeps float64: float32 regrets and averages are not
trusted to converge further."""

_LP_SIZE: Final = 30_000
"""``auto`` solves by LP up to this many reachable information states (both players): one
die each (24,576), and palifico rounds whose other player's face is locked (P-32)."""


def pick_method(game: RoundGame) -> str:
    """The method ``auto`` uses for ``game``: the LP for small trees (where scipy is
    installed), else discounted CFR in the compiled kernel, else CFR+ in numpy."""
    cfr = "dcfr" if native.available() else "cfr+"
    if game.num_infostates() > _LP_SIZE:
        return cfr
    try:
        import scipy.optimize  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:  # pragma: no cover - the research extra installs scipy
        return cfr
    return "lp"


def pick_backend(method: str, backend: str = "auto", game: RoundGame | None = None) -> str:
    """Where ``solve_round`` runs CFR ``method`` for ``backend`` (``native`` or ``numpy``), on
    ``game`` if given (the compiled kernel takes at most :data:`native.MAX_HANDS` hands a
    player).

    :raises ValueError: for an unknown backend, or ``native`` for a method it does not run, a
        game it does not take, or when the kernel is not built.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    runs = method in native.ALGORITHMS
    fits = game is None or native.fits(game)
    if backend == "native":
        if not runs:
            raise ValueError(
                f"the compiled kernel runs {', '.join(native.ALGORITHMS)}, not {method!r}"
            )
        if not native.available():
            raise ValueError("the compiled kernel is not built (pip install needs a C compiler)")
        if not fits:
            raise ValueError(f"the compiled kernel takes at most {native.MAX_HANDS} hands a player")
        return "native"
    if backend == "auto" and runs and fits and native.available():
        return "native"
    return "numpy"


def pick_dtype(game: RoundGame, target: float) -> type[np.floating[Any]]:
    """The float type ``solve_round(dtype=None)`` gives CFR on ``game`` for ``target``."""
    if game.rows >= _FLOAT32_ROWS and target >= _FLOAT32_TARGET:
        return np.float32
    return np.float64


def solve_round(
    game: RoundGame,
    *,
    method: str = "auto",
    target: float = 1e-6,
    max_iterations: int | None = None,
    time_limit: float | None = None,
    check_every: int | None = None,
    dtype: npt.DTypeLike | None = None,
    backend: str = "auto",
    threads: int | None = None,
    reach_floor: float | None = None,
    progress: Progress | None = None,
) -> Solution:
    """An equilibrium of ``game`` (approximate for the CFR methods) with its figures.

    Args:
        game: the round.
        method: ``auto``, ``lp``, or a CFR variant (``cfr+``, ``cfr+linear``, ``pcfr+``,
            ``dcfr``).
        target: stop CFR once the exploitability is at most this.
        max_iterations: stop CFR after this many iterations (default: no limit).
        time_limit: stop CFR after this many seconds (default: no limit).
        check_every: iterations between exploitability checks (default: 25, or 50 for rounds
            with one die each, and from 500 or 1,000 iterations on, 5% of the iterations done;
            in the compiled kernel 100, then 3%; and while the target is far, halfway to the
            iteration where the fall between the last two checks says it would be reached, at
            most half the iterations done: all as the time limit allows).
        dtype: float type of CFR's regrets and strategies (``float32`` halves memory; the
            figures are always recomputed in float64). ``None``: :func:`pick_dtype` (float32
            for rounds of three dice and more while ``target`` ≥ 1e-7, float64 otherwise).
        backend: ``auto``, ``native`` or ``numpy`` (:func:`pick_backend`).
        threads: threads of the compiled kernel (default: the cores this process may use).
        reach_floor: the compiled kernel's reach floor (default: 1e-8 on rounds of three dice
            and more, 0 — the exact pruned update — otherwise).
        progress: called after each check.

    :raises ValueError: for an unknown method or backend, or a CFR run with no stopping rule.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if method == "auto":
        method = pick_method(game)
    start = time.perf_counter()
    info: dict[str, Any] = {}
    if method == "lp":
        with single_threaded_blas():
            profile, _ = solve_lp(game)
        iterations = 0
    else:
        if target <= 0 and max_iterations is None and time_limit is None:
            raise ValueError("CFR needs a stopping rule: target > 0, max_iterations or time_limit")
        where = pick_backend(method, backend, game)
        float_type = np.dtype(pick_dtype(game, target) if dtype is None else dtype)
        info["dtype"] = float_type.name
        info["backend"] = where
        solver: RoundSolver
        if where == "native":
            floor = reach_floor
            if floor is None:
                floor = _REACH_FLOOR if game.rows >= _FLOAT32_ROWS else 0.0
            compiled = native.NativeCFR(
                game, method, dtype=float_type, threads=threads, reach_floor=floor
            )
            solver = compiled
            info["threads"] = compiled.threads
            info["reach_floor"] = floor
            every = check_every or 100
            share = 33
        else:
            solver = CFRSolver(game, method, dtype=float_type)
            every = check_every or (50 if game.rows <= 4096 else 25)
            share = 20
        best = _BestOfEach()
        per_iteration = 0.0
        checks: list[tuple[int, float]] = []
        while True:
            step = every
            if check_every is None:
                # A check costs a few iterations: past the first checks, check every few percent
                # of the iterations done (at most that many more than needed), and while the
                # target is far, halfway to where the curve so far says it will be reached.
                step = max(step, solver.iterations // share, _halfway(checks, target))
                if time_limit is not None and per_iteration > 0:
                    left = time_limit - (time.perf_counter() - start)
                    step = max(every, min(step, int(left / per_iteration)))
            if max_iterations is not None:
                step = min(step, max_iterations - solver.iterations)
            if step > 0:
                began = time.perf_counter()
                solver.iterate(step)
                per_iteration = (time.perf_counter() - began) / step
            # Each player's best average so far is kept (in the compiled kernel, copied aside
            # in its memory: its best responses need no average in numpy).
            br0, br1, _ = solver.exploitability()
            for player in best.improved(br0, br1):
                solver.keep(player)
            _windows(solver, best, target)
            expl = best.exploitability
            checks.append((solver.iterations, expl))
            elapsed = time.perf_counter() - start
            if progress is not None:
                progress(solver.iterations, expl, elapsed)
            if expl <= target:
                break
            if max_iterations is not None and solver.iterations >= max_iterations:
                break
            if time_limit is not None and elapsed >= time_limit:
                break
        iterations = solver.iterations
        profile = solver.kept().astype(np.float64)
    kernel = Kernel(game)
    with single_threaded_blas():
        br0, br1, expl = kernel.exploitability(profile)
        value = kernel.value(profile)
    seconds = time.perf_counter() - start
    if progress is not None:
        progress(iterations, expl, seconds)
    return Solution(
        game=game,
        profile=profile,
        value=value,
        br=(br0, br1),
        method=method,
        iterations=iterations,
        seconds=seconds,
        info=info,
    )


def _windows(solver: RoundSolver, best: _BestOfEach, target: float) -> None:
    """Near the target, measure windows of the average since the newest mark at most half the
    iterations back (:data:`_WINDOWS`), keeping each player's best half; then mark the average
    now if the last mark is :data:`_MARK_GROWTH` back, in a free slot or one whose mark no later
    window can start from."""
    now = solver.iterations
    marks = solver.marks()
    starts = [(it, slot) for slot, it in marks.items() if it <= now // 2]
    start = max(starts)[1] if starts else None
    if start is not None and best.exploitability <= _WINDOW_NEAR * target:
        for lam in _WINDOWS:
            with solver.window(start, lam):
                br0, br1, _ = solver.exploitability()
                for player in best.improved(br0, br1):
                    solver.keep(player)
    if now < _MARK_FROM or (marks and now < _MARK_GROWTH * max(marks.values())):
        return
    # Later windows start at least this far on: marks before it are free again.
    oldest = marks[start] if start is not None else 0
    free = [slot for slot in range(solver.mark_slots) if slot not in marks or marks[slot] < oldest]
    if free:
        solver.mark(free[0])


def _halfway(checks: list[tuple[int, float]], target: float) -> int:
    """Iterations to half the distance to where the exploitability would reach ``target`` if
    it kept falling as a power of the iterations, as between the last two checks (0 when it did
    not fall, or the target is reached); at most half the iterations done, so the checks stay
    within a factor 1.5 of each other."""
    if len(checks) < 2 or target <= 0:
        return 0
    (t1, e1), (t2, e2) = checks[-2], checks[-1]
    if not (t2 > t1 > 0 and e1 > e2 > target):
        return 0
    rate = min(max(math.log(e1 / e2) / math.log(t2 / t1), 0.3), 3.0)
    reached = t2 * (e2 / target) ** (1.0 / rate)
    return int(min((reached - t2) / 2.0, t2 / 2.0))


class _BestOfEach:
    """Which player's average strategy at a check is the best seen (the solver keeps it).

    ``br0`` (the opener's best response) measures player 1's strategy and ``br1`` player 0's,
    so the profile of the two best halves has exploitability ``(min br0 + min br1) / 2``.
    """

    def __init__(self) -> None:
        self.br = [np.inf, np.inf]

    def improved(self, br0: float, br1: float) -> list[int]:
        """The players whose strategy in a profile with these best responses is the best seen
        (player 1 if ``br0`` is the lowest yet, player 0 if ``br1`` is), recorded as such: the
        caller keeps their halves."""
        players = []
        for player, br in ((0, br1), (1, br0)):
            if br < self.br[1 - player]:
                self.br[1 - player] = br
                players.append(player)
        return players

    @property
    def exploitability(self) -> float:
        return (self.br[0] + self.br[1]) / 2.0
