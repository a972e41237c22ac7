"""A rich progress display for solving: one line per round, one bar for a whole match."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .solver import Progress

__all__ = ["SolveProgress", "solve_progress"]


class SolveProgress:
    """Drives a :class:`rich.progress.Progress`: a task per round, a bar for the match."""

    def __init__(self, progress: Any, target: float) -> None:
        self.progress = progress
        self.target = target
        self.task: Any = None
        self.first: float | None = None
        self.match_task: Any = None

    def start_match(self, positions: int) -> None:
        self.match_task = self.progress.add_task("match positions", total=positions, status="")

    def advance_match(self, label: str) -> None:
        if self.match_task is not None:
            self.progress.update(self.match_task, advance=1, status=label)

    def round(self, description: str) -> Progress:
        """A callback for :func:`~perudo.solve.solver.solve_round` on a new round's line."""
        if self.task is not None:
            self.progress.remove_task(self.task)
        self.task = self.progress.add_task(description, total=1.0, status="")
        self.first = None

        def update(iterations: int, expl: float | None, seconds: float) -> None:
            done = 0.0
            if expl is not None and expl > 0 and self.target > 0:
                if self.first is None:
                    self.first = max(expl, self.target * 10)
                span = math.log(self.first / self.target)
                done = min(1.0, max(0.0, math.log(self.first / expl) / span))
            elif expl is not None:
                done = 1.0
            status = f"it {iterations}  expl {expl:.2e}" if expl is not None else ""
            self.progress.update(self.task, completed=done, status=status)

        return update


@contextmanager
def solve_progress(target: float, *, enabled: bool = True) -> Iterator[SolveProgress]:
    """A live progress display (to stderr) while the block runs."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )
    with progress:
        yield SolveProgress(progress, target)
