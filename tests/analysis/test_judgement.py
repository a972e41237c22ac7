"""The analysis does not lie: exact losses are the solver's, the expert loses nothing against
itself, obvious blunders are named, and estimates cover the exact values where both exist."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo.analysis import estimate_actions, exact_values, judge, label_of
from perudo.analysis.chances import dice_model
from perudo.analysis.game import DecisionView, default_book
from perudo.bots.prob_bot import ProbBot
from perudo.core import (
    PERUDO,
    PERUDO_CALZA,
    Bid,
    Dudo,
    GameState,
    PlayerAction,
    PlayerView,
    apply,
    count_hand,
    start_round,
    view,
)
from perudo.solve.expert import ExpertBot

BOOK = default_book()


def _turns(hands: list[list[int]], seed: int) -> list[PlayerView]:
    """Every turn of one heads-up round the expert plays against itself from the book."""
    rng = random.Random(seed)
    state = start_round(PERUDO, hands, opener=0)
    bots = [ExpertBot(seed, book=BOOK), ExpertBot(seed + 1, book=BOOK)]
    out = []
    while state.round == 1:
        seat = state.to_act
        assert seat is not None
        v = view(state, seat)
        out.append(v)
        bots[seat].rng.seed(rng.random())
        state, _ = apply(state, bots[seat].act(v), seat)
    return out


@pytest.mark.parametrize(
    ("hands", "seed"),
    [([[3], [5]], 1), ([[1], [6]], 2), ([[2, 6], [4]], 3), ([[5], [1, 3]], 4), ([[4, 4], [2]], 5)],
)
def test_expert_against_itself_loses_nothing_on_book_positions(
    hands: list[list[int]], seed: int
) -> None:
    for v in _turns(hands, seed):
        ev = exact_values(v, BOOK)
        assert ev is not None, v
        for action, p in ev.policy.items():
            if p >= 0.001:
                # Every action the equilibrium mixes is worth the most (up to the packing's
                # 16-bit weights and the solve's 1e-5 target).
                assert ev.round_loss(action) < 2e-3, (v.actions, action, ev.values)
                assert ev.game_loss(action) <= ev.round_loss(action) + 1e-12


def _reference_values(v: PlayerView) -> dict[PlayerAction, float]:
    """Each action's value at a 1v1 turn by a plain recursion over the round's histories
    through the core: the other player's hands weighed by chance and by its equilibrium
    policy (asked of its own views, P-70), the seat to act best-replying afterwards."""
    sol = BOOK.find(v)
    assert sol is not None
    game = sol.game
    seat = v.seat
    assert seat is not None
    other = 1 - seat
    faces = v.rules.faces
    own = tuple(v.hand)
    util = game.utility  # the opener's payoff by (rank, bidder, count), built through the core
    sign = 1.0 if seat == 0 else -1.0

    def payoff(state_hands: list[tuple[int, ...]], bid: Bid, bidder: int) -> float:
        count = sum(count_hand(v.rules, h, bid.face, False) for h in state_hands)
        return sign * float(util[game.ranks[bid], bidder, min(count, game.total)])

    opp_hands = [(f,) for f in range(1, faces + 1)]

    def rec(history: list[Bid], reach: np.ndarray) -> np.ndarray:
        """The seat's payoff per other hand (times that hand's reach from here on)."""
        to_act = len(history) % 2  # seat 0 opens
        out = np.zeros(len(opp_hands))
        if to_act == seat:
            best: np.ndarray | None = None
            for a in actions_at(history):
                vals = (
                    np.array(
                        [payoff(hands_for(j), history[-1], other) for j in range(len(opp_hands))]
                    )
                    if isinstance(a, Dudo)
                    else rec([*history, a], reach)
                )
                if best is None or reach @ vals > reach @ best:
                    best = vals
            assert best is not None
            return best
        for j, _ in enumerate(opp_hands):
            if reach[j] == 0.0:
                continue
            pol = policy_of(j, history)
            for a, p in pol.items():
                if p == 0.0:
                    continue
                if isinstance(a, Dudo):
                    out[j] += p * payoff(hands_for(j), history[-1], seat)
                else:
                    sub = np.zeros(len(opp_hands))
                    sub[j] = reach[j] * p
                    out[j] += p * rec([*history, a], sub)[j]
        return out

    def hands_for(j: int) -> list[tuple[int, ...]]:
        return [own, opp_hands[j]] if seat == 0 else [opp_hands[j], own]

    def state_at(j: int, history: list[Bid]) -> GameState:
        state = start_round(PERUDO, hands_for(j), opener=0)
        for b in history:
            state, _ = apply(state, b)
        return state

    def actions_at(history: list[Bid]) -> list[PlayerAction]:
        return list(view(state_at(0, history), seat).legal)

    def policy_of(j: int, history: list[Bid]) -> dict[PlayerAction, float]:
        return sol.policy(view(state_at(j, history), other))

    # The other player's reach at the view's history, per hand.
    history = [a for _, a in v.actions if isinstance(a, Bid)]
    reach = np.full(len(opp_hands), 1.0 / faces)
    for k, b in enumerate(history):
        if k % 2 == other:
            for j in range(len(opp_hands)):
                reach[j] *= policy_of(j, history[:k]).get(b, 0.0)
    norm = reach.sum()
    values: dict[PlayerAction, float] = {}
    for a in v.legal:
        if isinstance(a, Dudo):
            vals = np.array([payoff(hands_for(j), history[-1], other) for j in range(faces)])
        else:
            vals = rec([*history, a], reach)
        values[a] = float(reach @ vals / norm)
    return values


@pytest.mark.parametrize(("hands", "seed"), [([[3], [5]], 1), ([[6], [2]], 7)])
def test_exact_losses_are_the_solvers_action_values(hands: list[list[int]], seed: int) -> None:
    for v in _turns(hands, seed)[:3]:
        ev = exact_values(v, BOOK)
        assert ev is not None
        ref = _reference_values(v)
        assert set(ref) == set(ev.values)
        for a in ref:
            assert ev.values[a] == pytest.approx(ref[a], abs=1e-9), a


def test_dudo_on_a_bid_the_callers_dice_make_true_is_a_blunder_exact() -> None:
    # 1v2 heads-up (the book's): every opening the equilibrium makes that seat 1's two fives
    # already make true, then seat 1 calls dudo on it.
    judged = 0
    for face in range(1, 7):
        opening = view(start_round(PERUDO, [[face], [5, 5]], opener=0), 0)
        ev = exact_values(opening, BOOK)
        assert ev is not None
        for bid, p in ev.policy.items():
            if p < 0.01 or not isinstance(bid, Bid):
                continue
            if count_hand(PERUDO, (5, 5), bid.face, False) < bid.quantity:
                continue
            state, _ = apply(start_round(PERUDO, [[face], [5, 5]], opener=0), bid)
            d = judge(DecisionView(0, 1, Dudo(), view(state, 1)), book=BOOK, rollouts=0)
            assert d.method == "exact"
            assert d.holds == 1.0
            assert d.label == "blunder", d
            judged += 1
    assert judged >= 3


def test_dudo_on_a_bid_the_callers_dice_make_true_is_a_blunder_estimated() -> None:
    hands = [[2, 3, 4, 5, 6], [5, 5, 5, 1, 1], [2, 2, 3, 3, 4], [6, 6, 6, 2, 3]]
    state = start_round(PERUDO_CALZA, hands, opener=0)
    state, _ = apply(state, Bid(3, 5))
    v = view(state, 1)  # seat 1 holds five fives with its aces: 3x5 is true
    d = judge(DecisionView(0, 1, Dudo(), v), book=BOOK, rollouts=64, seed=3)
    assert d.method == "estimate"
    assert d.rollouts == 64
    assert d.low is not None and d.low >= 0.2
    assert d.label == "blunder", d
    # In the game's units too: losing a die for sure costs a chance to win the game.
    assert d.loss_game is not None and d.game_low is not None and d.game_high is not None
    assert 0.0 < d.game_low <= d.loss_game <= d.game_high < d.loss_round
    assert d.to_json()["game_interval"] == [d.game_low, d.game_high]


def test_a_bid_no_hand_can_make_is_a_blunder() -> None:
    # 12 dice in play, seat 1 holds no four and no ace: twelve fours need its dice too.
    hands = [[2, 3, 4, 5, 6], [5, 5, 5, 6, 6], [2, 2]]
    state = start_round(PERUDO_CALZA, hands, opener=0)
    state, _ = apply(state, Bid(2, 4))
    v = view(state, 1)
    impossible = Bid(12, 4)
    assert impossible in v.legal
    d = judge(DecisionView(0, 1, impossible, v), book=BOOK, rollouts=64, seed=5)
    assert d.own_chance == 0.0
    assert d.label == "blunder", d


def test_estimated_intervals_cover_the_exact_values_of_the_round_and_the_game() -> None:
    """On solved heads-up positions, the rollouts' intervals cover the exact loss of dudo and
    of the equilibrium's own actions (whose continuations the rollouts play exactly), in the
    round's units and in the game's (each outcome valued by the book's match values)."""
    covered = 0
    for hands, bids in (
        ([[1, 3], [5]], [Bid(1, 6)]),
        ([[2, 2], [6]], [Bid(1, 5)]),
        ([[4], [3, 6]], [Bid(1, 4), Bid(1, 6)]),
    ):
        state = start_round(PERUDO, hands, opener=0)
        for b in bids:
            state, _ = apply(state, b)
        v = view(state, state.to_act)  # type: ignore[arg-type]
        ev = exact_values(v, BOOK)
        assert ev is not None
        checked = [
            a for a in [Dudo(), *[a for a, p in ev.policy.items() if p > 0.05]] if a != ev.best
        ]
        est = estimate_actions(v, checked, ev.best, rollouts=400, book=BOOK, seed=12, game=True)
        for a in checked:
            e = est[a]
            exact = ev.round_loss(a)
            # The exact values carry the book's precision (2e-3, as above).
            assert e.low - 2e-3 <= exact <= e.high + 2e-3, (hands, a, exact, e)
            assert e.game_loss is not None and e.game_low is not None and e.game_high is not None
            assert e.game_low - 2e-3 <= ev.game_loss(a) <= e.game_high + 2e-3, (hands, a, e)
            covered += 1
    assert covered >= 4


def test_labels_follow_the_thresholds() -> None:
    assert label_of(0.0) == "good"
    assert label_of(0.049) == "good"
    assert label_of(0.05) == "inaccuracy"
    assert label_of(0.1) == "mistake"
    assert label_of(0.2) == "blunder"


def test_the_p34_choice_is_judged_by_the_books_match_values() -> None:
    """One die each, the opener chooses (P-34): a normal round is worth 17/36 of the game,
    a palifico round 4/9 (docs/solver.md), so palifico gives up 1/36."""
    import dataclasses

    from perudo.core import ChoosePalifico, Phase

    v = view(start_round(PERUDO, [[2], [5]], opener=0), 0)
    v = dataclasses.replace(
        v,
        phase=Phase.CHOOSE_PALIFICO,
        hand=(),
        actions=(),
        legal=(ChoosePalifico(True), ChoosePalifico(False)),
    )
    d = judge(DecisionView(0, 0, ChoosePalifico(True), v), book=BOOK, rollouts=0)
    assert d.method == "exact"
    assert d.expert == ChoosePalifico(False)
    assert d.loss_game == pytest.approx(17 / 36 - 4 / 9, abs=1e-6)
    assert d.label == "good"
    d = judge(DecisionView(0, 0, ChoosePalifico(False), v), book=BOOK, rollouts=0)
    assert d.loss_game == pytest.approx(0.0, abs=1e-12)


def test_a_decision_that_loses_nothing_in_the_round_loses_nothing_in_the_game() -> None:
    hands = [[2, 3, 4, 5, 6], [5, 5, 5, 1, 1], [2, 2, 3, 3, 4], [6, 6, 6, 2, 3]]
    state = start_round(PERUDO_CALZA, hands, opener=0)
    state, _ = apply(state, Bid(3, 5))
    v = view(state, 1)
    expert = ExpertBot(0, book=BOOK).fallback.act(v)
    d = judge(DecisionView(0, 1, expert, v), book=BOOK, rollouts=16, seed=1)
    assert (d.loss_round, d.low, d.high) == (0.0, 0.0, 0.0)
    assert (d.loss_game, d.game_low, d.game_high) == (0.0, 0.0, 0.0)
    # The rollouts of an action against itself: the same outcomes, paired, lose nothing.
    est = estimate_actions(
        v, [expert], expert, rollouts=8, book=BOOK, seed=2, game=True, fallback=ProbBot
    )
    assert (est[expert].loss, est[expert].game_loss) == (0.0, 0.0)
    assert (est[expert].game_low, est[expert].game_high) == (0.0, 0.0)


@given(st.lists(st.integers(0, 5), min_size=2, max_size=6))
def test_the_dice_count_model_is_a_distribution_that_rewards_dice(counts: list[int]) -> None:
    """Each seat's chance from the dice counts: the seats' chances sum to one, a seat out has
    none, and one more die never lowers a seat's chance."""
    c = tuple(counts)
    if sum(1 for x in c if x) == 0:
        return
    chances = [dice_model(c, s) for s in range(len(c))]
    assert sum(chances) == pytest.approx(1.0)
    for s, x in enumerate(c):
        if x == 0:
            assert chances[s] == 0.0
        elif x < 5:
            more = dice_model((*c[:s], x + 1, *c[s + 1 :]), s)
            assert more >= chances[s] - 1e-12
