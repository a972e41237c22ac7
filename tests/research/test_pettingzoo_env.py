"""The PettingZoo AEC environment: the API test on every preset, calza windows, rewards, P-70."""

from __future__ import annotations

import dataclasses
import random

import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pettingzoo) is not installed")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from perudo.core import PRESETS, Bid, IllegalActionError, view  # noqa: E402
from perudo.research.observation import ObservationEncoder  # noqa: E402
from perudo.research.pettingzoo_env import env, placement_rewards, raw_env  # noqa: E402


def _players(name: str) -> list[int]:
    rules = PRESETS[name]
    return [n for n in (2, 3, 5) if rules.min_players <= n <= rules.max_players]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_api_test_passes_for_every_preset(name: str) -> None:
    for n in _players(name):
        api_test(env(rules=name, num_players=n), num_cycles=300)


def test_api_test_passes_with_ten_players_and_placement_rewards() -> None:
    api_test(env(rules="perudo_calza", num_players=10, reward="placement"), num_cycles=300)


def test_seed_test_same_seed_same_game() -> None:
    seed_test(lambda: env(rules="perudo_calza", num_players=4), num_cycles=50)


def _play(e: raw_env, rng: random.Random) -> dict[str, float]:
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        returns[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    return returns


@pytest.mark.parametrize("reward", ["win", "placement"])
def test_rewards_at_the_end_one_winner_p23(reward: str) -> None:
    rng = random.Random(5)
    e = raw_env(rules="perudo", num_players=4, reward=reward)  # type: ignore[arg-type]
    for seed in range(5):
        e.reset(seed=seed)
        returns = _play(e, rng)
        assert sorted(returns.values())[-1] == 1.0
        assert list(returns.values()).count(1.0) == 1
        if reward == "win":
            assert sorted(returns.values()) == [-1.0, -1.0, -1.0, 1.0]
        else:
            assert sum(returns.values()) == pytest.approx(0.0)


def test_placement_rewards_share_places_knocked_out_together() -> None:
    assert placement_rewards(4, [(1,), (0, 3)]) == pytest.approx([0.0, -1.0, 1.0, 0.0])
    assert placement_rewards(2, [(0,)]) == [-1.0, 1.0]


def test_mask_is_the_cores_legal_actions_for_the_selected_agent_only() -> None:
    e = raw_env(rules="perudo", num_players=3)
    e.reset(seed=2)
    table = e.table
    assert table is not None
    seat = table.actor
    assert seat is not None
    for s, agent in enumerate(e.possible_agents):
        mask = e.observe(agent)["action_mask"]
        if s == seat:
            ids = np.flatnonzero(mask).tolist()
            assert [table.enc.id_to_action(i) for i in ids] == sorted(
                view(table.state, s).legal, key=table.enc.action_to_id
            )
        else:
            assert not mask.any()


def test_calza_window_asks_each_eligible_seat_in_p53_order() -> None:
    e = raw_env(rules="perudo_calza", num_players=4)
    e.reset(seed=3)
    table = e.table
    assert table is not None
    opener = table.actor
    assert opener is not None
    enc = table.enc
    e.step(enc.action_to_id(Bid(1, 2)))
    # P-50: neither the bidder nor the next seat; P-53: from the bidder's left.
    expected = [(opener + 2) % 4, (opener + 3) % 4]
    asked = []
    for _ in expected:
        agent = e.agent_selection
        seat = e.possible_agents.index(agent)
        asked.append(seat)
        obs = e.observe(agent)
        ids = np.flatnonzero(obs["action_mask"]).tolist()
        assert ids == [enc.calza, e.num_ids - 1]  # calza, or no calza
        enc_obs = ObservationEncoder(e.rules, 4)
        assert enc_obs.piece(obs["observation"], "asked_calza")[0] == 1
        e.step(e.num_ids - 1)  # no calza
    assert asked == expected
    assert e.agent_selection == e.possible_agents[(opener + 1) % 4]


def test_calza_in_a_window_resolves_the_round_p51() -> None:
    e = raw_env(rules="perudo_calza", num_players=3)
    e.reset(seed=4)
    table = e.table
    assert table is not None
    opener = table.actor
    assert opener is not None
    e.step(table.enc.action_to_id(Bid(2, 3)))
    caller = (opener + 2) % 3
    assert e.agent_selection == e.possible_agents[caller]
    hands = table.state.hands
    before = table.state.dice_counts[caller]
    e.step(table.enc.calza)
    result = table.state.past[-1].result
    assert result.kind == "calza" and result.caller == caller
    exact = sum(h.count(3) + h.count(1) for h in hands) == 2
    assert table.state.dice_counts[caller] == (min(before + 1, 5) if exact else before - 1)


def test_raw_env_refuses_an_illegal_action_naming_the_rule_and_changes_nothing() -> None:
    e = raw_env(rules="perudo", num_players=2)
    e.reset(seed=1)
    table = e.table
    assert table is not None
    before = table.state
    with pytest.raises(IllegalActionError, match="P-10"):
        e.step(table.enc.dudo)  # no bid to challenge yet
    with pytest.raises(IllegalActionError, match="P-10"):
        e.step(table.enc.action_to_id(Bid(1, 1)))  # no opening on aces
    with pytest.raises(IllegalActionError):
        e.step(table.enc.calza)
    assert e.table is not None and e.table.state is before


def test_wrapped_env_ends_the_game_on_an_illegal_move() -> None:
    e = env(rules="perudo", num_players=2)
    e.reset(seed=1)
    offender = e.agent_selection
    e.step(e.unwrapped.table.enc.dudo)  # type: ignore[attr-defined]
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1


def test_observation_of_a_seat_ignores_other_seats_hidden_dice_p70() -> None:
    rules = PRESETS["perudo"]
    e = raw_env(rules="perudo", num_players=3)
    e.reset(seed=9)
    table = e.table
    assert table is not None
    obs = e.observe("player_0")["observation"].copy()
    other = list(table.state.hands)
    other[1] = tuple(sorted((d % 6) + 1 for d in other[1]))
    other[2] = (6,) * len(other[2])
    table.state = table.state._replace(hands=tuple(other))
    assert np.array_equal(e.observe("player_0")["observation"], obs)
    assert rules.faces == 6


def test_observation_space_holds_every_observation_over_random_games() -> None:
    rng = random.Random(1)
    rules = dataclasses.replace(PRESETS["perudo_calza"], passing=True, set_aside=True)
    e = raw_env(rules=rules, num_players=4)
    space = e.observation_space("player_0")
    for seed in range(3):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            assert space.contains(obs)
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
