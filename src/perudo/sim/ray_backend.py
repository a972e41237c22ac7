"""The ``ray`` backend of :func:`perudo.sim.workers.open_workers`: tasks on a Ray cluster.

The only module that imports Ray, and only inside its functions: Ray is an optional
dependency (the ``research`` extra), never needed to serve or to play.

A cluster is one ``ray start --head`` machine and any number of ``ray start
--address=HEAD:6379`` machines, each with the same perudo installed (docs/research.md). The
driver (``perudo arena --backend ray --ray-address HEAD:6379``) sends each task to the
cluster, at most ``jobs`` at once (default: every CPU of the cluster), and merges what comes
back in a fixed order: the results are those of the ``process`` backend, byte for byte.

Without an address (and without ``RAY_ADDRESS``) a Ray instance is started on this machine
for the run, with ``jobs`` CPUs, a small object store and no dashboard, and stopped after;
it leaves nothing behind: the token Ray writes for it to ``~/.ray/auth_token`` (Ray
authenticates with one) is removed after (:func:`_leave_no_token`).
A Ray connection the caller opened already (``ray.init`` in their program) is used as it is
and left open.
"""

from __future__ import annotations

import logging
import os
import re
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any, Final, TypeVar

import perudo

__all__ = ["LOCAL_OBJECT_STORE", "WorkerTraceback", "ray_workers"]

T = TypeVar("T")
R = TypeVar("R")

LOCAL_OBJECT_STORE: Final = 128 * 1024 * 1024
"""Object store of a Ray started for one run, in bytes: tasks move a few kilobytes each, so
Ray's default (30% of the machine's memory) would only take memory from the workers."""


class WorkerTraceback(Exception):
    """The traceback of an exception raised on a Ray worker, chained as its ``__cause__``
    (as :mod:`multiprocessing` chains its ``RemoteTraceback``), without Ray's colours."""

    def __init__(self, text: str) -> None:
        super().__init__(re.sub(r"\x1b\[[0-9;]*m", "", text))

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}\n"""'


def _call(fn: Callable[[T], R], task: T, version: str) -> R:
    """Run one task on a worker, after checking that it runs the driver's perudo: another
    version could play other games from the same seeds."""
    if version != perudo.__version__:
        raise RuntimeError(
            f"the Ray worker on {socket.gethostname()} runs perudo {perudo.__version__}, the "
            f"driver perudo {version}: install the same version on every machine of the cluster"
        )
    return fn(task)


class _RayWorkers:
    def __init__(self, ray: Any, size: int) -> None:
        self._ray = ray
        self._size = size

    @property
    def size(self) -> int:
        return self._size

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        ray = self._ray
        from ray.exceptions import RayError, RayTaskError

        # One CPU per task, never retried: a task that raised raises again (a bot's bug),
        # and a task is cheap to rerun by running the arena again.
        remote = ray.remote(num_cpus=1, max_retries=0)(_call)
        todo = iter(enumerate(tasks))
        pending: dict[Any, int] = {}

        def submit() -> None:
            for index, task in todo:
                pending[remote.remote(fn, task, perudo.__version__)] = index
                return

        for _ in range(self._size):
            submit()
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    index = pending.pop(ref)
                    try:
                        result = ray.get(ref)
                    except RayTaskError as err:
                        # str(err) is Ray's text of the worker's traceback.
                        raise _unwrap(err) from WorkerTraceback(str(err))
                    except RayError as err:
                        raise RuntimeError(f"the Ray cluster could not run a task: {err}") from err
                    submit()
                    yield index, result
        finally:
            for ref in pending:  # an error, or the caller stopped early: cancel the rest
                ray.cancel(ref)


def _unwrap(err: Any) -> BaseException:
    """The exception the task raised (as the ``process`` backend raises it), or the Ray
    error itself when the cause could not be sent back."""
    cause = getattr(err, "cause", None)
    return cause if isinstance(cause, BaseException) else err


def _check_reachable(address: str) -> None:
    """Refuse at once an address where nothing listens (``ray.init`` would retry for
    minutes). Only a plain ``HOST:PORT`` is tried; ``auto`` and ``ray://…`` go to Ray as
    they are."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as err:
        raise ConnectionError(
            f"no Ray cluster answers at {address} ({err.strerror or err}): start one with "
            "`ray start --head` and give the address it prints"
        ) from None


@contextmanager
def _leave_no_token() -> Iterator[None]:
    """Around a Ray started here for one run: remove the token Ray wrote for it. Ray started
    this way authenticates with a token it writes to ``~/.ray/auth_token`` when there is none,
    and leaves it there (a cluster started later on this machine while that file exists
    refuses drivers without it). A token file that was there before is the user's, and stays;
    so does ``~/.ray`` unless this run made it and left it empty."""
    path = Path.home() / ".ray" / "auth_token"
    had_folder, had_token = path.parent.exists(), path.exists()
    try:
        yield
    finally:
        if not had_token:
            with suppress(OSError):
                path.unlink(missing_ok=True)
        if not had_folder:
            with suppress(OSError):
                path.parent.rmdir()  # only when empty


@contextmanager
def ray_workers(*, address: str | None = None, jobs: int | None = None) -> Iterator[_RayWorkers]:
    """Workers on the Ray cluster at ``address`` (or ``RAY_ADDRESS``; see the module
    docstring for a local start).

    :raises ImportError: when Ray is not installed, saying how to install it.
    :raises ConnectionError: when no cluster answers at the address.
    """
    try:
        import ray
    except ImportError:
        raise ImportError(
            "the ray backend needs Ray: pip install 'perudo[research]' (or pip install ray)"
        ) from None
    started = False
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is not None:
        _check_reachable(address)
    with ExitStack() as stack:
        if not ray.is_initialized():
            if address is None:
                stack.enter_context(_leave_no_token())
                ray.init(
                    num_cpus=jobs,
                    include_dashboard=False,
                    object_store_memory=LOCAL_OBJECT_STORE,
                    logging_level=logging.WARNING,
                )
            else:
                try:
                    ray.init(address=address, logging_level=logging.WARNING)
                except ConnectionError as err:
                    raise ConnectionError(
                        f"{err}; a cluster with token authentication also needs "
                        "RAY_AUTH_MODE=token and its token on this machine (docs/research.md)"
                    ) from None
            started = True
        try:
            cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
            yield _RayWorkers(ray, jobs if jobs is not None else max(1, cpus))
        finally:
            if started:
                ray.shutdown()
