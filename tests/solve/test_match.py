"""The heads-up match: positions valued from the smallest up, through the core's outcomes."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from perudo import PERUDO
from perudo.cli.main import app
from perudo.solve import MatchSolution, Position, solve_match
from perudo.solve.match import match_dice_limit, match_positions
from perudo.solve.reference import reference_value

PERUDO3 = dataclasses.replace(PERUDO, faces=3, dice_per_player=2)


def test_one_die_each_the_loser_is_out_P23():
    m = solve_match(PERUDO, 2)
    normal = Position((1, 1), (True, True), "normal")
    palifico = Position((1, 1), (True, False), "palifico")
    assert m.values[normal] == pytest.approx((1 - 1 / 18) / 2, abs=1e-9)
    assert m.values[palifico] == pytest.approx((1 - 1 / 9) / 2, abs=1e-9)


def test_the_P34_choice_takes_the_better_round():
    m = solve_match(PERUDO, 2)
    choose = Position((1, 1), (False, False), "choose")
    assert m.choices[choose] is False  # a normal round is worth more to the opener here
    assert m.values[choose] == pytest.approx(
        max(
            m.values[Position((1, 1), (True, False), "palifico")],
            m.values[Position((1, 1), (True, False), "normal")],
        )
    )


def test_round_payoffs_are_the_win_chances_of_the_positions_reached():
    m = solve_match(PERUDO3, 3)
    pos = Position((2, 1), (False, False), "normal")
    sol = m.rounds[pos]
    # Walk the round through apply with both solved strategies, scoring each end state by
    # the match values: the opener's chance to win is (1 + value) / 2.
    value = reference_value(PERUDO3, (2, 1), (sol.policy, sol.policy), payoff=m.payoff)
    assert value == pytest.approx(sol.value, abs=1e-9)
    assert m.values[pos] == pytest.approx((1 + value) / 2, abs=1e-9)
    assert sol.exploitability <= 1e-6
    for w in m.values.values():
        assert 0.0 <= w <= 1.0


def test_save_and_load_a_match(tmp_path):
    m = solve_match(PERUDO3, 2)
    m.save(tmp_path / "m")
    back = MatchSolution.load(tmp_path / "m")
    assert back.values == pytest.approx(m.values)
    assert back.choices == m.choices
    assert set(back.rounds) == set(m.rounds)


def test_cli_solve_match_prints_every_position(tmp_path):
    out = tmp_path / "solved"
    result = CliRunner().invoke(
        app,
        ["solve", "--match", "--rules", "perudo", "--max-dice", "2", "--quiet", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "1v1 choose" in result.output
    assert (out / "match.json").is_file()


def test_match_positions_refuse_more_dice_than_a_solvable_round():
    # Six dice of six faces make 36 bids, over the solver's 30 (MAX_BIDS).
    assert match_dice_limit(PERUDO) == 5
    assert match_dice_limit(PERUDO3) == 10  # three faces: 30 bids at ten dice
    assert match_positions(PERUDO, 5)
    for bad in (99, 6):
        with pytest.raises(ValueError, match=r"the match solver takes 2 \(one die each\) to 5"):
            match_positions(PERUDO, bad)
    for bad in (1, 0):
        with pytest.raises(ValueError, match="holds at least 2 \\(one die each\\)"):
            match_positions(PERUDO, bad)


def test_cli_solve_match_refuses_max_dice_past_the_limit(monkeypatch):
    # Before the refusal, --max-dice 99 started solving every smaller position (hours of
    # work before the first round too large failed): here the solver may not even start.
    def no_solving(*args, **kwargs):
        raise AssertionError("the match solver started")

    monkeypatch.setattr("perudo.solve.match.solve_match", no_solving)
    result = CliRunner().invoke(
        app, ["solve", "--match", "--rules", "perudo", "--max-dice", "99", "--quiet"]
    )
    assert result.exit_code == 2, result.output
    assert "--max-dice" in result.output
    assert "99 dice in play" in result.output and "to 5" in result.output
    assert "Traceback" not in result.output


def test_cli_solve_round(tmp_path):
    result = CliRunner().invoke(
        app,
        [
            "solve",
            "--rules",
            "liars_dice_openspiel",
            "--dice",
            "1,1",
            "--quiet",
            "--out",
            str(tmp_path / "r.npz"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "-0.027131783" in result.output
    assert "24,576" in result.output


def test_cli_solve_bad_dice_is_a_clear_error():
    result = CliRunner().invoke(app, ["solve", "--rules", "perudo", "--dice", "two", "--quiet"])
    assert result.exit_code != 0
    assert "two" in result.output


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        (None, "(float32)"),
        ("--float32", "(float32)"),
        ("--float64", "(float64)"),
    ],
)
def test_cli_solve_three_dice_runs_cfr_in_float32_unless_asked(flag, expected):
    args = ["solve", "--rules", "perudo", "--dice", "2,1", "--max-iterations", "2", "--quiet"]
    result = CliRunner().invoke(app, [*args, flag] if flag else args)
    assert result.exit_code == 0, result.output
    assert f"dcfr {expected}, 2 iterations" in result.output
    assert "compiled" in result.output
