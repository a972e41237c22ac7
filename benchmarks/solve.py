"""Solver benchmarks: speed against OpenSpiel, exact Perudo rounds, the biggest heads-up round.

Run (on a shared machine, nicely)::

    nice -n 10 .venv/bin/python benchmarks/solve.py            # sections A–C, a few minutes
    nice -n 10 .venv/bin/python benchmarks/solve.py --big      # also section D (2v2), ~10 min

A. OpenSpiel's ``liars_dice`` (one die each, = ``liars_dice_openspiel`` 1v1): time to
   exploitability ≤ 1e-4. OpenSpiel's C++ ``CFRPlusSolver`` runs a fixed number of iterations
   (``--openspiel-iterations``, default 200) and is timed per iteration; our ``cfr+linear`` is
   the same algorithm (alternating updates, regret matching+, linear averaging) and is checked
   to give the same exploitability at the same iteration counts, so OpenSpiel's time to the
   threshold is its seconds per iteration × the iterations ``cfr+linear`` needs.
   ``--openspiel-full`` runs OpenSpiel to the threshold instead (about two minutes).
B. CFR variants and the LP on one-die rounds: iterations and time to 1e-6.
C. Perudo, six faces: 1v1, 2v1 and 1v2 dice, normal and palifico rounds, each solved by
   ``solve_round`` (``auto``: the LP, or DCFR in the compiled kernel on both cores) with a
   one-minute limit; exploitability measured exactly; peak resident memory of the process.
D. (``--big``) Perudo 2v2, normal round: see ``perudo.solve.abstract``.
E. The kernels side by side on Perudo 2v1 (float32): milliseconds an iteration of the numpy
   pruned CFR+, the compiled CFR+ on one thread and on every core, and the compiled DCFR as
   ``solve_round`` runs it (every core, reach floor 1e-8), each after the same warm-up.

Every time is printed beside the peak memory of that step (``tracemalloc``, numpy included,
measured in a separate run: tracing slows small-array code; for CFR a five-iteration run, as
all its arrays exist from the first iteration).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from perudo import LIARS_DICE_OPENSPIEL, PERUDO
from perudo.solve import RoundGame, solve_round
from perudo.solve.cfr import CFRSolver
from perudo.solve.vector import keep_freed_memory, single_threaded_blas


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """``(result, seconds)`` of ``fn()``."""
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def peak_mib(fn: Callable[[], Any]) -> float:
    """Peak memory of ``fn()`` in MiB (``tracemalloc``, numpy's arrays included).

    Run apart from the timed runs: tracing every allocation slows small-array code ×2–×3.
    """
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def peak_rss_mib(fn: Callable[[], Any]) -> float:
    """Peak resident memory of the process while ``fn()`` runs, in MiB (Linux: the high-water
    mark is reset through ``/proc/self/clear_refs`` first). Counts what ``tracemalloc`` does not
    see, such as the compiled kernel's arrays; the process's own baseline is included."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:  # pragma: no cover - not Linux
        return float("nan")
    fn()
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover


def measured(
    fn: Callable[[], Any], memory: Callable[[], Any] | None = None
) -> tuple[Any, float, float]:
    """``(result, seconds, peak MiB)``: ``fn`` timed, then ``memory`` (default ``fn``) traced."""
    out, seconds = timed(fn)
    return out, seconds, peak_mib(memory or fn)


def cfr_to(
    game: RoundGame,
    algorithm: str,
    target: float,
    *,
    step: int = 10,
    cap: int = 20000,
    dtype: Any = np.float64,
    checkpoints: tuple[int, ...] = (),
) -> dict[str, Any]:
    """Iterate until the exploitability is at most ``target``; time the iterations alone."""
    solver = CFRSolver(game, algorithm, dtype=dtype)
    k = solver.kernel
    spent = 0.0
    at: dict[int, float] = {}
    expl = float("inf")
    while solver.iterations < cap:
        nxt = min([solver.iterations + step] + [c for c in checkpoints if c > solver.iterations])
        t = time.perf_counter()
        solver.iterate(nxt - solver.iterations)
        spent += time.perf_counter() - t
        with single_threaded_blas():
            expl = k.exploitability(solver.average())[2]
        if solver.iterations in checkpoints:
            at[solver.iterations] = expl
        if expl <= target and all(c <= solver.iterations for c in checkpoints):
            break
        if expl <= target and not checkpoints:
            break
    return {"iterations": solver.iterations, "seconds": spent, "expl": expl, "at": at}


def first_below(at: dict[int, float], target: float) -> int | None:
    for it in sorted(at):
        if at[it] <= target:
            return it
    return None


def section_a(os_iterations: int, full: bool) -> None:
    print("\nA. liars_dice (OpenSpiel), one die each: time to exploitability <= 1e-4")
    game = RoundGame(LIARS_DICE_OPENSPIEL, (1, 1))
    target = 1e-4
    # The machine is shared: every timing is the best of several, for both solvers.
    runs = [measured(lambda: cfr_to(game, "cfr+", target)) for _ in range(3)]
    ours, secs, mib = min(runs, key=lambda run: run[0]["seconds"])
    print(
        f"  ours cfr+ (t^2 averaging): {ours['iterations']} iterations, {ours['seconds']:.3f} s "
        f"iterating (best of 3; {secs:.2f} s with checks), exploitability {ours['expl']:.2e}, "
        f"peak {mib:.0f} MiB"
    )
    checks = (10, 50, 100, 200, 400, 600, 800, *range(1000, 1501, 25))
    lin, secs_l, mib_l = measured(
        lambda: cfr_to(game, "cfr+linear", target, step=100, checkpoints=checks)
    )
    print(
        f"  ours cfr+linear (OpenSpiel's algorithm): {lin['iterations']} iterations, "
        f"{lin['seconds']:.3f} s iterating, exploitability {lin['expl']:.2e}, peak {mib_l:.0f} MiB"
    )
    lp_runs = [measured(lambda: solve_round(game, method="lp")) for _ in range(2)]
    lp, secs_lp, mib_lp = min(lp_runs, key=lambda run: run[1])
    print(
        f"  ours LP (HiGHS): exact, exploitability {lp.exploitability:.1e}, {secs_lp:.2f} s, "
        f"peak {mib_lp:.0f} MiB"
    )
    try:
        import pyspiel
    except ImportError:
        print("  OpenSpiel (pyspiel) not installed: pip install open_spiel")
        return
    os_game = pyspiel.load_game("liars_dice")
    solver = pyspiel.CFRPlusSolver(os_game)
    os_at: dict[int, float] = {}
    spent = 0.0
    done = 0
    rates: list[float] = []
    stop = 100_000 if full else os_iterations
    marks = sorted({c for c in checks if c <= stop} | {stop} | set(range(25, stop + 1, 25)))
    for mark in marks:
        t = time.perf_counter()
        for _ in range(mark - done):
            solver.evaluate_and_update_policy()
        took = time.perf_counter() - t
        spent += took
        if mark - done >= 10:
            rates.append(took / (mark - done))
        done = mark
        if mark not in checks and mark != stop:
            continue
        os_at[mark] = pyspiel.exploitability(os_game, solver.average_policy())
        if full and os_at[mark] <= target:
            break
        if full and mark == marks[-1] and os_at[mark] > target:
            marks.extend(range(mark + 25, mark + 101, 25))
    per_it = min(rates)
    same = [
        f"{it}: {os_at[it]:.3e} vs {lin['at'][it]:.3e}" for it in sorted(os_at) if it in lin["at"]
    ]
    print(
        f"  OpenSpiel CFRPlusSolver: {done} iterations in {spent:.1f} s "
        f"({spent / done * 1e3:.1f} ms each on average, {per_it * 1e3:.1f} ms in the best "
        "stretch of 25, used below)"
    )
    print(f"  exploitability, OpenSpiel vs our cfr+linear at the same iteration: {'; '.join(same)}")
    reached = first_below(os_at, target)
    if reached is not None:
        os_time = per_it * reached
        how = f"measured: {reached} iterations"
    else:
        need = first_below(lin["at"], target) or lin["iterations"]
        os_time = per_it * need
        how = f"estimated: {need} iterations (as our cfr+linear) × {per_it * 1e3:.1f} ms"
    print(f"  OpenSpiel time to <= {target:g}: {os_time:.1f} s ({how})")
    print(f"  speed-up: cfr+ {os_time / ours['seconds']:.0f}x, LP (exact) {os_time / secs_lp:.0f}x")


def section_b() -> None:
    print("\nB. one-die rounds: iterations and time to exploitability <= 1e-6 (cap 6000)")
    for label, game in (
        ("perudo 1v1", RoundGame(PERUDO, (1, 1))),
        ("liars_dice_openspiel 1v1", RoundGame(LIARS_DICE_OPENSPIEL, (1, 1))),
    ):
        for alg in ("cfr+", "cfr+linear", "dcfr", "pcfr+"):
            res, secs, mib = measured(lambda a=alg, g=game: cfr_to(g, a, 1e-6, step=50, cap=6000))
            print(
                f"  {label:26s} {alg:10s} {res['iterations']:5d} it  {res['seconds']:6.2f} s  "
                f"expl {res['expl']:.1e}  peak {mib:.0f} MiB"
            )
        sol, secs, mib = measured(lambda g=game: solve_round(g, method="lp"))
        print(
            f"  {label:26s} {'lp':10s}     -     {secs:6.2f} s  expl {sol.exploitability:.1e}  "
            f"peak {mib:.0f} MiB"
        )


def section_c(limit: float) -> None:
    print(f"\nC. perudo, 6 faces: solve_round(auto, target 1e-6, time limit {limit:g} s)")
    for dice, pal in (
        ((1, 1), False),
        ((1, 1), True),
        ((2, 1), False),
        ((1, 2), False),
        ((1, 2), True),
    ):
        game = RoundGame(PERUDO, dice, palifico=pal)
        # The command's defaults: the LP, or DCFR in the compiled kernel (CFR+ in numpy where
        # it is not built), and CFR's float type picked by solve_round.
        sol, secs = timed(lambda g=game: solve_round(g, target=1e-6, time_limit=limit))
        # CFR allocates everything before its first iteration: a short run has its peak. The
        # compiled kernel allocates in C, which tracemalloc does not see: resident memory.
        mib = peak_rss_mib(
            lambda g=game: solve_round(g, target=1e-6, max_iterations=5, check_every=5)
        )
        kind = "palifico" if pal else "normal"
        ok = "yes" if sol.exploitability <= 1e-6 else "NO"
        its = f"{sol.iterations} it" if sol.iterations else "exact"
        method = f"{sol.method} {sol.info['dtype']}" if "dtype" in sol.info else sol.method
        if sol.info.get("backend") == "native":
            method += f" C x{sol.info['threads']}"
        print(
            f"  {dice[0]}v{dice[1]} {kind:8s} {game.num_infostates():>9,} infostates  "
            f"{method:16s} {its:>8s}  {secs:6.1f} s  peak RSS {mib:6.0f} MiB  "
            f"value {sol.value:+.7f}  expl {sol.exploitability:.1e}  <=1e-6: {ok}"
        )


def section_e(warmup: int = 500, timed_iterations: int = 100) -> None:
    from perudo.solve import native

    print(f"\nE. perudo 2v1, float32: ms an iteration (after {warmup} iterations, best of 3)")
    game = RoundGame(PERUDO, (2, 1))
    runs: list[tuple[str, Callable[[], Any]]] = [
        ("numpy cfr+ (pruned)", lambda: CFRSolver(game, "cfr+", dtype=np.float32))
    ]
    if native.available():
        cores = native.default_threads()
        runs += [
            (
                "compiled cfr+, 1 thread",
                lambda: native.NativeCFR(game, dtype=np.float32, threads=1),
            ),
            (
                f"compiled cfr+, {cores} threads",
                lambda: native.NativeCFR(game, dtype=np.float32, threads=cores),
            ),
            (
                f"compiled dcfr, {cores} threads, floor 1e-8",
                lambda: native.NativeCFR(
                    game, "dcfr", dtype=np.float32, threads=cores, reach_floor=1e-8
                ),
            ),
        ]
    else:
        print("  the compiled kernel is not built")
    for label, make in runs:
        solver = make()
        solver.iterate(warmup)
        best = min(timed(lambda s=solver: s.iterate(timed_iterations))[1] for _ in range(3))
        print(f"  {label:40s} {best / timed_iterations * 1e3:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openspiel-iterations", type=int, default=200)
    parser.add_argument("--openspiel-full", action="store_true")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per round in C")
    parser.add_argument("--skip", default="", help="sections to skip, e.g. B")
    parser.add_argument("--big", action="store_true", help="also section D (2v2)")
    parser.add_argument("--big-minutes", type=float, default=10.0)
    args = parser.parse_args()
    print(f"glibc keeps freed blocks for reuse: {keep_freed_memory()}")
    if "A" not in args.skip:
        section_a(args.openspiel_iterations, args.openspiel_full)
    if "B" not in args.skip:
        section_b()
    if "C" not in args.skip:
        section_c(args.limit)
    if "E" not in args.skip:
        section_e()
    if args.big:
        from perudo.solve.abstract import benchmark_big

        benchmark_big(args.big_minutes * 60)


if __name__ == "__main__":
    main()
