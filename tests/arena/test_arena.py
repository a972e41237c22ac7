"""The arena: seat rotation, seeding independent of --jobs, figures, and the CLI end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from perudo import PERUDO, PERUDO_CALZA
from perudo.arena import GameOutcome, lineup_for, play_arena_game, run_arena, tally, wilson
from perudo.cli.main import app


def test_bots_cycle_to_fill_the_seats() -> None:
    assert lineup_for(["strong", "prob", "prob", "random"], 6) == (
        "strong",
        "prob",
        "prob",
        "random",
        "strong",
        "prob",
    )
    with pytest.raises(ValueError, match="at least one bot"):
        lineup_for([], 3)


def test_seats_turn_one_place_each_game() -> None:
    lineup = ("a", "b", "c")
    from perudo.bots import RandomBot
    from perudo.registry import BOTS

    for name in lineup:
        BOTS[name] = lambda seed, n=name: _named(RandomBot(seed), n)
    try:
        seats = [play_arena_game(PERUDO, lineup, 3, g).seats for g in range(3)]
    finally:
        for name in lineup:
            BOTS.pop(name)
    assert seats == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    for seat in range(3):
        assert sorted(s[seat] for s in seats) == ["a", "b", "c"]


def _named(bot: object, name: str) -> object:
    bot.name = name  # type: ignore[attr-defined]
    return bot


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_tally_counts_seat_games_places_and_ratings() -> None:
    lineup = ("x", "y", "y")
    outcomes = [
        GameOutcome(0, ("x", "y", "y"), (1, 2, 3), 5),
        GameOutcome(1, ("y", "y", "x"), (2, 1, 3), 5),
    ]
    figures = {f.bot: f for f in tally(lineup, outcomes)}
    assert figures["x"].games == 2 and figures["x"].wins == 1
    assert figures["y"].games == 4 and figures["y"].wins == 1
    assert figures["x"].mean_place == 2.0
    assert figures["y"].seats_per_game == 2
    assert all(math.isfinite(f.mu) and f.sigma > 0 for f in figures.values())


def test_same_seed_same_results_whatever_the_jobs() -> None:
    one = run_arena(PERUDO_CALZA, 4, ["prob", "random"], 8, seed=7, jobs=1)
    two = run_arena(PERUDO_CALZA, 4, ["prob", "random"], 8, seed=7, jobs=2)
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    other = run_arena(PERUDO_CALZA, 4, ["prob", "random"], 8, seed=8, jobs=1)
    assert other.to_json()["game_results"] != one.to_json()["game_results"]


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        run_arena(PERUDO, 2, ["nobody"], 2)
    with pytest.raises(ValueError, match=r"11 players: these rules take 2–10 \(P-1\)"):
        run_arena(PERUDO, 11, ["random"], 2)
    with pytest.raises(ValueError, match="--games must be at least 1"):
        run_arena(PERUDO, 2, ["random"], 0)


def test_arena_command_writes_json_and_png(tmp_path: Path) -> None:
    out, png = tmp_path / "results.json", tmp_path / "results.png"
    args = ["arena", "--rules", "perudo_calza", "--players", "4", "--bots", "strong,prob,random"]
    args += ["--games", "6", "--seed", "1", "--jobs", "2", "--dice", "3"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert (
        "win rate" in result.output and "95% CI" in result.output and "OpenSkill" in result.output
    )
    data = json.loads(out.read_text())
    assert data["format"] == "perudo-arena" and data["games"] == 6
    assert data["lineup"] == ["strong", "prob", "random", "strong"]
    assert [r["bot"] for r in data["results"]] == ["strong", "prob", "random"]
    assert sum(r["wins"] for r in data["results"]) == 6
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Same seed, one process: the identical file.
    again = tmp_path / "again.json"
    args[args.index("--jobs") + 1] = "1"
    result = CliRunner().invoke(app, [*args, "--out", str(again)])
    assert result.exit_code == 0, result.output
    assert again.read_text() == out.read_text()


def test_arena_command_refuses_an_unknown_bot() -> None:
    result = CliRunner().invoke(app, ["arena", "--bots", "strong,nobody", "--games", "2"])
    assert result.exit_code != 0
    assert "unknown bot 'nobody'" in result.output


def test_bench_bots_prints_percentiles() -> None:
    result = CliRunner().invoke(
        app, ["bench-bots", "--bots", "prob", "--players", "3", "--games", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "p95 ms" in result.output and "prob" in result.output
