"""The deviations of the exploiter search: each changes one kind of decision, legally (P-10),
and plays exactly like its inner bot everywhere else."""

from __future__ import annotations

import importlib.util
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from perudo import PERUDO, PERUDO_CALZA, Bid, Calza, Dudo, PlayerAction, PlayerView
from perudo.bots import ProbBot
from perudo.bots.base import BotBase
from perudo.bots.deviations import DEVIATIONS, deviate
from perudo.bots.probability import bid_probability
from perudo.core import apply, start_round, view
from perudo.testing import check_bot


class Fixed(BotBase):
    """Always the given action (the inner bot of a scripted test)."""

    name = "fixed"

    def __init__(self, action: PlayerAction, calza: bool = False) -> None:
        super().__init__(0)
        self.action = action
        self.calza = calza
        self.asked = 0

    def act(self, view: PlayerView) -> PlayerAction:
        self.asked += 1
        return self.action

    def call_calza(self, view: PlayerView) -> bool:
        return self.calza


@pytest.mark.parametrize("name", sorted(DEVIATIONS))
def test_every_deviation_plays_only_legal_actions_p10(name: str) -> None:
    report = check_bot(lambda seed: deviate(ProbBot(seed), name), games=2, seed=5)
    assert report.decisions > 0


def test_weakest_face_opening_bids_the_face_held_fewest_at_the_inner_quantity_p10() -> None:
    # Seat 0 holds three 2s: the inner bot opens 3x2; the faces held fewest are 3, 4, 5 and 6
    # (none each), the highest of them first, if its chance is at least 0.3.
    state = start_round(PERUDO, [[2, 2, 2, 5, 6], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    v = view(state, 0)
    bot = deviate(Fixed(Bid(3, 2)), "weakest-face-opening")
    chosen = bot.act(v)
    assert isinstance(chosen, Bid) and chosen.quantity == 3
    assert chosen.face in (3, 4)  # held none; 5 and 6 are held once
    assert bid_probability(v, chosen) >= 0.3
    assert chosen in v.legal


def test_weakest_face_opening_leaves_raises_alone() -> None:
    state = start_round(PERUDO, [[2, 2, 2, 5, 6], [1, 2, 3, 4, 5]])
    state, _ = apply(state, Bid(2, 3), 0)
    bot = deviate(Fixed(Bid(3, 3)), "weakest-face-opening")
    assert bot.act(view(state, 1)) == Bid(3, 3)


def test_calls_more_doubts_an_unlikely_bid_the_inner_bot_would_raise_p20() -> None:
    state = start_round(PERUDO, [[2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    state, _ = apply(state, Bid(6, 6), 0)
    v = view(state, 1)
    assert bid_probability(v) < 0.5
    assert deviate(Fixed(Bid(7, 6)), "calls-more").act(v) == Dudo()


def test_calls_less_raises_where_the_inner_bot_doubts_a_likely_bid() -> None:
    state = start_round(PERUDO, [[2, 3, 4, 5, 6], [1, 1, 6, 6, 6]])
    state, _ = apply(state, Bid(2, 6), 0)
    v = view(state, 1)
    chosen = deviate(Fixed(Dudo()), "calls-less").act(v)
    assert isinstance(chosen, Bid) and chosen in v.legal
    # The likeliest raise: seat 1 holds five dice that count toward sixes.
    assert bid_probability(v, chosen) == max(
        bid_probability(v, b) for b in v.legal if isinstance(b, Bid)
    )


def test_raises_aces_bids_the_lowest_legal_aces_bid_p15() -> None:
    state = start_round(PERUDO, [[2, 3, 4, 5, 6], [1, 1, 1, 6, 6]])
    state, _ = apply(state, Bid(2, 6), 0)
    v = view(state, 1)
    # P-15: to aces, half the quantity rounded up: 2 sixes -> 1 ace.
    assert deviate(Fixed(Bid(3, 6)), "raises-aces").act(v) == Bid(1, 1)


def test_calza_happy_calls_calza_in_and_out_of_turn_p50() -> None:
    # Seats 1 and 2 hold no 3 and no ace: 3 threes among the ten dice they cannot see is
    # exact with chance C(10,3)(1/3)^3(2/3)^7 = 0.26.
    hands = [[1, 2, 3, 4, 5], [2, 2, 4, 5, 6], [2, 2, 4, 5, 6]]
    # V-7 "to_act": only the player to act may call calza, in turn.
    state = start_round(replace(PERUDO_CALZA, calza="to_act"), hands)
    state, _ = apply(state, Bid(3, 3), 0)
    assert deviate(Fixed(Bid(4, 3)), "calza-happy").act(view(state, 1)) == Calza()
    # P-50: out of turn, by anyone but the bidder and the player to act.
    state = start_round(PERUDO_CALZA, hands)
    state, _ = apply(state, Bid(3, 3), 0)
    assert Calza() not in view(state, 1).legal
    out_of_turn = view(state, 2)
    assert Calza() in out_of_turn.legal
    assert deviate(Fixed(Bid(2, 3)), "calza-happy").call_calza(out_of_turn)
    assert not deviate(Fixed(Bid(2, 3)), "calls-more").call_calza(out_of_turn)


def test_a_deviation_asks_its_inner_bot_first_so_its_generator_advances_as_undeviated() -> None:
    inner = Fixed(Bid(3, 6))
    state = start_round(PERUDO, [[2, 3, 4, 5, 6], [1, 1, 6, 6, 6]])
    state, _ = apply(state, Bid(2, 6), 0)
    deviate(inner, "raises-aces").act(view(state, 1))
    assert inner.asked == 1


def test_an_unknown_deviation_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="calls-more"):
        deviate(Fixed(Dudo()), "bluffs-always")


def _exploiters() -> object:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "exploiters.py"
    spec = importlib.util.spec_from_file_location("exploiters", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["exploiters"] = module
    spec.loader.exec_module(module)
    return module


def test_the_exploiter_search_replays_a_cell_exactly_and_reports_against_the_fair_share(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ex = _exploiters()
    first = [ex.play_one("perudo", 3, "calls-more", 7, i) for i in range(3)]  # type: ignore[attr-defined]
    again = [ex.play_one("perudo", 3, "calls-more", 7, i) for i in range(3)]  # type: ignore[attr-defined]
    assert first == again
    ex.main(  # type: ignore[attr-defined]
        ["--rules", "perudo", "--players", "3", "--deviations", "none,calls-more", "--games", "3"]
    )
    out = capsys.readouterr().out
    assert "# calls-more: doubts every bid" in out
    rows = [r for r in out.splitlines() if r.startswith("perudo")]
    assert len(rows) == 2 and all("fair 33.3%" in r for r in rows)
    assert f"{sum(first)}/3" in rows[1]
    assert ex.line("perudo", 4, "x", 400, 1000).endswith("EXPLOITS")  # type: ignore[attr-defined]
    assert "EXPLOITS" not in ex.line("perudo", 4, "x", 260, 1000)  # type: ignore[attr-defined]


def test_random_seed_independence_of_the_search() -> None:
    ex = _exploiters()
    random.seed(1)
    a = ex.play_one("perudo", 3, "none", 2, 0)  # type: ignore[attr-defined]
    random.seed(2)
    b = ex.play_one("perudo", 3, "none", 2, 0)  # type: ignore[attr-defined]
    assert a == b


def test_the_search_seats_the_mixed_expert_and_extends_a_cell_from_a_game_index(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ex = _exploiters()
    won = ex.play_one("perudo", 3, "none", 7, 4, "mixed")  # type: ignore[attr-defined]
    ex.main(  # type: ignore[attr-defined]
        [
            "--rules", "perudo", "--players", "3", "--deviations", "none",
            "--games", "1", "--start", "4", "--seed", "7", "--expert", "expert,mixed",
        ]
    )  # fmt: skip
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("perudo")]
    assert len(rows) == 2 and "expert" in rows[0] and "mixed" in rows[1]
    assert f" {int(won)}/1 " in rows[1]
    with pytest.raises(SystemExit):
        ex.main(["--expert", "nobody"])  # type: ignore[attr-defined]
