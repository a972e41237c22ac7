"""Checking a file the command will write, before any work is done.

``perudo play --save``, ``perudo arena --out`` and ``--plot`` call :func:`check_output` while
reading their options, so a path that cannot be written is refused at once with a clear
message (never found out after the game, never as a traceback), and an existing file is never
overwritten unless asked (``--overwrite``).
"""

from __future__ import annotations

import os
from pathlib import Path

import typer

__all__ = ["check_output", "output_problem"]


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
