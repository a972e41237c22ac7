"""``perudo train``: self-play samples, reproducibility, the report, and a tiny configuration
that trains in well under a minute and beats ``medium``."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("torch")

from perudo.bots.learned_bot import FEATURES, LearnedBot, load_weights  # noqa: E402
from perudo.registry import make_bot  # noqa: E402
from perudo.train import TrainConfig, train  # noqa: E402
from perudo.train.evaluate import duel  # noqa: E402
from perudo.train.selfplay import TableDistribution, play_round  # noqa: E402

TINY = TrainConfig(
    seed=3,
    rounds=600,
    rounds_per_iteration=100,
    steps_per_iteration=60,
    eval_every=10**9,
    exploit=False,
    references=(),
    rule_sets=("perudo",),
    seats=(2,),
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tiny")
    train(TINY, out, progress=lambda line: None)
    return out


def test_tiny_training_beats_medium_heads_up(tiny: Path) -> None:
    """600 self-play rounds; then 1,000 seeded heads-up Perudo rounds (1–5 dice each, opener
    alternating) against ``medium``: the 95% interval lies above one half."""
    net = load_weights(tiny / "learned.npz")
    result = duel(LearnedBot(1, network=net), make_bot("medium", 2), 1000, seed=7)
    low, _ = result.interval
    assert low > 0.5, (result.wins, result.rounds)


def test_training_writes_weights_curves_and_report(tiny: Path) -> None:
    for name in ("learned.npz", "learned.json", "curves.json", "curves.png", "report.md"):
        assert (tiny / name).is_file(), name
    manifest = json.loads((tiny / "learned.json").read_text())
    assert manifest["sha256"] == hashlib.sha256((tiny / "learned.npz").read_bytes()).hexdigest()
    curves = json.loads((tiny / "curves.json").read_text())
    assert curves["stopped_by"] == "rounds"
    assert curves["curves"][-1]["rounds"] == TINY.rounds
    assert (tiny / "curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_training_is_reproducible(tmp_path: Path) -> None:
    config = TrainConfig(
        seed=9,
        rounds=40,
        rounds_per_iteration=20,
        steps_per_iteration=5,
        eval_every=10**9,
        exploit=False,
        references=(),
        seats=(2, 3),
    )
    a = train(config, tmp_path / "a", progress=lambda line: None)
    b = train(config, tmp_path / "b", progress=lambda line: None)
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert (wa == wb).all() and (ba == bb).all()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_outcomes_are_zero_sum_and_rows_are_encoded(seed: int) -> None:
    net = load_weights()
    rng = random.Random(seed)
    sample = play_round(net, rng, TableDistribution(seats=(2, 3, 6)), explore=0.2)
    assert len(sample.rows) == len(sample.targets) == 2 * sample.decisions
    assert sample.decisions >= 1
    assert all(row.shape == (len(FEATURES),) for row in sample.rows)
    # A seat's round costs it at most its cup (V-4: Bluff's loss by difference, 5 dice here) and
    # wins it at most one die (P-52's calza); the outcome is its change less the others' mean.
    assert all(-6.0 <= t <= 6.0 for t in sample.targets)


def test_perudo_train_names_a_bad_rule_set_or_seat_count(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from perudo.cli.main import app

    runner = CliRunner()
    bad = runner.invoke(app, ["train", "--out", str(tmp_path), "--rules", "nope"])
    assert bad.exit_code == 2
    assert "unknown rule set 'nope'" in bad.output
    seats = runner.invoke(app, ["train", "--out", str(tmp_path), "--seats", "2,11"])
    assert seats.exit_code == 2
    assert "seat counts are 2 to 10" in seats.output
    assert not any(tmp_path.iterdir())  # nothing written


def test_perudo_train_runs_and_reports(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from perudo.cli.main import app

    result = CliRunner().invoke(
        app,
        [
            "train",
            "--out",
            str(tmp_path),
            "--rounds",
            "20",
            "--seats",
            "2",
            "--eval-every",
            "20",
            "--eval-rounds",
            "10",
            "--no-exploit",
            "--rules",
            "perudo",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "checkpoint rounds 20" in result.output
    assert "vs_medium" in result.output
    assert (tmp_path / "report.md").read_text().startswith("# Training report")


def test_perudo_train_stops_at_the_rounds_asked_for(tmp_path: Path) -> None:
    """``--rounds 30`` plays 30 rounds, not a whole iteration of 200 ("rounds 200/30")."""
    from typer.testing import CliRunner

    from perudo.cli.main import app

    args = ["train", "--out", str(tmp_path), "--rounds", "30", "--seats", "2"]
    args += ["--eval-every", "1000", "--eval-rounds", "10", "--no-exploit", "--rules", "perudo"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "rounds 30/30 " in result.output and "rounds 200/" not in result.output
    curves = json.loads((tmp_path / "curves.json").read_text())
    assert curves["curves"][-1]["rounds"] == 30


def test_perudo_train_without_scipy_says_what_to_install_before_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from perudo.cli.main import app

    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy fails, as when not installed
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    result = CliRunner().invoke(app, ["train", "--out", str(tmp_path / "run"), "--rounds", "10"])
    assert result.exit_code == 2
    assert "pip install -e '.[research]', or add --no-exploit" in " ".join(result.output.split())
    assert not (tmp_path / "run").exists()  # nothing ran
