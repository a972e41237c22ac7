"""The exploitation gate (:mod:`perudo.solve.gate`): ``expert`` leaves a table's equilibrium
for ``strong`` only against an opponent whose lifted hands (P-21) show it bids by chances, and
an equilibrium player is read as one so rarely that the bound holds."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

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
    RuleSet,
    apply,
    find_ruleset,
    start_round,
    view,
)
from perudo.sim.driver import run
from perudo.solve.expert import ExpertBot
from perudo.solve.gate import ExploitGate, GateSettings, decision_evidence, hands_of

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
    left_table: list[bool] = field(default_factory=list)
    """Whether it played the response to ``hard`` (or ``strong``, where none covers the
    round) rather than the table's equilibrium."""
    responses: int = 0
    """Turns played from a shipped response table."""


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
            table = expert.abstract.find(v)
            assert table is not None
            response = expert.responses.find(v) if expert.responses is not None else None
            if response is not None:
                if response.policy(v) == table.policy(v):
                    return expert.act(v)  # the two agree: nothing to tell apart
                left = policy == response.policy(v)
                seen.responses += exploit
            else:
                strong = expert.fallback.policy(v)  # type: ignore[attr-defined]
                left = policy == dict(strong) and not expert.solved(v)
            seen.left_table.append(left)
            assert exploit == left
        return expert.act(v)

    return run(state, rng, act, None)


def test_P21_a_chance_player_is_read_from_its_lifted_hands_and_the_response_plays_its_rounds() -> (
    None
):
    """Against ``prob`` (a chance player), the evidence climbs with each round it shows, and
    from the threshold on the rounds a table covers are played from the shipped restricted
    Nash responses to ``hard`` (``strong``'s where none covers the round)."""
    crossed, pooled, responses = 0, 0.0, 0
    for g in range(6):
        seen = Seen()
        expert = ExpertBot(100 + g, gate=GateSettings())
        _heads_up_game(expert, ProbBot(200 + g, temperature=0.05), g, seen)
        assert seen.exploited and seen.exploited[0] is False  # the first round: no evidence
        crossed += any(seen.exploited)
        pooled += seen.evidence[-1]
        responses += seen.responses
    # Its lifted rounds are, taken together, evidence for what it is (a round may weigh a
    # little against: a chance player's choice can be the table's too).
    assert pooled > 2 * GateSettings().threshold
    assert crossed >= 1
    assert responses >= 1  # three dice each: every round from 3v3 down has a response


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


def test_a_round_of_three_seats_is_not_read() -> None:
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


def _one_round(
    rules: RuleSet, hands: list[tuple[int, ...]], script: list[PlayerAction]
) -> PlayerView:
    """Seat 0's view after one round played from ``hands`` (seat 0 opens) by ``script``."""
    moves = iter(script)
    state = start_round(rules, hands, opener=0)
    end = run(
        state, random.Random(1), lambda s, seat: next(moves), None, until=lambda s: s.round > 1
    )
    return view(end, 0)


def test_P21_its_own_hand_kept_down_is_read_as_if_lifted() -> None:
    """The expert doubts and the opponent's bid is proven by the opponent's own hand: the
    expert's stays down (P-21). The opponent's decisions do not depend on it (P-70), so the
    round reads exactly as with every hand lifted (V-8 ``all``)."""
    hands = [(2, 5), (3, 3)]
    script: list[PlayerAction] = [Bid(1, 3), Bid(2, 3), Dudo()]
    kept = _one_round(PERUDO, hands, script)
    lifted = _one_round(dataclasses.replace(PERUDO, reveal="all"), hands, script)
    assert kept.past[-1].result.hidden == (0,) and lifted.past[-1].result.hidden == ()
    gate = ExploitGate(ExpertBot(1).abstract)
    read = gate.round_evidence(kept, kept.past[-1], (2, 2))
    assert read is not None and read == gate.round_evidence(lifted, lifted.past[-1], (2, 2))


