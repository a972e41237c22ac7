"""The Gymnasium single-agent environment: check_env, bots by name, rewards, illegal actions."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium", reason="the research extra (gymnasium) is not installed")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from perudo.core import PRESETS, IllegalActionError  # noqa: E402
from perudo.research.gym_env import PerudoEnv  # noqa: E402


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_check_env_passes_for_every_preset(name: str) -> None:
    players = 2 if PRESETS[name].max_players == 2 else 3
    check_env(PerudoEnv(name, num_players=players), skip_render_check=True)


def test_gym_make_by_registered_id() -> None:
    env = gym.make("perudo/Perudo-v0", rules="liars_dice", num_players=3)
    obs, info = env.reset(seed=0)
    assert obs["action_mask"].sum() == len(info["legal_ids"]) > 0


def _episode(env: PerudoEnv, seed: int) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    done, steps, reward = False, 0, 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        obs, reward, done, truncated, _ = env.step(int(rng.choice(legal)))
        assert not truncated
        steps += 1
    return float(reward), steps


@pytest.mark.parametrize("seat", [0, 2])
def test_episodes_end_with_win_or_loss_reward(seat: int) -> None:
    env = PerudoEnv("perudo", num_players=3, seat=seat)
    rewards = {_episode(env, s)[0] for s in range(8)}
    assert rewards <= {1.0, -1.0}


def test_placement_reward_is_decided_when_the_agent_is_out() -> None:
    env = PerudoEnv("perudo_calza", num_players=4, reward="placement")
    values = {_episode(env, s)[0] for s in range(10)}
    allowed = {1.0, 1 / 3, -1 / 3, -1.0, 0.0, 2 / 3, -2 / 3}
    assert all(any(abs(v - a) < 1e-9 for a in allowed) for v in values)


def test_same_seed_same_episode() -> None:
    env = PerudoEnv("perudo_calza", num_players=4)
    assert _episode(env, 7) == _episode(env, 7)


def test_illegal_action_loses_with_the_cores_reason_or_raises() -> None:
    env = PerudoEnv("perudo", num_players=2)
    obs, _ = env.reset(seed=1)
    table = env.table
    assert table is not None
    before = table.state
    _, reward, done, _, info = env.step(table.enc.palifico)
    assert (reward, done) == (-1.0, True)
    assert "P-34" in info["illegal_action"]
    assert table.state is before  # nothing changed in the game
    strict = PerudoEnv("perudo", num_players=2, illegal_action="raise")
    strict.reset(seed=1)
    assert strict.table is not None
    with pytest.raises(IllegalActionError, match="P-34"):
        strict.step(strict.table.enc.palifico)


def test_unknown_bot_name_is_refused_listing_the_known_ones() -> None:
    with pytest.raises(ValueError, match="random"):
        PerudoEnv("perudo", num_players=2, opponents="nobody")


def test_wrong_number_of_opponents_is_refused() -> None:
    with pytest.raises(ValueError, match="need 2 opponents"):
        PerudoEnv("perudo", num_players=3, opponents=["random"])
