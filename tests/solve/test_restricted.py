"""Restricted Nash responses on the abstraction (``perudo.solve.restricted``): at share 0 the
equilibrium solve itself, at share 1 a best response to the model, in between a trade of what
the model gives against what anyone can take; the model tabulated as the bot states it (P-70
views); the tables written by ``perudo abstract --respond-to``."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from perudo import PERUDO, Bid, apply, view
from perudo.bots.balanced_bot import BalancedBot
from perudo.core import legal_actions
from perudo.solve import RoundGame
from perudo.solve.abstract import AbstractCFR, AbstractStrategy, exact_exploitability
from perudo.solve.abstract_book import Response, build_table, read_index
from perudo.solve.exploit import exploit
from perudo.solve.restricted import (
    combine,
    responder,
    restricted_response,
    tabulate_model,
    value_against,
)

PERUDO3 = dataclasses.replace(PERUDO, faces=3, dice_per_player=2)
MODEL = BalancedBot(0).policy


def _mine_vs_model(cfr: AbstractCFR, seat: int) -> float:
    """What ``seat``'s average strategy wins against the model cfr was restricted to."""
    assert cfr.model is not None
    rs, ds = cfr.average()
    other, _, m_r, m_d = cfr.model
    raises, dudo = list(rs), list(ds)
    raises[other], dudo[other] = m_r, m_d
    v = cfr.value(raises, dudo)
    return v if seat == 0 else -v


def test_share_zero_is_the_equilibrium_solve_iterate_for_iterate():
    game = RoundGame(PERUDO3, (2, 1))
    plain = AbstractCFR(game, 2, method="dcfr")
    restricted = responder(game, 2, MODEL, 0, 0.0, method="dcfr")
    plain.iterate(15)
    restricted.iterate(15)
    for got, want in zip(restricted.average(), plain.average(), strict=True):
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("seat", [0, 1])
def test_share_one_with_full_memory_is_a_best_response_to_the_model(seat):
    game = RoundGame(PERUDO3, (1, 1))
    cfr = responder(game, game.num_bids, MODEL, seat, 1.0, method="dcfr")
    cfr.iterate(300)
    best = exploit(game, MODEL, 1 - seat).best_response
    assert _mine_vs_model(cfr, seat) == pytest.approx(best, abs=5e-3)


def test_more_weight_on_the_model_takes_more_from_it_and_gives_more_to_a_best_response():
    game = RoundGame(PERUDO3, (2, 1))
    won, lost = [], []
    for share in (0.0, 0.5, 1.0):
        cfr = responder(game, 3, MODEL, 0, share, method="dcfr")
        cfr.iterate(150)
        won.append(_mine_vs_model(cfr, 0))
        _, br1, _ = exact_exploitability(game, cfr, np.float64)
        lost.append(br1)  # the responder's best response against this opener
    assert won[0] < won[1] - 0.01 and won[1] < won[2] + 1e-3
    assert lost[0] <= lost[1] + 1e-3 and lost[1] < lost[2] - 0.05
    # Half the weight keeps most of what the model gives and a fraction of the loss.
    assert won[1] - won[0] > 0.5 * (won[2] - won[0])
    assert lost[1] - lost[0] < 0.5 * (lost[2] - lost[0])


def test_balanced_is_tabulated_exactly_from_the_last_bid():
    """P-70: the model is asked at the view of a shortest history reaching each state; the
    bid it answers and the other seat's latest bid are all ``balanced`` reads heads-up, so the
    table is its policy at every history (checked on random ones)."""
    game = RoundGame(PERUDO3, (2, 2))
    cfr = AbstractCFR(game, 1)
    tables = [tabulate_model(cfr, MODEL, p) for p in (0, 1)]
    strat = AbstractStrategy(
        game,
        1,
        list(cfr.states),
        [cfr.src[cfr.edges[p]] for p in (0, 1)],
        [cfr.rank[cfr.edges[p]] for p in (0, 1)],
        [t[0] for t in tables],
        [_dense(cfr, p, tables[p][1]) for p in (0, 1)],
    )
    rng = random.Random(3)
    hands = [h for p in (0, 1) for h in game.hands[p].hands]
    checked = 0
    for _ in range(60):
        state = game.start_state(rng.choice(hands), rng.choice(hands))
        for _ in range(rng.randrange(0, 6)):
            bids = [a for a in legal_actions(state) if isinstance(a, Bid)]
            if not bids:
                break
            state, _ = apply(state, rng.choice(bids))
        seat = state.to_act
        v = view(state, seat)
        want = MODEL(v)
        got = strat.policy(v)
        assert set(got) == {a for a, p in want.items() if p > 0}
        for a, p in want.items():
            assert got[a] == pytest.approx(p, abs=1e-6)
        checked += 1
    assert checked == 60


def _dense(cfr: AbstractCFR, p: int, dudo: np.ndarray) -> np.ndarray:
    out = np.zeros((cfr.num_states, dudo.shape[1]), dtype=np.float32)
    out[cfr.nodes[p]] = dudo
    return out