def _table_moves(gate: ExploitGate, state: GameState) -> list[tuple[PlayerAction, float]]:
    """The moves the table makes for seat 1 at ``state``, each with its chance (above 0)."""
    theirs = view(state, 1)
    strat = gate.abstract.find(theirs)
    assert strat is not None
    return [(a, p) for a, p in strat.policy(theirs).items() if p > 0.0]


@pytest.mark.parametrize(
    ("mine", "opening"),
    [((2, 5), Bid(2, 2)), ((5, 5), Bid(2, 5)), ((1, 1), Bid(2, 3))],
)
def test_P21_with_the_challengers_hand_kept_down_each_ratio_still_has_mean_at_most_one(
    mine: tuple[int, int], opening: Bid
) -> None:
    """The bound, exactly, where P-21 keeps a hand down. The expert opens (on a hand that
    proves the bid alone, but for two 2s from one 2: there no hand stays down), the opponent
    plays the table's own strategy, and the expert doubts any raise. The opponent's hand stays
    down exactly when it doubts and the expert's hand proves the bid: reading only the lifted
    rounds would be a selection. Read by the likelihood summed over the hands it may hold,
    every chance player's ratio has expectation at most 1 over every hand and every move of
    the table."""
    gate = ExploitGate(ExpertBot(1).abstract)
    means = [0.0] * 6
    kept_down = 0.0
    for hand, log_weight in hands_of(2, 6):
        state, _ = apply(start_round(PERUDO, [mine, hand], opener=0), opening, 0)
        for action, p in _table_moves(gate, state):
            script = [opening, action] + ([Dudo()] if isinstance(action, Bid) else [])
            v = _one_round(PERUDO, [mine, hand], script)
            found = gate.round_evidence(v, v.past[-1], (2, 2))
            assert found is not None and found[0] == 1
            weight = math.exp(log_weight) * p
            kept_down += weight if v.past[-1].result.hidden == (1,) else 0.0
            for k, g in enumerate(found[1]):
                means[k] += weight * math.exp(g)
    assert (kept_down > 0.05) == (opening != Bid(2, 2)), kept_down
    assert all(m <= 1.0 + 1e-9 for m in means), means


def _lowest_raise(v: PlayerView) -> PlayerAction | None:
    return next((a for a in v.legal if isinstance(a, Bid)), None)


def test_P21_two_decisions_with_the_challengers_hand_kept_down_mean_at_most_one() -> None:
    """As above, with two decisions of the opponent in a round: the expert opens one 3 on two
    aces, the opponent answers by the table, the expert raises as little as it may (a bid its
    aces prove while the opponent stays at two dice of a face) and doubts a second raise. The
    opponent's hand stays down when its second move is a doubt of a bid the aces prove, so the
    sum over its hands runs over both of its moves at once. (Two chance players, one
    temperature, to keep the walk over every hand and every pair of moves short.)"""
    gate = ExploitGate(ExpertBot(1).abstract, GateSettings(temperatures=(0.05,)))
    mine = (1, 1)
    means = [0.0] * 2
    kept_down = 0.0
    for hand, log_weight in hands_of(2, 6):
        first, _ = apply(start_round(PERUDO, [mine, hand], opener=0), Bid(1, 3), 0)
        for one, p in _table_moves(gate, first):
            second, _ = apply(first, one, 1)
            reply = _lowest_raise(view(second, 0)) if isinstance(one, Bid) else None
            if not isinstance(one, Bid):
                continues: list[tuple[list[PlayerAction], float]] = [([Bid(1, 3), one], p)]
            elif reply is None:  # no bid above it: the expert doubts
                continues = [([Bid(1, 3), one, Dudo()], p)]
            else:
                third, _ = apply(second, reply, 0)
                continues = [
                    (
                        [Bid(1, 3), one, reply, two] + ([Dudo()] if isinstance(two, Bid) else []),
                        p * q,
                    )
                    for two, q in _table_moves(gate, third)
                ]
            for script, chance in continues:
                v = _one_round(PERUDO, [mine, hand], script)
                found = gate.round_evidence(v, v.past[-1], (2, 2))
                assert found is not None
                weight = math.exp(log_weight) * chance
                if v.past[-1].result.hidden == (1,) and len(script) == 4:
                    kept_down += weight
                for k, g in enumerate(found[1]):
                    means[k] += weight * math.exp(g)
    assert kept_down > 0.01
    assert all(m <= 1.0 + 1e-9 for m in means), means


