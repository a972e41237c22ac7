"""Batch rollouts in shards: the same wins in this process, on local processes and on Ray."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from tests.test_layers import imported, modules

from perudo import PERUDO
from perudo.sim.batch import play_random
from perudo.sim.rollouts import play_random_spread, shard_seed

ARGS = (PERUDO, 3, 500)
KW = {"seed": 9, "shard_games": 120, "batch_size": 64}


def test_shards_are_play_random_from_their_own_seeds() -> None:
    wins = play_random_spread(*ARGS, **KW)  # type: ignore[arg-type]
    sizes = [120, 120, 120, 120, 20]
    expected = sum(
        play_random(PERUDO, 3, n, batch_size=64, seed=shard_seed(9, i)) for i, n in enumerate(sizes)
    )
    assert np.array_equal(wins, expected)
    assert int(wins.sum()) == 500


def test_same_wins_on_local_processes() -> None:
    here = play_random_spread(*ARGS, **KW)  # type: ignore[arg-type]
    seen: list[int] = []
    spread = play_random_spread(*ARGS, **KW, backend="process", jobs=2, progress=seen.append)  # type: ignore[arg-type]
    assert np.array_equal(here, spread)
    assert sorted(seen) == [20, 120, 120, 120, 120]
    other = play_random_spread(*ARGS, **{**KW, "seed": 10})  # type: ignore[arg-type]
    assert not np.array_equal(here, other)


def test_same_wins_on_a_ray_cluster(ray_connected: str) -> None:
    import ray

    # The session's cluster: a head and a worker node that joined it (3 CPUs).
    assert sum(node["Alive"] for node in ray.nodes()) == 2
    assert ray.cluster_resources()["CPU"] == 3
    here = play_random_spread(*ARGS, **KW, policy="threshold")  # type: ignore[arg-type]
    on_ray = play_random_spread(
        *ARGS,
        **KW,
        policy="threshold",
        backend="ray",
        address=ray_connected,  # type: ignore[arg-type]
    )
    assert np.array_equal(here, on_ray)


def test_rules_the_batch_does_not_play_are_refused_before_any_work() -> None:
    import dataclasses

    with pytest.raises(ValueError, match=r"passing \(V-10\)"):
        play_random_spread(dataclasses.replace(PERUDO, passing=True), 3, 10, backend="ray")
    with pytest.raises(ValueError, match="at least 1"):
        play_random_spread(PERUDO, 3, 0)


def test_only_the_ray_backend_imports_ray_and_only_inside_functions() -> None:
    importers = {
        name
        for name, path, is_pkg in modules()
        for module, _ in imported(name, path, is_pkg)
        if module == "ray" or module.startswith("ray.")
    }
    assert importers == {"perudo.sim.ray_backend"}
    # Not at import time: the arena, the rollouts and the server load without Ray.
    code = (
        "import sys, perudo.arena, perudo.sim.rollouts, perudo.sim.ray_backend, "
        "perudo.cli.main; assert 'ray' not in sys.modules, 'ray imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
