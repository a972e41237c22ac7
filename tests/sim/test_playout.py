"""The playout kernel: ``random_playout`` makes the engine's moves, move for move.

``perudo.sim.playout.random_playout`` plays whole games on plain lists for speed; with the
same seeded generator it must take exactly the actions that ``engine_playout`` (the same
random policy through ``apply``) takes, for every preset, table size and dice count,
including one and two dice per player, where palifico rounds and the P-34 choice occur.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.strategies import random_rulesets

from perudo.core import (
    PRESETS,
    Calza,
    ChoosePalifico,
    GameRecord,
    RuleSet,
    apply,
    chance_action,
    legal_actions,
    new_game,
)
from perudo.sim.playout import Playout, engine_playout, random_playout

SEEDS = range(12)


def both(rules: RuleSet, players: int, seed: int) -> tuple[Playout, Playout]:
    fast = random_playout(rules, players, random.Random(seed), keep=True)
    slow = engine_playout(rules, players, random.Random(seed), keep=True)
    return fast, slow


def player_counts(rules: RuleSet) -> list[int]:
    return sorted({rules.min_players, min(3, rules.max_players), min(6, rules.max_players)})


@pytest.mark.parametrize("dice", [1, 2, 5])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_playout_equals_engine_playout_move_for_move(name: str, dice: int) -> None:
    rules = dataclasses.replace(PRESETS[name], dice_per_player=dice)
    for players in player_counts(rules):
        for seed in SEEDS:
            fast, slow = both(rules, players, seed)
            assert fast.actions == slow.actions, (name, dice, players, seed)
            assert fast == slow
            assert fast.decisions == len(fast.actions or ())
            assert 0 <= fast.winner < players


def test_playouts_reach_palifico_choices_and_calza() -> None:
    """The cross-check covers the P-34 choice (two players, two dice) and V-7 calza."""
    rules = dataclasses.replace(PRESETS["perudo"], dice_per_player=2)
    choices = [
        a
        for seed in SEEDS
        for _, a in (both(rules, 2, seed)[0].actions or ())
        if isinstance(a, ChoosePalifico)
    ]
    assert {c.palifico for c in choices} == {True, False}
    to_act = dataclasses.replace(PRESETS["perudo"], calza="to_act")
    calls = [
        a
        for seed in SEEDS
        for _, a in (both(to_act, 4, seed)[0].actions or ())
        if isinstance(a, Calza)
    ]
    assert calls


def test_engine_playout_follows_the_reference_random_policy() -> None:
    """The reference itself: every decision is ``legal[rng.randrange(len(legal))]`` of the
    engine's legal actions and dice come from chance_action, with one shared generator."""
    for name, rules in sorted(PRESETS.items()):
        slow = engine_playout(rules, 3 if rules.max_players > 2 else 2, random.Random(5), keep=True)
        rng = random.Random(5)
        state = new_game(rules, 3 if rules.max_players > 2 else 2, rng)
        moves = list(slow.actions or ())
        taken = 0
        while not state.is_over:
            if state.to_act is None:
                state = apply(state, chance_action(state, rng))[0]
                continue
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            assert moves[taken] == (state.to_act, action), (name, taken)
            taken += 1
            state = apply(state, action)[0]
        assert taken == len(moves) == slow.decisions
        assert state.winner == slow.winner and state.round - 1 == slow.rounds
        assert GameRecord.from_state(state).replay() == state


def test_random_playout_refuses_a_bad_player_count() -> None:
    with pytest.raises(ValueError, match="players"):
        random_playout(PRESETS["perudo"], 11, random.Random(0))
    with pytest.raises(ValueError, match="players"):
        random_playout(PRESETS["liars_dice_openspiel"], 3, random.Random(0))


@given(rules=random_rulesets(), players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_playout_equals_engine_playout_for_random_rules(
    rules: RuleSet, players: int, seed: int
) -> None:
    players = min(players, rules.max_players)
    fast, slow = both(rules, players, seed)
    assert fast == slow