def test_P21_a_hand_kept_down_is_summed_over_with_its_chances() -> None:
    """The evidence of a round whose opponent's hand stayed down, against a sum worked out
    here: over every roll of its dice, its chance times the product over its two moves of
    each player's chance of them (the chance player's mixed with its even share, the table's
    floored at that share), the chance players' sums over the table's."""
    gate = ExploitGate(ExpertBot(1).abstract)
    hands = [(1, 1), (4, 6)]
    script: list[PlayerAction] = [Bid(1, 3), Bid(1, 5), Bid(2, 2), Dudo()]
    v = _one_round(PERUDO, hands, script)
    assert v.past[-1].result.hidden == (1,)
    found = gate.round_evidence(v, v.past[-1], (2, 2))
    assert found is not None
    rolls = [(hand, 1 / 36) for hand in itertools.product(range(1, 7), repeat=2)]
    want = _summed_by_hand(gate, hands[0], script, rolls)  # every roll, each 1/36
    assert found[1] == pytest.approx(want, rel=1e-9, abs=1e-9)
    assert len({round(x, 6) for x in want}) > 1  # the players differ: a real sum, not a tie


def _summed_by_hand(
    gate: ExploitGate,
    mine: tuple[int, ...],
    script: list[PlayerAction],
    rolls: list[tuple[tuple[int, ...], float]],
) -> list[float]:
    """Each chance player's log ratio to the table of a round the expert (seat 0, holding
    ``mine``) opened with ``script``, summed over the opponent's ``rolls`` (hand, chance)
    hand by hand with each player's own :meth:`policy`: the chance player's chance mixed
    with its even share, the table's (as the gate's book reads it) floored at that share."""
    bluff = gate.settings.bluff
    sums = [0.0] * len(gate._players)
    table_sum = 0.0
    for hand, weight in rolls:
        state = start_round(PERUDO, [mine, hand], opener=0)
        chance = [weight] * len(gate._players)
        table = weight
        for k, action in enumerate(script):
            seat = k % 2
            if seat == 1:
                theirs = view(state, 1)
                strat = gate.abstract.find(theirs)
                assert strat is not None
                share = bluff / len(theirs.legal)
                table *= max(strat.policy(theirs).get(action, 0.0), share)
                for j, player in enumerate(gate._players):
                    chance[j] *= (1 - bluff) * player.policy(theirs).get(action, 0.0) + share
            state, _ = apply(state, action, seat)
        sums = [a + b for a, b in zip(sums, chance, strict=True)]
        table_sum += table
    return [math.log(x / table_sum) for x in sums]


