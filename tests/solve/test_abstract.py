"""The last-bids abstraction: full memory is exact CFR+, and its exploitability is measured in
the full game."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perudo import PERUDO
from perudo.solve import Kernel, RoundGame
from perudo.solve import abstract as abstract_module
from perudo.solve.abstract import AbstractCFR, exact_exploitability, node_states
from perudo.solve.cfr import CFRSolver
from perudo.solve.vector import Profile

PERUDO3 = dataclasses.replace(PERUDO, faces=3)
PERUDO4 = dataclasses.replace(PERUDO, faces=4)


@pytest.mark.parametrize("rules", [PERUDO3, PERUDO4])
def test_remembering_every_bid_is_cfr_plus_itself(rules):
    game = RoundGame(rules, (1, 1))
    full = CFRSolver(game, "cfr+")
    full.iterate(12)
    abstract = AbstractCFR(game, game.num_bids)
    abstract.iterate(12)
    assert abstract.num_states == int(game.reachable[0].sum() + game.reachable[1].sum())
    expected = full.kernel.exploitability(full.average())
    got = exact_exploitability(game, abstract, np.float64)
    assert got == pytest.approx(expected, abs=1e-12)


def _expand(game: RoundGame, abstract: AbstractCFR) -> Profile:
    raise_t, dudo_t = abstract.tables(np.float64)
    k = Kernel(game)
    raises, dudo = [], []
    for p in (0, 1):
        st = node_states(game, abstract, p)
        r = k.zeros(p)
        d = k.zeros(p)
        for j in range(game.rows):
            if not game.reachable[p][j]:
                continue
            d[j] = dudo_t[p][st[j]]
            for a in game.actions_at(p, j):
                if a in game.ranks:
                    rank = game.ranks[a]
                    r[game.edge_of(j, rank)] = raise_t[p][st[j], rank]
        k.normalize(p, r, d)
        raises.append(r)
        dudo.append(d)
    return Profile((raises[0], raises[1]), (dudo[0], dudo[1]))


def test_exploitability_of_an_abstraction_is_that_of_its_full_game_strategy():
    game = RoundGame(PERUDO3, (2, 1))
    abstract = AbstractCFR(game, 2)
    abstract.iterate(30)
    profile = _expand(game, abstract)
    expected = Kernel(game).exploitability(profile)
    assert exact_exploitability(game, abstract, np.float64) == pytest.approx(expected, abs=1e-12)


def test_node_states_are_the_last_bids_of_each_history():
    game = RoundGame(PERUDO3, (2, 1))
    abstract = AbstractCFR(game, 2)
    for p in (0, 1):
        st = node_states(game, abstract, p)
        for j in np.flatnonzero(game.reachable[p])[:200]:
            history = game.history_of(p, int(j))
            assert abstract.states[st[j]] == (p, history[-2:])


def test_the_abstraction_needs_some_memory():
    with pytest.raises(ValueError, match="at least the last bid"):
        AbstractCFR(RoundGame(PERUDO3, (1, 1)), 0)


def test_copying_the_value_matrices_in_chunks_changes_no_iterate(monkeypatch):
    """5v5 needs the matrices copied a chunk of states at a time (CHUNK_BYTES); chunks as
    small as one state give the same regrets and averages as one chunk."""
    game = RoundGame(PERUDO4, (2, 1))
    whole = AbstractCFR(game, 2)
    whole.iterate(8)
    monkeypatch.setattr(abstract_module, "CHUNK_BYTES", 1)
    chunked = AbstractCFR(game, 2)
    assert len(chunked._chunks(len(chunked.src))) == len(chunked.src) > 1
    chunked.iterate(8)
    for p in (0, 1):
        for a, b in [
            (whole.regret_r[p], chunked.regret_r[p]),
            (whole.regret_d[p], chunked.regret_d[p]),
            (whole.avg_r[p], chunked.avg_r[p]),
            (whole.avg_d[p], chunked.avg_d[p]),
        ]:
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_a_loaded_table_sums_its_edges_by_state_bit_for_bit_as_np_add_at(seed: int) -> None:
    """``add_rows_by_source`` (the loader's sum of each state's raise probabilities) gives
    exactly ``np.add.at``'s float32 sums for sorted sources: states with no edge, one, many;
    float32 rounding makes the order of the additions visible, and it is the same."""
    from perudo.solve.abstract import add_rows_by_source

    rng = np.random.default_rng(seed)
    states = 200
    src = np.sort(rng.integers(0, states, size=int(rng.integers(0, 3000))))
    rows = rng.random((len(src), 7), dtype=np.float32) * rng.choice([1e-3, 1.0, 1e3], len(src))[
        :, None
    ].astype(np.float32)
    base = rng.random((states, 7), dtype=np.float32)
    expected = base.copy()
    np.add.at(expected, src, rows)
    got = base.copy()
    add_rows_by_source(got, src, rows)
    assert np.array_equal(got, expected)


def test_policy_rows_are_each_hands_policy() -> None:
    """``AbstractStrategy.policy_rows`` (every hand at once, for the gate's sum over a hand
    kept down) is, row by row, :meth:`policy` of the view with that hand, along random
    bidding histories of a 2v3 round."""
    import random

    from perudo import Bid, apply, start_round, view
    from perudo.solve.abstract import AbstractStrategy

    game = RoundGame(PERUDO, (2, 3), max_bids=999)
    cfr = AbstractCFR(game, 2, method="dcfr")
    cfr.iterate(3)
    strat = AbstractStrategy.from_cfr(cfr)
    rng = random.Random(4)
    checked = 0
    for _ in range(20):
        state = start_round(PERUDO, [(1, 4), (2, 2, 6)], opener=0)
        seat = 0
        for _ in range(rng.randint(0, 5)):
            bids = [a for a in view(state, seat).legal if isinstance(a, Bid)][:8]
            state, _ = apply(state, rng.choice(bids), seat)
            seat = 1 - seat
        v = view(state, seat)
        rows = strat.policy_rows(v)
        hands = strat.hands(v)
        assert rows.shape == (len(hands), len(v.legal))
        for hand, row in zip(hands, rows, strict=True):
            one = strat.policy(dataclasses.replace(v, hand=hand))
            assert row == pytest.approx([one.get(a, 0.0) for a in v.legal], abs=1e-12)
            checked += 1
    assert checked > 200
