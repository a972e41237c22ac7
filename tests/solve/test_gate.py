"""The exploitation gate (:mod:`perudo.solve.gate`): ``expert`` leaves a table's equilibrium
for ``strong`` only against an opponent whose lifted hands (P-21) show it bids by chances, and
an equilibrium player is read as one so rarely that the bound holds."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo.bots.base import Bot
from perudo.bots.prob_bot import ProbBot
from perudo.core import (
    Bid,
    Dudo,
    GameState,
    Phase,
    PlayerAction,
    PlayerView,
    find_ruleset,
    start_round,
    view,
)
from perudo.sim.driver import run
from perudo.solve.expert import ExpertBot
from perudo.solve.gate import ExploitGate, GateSettings, decision_evidence

PERUDO = find_ruleset("perudo")


@given(
    st.lists(st.integers(0, 1000), min_size=2, max_size=12),
    st.lists(st.integers(0, 1000), min_size=2, max_size=12),
    st.floats(0.01, 0.5),
)
def test_an_equilibrium_players_ratio_has_mean_at_most_one(
    table_w: list[int], chance_w: list[int], bluff: float
) -> None:
    """The bound's martingale: under the table's own play, the expected likelihood ratio of a
    decision is at most 1 (exactly the chance player's mass on what the table plays)."""
    k = min(len(table_w), len(chance_w))
    actions: list[PlayerAction] = [Bid(q, 2) for q in range(1, k + 1)]
    if sum(table_w[:k]) == 0.0 or sum(chance_w[:k]) == 0.0:
        return
    table = {a: w / sum(table_w[:k]) for a, w in zip(actions, table_w, strict=False)}
    chance = {a: w / sum(chance_w[:k]) for a, w in zip(actions, chance_w, strict=False)}
    mean = sum(
        p * math.exp(decision_evidence(chance, table, a, k, bluff))
        for a, p in table.items()
        if p > 0.0
    )
    played = sum((1 - bluff) * chance[a] + bluff / k for a, p in table.items() if p > 0.0)
    assert mean <= played * (1 + 1e-9) and played <= 1.0 + 1e-9
    if all(p >= bluff / k for p in table.values() if p > 0.0):  # no floor applied
        assert mean == pytest.approx(played, rel=1e-9)


def test_an_action_the_table_never_plays_is_strong_evidence_and_one_it_prefers_weighs_against() -> (
    None
):
    a, b = Bid(1, 2), Bid(1, 3)
    never = decision_evidence({a: 0.5, b: 0.5}, {a: 0.0, b: 1.0}, a, 2, 0.08)
    # The table's chance is floored at the chance player's uniform share (0.04): the move
    # counts as much as a chance player prefers it, not without bound.
    assert never == pytest.approx(math.log((0.92 * 0.5 + 0.04) / 0.04))
    against = decision_evidence({a: 0.99, b: 0.01}, {a: 0.2, b: 0.8}, b, 2, 0.08)
    assert against == pytest.approx(math.log(0.92 * 0.01 + 0.04) - math.log(0.8))
    assert against < 0.0


def test_settings_out_of_range_are_refused_with_their_names() -> None:
    with pytest.raises(ValueError, match="threshold > 0"):
        GateSettings(threshold=0.0)
    with pytest.raises(ValueError, match="0 < bluff < 1"):
        GateSettings(bluff=1.0)


@dataclass
class Seen:
    """What the gated expert saw at each of its turns a table covers."""

    evidence: list[float] = field(default_factory=list)
    exploited: list[bool] = field(default_factory=list)
    played_strong: list[bool] = field(default_factory=list)


def _heads_up_game(
    expert: ExpertBot, other: Bot, seed: int, seen: Seen, dice: int = 3
) -> GameState:
    """A heads-up game of Perudo from ``dice`` dice each, the expert in seat 0."""
    rng = random.Random(seed)
    hands = [[rng.randint(1, 6) for _ in range(dice)] for _ in range(2)]
    state = start_round(PERUDO, hands, opener=seed % 2)
    gate = expert.gate
    assert gate is not None

    def act(s: GameState, seat: int) -> PlayerAction:
        v = view(s, seat)
        if seat == 1:
            return other.act(v)
        if v.phase is Phase.BIDDING and expert.abstract.find(v) is not None:
            exploit = gate.exploit(v)
            seen.evidence.append(gate.evidence(1))
            seen.exploited.append(exploit)
            policy = expert.policy(v)
            strong = expert.fallback.policy(v)  # type: ignore[attr-defined]
            seen.played_strong.append(policy == dict(strong) and not expert.solved(v))
            assert exploit == seen.played_strong[-1]
        return expert.act(v)

    return run(state, rng, act, None)


def test_P21_a_chance_player_is_read_from_its_lifted_hands_and_strong_plays_its_rounds() -> None:
    """Against ``prob`` (a chance player), the evidence climbs with each round it shows, and
    from the threshold on the rounds a table covers are ``strong``'s."""
    crossed, pooled = 0, 0.0
    for g in range(6):
        seen = Seen()
        expert = ExpertBot(100 + g, gate=GateSettings())
        _heads_up_game(expert, ProbBot(200 + g, temperature=0.05), g, seen)
        assert seen.exploited and seen.exploited[0] is False  # the first round: no evidence
        crossed += any(seen.exploited)
        pooled += seen.evidence[-1]
    # Its lifted rounds are, taken together, evidence for what it is (a round may weigh a
    # little against: a chance player's choice can be the table's too).
    assert pooled > 2 * GateSettings().threshold
    assert crossed >= 1


def test_an_equilibrium_player_keeps_the_expert_on_its_tables() -> None:
    """Against the tables' own play (an ungated ``expert``), the evidence stays under the
    threshold: by the bound, in at most ``e^-3`` (5%) of games it ever crosses."""
    crossed = 0
    total_turns = 0
    for g in range(12):
        seen = Seen()
        _heads_up_game(ExpertBot(300 + g, gate=GateSettings()), ExpertBot(400 + g), g, seen)
        crossed += any(seen.exploited)
        total_turns += len(seen.exploited)
    assert total_turns > 12
    assert crossed <= 1


def test_a_round_without_lifted_hands_or_of_three_seats_is_not_read() -> None:
    gate = ExploitGate(ExpertBot(1).abstract)
    three = start_round(PERUDO, [[2, 2], [3, 3], [4, 4]], opener=0)
    rng = random.Random(1)

    def dudo_at_once(s: GameState, seat: int) -> PlayerAction:
        v = view(s, seat)
        return Dudo() if Dudo() in v.legal else v.legal[0]

    end = run(three, rng, dudo_at_once, None, until=lambda s: s.round > 1)
    v: PlayerView = view(end, 0)
    assert v.past
    record, counts = v.past[-1], (2, 2, 2)
    assert gate.round_evidence(v, record, counts) is None
    gate.observe(v)
    assert gate.evidence(1) == gate.evidence(2) == 0.0


def test_the_expert_level_plays_behind_the_gate_and_the_analysis_expert_does_not() -> None:
    from perudo.registry import make_bot

    expert = make_bot("expert", seed=1)
    assert isinstance(expert, ExpertBot)
    assert expert.gate is not None and expert.gate.settings == GateSettings()
    assert ExpertBot(1).gate is None  # the analysis's judge plays the equilibrium


def test_a_new_game_with_the_same_bot_starts_from_no_evidence() -> None:
    """A rematch keeps the bot: the second game's first turn at a table (here late, after
    rounds of five and four dice no table covers) reads nothing of the first game."""
    expert = ExpertBot(7, gate=GateSettings())
    first = Seen()
    _heads_up_game(expert, ProbBot(8, temperature=0.05), 1, first)
    assert first.evidence and expert.gate is not None and expert.gate.evidence(1) != 0.0
    second = Seen()
    end = _heads_up_game(expert, ProbBot(9, temperature=0.05), 2, second, dice=5)
    assert second.evidence and second.evidence[0] == 0.0 and not second.exploited[0]
    assert view(end, 0).past[0].round == 1


def test_P21_a_round_whose_challenger_kept_its_dice_down_is_not_read() -> None:
    """The bidder's hand proves the bid: the challenger's stays down for good (P-21), and
    the gate reads nothing of that round."""
    state = start_round(PERUDO, [[2, 2], [3, 3]], opener=0)
    script = iter([Bid(1, 2), Dudo()])
    end = run(
        state, random.Random(1), lambda s, seat: next(script), None, until=lambda s: s.round > 1
    )
    v = view(end, 0)
    record = v.past[-1]
    assert record.result.hidden == (1,)
    gate = ExploitGate(ExpertBot(1).abstract)
    assert gate.round_evidence(v, record, (2, 2)) is None
    gate.observe(v)
    assert gate.evidence(1) == 0.0