def test_a_value_of_arrays_not_shaped_per_player_is_refused():
    game = RoundGame(PERUDO3, (1, 1))
    cfr = AbstractCFR(game, 2)
    strat = AbstractStrategy.from_cfr(cfr)
    rs, ds = cfr.average()
    assert cfr.value(rs, ds) == pytest.approx(
        cfr.value(list(strat.raises), [strat.dudo[p][cfr.nodes[p]] for p in (0, 1)])
    )
    with pytest.raises(ValueError, match="its states"):
        cfr.value(list(strat.raises), list(strat.dudo))  # dudo over every state: refused


def test_restrict_refuses_a_model_that_is_not_a_strategy_and_a_started_solver():
    game = RoundGame(PERUDO3, (1, 1))
    cfr = AbstractCFR(game, 2)
    raises, dudo = tabulate_model(cfr, MODEL, 1)
    with pytest.raises(ValueError, match="expected"):
        cfr.restrict(1, 0.5, raises[1:], dudo)
    with pytest.raises(ValueError, match="sum to one"):
        cfr.restrict(1, 0.5, raises * 0.5, dudo)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        cfr.restrict(1, 1.5, raises, dudo)
    with pytest.raises(ValueError, match="0 \\(the opener\\) or 1"):
        cfr.restrict(2, 0.5, raises, dudo)
    opener_r, opener_d = tabulate_model(cfr, MODEL, 0)
    bad = opener_d.copy()
    bad[~cfr.dudo_ok[0]] = 1.0  # a challenge before any bid
    assert not cfr.dudo_ok[0].all()
    with pytest.raises(ValueError, match="illegal"):
        cfr.restrict(0, 0.5, opener_r, bad)
    assert cfr.model is None
    cfr.iterate(1)
    with pytest.raises(ValueError, match="before its first iteration"):
        cfr.restrict(1, 0.5, raises, dudo)


def test_each_seat_of_the_response_comes_from_its_own_solve():
    game = RoundGame(PERUDO3, (2, 1))
    seats: list[AbstractStrategy] = []
    for seat in (0, 1):
        cfr = responder(game, 2, MODEL, seat, 0.5, method="dcfr")
        cfr.iterate(20)
        seats.append(AbstractStrategy.from_cfr(cfr))
    both, done = restricted_response(
        game, 2, MODEL, 0.5, method="dcfr", drive=lambda cfr, seat: cfr.iterate(20)
    )
    assert done == [20, 20]
    np.testing.assert_array_equal(both.raises[0], seats[0].raises[0])
    np.testing.assert_array_equal(both.dudo[0], seats[0].dudo[0])
    np.testing.assert_array_equal(both.raises[1], seats[1].raises[1])
    np.testing.assert_array_equal(both.dudo[1], seats[1].dudo[1])
    # Each seat wins more against the model than the equilibrium does.
    plain = AbstractCFR(game, 2, method="dcfr")
    plain.iterate(20)
    eq = value_against(AbstractStrategy.from_cfr(plain), MODEL)
    got = value_against(both, MODEL)
    assert got[0] > eq[0] and got[1] > eq[1]
    other = AbstractStrategy.from_cfr(AbstractCFR(RoundGame(PERUDO3, (1, 2)), 2))
    with pytest.raises(ValueError, match="same round"):
        combine(both, other)


def test_perudo_abstract_respond_to_writes_a_response_table_and_says_what_it_takes(tmp_path):
    from typer.testing import CliRunner

    from perudo.cli.main import app

    runner = CliRunner()
    args = ["abstract", "--rules", "perudo", "--dice", "1,1", "--memory", "2"]
    ok = runner.invoke(
        app,
        [
            *args,
            "--iterations",
            "20",
            "--respond-to",
            "hard",
            "--share",
            "0.5",
            "--out",
            str(tmp_path),
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert "restricted Nash response to 'hard' at share 0.5" in ok.output
    assert "against 'hard' (as the abstraction states it) it wins" in ok.output
    (entry,) = read_index(tmp_path)
    assert entry["version"] == "rnr-hard-0.5-dcfr-k2-20"
    assert entry["response"] == {"model": "hard", "share": 0.5}
    assert entry["iterations"] == [20, 20]
    assert len(entry["against_model"]) == 2
    for bad, name in ((["--respond-to", "nobody"], "--respond-to"), (["--share", "2"], "--share")):
        res = runner.invoke(
            app, [*args, "--respond-to", "hard", *bad, "--out", str(tmp_path / "no")]
        )
        assert res.exit_code == 2 and name in res.output, res.output
        assert not (tmp_path / "no").exists()
    alone = runner.invoke(app, [*args, "--share", "0.75", "--out", str(tmp_path / "no")])
    assert alone.exit_code == 2 and "--respond-to" in alone.output, alone.output
    assert not (tmp_path / "no").exists()


def test_build_table_refuses_a_share_outside_zero_to_one(tmp_path):
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        build_table(
            PERUDO3,
            (1, 1),
            2,
            tmp_path,
            response=Response("balanced", -0.1, MODEL),
            report=lambda _: None,
        )
