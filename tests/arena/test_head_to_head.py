"""``benchmarks/head_to_head.py --round``: issue 17's single-round head to head in the joker game.

The benchmark prints figures; these tests check only what the figures rest on: the seats
alternate exactly, the first bot keeps its dice in either seat, a round depends on
``(seed, r)`` alone, and a bot against itself wins about half the rounds.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from perudo.arena import wilson
from perudo.registry import make_bot
from perudo.solve import RoundGame
from perudo.solve.exploit import policy_of, versus
from perudo.solve.shipped import joker_rules

ROOT = Path(__file__).resolve().parents[2]


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "head_to_head", ROOT / "benchmarks/head_to_head.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


H2H = _benchmark()


def test_joker_rounds_alternate_seats_and_keep_each_bots_dice() -> None:
    rules = H2H.round_rules("joker", (2, 1))
    assert rules == joker_rules(2)
    outs = list(H2H.play_rounds(rules, "medium", "hard", (2, 1), 12, seed=3))
    assert [o.opened for o in outs] == [r % 2 == 0 for r in range(12)]
    # The first bot holds 2 dice whether it opens (seat 0) or responds (seat 1).
    assert all(o.dice == ((2, 1) if o.opened else (1, 2)) for o in outs)
    # Round r depends on (seed, r) only: a shorter run replays the same rounds.
    assert list(H2H.play_rounds(rules, "medium", "hard", (2, 1), 5, seed=3)) == outs[:5]
    # --seat-dice: the opener holds 2 dice, whoever it is (issue 17's 2v1).
    seat = list(H2H.play_rounds(rules, "medium", "hard", (2, 1), 4, seed=3, seat_dice=True))
    assert [o.dice for o in seat] == [(2, 1)] * 4
    assert [o.opened for o in seat] == [True, False, True, False]


def test_a_bot_against_itself_wins_about_half_the_rounds() -> None:
    rules = H2H.round_rules("joker", (1, 1))
    outs = list(H2H.play_rounds(rules, "medium", "medium", (1, 1), 300, seed=1))
    wins = sum(o.won for o in outs)
    lo, hi = wilson(wins, len(outs))
    assert lo < 0.5 < hi
    assert sum(o.opened for o in outs) == 150


def test_the_tally_reports_every_round_played(capsys: pytest.CaptureFixture[str]) -> None:
    H2H.round_main(
        H2H.arguments().parse_args("medium hard --round 1,2 --games 6 --seed 2 --every 3".split())
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[-1].startswith("medium vs hard (joker 1v2 rounds): ")
    assert "/6 = " in lines[-1] and "opening " in lines[-1] and "/3, responding " in lines[-1]


def test_whole_games_share_the_tally_and_a_time_cut_reports_what_was_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    H2H.game_main(H2H.arguments().parse_args("medium medium --games 2 --seed 5 --every 1".split()))
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in lines] == ["medium vs medium (perudo, 2 seats)"] * 2
    assert "/1 = " in lines[0] and "/2 = " in lines[1] and "fair share 50.0%" in lines[1]
    wins = list(H2H.play_games(H2H.find_ruleset("perudo"), "medium", "medium", 2, 2, 5))
    assert lines[1].startswith(f"medium vs medium (perudo, 2 seats): {sum(wins)}/2 = ")
    # --minutes 0: the first round runs past the limit; it is reported and the run stops.
    H2H.round_main(
        H2H.arguments().parse_args(
            "medium hard --round 1,1 --games 50 --seed 2 --minutes 0".split()
        )
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and "/1 = " in lines[0]


def test_rounds_converge_to_the_exact_figure_of_exact_h2h() -> None:
    """``benchmarks/exact_h2h.py``'s figure (:func:`perudo.solve.exploit.versus`) is what this
    benchmark's rounds converge to: 4,000 seeded rounds of joker 1v1, in all and as the
    opener, within four standard errors of the exact rates."""
    rules = H2H.round_rules("joker", (1, 1))
    exact = versus(
        RoundGame(rules, (1, 1)),
        policy_of(make_bot("medium", seed=1)),
        policy_of(make_bot("random", seed=2)),
    )
    outs = list(H2H.play_rounds(rules, "medium", "random", (1, 1), 4000, seed=5))
    opened = [o for o in outs if o.opened]
    for won, n, rate in (
        (sum(o.won for o in outs), len(outs), exact.win_rate),
        (sum(o.won for o in opened), len(opened), (1 + exact.opening) / 2),
    ):
        error = (rate * (1 - rate) / n) ** 0.5
        assert abs(won / n - rate) < 4 * error


def test_palifico_rounds_open_with_one_die_and_refuse_another_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # P-30, P-34: --palifico plays heads-up palifico rounds, the one-die opener declaring.
    rules = H2H.round_rules("perudo", (1, 3))
    outs = list(H2H.play_rounds(rules, "medium", "hard", (1, 3), 4, seed=2, palifico=True))
    assert [o.dice for o in outs] == [(1, 3)] * 4
    H2H.round_main(
        H2H.arguments().parse_args("medium hard --round 1,3 --palifico --games 2".split())
    )
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("medium vs hard (perudo 1v3 palifico rounds, dice with the seat): ")
    for wrong in ("--round 2,3 --palifico", "--round 1,3 --palifico --rules joker"):
        with pytest.raises(SystemExit, match="the opener holds one die"):
            H2H.round_main(H2H.arguments().parse_args(f"medium hard {wrong}".split()))
    with pytest.raises(SystemExit, match="options of single rounds"):
        H2H.game_main(H2H.arguments().parse_args("medium hard --palifico".split()))
    with pytest.raises(ValueError, match="opened with one die"):
        next(H2H.play_rounds(rules, "medium", "hard", (2, 3), 1, seed=2, palifico=True))


def test_a_habit_rides_on_the_first_bot_and_is_named_in_the_tally(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `strong` opens a palifico round honestly and reads an opening as showing the opener's
    # die (P-32): opening on a face it does not hold wins nearly every 1v3 round from it.
    rules = H2H.round_rules("perudo", (1, 3))
    runs = {
        habit: list(
            H2H.play_rounds(
                rules, "strong", "strong", (1, 3), 40, seed=1, palifico=True, habit=habit
            )
        )
        for habit in (None, "weakest-face-opening")
    }
    opened = {habit: sum(o.won for o in outs if o.opened) for habit, outs in runs.items()}
    assert opened["weakest-face-opening"] >= opened[None] + 8, opened
    args = "strong strong --round 1,3 --palifico --habit calls-more --games 2"
    H2H.round_main(H2H.arguments().parse_args(args.split()))
    assert capsys.readouterr().out.startswith("strong with calls-more vs strong (perudo 1v3")
    with pytest.raises(SystemExit):
        H2H.arguments().parse_args("strong strong --habit nonsense".split())
