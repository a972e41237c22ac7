"""Shared test set-up: hypothesis profiles, and the repository root on ``sys.path``.

Profiles: ``dev`` (the default: few examples, quick on a shared two-core machine), ``ci``
(chosen when ``CI=true``: more examples, still well under a minute per file) and ``thorough``
(``HYPOTHESIS_PROFILE=thorough``, for a long local run). Every profile has ``deadline=None``:
tests never assert wall-clock times.

pytest runs with ``--import-mode=importlib``, which puts nothing on ``sys.path``; the
repository root goes there so that test modules can share ``tests.strategies``.

``PERUDO_CHECK_WIRE=1``: every message :mod:`perudo.server.wirejson` writes is checked against
its pydantic model (here and in the servers the tests start).

``ray_address``: one real Ray cluster for the session, for the tests of the ``ray`` backend;
``ray_connected``: this process connected to it.

Under ``make test`` (``-n 2 --dist loadfile``) the files go to the workers longest first
(:mod:`tests.schedule`); ``PERUDO_RECORD_DURATIONS=PATH`` writes each file's seconds to
``PATH`` at the end (``make test-durations`` refreshes ``tests/durations.json``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Every server message written without pydantic (perudo.server.wirejson) is also validated by
# its model and compared byte for byte, in this process and in the servers the tests start.
os.environ.setdefault("PERUDO_CHECK_WIRE", "1")

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

_COMMON = {
    "deadline": None,
    "suppress_health_check": (HealthCheck.too_slow, HealthCheck.data_too_large),
    "print_blob": True,
}
settings.register_profile("dev", max_examples=15, **_COMMON)
settings.register_profile("ci", max_examples=30, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=300, **_COMMON)

# Ray reads its settings once, when first imported: the session's token goes into this
# process's environment before any test module imports Ray (tests.ray_cluster).
from tests.ray_cluster import RAY_SETTINGS  # noqa: E402

os.environ.update(RAY_SETTINGS)

_default = "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default))


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``: the longest files first, the Ray files on one worker."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from tests.schedule import make_scheduler

    return make_scheduler(config, log)


_RECORD = os.environ.get("PERUDO_RECORD_DURATIONS")
_recorder = None
if _RECORD:
    from tests.schedule import Recorder

    _recorder = Recorder(Path(_RECORD))

    def pytest_runtest_logreport(report: pytest.TestReport) -> None:
        assert _recorder is not None
        _recorder.add(report.nodeid, report.duration)

    def pytest_sessionfinish(session: pytest.Session) -> None:
        if _recorder is not None and not hasattr(session.config, "workerinput"):
            _recorder.write()


@pytest.fixture(scope="session")
def ray_address() -> Iterator[str]:
    """The address of one real Ray cluster for the whole session (``ray start --head`` on
    loopback, 2 CPUs, and a worker node of 1 CPU joined with ``ray start --address``;
    :mod:`tests.ray_cluster`), stopped after the last test using it.
    Skipped where Ray is not installed."""
    pytest.importorskip("ray")
    from tests.ray_cluster import ray_cluster

    with ray_cluster(workers=1) as address:
        yield address


@pytest.fixture(scope="session")
def ray_connected(ray_address: str) -> Iterator[str]:
    """This test process connected to the session's cluster (``ray.init(address)``) for the
    tests that call the backend in-process: the backend uses an open connection as it is, so
    the cluster's workers start once, not once per test. Yields the address."""
    import ray
    from tests.ray_cluster import RAY_SETTINGS

    saved = {key: os.environ.get(key) for key in RAY_SETTINGS}
    os.environ.update(RAY_SETTINGS)
    try:
        ray.init(address=ray_address, logging_level="WARNING")
        yield ray_address
        ray.shutdown()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