def test_P21_a_five_dice_hand_kept_down_is_summed_over_every_roll(tmp_path: Path) -> None:
    """At 5v5 a hidden hand may be any of 252: the round is still read exactly (the sum, here
    worked out hand by hand with the players' own :meth:`policy`, once per sorted hand with
    its chance), where a budget used to read it at its floor. The table is a small 5v5
    solve written here (a few iterations: the sum, not the strategy, is under test)."""
    from perudo.solve.abstract import AbstractCFR, AbstractStrategy
    from perudo.solve.abstract_book import INDEX_FORMAT, AbstractBook
    from perudo.solve.game import RoundGame

    game = RoundGame(PERUDO, (5, 5), max_bids=999)
    cfr = AbstractCFR(game, 1, method="dcfr")
    cfr.iterate(2)
    strat = AbstractStrategy.from_cfr(cfr)
    path = strat.save(tmp_path / "5v5.npz")
    entry = {
        "file": path.name,
        "fingerprint": strat.fingerprint,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "dice": [5, 5],
        "palifico": False,
    }
    (tmp_path / "index.json").write_text(json.dumps({"format": INDEX_FORMAT, "tables": [entry]}))
    gate = ExploitGate(AbstractBook(tmp_path))
    hands = [(1, 1, 3, 3, 3), (2, 4, 4, 5, 6)]
    script: list[PlayerAction] = [Bid(3, 3), Bid(4, 4), Bid(5, 3), Dudo()]
    v = _one_round(PERUDO, hands, script)
    assert v.past[-1].result.hidden == (1,)
    found = gate.round_evidence(v, v.past[-1], (5, 5))
    assert found is not None and found[0] == 1
    rolls = [(hand, math.exp(w)) for hand, w in hands_of(5, 6)]
    want = _summed_by_hand(gate, hands[0], script, rolls)
    assert found[1] == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_a_round_a_table_covers_only_in_part_is_read_at_its_floor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where a table covers some of the opponent's turns and not others (no shipped table
    does: they cover a round all or none), its moves at the others would say something of its
    hand that no model here weighs, so the round weighs at its floor, ``Π bluff / legal``
    over the covered turns: never above the true ratio, and against every chance player
    alike."""
    gate = ExploitGate(ExpertBot(1).abstract)
    script: list[PlayerAction] = [Bid(1, 3), Bid(1, 5), Bid(2, 2), Dudo()]
    v = _one_round(PERUDO, [(1, 1), (4, 6)], script)
    exact = gate.round_evidence(v, v.past[-1], (2, 2))
    find = gate.abstract.find
    monkeypatch.setattr(gate.abstract, "find", lambda w: find(w) if len(w.actions) < 2 else None)
    floored = gate.round_evidence(v, v.past[-1], (2, 2))
    assert exact is not None and floored is not None
    state = start_round(PERUDO, [(1, 1), (6, 6)], opener=0)
    first = len(view(apply(state, Bid(1, 3), 0)[0], 1).legal)
    assert floored[1] == pytest.approx([math.log(GateSettings().bluff / first)] * 6)
    assert all(f <= e for f, e in zip(floored[1], exact[1], strict=True))


def test_the_hands_a_hidden_player_may_hold_and_their_chances() -> None:
    for dice in (1, 2, 3):
        hands = hands_of(dice, 6)
        assert len(hands) == math.comb(dice + 5, 5)
        assert math.isclose(sum(math.exp(w) for _, w in hands), 1.0)
    assert dict(hands_of(2, 6))[(1, 2)] == pytest.approx(math.log(2 / 36))


def test_the_gate_benchmark_counts_the_tables_turns_and_the_games_it_crossed_in() -> None:
    """``benchmarks/gate.py``: the gated ``expert``'s table turns are counted, and against the
    tables' own play (the ungated ``expert``) none is handed to ``strong`` in these games."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "gate.py"
    spec = importlib.util.spec_from_file_location("gate_benchmark", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # dataclasses look their module up
    spec.loader.exec_module(bench)
    seen = bench.tally("perudo.solve.expert:ExpertBot", 4, 5)
    assert seen.games == 4 and 0 <= seen.wins <= 4
    assert seen.table_turns > 0 and seen.strong_turns == 0 and seen.crossed_at == []
    assert "crossed in 0/4 games" in seen.line("x")


def test_where_the_gate_opens_the_response_to_hard_is_played_or_strong_where_none_covers(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    from perudo.solve.abstract_book import AbstractBook

    monkeypatch.setattr(ExploitGate, "exploit", lambda self, v: True)
    state = start_round(PERUDO, [(2, 5), (1, 1)], opener=0)
    v = view(state, 0)
    expert = ExpertBot(3, gate=GateSettings())
    assert expert.responses is not None
    table, response = expert.abstract.find(v), expert.responses.find(v)
    assert table is not None and response is not None
    assert response.info["response"] == {"model": "hard", "share": 0.75}
    assert expert.policy(v) == response.policy(v) != table.policy(v)
    assert expert.solved(v)
    bare = ExpertBot(3, gate=GateSettings(), responses=AbstractBook(tmp_path))
    assert bare.policy(v) == dict(bare.fallback.policy(v))  # type: ignore[attr-defined]
    assert not bare.solved(v)
    assert ExpertBot(3).responses is None  # ungated: the equilibrium only
