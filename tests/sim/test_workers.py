"""The workers of the arena and the rollouts: backends, chunking, and the Ray backend's checks
that need no cluster (the cluster tests are tests/arena/test_arena_ray.py)."""

from __future__ import annotations

import socket

import pytest

import perudo
from perudo.sim import ray_backend
from perudo.sim.workers import BACKENDS, chunk_size, open_workers


def _double(x: int) -> int:
    return 2 * x


def test_process_workers_run_every_task_once_by_index() -> None:
    with open_workers("process", jobs=2) as workers:
        assert workers.size == 2
        done = dict(workers.run(_double, [5, 6, 7]))
    assert done == {0: 10, 1: 12, 2: 14}


def test_chunks_depend_on_the_work_and_the_workers_only() -> None:
    assert BACKENDS == ("process", "ray")
    assert [chunk_size(g, 2) for g in (1, 16, 200, 5000)] == [1, 1, 12, 20]
    assert chunk_size(200, 2) > chunk_size(200, 8) == 3


def test_bad_backend_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend 'dask'; known: process, ray"):
        open_workers("dask")
    with pytest.raises(ValueError, match="--jobs must be at least 1, not 0"):
        open_workers("process", jobs=0)
    with pytest.raises(ValueError, match="--ray-address is for --backend ray"):
        open_workers("process", address="10.0.0.1:6379")


def test_a_worker_with_another_perudo_refuses_the_task() -> None:
    # Another version could play other games from the same seeds.
    assert ray_backend._call(_double, 4, perudo.__version__) == 8
    with pytest.raises(RuntimeError, match=r"runs perudo .*, the driver perudo 0\.0\.0"):
        ray_backend._call(_double, 4, "0.0.0")


def test_a_worker_traceback_is_shown_without_ray_colours() -> None:
    text = str(ray_backend.WorkerTraceback("\x1b[36mray::_call()\x1b[39m (pid=1)\n  File x"))
    assert "\x1b" not in text and "ray::_call() (pid=1)" in text


def test_an_address_where_nothing_listens_is_refused_naming_it() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ConnectionError, match=f"no Ray cluster answers at 127.0.0.1:{port}"):
        ray_backend._check_reachable(f"127.0.0.1:{port}")
    ray_backend._check_reachable("auto")  # not HOST:PORT: left to Ray
