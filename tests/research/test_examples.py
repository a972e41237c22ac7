"""The example scripts run (small budgets, as a user would run them)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the research extra (open_spiel) is not installed")
pytest.importorskip("pettingzoo", reason="the research extra (pettingzoo) is not installed")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_pettingzoo_random_agents_example() -> None:
    out = _run("pettingzoo_random.py", "--games", "3", "--players", "3")
    wins = [int(w) for w in re.findall(r"player_\d: (\d+) wins", out)]
    assert sum(wins) == 3


def test_openspiel_cfr_example_matches_liars_dice() -> None:
    out = _run("openspiel_cfr.py", "--faces", "3", "--iterations", "20", "--every", "10")
    rows = re.findall(r"^\s+(\d+)\s+(-?\d\.\d+)\s+(\d\.\d+)\s+(-?\d\.\d+)$", out, re.M)
    assert [int(r[0]) for r in rows] == [10, 20]
    assert all(r[1] == r[3] for r in rows)  # our game and liars_dice: the same values
    assert float(rows[-1][2]) < float(rows[0][2])  # exploitability goes down


def test_gym_learner_example_improves_against_random() -> None:
    out = _run("gym_learner.py", "--episodes", "1500", "--block", "750", "--eval", "300")
    first, last = map(float, re.search(r"win rate (\S+) -> (\S+)", out).groups())  # type: ignore[union-attr]
    assert last > first + 0.15
