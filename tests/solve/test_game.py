"""The solver's round tree is the core's: legal actions, counts and payoffs come from it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perudo import BLUFF, LIARS_DICE, LIARS_DICE_OPENSPIEL, PERUDO, Bid, Dudo
from perudo.solve import RoundGame, hands_of

SMALL_RULES = [
    ("perudo 1v1", PERUDO, (1, 1), False),
    ("perudo 2v1", PERUDO, (2, 1), False),
    ("perudo 1v2 palifico (P-32, P-33)", PERUDO, (1, 2), True),
    ("perudo 1v1 palifico", PERUDO, (1, 1), True),
    ("liars_dice 1v2", LIARS_DICE, (1, 2), False),
    ("bluff conversion (V-3)", dataclasses.replace(BLUFF, set_aside=False), (1, 2), False),
    (
        "monotone, no wilds (V-1, V-2)",
        dataclasses.replace(PERUDO, raise_order="monotone", wild_face=None),
        (2, 1),
        False,
    ),
    ("openspiel", LIARS_DICE_OPENSPIEL, (1, 1), False),
]


@pytest.mark.parametrize(("label", "rules", "dice", "palifico"), SMALL_RULES)
def test_tree_legal_actions_are_the_cores_P12_P14_P32_P33(label, rules, dice, palifico):
    game = RoundGame(rules, dice, palifico=palifico)
    assert game.check_against_core(samples=150, seed=3) > 0


def test_information_states_of_openspiel_liars_dice_one_die_each_are_24576():
    assert RoundGame(LIARS_DICE_OPENSPIEL, (1, 1)).num_infostates() == 24_576


def test_palifico_round_keeps_the_face_for_a_player_with_two_dice_P32():
    game = RoundGame(PERUDO, (1, 2), palifico=True)
    # The opener (one die) bids 1x3; the other (two dice) may only bid more 3s or dudo.
    p, node = game.node_of([game.ranks[Bid(1, 3)]])
    assert game.actions_at(p, node) == [Bid(2, 3), Bid(3, 3), Dudo()]


def test_hands_are_multisets_with_chance_weights_P3():
    hands = hands_of(6, 2)
    assert len(hands) == 21
    assert np.isclose(hands.weights.sum(), 1.0)
    assert np.isclose(hands.weights[hands.index[(3, 3)]], 1 / 36)
    assert np.isclose(hands.weights[hands.index[(2, 5)]], 2 / 36)


def test_utility_is_what_apply_decides_P20():
    game = RoundGame(PERUDO, (1, 1))
    r = game.ranks[Bid(2, 4)]
    # The opener bid 2x4 and the other called dudo: it holds with 2 matching dice (aces wild).
    assert game.utility[r, 0, 2] == 1.0
    assert game.utility[r, 0, 1] == -1.0
    # The other player bid it and the opener called: the other wins when it holds.
    assert game.utility[r, 1, 2] == -1.0
    assert game.utility[r, 1, 0] == 1.0


def test_counts_come_from_count_hand_with_aces_wild_P15_and_not_in_palifico_P31():
    normal = RoundGame(PERUDO, (2, 1))
    pal = RoundGame(PERUDO, (1, 2), palifico=True)
    i = normal.hands[0].index[(1, 4)]
    assert normal.counts[0][i, 4 - 1] == 2
    j = pal.hands[1].index[(1, 4)]
    assert pal.counts[1][j, 4 - 1] == 1


def test_history_and_node_round_trip():
    game = RoundGame(PERUDO, (2, 1))
    for p in (0, 1):
        for node in (0, 1, 5, 77, game.rows - 1):
            assert game.node_of(game.history_of(p, node)) == (p, node)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (dataclasses.replace(PERUDO, set_aside=True), "V-9"),
        (dataclasses.replace(PERUDO, passing=True), "V-10"),
        (dataclasses.replace(PERUDO, calza="to_act", calza_min_players=2), "V-7"),
    ],
)
def test_rules_with_other_actions_are_refused_by_name(rules, message):
    with pytest.raises(ValueError, match=message):
        RoundGame(rules, (1, 1))


def test_impossible_rounds_are_refused():
    with pytest.raises(ValueError, match="P-30"):
        RoundGame(PERUDO, (2, 1), palifico=True)
    with pytest.raises(ValueError, match="V-12"):
        RoundGame(PERUDO, (6, 1))
    with pytest.raises(ValueError, match="ranks must increase"):
        RoundGame.node_of([3, 1])
