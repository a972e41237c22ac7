"""The numpy batch simulator against the rules core: same dice and actions, same games."""

from __future__ import annotations

import dataclasses
import random

import pytest

np = pytest.importorskip("numpy", reason="numpy is needed by the batch simulator")

from perudo.core import (  # noqa: E402
    PRESETS,
    Deal,
    GameOver,
    RuleSet,
    apply,
    chance_action,
    legal_actions,
    new_game,
    start_game,
)
from perudo.core.encoding import encoding, legal_mask  # noqa: E402
from perudo.sim.batch import (  # noqa: E402
    BIDDING,
    CHOOSE,
    DEAL,
    OVER,
    BatchGame,
    check_supported,
    play_random,
)

RULES: dict[str, RuleSet] = {
    "perudo": PRESETS["perudo"],
    "liars_dice": PRESETS["liars_dice"],
    "liars_dice_openspiel_1": dataclasses.replace(
        PRESETS["liars_dice_openspiel"], dice_per_player=1
    ),
    "liars_dice_openspiel": PRESETS["liars_dice_openspiel"],
    "bluff_no_aside": dataclasses.replace(PRESETS["bluff"], set_aside=False),
    "calza_to_act": dataclasses.replace(PRESETS["perudo"], calza="to_act"),
    "monotone_straight": dataclasses.replace(
        PRESETS["perudo"], raise_order="monotone", straight_counts_nothing=True
    ),
    "palifico_not_two": dataclasses.replace(
        PRESETS["perudo"], palifico="not_two_players", dice_per_player=3
    ),
}


def _players(rules: RuleSet) -> list[int]:
    return [n for n in (2, 3, 5) if rules.min_players <= n <= rules.max_players]


def _face_counts(hands: tuple[tuple[int, ...], ...], faces: int) -> list[list[int]]:
    return [[h.count(f) for f in range(1, faces + 1)] for h in hands]


@pytest.mark.parametrize("name", sorted(RULES))
def test_core_games_replayed_in_the_batch_give_the_same_rounds_and_winners(name: str) -> None:
    """Core → batch: play games through the core, feed their dice and action ids to the batch
    in lockstep; every deal finds the same dice counts (P-20…P-23, V-4), the same palifico
    state (P-30, P-34) and the same winner."""
    rules = RULES[name]
    for n in _players(rules):
        rng = random.Random(hash((name, n)) & 0xFFFF)
        enc = encoding(rules, n)
        games = 40
        moves, openers, winners, rounds, palifico_rounds = [], [], [], [], []
        for _ in range(games):
            state = new_game(rules, n, rng)
            while not state.is_over:
                if state.to_act is None:
                    state = apply(state, chance_action(state, rng))[0]
                    continue
                legal = legal_actions(state)
                state = apply(state, legal[rng.randrange(len(legal))])[0]
            moves.append(list(state.moves()))
            last_throw = state.rolloff[-1]
            openers.append(last_throw.index(max(last_throw)))
            winners.append(state.winner)
            rounds.append(len(state.past))
            palifico_rounds.append([r.palifico for r in state.past])
        batch = BatchGame(rules, n, games, seed=0)
        batch.reset(openers=np.array(openers))
        pointers = [0] * games
        while (batch.phase != OVER).any():
            dealing = np.flatnonzero(batch.phase == DEAL)
            if len(dealing):
                hands = []
                for g in dealing:
                    seat, action = moves[g][pointers[g]]
                    assert seat is None and isinstance(action, Deal)
                    assert batch.counts[g].tolist() == [len(h) for h in action.hands]
                    assert bool(batch.palifico[g]) == palifico_rounds[g][int(batch.rounds[g])]
                    hands.append(_face_counts(action.hands, rules.faces))
                    pointers[g] += 1
                batch.deal(dealing, hands=np.array(hands))
            ids = np.full(games, -1)
            for g in np.flatnonzero((batch.phase == BIDDING) | (batch.phase == CHOOSE)):
                seat, action = moves[g][pointers[g]]
                assert seat == batch.to_act[g]
                ids[g] = enc.action_to_id(action)  # type: ignore[arg-type]
                pointers[g] += 1
            batch.step(ids)
        assert batch.winner.tolist() == winners
        assert batch.rounds.tolist() == rounds
        assert pointers == [len(m) for m in moves]


