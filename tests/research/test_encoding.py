"""The dense action encoding (perudo.core.encoding): layout, round trips, masks from the core."""

from __future__ import annotations

import dataclasses
import random

import pytest

from perudo.core import (
    PRESETS,
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    Pass,
    SetAside,
    apply,
    chance_action,
    legal_actions,
    new_game,
    start_round,
    view,
)
from perudo.core.bidding import bid_table
from perudo.core.encoding import (
    action_to_id,
    encoding,
    id_to_action,
    legal_ids,
    legal_mask,
    num_actions,
)

ALL_RULES = {
    **PRESETS,
    "perudo_everything": dataclasses.replace(PRESETS["perudo_calza"], passing=True, set_aside=True),
}


@pytest.mark.parametrize(
    ("name", "players"),
    [
        (name, n)
        for name in sorted(ALL_RULES)
        for n in (2, 3, 6)
        if ALL_RULES[name].min_players <= n <= ALL_RULES[name].max_players
    ],
)
def test_every_id_round_trips(name: str, players: int) -> None:
    rules = ALL_RULES[name]
    enc = encoding(rules, players)
    total = players * rules.dice_per_player
    assert enc.num_bids == total * rules.faces
    assert enc.num_actions == num_actions(rules, players)
    for i in range(enc.num_actions):
        action = enc.id_to_action(i)
        assert enc.action_to_id(action) == i
        assert action_to_id(rules, players, action) == i
        assert id_to_action(rules, players, i) == action
    assert list(enc.bids) == list(bid_table(rules, total).bids)
    assert enc.id_to_action(enc.dudo) == Dudo()
    assert enc.id_to_action(enc.calza) == Calza()
    assert enc.id_to_action(enc.pass_) == Pass()
    assert enc.id_to_action(enc.palifico) == ChoosePalifico(True)
    assert enc.id_to_action(enc.normal) == ChoosePalifico(False)


def test_bid_ids_follow_the_normal_rank_order_p12_p13() -> None:
    enc = encoding(PRESETS["perudo"], 2)
    # P-13: one ace ranks right after two 6s; P-14: two aces right before five 2s.
    assert enc.action_to_id(Bid(1, 1)) == enc.action_to_id(Bid(2, 6)) + 1
    assert enc.action_to_id(Bid(2, 1)) + 1 == enc.action_to_id(Bid(5, 2))


def test_set_aside_ids_are_every_multiset_below_the_dice_per_player_v9() -> None:
    enc = encoding(PRESETS["bluff"], 2)
    # sizes 1..4 from 6 faces: C(6,1)+C(7,2)+C(8,3)+C(9,4)
    assert len(enc.set_asides) == 6 + 21 + 56 + 126
    assert enc.id_to_action(enc.set_aside_start) == SetAside((1,))
    assert enc.id_to_action(enc.num_actions - 1) == SetAside((6, 6, 6, 6))


def test_out_of_range_bid_is_refused_naming_p16() -> None:
    with pytest.raises(ValueError, match="P-16"):
        action_to_id(PRESETS["perudo"], 2, Bid(11, 3))


def test_set_aside_of_every_die_is_refused_naming_v9() -> None:
    with pytest.raises(ValueError, match="V-9"):
        action_to_id(PRESETS["bluff"], 2, SetAside((1, 2, 3, 4, 5)))


@pytest.mark.parametrize("bad", [-1, 274, 3.0, True, "0", None])
def test_bad_ids_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="action id"):
        id_to_action(PRESETS["perudo"], 2, bad)  # type: ignore[arg-type]


def test_numpy_integers_are_accepted_as_ids() -> None:
    np = pytest.importorskip("numpy", reason="numpy is a dependency of the research extra")
    assert id_to_action(PRESETS["perudo"], 2, np.int64(0)) == Bid(1, 2)


def test_bad_player_count_is_refused_p1() -> None:
    with pytest.raises(ValueError, match="P-1"):
        encoding(PRESETS["liars_dice_openspiel"], 3)


@pytest.mark.parametrize("name", sorted(ALL_RULES))
def test_mask_is_exactly_the_cores_legal_actions_over_random_games(name: str) -> None:
    rules = ALL_RULES[name]
    rng = random.Random(11)
    players = 2 if rules.max_players == 2 else 4
    enc = encoding(rules, players)
    for _ in range(8):
        state = new_game(rules, players, rng)
        while not state.is_over:
            if state.to_act is None:
                state = apply(state, chance_action(state, rng))[0]
                continue
            for seat in range(players):
                legal = list(legal_actions(state, seat))
                mask = legal_mask(state, seat)
                assert len(mask) == enc.num_actions
                assert [enc.id_to_action(i) for i, m in enumerate(mask) if m] == sorted(
                    legal, key=enc.action_to_id
                )
                assert legal_mask(view(state, seat)) == mask
                assert legal_ids(state, seat) == [enc.action_to_id(a) for a in legal]
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])[0]
        assert not any(legal_mask(state, 0))


def test_palifico_round_keeps_normal_ids_and_the_cores_mask_p31_p33() -> None:
    rules = PRESETS["perudo"]
    state = start_round(rules, [[3], [2, 4], [5, 5, 6]], opener=0, palifico=True)
    state = apply(state, Bid(1, 1))[0]  # P-32: the palifico player may open on aces
    enc = encoding(rules, 3)
    legal = set(legal_actions(state))
    got = {enc.id_to_action(i) for i, m in enumerate(legal_mask(state)) if m}
    assert got == legal
    assert Bid(2, 1) in got and Bid(2, 2) not in got  # P-32: the face stays


def test_view_of_another_seat_is_refused_p70() -> None:
    state = new_game(PRESETS["perudo"], 3, random.Random(1))
    with pytest.raises(ValueError, match="P-70"):
        legal_mask(view(state, 0), 1)
