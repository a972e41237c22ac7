"""Checking a file the command will write, before any work is done.

``perudo play --save``, ``perudo arena --out`` and ``--plot`` call :func:`check_output` while
reading their options, so a path that cannot be written is refused at once with a clear
message (never found out after the game, never as a traceback), and an existing file is never
overwritten unless asked (``--overwrite``). The check opens the file as the command will (a new
one is created and removed again), so a place where the permissions say yes but the system says
no (``/proc``, a read-only mount) is refused too.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import typer

__all__ = ["check_output", "has_module", "output_problem"]


def output_problem(path: Path, *, overwrite: bool) -> str | None:
    """Why ``path`` cannot be written now (in English, for an option's error), or ``None``."""
    if path.is_dir():
        return f"{path} is a folder; give a file name"
    if path.exists() and not overwrite:
        return f"{path} already exists; choose another name, or add --overwrite"
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return f"the folder {parent} does not exist"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} cannot be written (permission denied)"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"nothing can be written in {parent} (permission denied)"
    return _try_writing(path)


def _try_writing(path: Path) -> str | None:
    """Open ``path`` for writing as the command will, and leave it as it was: permissions
    alone do not tell (``/proc``, a read-only mount, root's rights), the system does. An
    existing file is opened to append (nothing written, nothing cut); a new one is created
    and removed."""
    existed = path.exists()
    try:
        if existed:
            with path.open("ab"):
                pass
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.close(fd)
            path.unlink()
    except OSError as err:
        return f"{path} cannot be written ({err.strerror or err})"
    return None


def check_output(path: Path | None, option: str, *, overwrite: bool = False) -> Path | None:
    """``path`` (``~`` expanded) if it can be written; otherwise a usage error for ``option``."""
    if path is None:
        return None
    path = path.expanduser()
    problem = output_problem(path, overwrite=overwrite)
    if problem is not None:
        raise typer.BadParameter(problem, param_hint=option)
    return path


def has_module(name: str) -> bool:
    """Whether the optional package ``name`` can be imported (checked before any work, so a
    missing extra is named at once: ``matplotlib`` for a chart, the ``plot`` extra)."""
    if name in sys.modules:  # imported already, or marked missing (None)
        return sys.modules[name] is not None
    return importlib.util.find_spec(name) is not None
