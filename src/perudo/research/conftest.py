"""Doctest collection for the research adapters: skip them, saying why, when the ``research``
extra is not installed (they import gymnasium, pettingzoo and pyspiel at module level)."""

from __future__ import annotations

import importlib.util

import pytest

_NEEDED = ("gymnasium", "pettingzoo", "pyspiel")
_MISSING = [name for name in _NEEDED if importlib.util.find_spec(name) is None]

# pytest reads this module-level name; with the extra installed nothing is ignored.
collect_ignore_glob = ["*.py"] if _MISSING else []


def pytest_report_header(config: pytest.Config) -> str | None:
    if not _MISSING:
        return None
    return (
        f"perudo.research doctests skipped: the research extra is not installed (missing: "
        f"{', '.join(_MISSING)}); pip install -e '.[research]'"
    )
