"""``perudo/PerudoBatch-v0`` is a vector environment: ``gym.make_vec`` makes it, and
``gym.make`` says so in words (it failed with Gymnasium's "no entry_point")."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")

import perudo.research.vector_env  # noqa: E402, F401  (registers perudo/PerudoBatch-v0)
from perudo.research.vector_env import BatchVectorEnv  # noqa: E402


def test_make_vec_makes_the_batch():
    env = gym.make_vec("perudo/PerudoBatch-v0", num_envs=3, rules="perudo", num_players=2)
    assert isinstance(env.unwrapped, BatchVectorEnv) and env.num_envs == 3
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].shape[0] == 3


def test_make_says_to_use_make_vec_or_the_one_game_environment():
    with pytest.raises(gym.error.Error) as err:
        gym.make("perudo/PerudoBatch-v0")
    message = str(err.value)
    assert "gym.make_vec('perudo/PerudoBatch-v0', num_envs=N" in message
    assert "gym.make('perudo/Perudo-v0'" in message
