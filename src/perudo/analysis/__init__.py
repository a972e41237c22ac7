"""Learn from every game: each decision judged, the game's chart and turning points.

Below the server and the terminal, above the solver and the bots (``tests/test_layers.py``).
:func:`analyze` takes a game record and a viewer and sees the game only through the core's
views (P-70); docs/analysis.md explains every figure.
"""

from __future__ import annotations

from .exact import ExactValues, exact_values
from .game import (
    THRESHOLDS,
    Analysis,
    Decision,
    analyze,
    chart,
    decision_views,
    explain,
    judge,
    label_of,
)
from .reveal import every_hand, true_count
from .rollouts import Estimate, estimate_actions

__all__ = [
    "THRESHOLDS",
    "Analysis",
    "Decision",
    "Estimate",
    "ExactValues",
    "analyze",
    "chart",
    "decision_views",
    "estimate_actions",
    "every_hand",
    "exact_values",
    "explain",
    "judge",
    "label_of",
    "true_count",
]
