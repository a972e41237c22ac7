"""The batch simulator as a Gymnasium vector environment."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium", reason="the research extra (gymnasium) is not installed")
np = pytest.importorskip("numpy")

from perudo.core import PRESETS  # noqa: E402
from perudo.core.encoding import encoding  # noqa: E402
from perudo.research.vector_env import BatchVectorEnv  # noqa: E402


def _random_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    return np.array(
        [rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in obs["action_mask"]]
    )


@pytest.mark.parametrize(("rules", "players"), [("perudo", 2), ("liars_dice", 4)])
def test_random_agent_plays_episodes_with_masks_and_end_rewards(rules: str, players: int) -> None:
    env = BatchVectorEnv(rules, players, num_envs=16, seed=3)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    was_done = np.zeros(16, bool)
    for _ in range(300):
        assert env.observation_space.contains(obs)
        live = ~was_done
        assert obs["action_mask"][live].any(axis=1).all()  # the agent decides in every game
        obs, reward, term, trunc, info = env.step(_random_actions(obs, rng))
        assert not trunc.any() and not info["illegal"].any()
        assert set(np.unique(reward[term])) <= {-1.0, 1.0}
        assert (reward[~term] == 0).all()
        ended += int(term.sum())
        was_done = term
    assert ended > 20


def test_mask_is_the_cores_legal_actions() -> None:
    env = BatchVectorEnv("perudo", 3, num_envs=8, seed=5)
    obs, _ = env.reset()
    enc = encoding(PRESETS["perudo"], 3)
    for g in range(8):
        ids = np.flatnonzero(obs["action_mask"][g])
        assert len(ids) > 0
        assert all(i < enc.num_bids or i in (enc.dudo, enc.palifico, enc.normal) for i in ids)


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = BatchVectorEnv("perudo", 2, num_envs=4, seed=1)
    obs, _ = env.reset(seed=1)
    counts = env.game.counts.copy()
    actions = _random_actions(obs, np.random.default_rng(1))
    actions[0] = encoding(PRESETS["perudo"], 2).calza  # never legal without calza
    _, reward, term, _, info = env.step(actions)
    assert info["illegal"][0] and term[0] and reward[0] == -1.0
    assert (env.game.counts[0] == counts[0]).all()


def test_threshold_opponents_beat_a_random_agent() -> None:
    env = BatchVectorEnv("perudo", 2, num_envs=64, opponents="threshold", seed=2)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    total, episodes = 0.0, 0
    for _ in range(200):
        obs, reward, term, _, _ = env.step(_random_actions(obs, rng))
        total += float(reward.sum())
        episodes += int(term.sum())
    assert episodes > 50 and total / episodes < -0.2


def test_registered_for_gymnasium_make_vec() -> None:
    env = gym.make_vec("perudo/PerudoBatch-v0", num_envs=4, vectorization_mode=None)
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].shape[0] == 4


def test_unsupported_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="P-50"):
        BatchVectorEnv("perudo_calza", 3)
