"""Batch rollouts in shards, spread over processes or a Ray cluster with the same results.

:func:`perudo.sim.batch.play_random` plays its games in one process from one generator.
:func:`play_random_spread` cuts ``games`` into shards of ``shard_games`` games (the last one
shorter); shard ``i`` is :func:`~perudo.sim.batch.play_random` seeded from ``(seed, i)``
alone (:func:`shard_seed`), and the wins are summed. The shards are fixed by the arguments,
not by the workers, so the same arguments give the same wins run in this process
(``backend="local"``), on this machine's cores (``process``) or on a Ray cluster (``ray``,
:mod:`perudo.sim.workers`)::

    play_random_spread(PERUDO, 4, 10_000_000, seed=1, backend="ray", address="head:6379")

A run here and a run on a cluster can therefore be compared game for game; only
``shard_games`` changes the games played (and ``batch_size``, which sets how many games a
shard steps at once, as in :func:`~perudo.sim.batch.play_random`).

>>> from perudo.core import PERUDO
>>> wins = play_random_spread(PERUDO, 3, 300, seed=1, shard_games=100)
>>> int(wins.sum())
300
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from perudo.core import RuleSet

from .batch import IntArray, check_supported, play_random
from .workers import open_workers

__all__ = ["play_random_spread", "shard_seed"]


def shard_seed(seed: int, shard: int) -> int:
    """The seed of shard ``shard``: a function of ``(seed, shard)`` only, the same on every
    machine (NumPy's :class:`~numpy.random.SeedSequence`, so shards draw independent
    streams).

    >>> shard_seed(1, 0) == shard_seed(1, 0) != shard_seed(1, 1)
    True
    """
    state = np.random.SeedSequence([seed, shard]).generate_state(2, np.uint32)
    return int(state[0]) << 32 | int(state[1])


def _play_shard(args: tuple[dict[str, Any], int, int, int, int, str]) -> IntArray:
    rules_data, players, games, batch_size, seed, policy = args
    rules = RuleSet.from_dict(rules_data)
    return play_random(
        rules,
        players,
        games,
        batch_size=batch_size,
        seed=seed,
        policy="threshold" if policy == "threshold" else "random",
    )


def play_random_spread(
    rules: RuleSet,
    num_players: int,
    games: int,
    *,
    seed: int = 0,
    shard_games: int = 100_000,
    batch_size: int = 8192,
    policy: Literal["random", "threshold"] = "random",
    backend: Literal["local", "process", "ray"] = "local",
    jobs: int | None = None,
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> IntArray:
    """The wins per seat of ``games`` games with every seat on ``policy``, played in shards
    (see the module docstring). ``jobs`` and ``address`` are those of
    :func:`perudo.sim.workers.open_workers`; ``progress`` is called with the games of each
    shard as it finishes.

    :raises ValueError: for a non-positive ``games`` or ``shard_games``, an unknown backend,
        or rules the batch simulator does not play (before any game is played).
    """
    if games < 1 or shard_games < 1:
        raise ValueError(f"games and shard_games must be at least 1, not {games}, {shard_games}")
    check_supported(rules)
    sizes = [min(shard_games, games - start) for start in range(0, games, shard_games)]
    tasks = [
        (rules.to_dict(), num_players, n, batch_size, shard_seed(seed, i), policy)
        for i, n in enumerate(sizes)
    ]
    wins = np.zeros(num_players, np.int64)
    if backend == "local":
        for task in tasks:
            wins += _play_shard(task)
            if progress is not None:
                progress(task[2])
        return wins
    with open_workers(backend, jobs=jobs, address=address) as workers:
        for i, shard_wins in workers.run(_play_shard, tasks):
            wins += shard_wins  # integer sums: the order shards finish in changes nothing
            if progress is not None:
                progress(sizes[i])
    return wins
