"""Analyses of finished games for the API, computed outside the event loop.

:class:`Analyses` keeps one analysis per (game, viewer seat or ``None``) in memory, at most
``Settings.analysis_cache`` of them. The first request for one starts it and is answered with
its progress; the work runs in a pool of worker processes (``Settings.analysis_workers``),
each decision and each point of the chart a task of its own
(:func:`perudo.analysis.analyze` with the pool as its executor), coordinated from a thread, so
the event loop never waits for it and the tables' own turns go on. Later requests get the
progress, then the analysis. A viewer's analysis uses only what that seat saw (P-70): the
route asks for a seat only with the seat's token.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from perudo.analysis import analyze
from perudo.core import GameRecord

__all__ = ["Analyses", "Job"]


@dataclass
class Job:
    """One analysis under way or done."""

    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def status(self) -> dict[str, Any]:
        if self.result is not None:
            return {"status": "done", "analysis": self.result}
        if self.error is not None:
            return {"status": "failed", "message": self.error}
        return {"status": "running", "done": self.done, "total": self.total}


def _behind_the_players() -> None:
    """A worker runs at the lowest priority: the players' turns come first on a busy host."""
    os.nice(19)


class Analyses:
    """The server's analyses: a process pool and the jobs by (game key, viewer)."""

    def __init__(self, workers: int, keep: int = 64) -> None:
        self.workers = workers
        self.keep = keep
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: OrderedDict[tuple[str, int | None], Job] = OrderedDict()
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: the server has threads and an event loop, which a fork would copy
            # half-way (a lock held by another thread stays held in the child).
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=_behind_the_players,
            )
        return self._pool

    def get(
        self, key: str, viewer: int | None, record: GameRecord, *, show_hands: bool = False
    ) -> Job:
        """The job of ``key`` for ``viewer``, started now (in the background) if new;
        ``show_hands``: the game's table agreed to show every hand at the end (fixed for a
        game, so the game and viewer key it)."""
        with self._lock:
            job = self._jobs.get((key, viewer))
            if job is not None:
                self._jobs.move_to_end((key, viewer))
                return job
            job = self._jobs[(key, viewer)] = Job()
            while len(self._jobs) > self.keep:
                self._jobs.popitem(last=False)
        pool = self._executor()

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        def work() -> None:
            try:
                job.result = analyze(
                    record, viewer, progress=progress, executor=pool, show_hands=show_hands
                ).to_json()
            except Exception as err:  # reported to the client by name
                job.error = f"{type(err).__name__}: {err}"
            finally:
                job.finished.set()

        threading.Thread(target=work, name=f"perudo-analysis-{key}", daemon=True).start()
        return job

    async def wait(self, job: Job, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for ``job`` without holding the event loop."""
        await asyncio.to_thread(job.finished.wait, timeout)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
