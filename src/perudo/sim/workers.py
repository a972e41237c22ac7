"""Independent tasks spread over worker processes on this machine or over a Ray cluster.

The arena (:func:`perudo.arena.run_arena`) and the batch rollouts
(:func:`perudo.sim.rollouts.play_random_spread`) cut their work into tasks that depend on
their arguments only (each carries its own seeds), hand them to :func:`open_workers`, and
merge the results in a fixed order (by game index, by shard). So the same arguments give
byte-identical results whichever backend ran them and however many workers it had:

- ``process``: a pool of ``jobs`` processes on this machine (the ``spawn`` start method:
  no inherited threads or locks, such as a progress bar's, in the workers).
- ``ray``: tasks on a Ray cluster (:mod:`perudo.sim.ray_backend`; Ray is imported there
  only, when this backend is chosen). ``address`` is the cluster's (``ray start --head``
  prints it; ``RAY_ADDRESS`` is read when it is not given); without either a Ray instance
  is started on this machine for the run and stopped after.

A task that raises in a worker raises the same exception, with the same message, in the
caller, whichever the backend; the worker's traceback is chained as its cause.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Final, Literal, Protocol, TypeVar, get_args

__all__ = ["BACKENDS", "Backend", "Workers", "chunk_size", "open_workers"]

T = TypeVar("T")
R = TypeVar("R")

Backend = Literal["process", "ray"]
BACKENDS: Final[tuple[str, ...]] = get_args(Backend)
"""Every backend by name: ``process`` (this machine) and ``ray`` (a Ray cluster)."""


class Workers(Protocol):
    """Workers that run tasks: :attr:`size` of them at once."""

    @property
    def size(self) -> int:
        """How many tasks run at once (processes, or the cluster's CPUs)."""
        ...

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Run ``fn(task)`` for every task; yield ``(task index, result)`` as each finishes
        (in no fixed order: callers merge by index). ``fn`` must be a module-level function
        (it is sent to the workers by reference)."""
        ...


def chunk_size(items: int, workers: int) -> int:
    """Items per task: about eight tasks per worker (so that a slow task does not leave the
    others idle at the end), at most 20 items (a progress bar moves), at least one.

    >>> chunk_size(200, 2), chunk_size(10_000, 2), chunk_size(5, 4)
    (12, 20, 1)
    """
    return max(1, min(20, items // (workers * 8)))


def _indexed(args: tuple[Callable[[T], R], int, T]) -> tuple[int, R]:
    fn, index, task = args
    return index, fn(task)


class _Processes:
    """A ``spawn`` pool of ``jobs`` processes on this machine."""

    def __init__(self, jobs: int) -> None:
        self._jobs = jobs

    @property
    def size(self) -> int:
        return self._jobs

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(min(self._jobs, max(1, len(tasks)))) as pool:
            yield from pool.imap_unordered(_indexed, [(fn, i, t) for i, t in enumerate(tasks)])


@contextmanager
def _processes(jobs: int) -> Iterator[Workers]:
    yield _Processes(jobs)


def open_workers(
    backend: str = "process", *, jobs: int | None = None, address: str | None = None
) -> AbstractContextManager[Workers]:
    """Workers of ``backend`` (see the module docstring), to use in a ``with`` block.

    ``jobs``: processes (``process``: default every core of this machine) or tasks at once
    (``ray``: default every CPU of the cluster). ``address`` is for ``ray`` only.

    :raises ValueError: for an unknown backend, ``jobs`` below 1, or an ``address`` given to
        the ``process`` backend.
    :raises ImportError: for ``ray`` when Ray is not installed (the message says how).
    :raises ConnectionError: for ``ray`` when no cluster answers at ``address``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    if backend == "ray":
        from .ray_backend import ray_workers

        return ray_workers(address=address, jobs=jobs)
    if address is not None:
        raise ValueError("--ray-address is for --backend ray")
    return _processes(jobs if jobs is not None else (os.cpu_count() or 1))
