"""Solve one round: pick a method, run it to a target exploitability, report the figures.

``method="auto"`` takes the sequence-form LP (:mod:`perudo.solve.lp`, exact) for rounds whose
tree is small (one die each with six faces, about 2 s; palifico rounds where the player with
more dice may not change the face, P-32) and CFR+ (:mod:`perudo.solve.cfr`)
otherwise, stopping at ``target`` exploitability, ``max_iterations`` or ``time_limit``
seconds, whichever comes first. ``benchmarks/solve.py`` prints the measurements behind this.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .cfr import ALGORITHMS, CFRSolver
from .game import RoundGame
from .lp import solve_lp
from .solution import Solution
from .vector import Kernel, single_threaded_blas

__all__ = ["METHODS", "Progress", "pick_dtype", "solve_round"]

METHODS: Final[tuple[str, ...]] = ("auto", "lp", *ALGORITHMS)

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
    """The method ``auto`` uses for ``game`` (CFR+ where scipy is not installed)."""
    if game.num_infostates() > _LP_SIZE:
        return "cfr+"
    try:
        import scipy.optimize  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:  # pragma: no cover - the research extra installs scipy
        return "cfr+"
    return "lp"


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
            with one die each, and from 500 or 1,000 iterations on, 5% of the iterations done,
            as the time limit allows).
        dtype: float type of the CFR arrays (``float32`` halves memory; the figures are
            always recomputed in float64). ``None``: :func:`pick_dtype` (float32 for rounds
            of three dice and more while ``target`` ≥ 1e-7, float64 otherwise).
        progress: called after each check.

    :raises ValueError: for an unknown method or a CFR run with no stopping rule.
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
        float_type = np.dtype(pick_dtype(game, target) if dtype is None else dtype)
        info["dtype"] = float_type.name
        solver = CFRSolver(game, method, dtype=float_type)
        every = check_every or (50 if game.rows <= 4096 else 25)
        per_iteration = 0.0
        while True:
            step = every
            if check_every is None:
                # A check costs about two iterations: past 20 checks, check every 5% of the
                # iterations done (at most 5% more iterations than needed), within the time.
                step = max(step, solver.iterations // 20)
                if time_limit is not None and per_iteration > 0:
                    left = time_limit - (time.perf_counter() - start)
                    step = max(every, min(step, int(left / per_iteration)))
            if max_iterations is not None:
                step = min(step, max_iterations - solver.iterations)
            if step > 0:
                began = time.perf_counter()
                solver.iterate(step)
                per_iteration = (time.perf_counter() - began) / step
            profile = solver.average()
            with single_threaded_blas():
                _, _, expl = solver.kernel.exploitability(profile)
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
        profile = profile.astype(np.float64)
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