@pytest.mark.parametrize("name", sorted(RULES))
def test_batch_random_games_replay_legally_in_the_core_with_the_same_masks(name: str) -> None:
    """Batch → core: every action the batch's random policy takes is legal in the core, the
    batch's mask equals the core's legal mask at every decision, and the core reaches the same
    dice counts and winner."""
    rules = RULES[name]
    for n in _players(rules):
        games = 24
        batch = BatchGame(rules, n, games, seed=7)
        states = [
            start_game(rules, n, [[rules.faces if s == o else 1 for s in range(n)]])
            for o in batch.opener.tolist()
        ]
        enc = encoding(rules, n)
        while (batch.phase != OVER).any():
            dealing = np.flatnonzero(batch.phase == DEAL)
            batch.deal(dealing)
            for g in dealing:
                hands = tuple(
                    tuple(f + 1 for f, k in enumerate(seat_counts) for _ in range(k))
                    for seat_counts in batch.hands[g].tolist()
                )
                states[g] = apply(states[g], Deal(hands))[0]
            acting = np.flatnonzero((batch.phase == BIDDING) | (batch.phase == CHOOSE))
            masks = batch.legal_mask(acting)
            for row, g in enumerate(acting):
                assert masks[row].tolist() == legal_mask(states[g])
            ids = batch.random_actions()
            for g in acting:
                states[g], events = apply(states[g], enc.id_to_action(int(ids[g])))
                if any(isinstance(e, GameOver) for e in events):
                    assert states[g].winner is not None
            batch.step(ids)
            for g in acting:
                assert batch.counts[g].tolist() == list(states[g].dice_counts)
        assert batch.winner.tolist() == [s.winner for s in states]


def test_threshold_policy_plays_legal_games_and_beats_random() -> None:
    rules = PRESETS["perudo"]
    batch = BatchGame(rules, 2, 2000, seed=3)
    while (batch.phase != OVER).any():
        batch.deal()
        random_ids = batch.random_actions()
        smart_ids = batch.threshold_actions()
        ids = np.where(batch.to_act == 0, smart_ids, random_ids)
        batch.step(ids)  # checked: every id is legal
    assert (batch.winner == 0).mean() > 0.6


def test_play_random_plays_exactly_the_games_asked() -> None:
    wins = play_random(PRESETS["perudo"], 3, games=500, batch_size=128, seed=2)
    assert wins.sum() == 500 and (wins > 100).all()


def test_illegal_id_is_refused_naming_the_game_and_nothing_changes() -> None:
    batch = BatchGame(PRESETS["perudo"], 2, 4, seed=1)
    batch.deal()
    before = batch.counts.copy(), batch.rank.copy()
    ids = batch.random_actions()
    ids[2] = encoding(PRESETS["perudo"], 2).dudo  # no bid to doubt yet
    with pytest.raises(ValueError, match="game 2"):
        batch.step(ids)
    assert (batch.counts == before[0]).all() and (batch.rank == before[1]).all()


@pytest.mark.parametrize(
    ("change", "rule"),
    [({"set_aside": True}, "V-9"), ({"passing": True}, "V-10"), ({"calza": "on"}, "P-50")],
)
def test_unsupported_switches_are_refused_with_the_rule(
    change: dict[str, object], rule: str
) -> None:
    with pytest.raises(ValueError, match=rule):
        check_supported(dataclasses.replace(PRESETS["perudo"], **change))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(RULES))
def test_fused_random_step_is_step_of_random_actions(name: str) -> None:
    """play_random's fast path plays exactly the games random_actions + step would."""
    rules = RULES[name]
    n = _players(rules)[-1]
    fast, slow = BatchGame(rules, n, 300, seed=11), BatchGame(rules, n, 300, seed=11)
    for _ in range(400):
        fast.deal()
        slow.deal()
        fast.random_step()
        slow.step(slow.random_actions())
        for field in ("counts", "hands", "phase", "to_act", "rank", "bidder", "palifico", "used"):
            assert np.array_equal(getattr(fast, field), getattr(slow, field)), field
        if (fast.phase == OVER).all():
            break
    assert np.array_equal(fast.winner, slow.winner)
    assert (fast.phase == OVER).all()


def test_roll_off_opener_is_uniform_over_the_seats_p2() -> None:
    """By symmetry the P-2 roll-off's winner is uniform; the batch draws it directly."""
    batch = BatchGame(PRESETS["perudo"], 4, 40_000, seed=4)
    share = np.bincount(batch.opener, minlength=4) / 40_000
    assert np.allclose(share, 0.25, atol=0.015)
