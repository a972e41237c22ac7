"""Shared test set-up: hypothesis profiles, and the repository root on ``sys.path``.

Profiles: ``dev`` (the default: few examples, quick on a shared two-core machine), ``ci``
(chosen when ``CI=true``: more examples, still well under a minute per file) and ``thorough``
(``HYPOTHESIS_PROFILE=thorough``, for a long local run). Every profile has ``deadline=None``:
tests never assert wall-clock times.

pytest runs with ``--import-mode=importlib``, which puts nothing on ``sys.path``; the
repository root goes there so that test modules can share ``tests.strategies``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

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

_default = "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default))
