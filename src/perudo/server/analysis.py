"""Analyses of finished games for the API, computed outside the event loop, once for every
process.

Each analysis (a game and a viewer: a seat, or ``None`` for the public) is one row of the
store's ``analyses`` table, which every process of the multi-process mode reads: the process
whose insert made the row (its ``owner``) runs the analysis in its own pool of worker
processes (``Settings.analysis_workers``, at ``nice 19``), each decision and each point of the
chart a task of its own (:func:`perudo.analysis.analyze` with the pool as its executor),
coordinated from a thread, so the event loop never waits for it and the tables' own turns go
on. The owner writes the progress to the row as it goes (a heartbeat every
:data:`HEARTBEAT` seconds besides), then the result. Any process asked for it answers from the
row: the progress while it runs, the result when done; a row whose owner stopped beating for
:data:`STALE` seconds (the process died) is taken over by the next process asked. Done
analyses are also kept in memory (``Settings.analysis_cache`` of them). A viewer's analysis
uses only what that seat saw (P-70): the route asks for a seat only for its player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from perudo.analysis import analyze
from perudo.core import GameRecord

from .store import Store, StoreError
from .store.analyses import AnalysisRow

__all__ = ["HEARTBEAT", "STALE", "Analyses", "Job"]

log = logging.getLogger("perudo.server")

HEARTBEAT = 5.0
"""Seconds between the owner's writes of a running analysis's row, progress or not."""
STALE = 30.0
"""Seconds without a write after which a running analysis's owner is taken for dead."""
PUBLIC = -1
"""The ``viewer`` column of the public analysis."""


@dataclass
class Job:
    """One analysis this process runs."""

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


def _row_status(row: AnalysisRow) -> dict[str, Any]:
    if row.status == "done":
        return {"status": "done", "analysis": json.loads(row.result or "null")}
    if row.status == "failed":
        return {"status": "failed", "message": row.result or ""}
    return {"status": "running", "done": row.done, "total": row.total}


class Analyses:
    """The server's analyses: a process pool, the store's shared rows, the done ones kept."""

    def __init__(self, workers: int, keep: int = 64, store: Store | None = None) -> None:
        self.workers = workers
        self.keep = keep
        self.store = store
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"
        """This process, as the ``owner`` of the analyses it runs."""
        self._pool: ProcessPoolExecutor | None = None
        self._done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, int], Job] = {}
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

    async def status(
        self,
        key: str,
        viewer: int | None,
        record: GameRecord,
        *,
        show_hands: bool = False,
        wait: float = 0.2,
    ) -> dict[str, Any]:
        """The analysis of game ``key`` for ``viewer``: ``{"status": "done", "analysis"}``,
        ``{"status": "running", "done", "total"}`` or ``{"status": "failed", "message"}``.
        Started here (in the background) when no process runs it; waits up to ``wait``
        seconds for one this process runs. ``show_hands``: the game's table agreed to show
        every hand at the end (fixed for a game, so the game and viewer key it).

        :raises StoreError: when the store cannot be read or written.
        """
        slot = (key, PUBLIC if viewer is None else viewer)
        with self._lock:
            done = self._done.get(slot)
            if done is not None:
                self._done.move_to_end(slot)
                return {"status": "done", "analysis": done}
            job = self._running.get(slot)
        if job is None and self.store is not None:
            row = await self._row(slot)
            if row is not None and (
                row.status != "running" or time.time() - row.updated_at < STALE
            ):
                out = _row_status(row)
                if out["status"] == "done":
                    self._keep(slot, out["analysis"])
                return out
            if not await self._claim(slot, row):
                row = await self._row(slot)
                return (
                    {"status": "running", "done": 0, "total": 0}
                    if row is None
                    else _row_status(row)
                )
        if job is None:
            job = self._start(slot, record, show_hands)
        await asyncio.to_thread(job.finished.wait, wait)
        out = job.status()
        if out["status"] == "done":
            self._keep(slot, out["analysis"])
        return out

    def _keep(self, slot: tuple[str, int], result: dict[str, Any]) -> None:
        with self._lock:
            self._done[slot] = result
            self._done.move_to_end(slot)
            while len(self._done) > self.keep:
                self._done.popitem(last=False)

    async def _row(self, slot: tuple[str, int]) -> AnalysisRow | None:
        assert self.store is not None
        return await self.store.analysis_row(*slot)

    async def _claim(self, slot: tuple[str, int], stale: AnalysisRow | None) -> bool:
        """Make this process the analysis's owner: insert its row, or take over ``stale``
        (a running row whose owner stopped beating) if nobody else did first. Whether it
        did."""
        assert self.store is not None
        try:
            claimed = await self.store.claim_analysis(*slot, self.owner, time.time(), stale)
        except StoreError:
            return False
        if claimed:
            log.info(
                "analysing game %s for %s (owner %s)",
                slot[0],
                "the public" if slot[1] == PUBLIC else f"seat {slot[1]}",
                self.owner,
            )
        return claimed

    def _start(self, slot: tuple[str, int], record: GameRecord, show_hands: bool) -> Job:
        with self._lock:
            job = self._running.get(slot)
            if job is not None:
                return job
            job = self._running[slot] = Job()
        pool = self._executor()
        loop = asyncio.get_running_loop()
        viewer = None if slot[1] == PUBLIC else slot[1]

        def write(coro: Coroutine[Any, Any, None]) -> Future[None] | None:
            """A write of the row from the work thread, on the event loop."""
            if self.store is None:
                coro.close()
                return None
            try:
                return asyncio.run_coroutine_threadsafe(coro, loop)
            except RuntimeError:  # the loop has closed: the server is stopping
                coro.close()
                return None

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
            write(self._beat(slot, job))

        def beat() -> None:
            while not job.finished.wait(HEARTBEAT):
                write(self._beat(slot, job))

        def work() -> None:
            try:
                job.result = analyze(
                    record, viewer, progress=progress, executor=pool, show_hands=show_hands
                ).to_json()
            except Exception as err:  # reported to the client by name
                job.error = f"{type(err).__name__}: {err}"
            finally:
                # The row says done before this process does: whoever asks next, here or at
                # another process, finds the result.
                written = write(self._finish(slot, job))
                if written is not None:
                    with contextlib.suppress(Exception):
                        written.result(timeout=60)
                job.finished.set()

        threading.Thread(target=work, name=f"perudo-analysis-{slot[0]}", daemon=True).start()
        if self.store is not None:
            threading.Thread(
                target=beat, name=f"perudo-analysis-beat-{slot[0]}", daemon=True
            ).start()
        return job

    async def _beat(self, slot: tuple[str, int], job: Job) -> None:
        await self._update(slot, done=job.done, total=job.total, updated_at=time.time())

    async def _finish(self, slot: tuple[str, int], job: Job) -> None:
        try:
            if job.result is not None:
                text = json.dumps(job.result)
                await self._update(slot, status="done", result=text, updated_at=time.time())
            else:
                await self._update(slot, status="failed", result=job.error, updated_at=time.time())
        finally:
            with self._lock:
                self._running.pop(slot, None)
            if job.result is not None:
                self._keep(slot, job.result)

    async def _update(self, slot: tuple[str, int], **values: Any) -> None:
        """Write this process's row (only while it owns it: a row taken over is the new
        owner's)."""
        assert self.store is not None
        try:
            await self.store.update_analysis(*slot, self.owner, **values)
        except StoreError as err:
            log.warning("the store refused the analysis of game %s: %s", slot[0], err)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the worker processes (the live explain panel), awaited without
        holding the event loop."""
        return await asyncio.wrap_future(self._executor().submit(fn, *args))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
