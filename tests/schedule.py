"""How ``make test`` shares the test files between its workers: the longest first.

``make test`` runs ``pytest -n 2 --dist loadfile``: every test file goes whole to one worker
(its module's server, browser and fixtures start once). pytest-xdist hands out the files with
the most tests first, so a file of one long test (a whole table's life, a four-player game
through the page) came last and ran alone while the other worker idled. Here the files go out
longest first, by the seconds each took when ``tests/durations.json`` was last written
(``make test-durations``; a file missing from it counts :data:`UNKNOWN_SECONDS`), and the
files that share a session's Ray cluster go to one worker together, so that it starts once.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

DURATIONS = Path(__file__).with_name("durations.json")
"""Seconds per test file (setup, call and teardown of its tests), as last recorded."""

UNKNOWN_SECONDS = 5.0
"""The estimate for a file not in :data:`DURATIONS` (a new one)."""

SHARED_SCOPES = {
    "tests/arena/test_arena_ray.py": "ray",
    "tests/sim/test_rollouts.py": "ray",
}
"""Files that use one session fixture too costly to start twice (the Ray cluster of
``tests/conftest.py``), by the name of the group that keeps them on one worker."""


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or its file's group."""
    path = nodeid.split("::", 1)[0]
    return SHARED_SCOPES.get(path, path)


def recorded() -> dict[str, float]:
    """:data:`DURATIONS` as read (empty where there is no such file)."""
    try:
        data = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()}


def estimate(scope: str, paths: set[str], seconds: dict[str, float]) -> float:
    """The seconds a unit of work is expected to take: the sum over its files."""
    return sum(seconds.get(p, UNKNOWN_SECONDS) for p in paths if scope_of(p) == scope)


def longest_first(scopes: list[str], paths: set[str], seconds: dict[str, float]) -> list[str]:
    """``scopes`` by their estimated seconds, most first (ties: in the order given)."""
    return sorted(scopes, key=lambda s: -estimate(s, paths, seconds))


def make_scheduler(config: Any, log: Any) -> Any:
    """The scheduler of ``--dist loadfile`` with the units and the order above. Each worker
    runs tests by their index in its own collection, so the collection stays as collected:
    it is the queue of units that is ordered, each time a unit is handed out."""
    from collections import OrderedDict

    from xdist.scheduler import LoadScopeScheduling

    seconds = recorded()

    class LongestFirst(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            paths = {n.split("::", 1)[0] for n in self.collection or ()}
            order = longest_first(list(self.workqueue), paths, seconds)
            self.workqueue = OrderedDict((s, self.workqueue[s]) for s in order)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


class Recorder:
    """Adds up each file's seconds from the test reports (in the controller, from every
    worker) and writes them to ``path`` at the session's end, longest first."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = defaultdict(float)

    def add(self, nodeid: str, duration: float) -> None:
        self.seconds[nodeid.split("::", 1)[0]] += duration

    def write(self) -> None:
        ranked = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        data = {path: round(s, 1) for path, s in ranked}
        self.path.write_text(json.dumps(data, indent=1) + "\n")
