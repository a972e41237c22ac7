"""A tabular Q-learner in the Gymnasium environment, improving against the ``random`` bot.

    python examples/gym_learner.py --episodes 6000 --block 1000

The game is ``liars_dice_openspiel`` with one die each (one round): small enough for a table.
The learner sees only its observation (P-70): its die and the standing bid, read from the
observation vector; it picks among the ids its action mask allows. After every block of
training episodes the greedy policy is evaluated on fresh games, and the learning curve (win
rate against ``random``) is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections import defaultdict

import numpy as np

from perudo.core import find_ruleset
from perudo.research.gym_env import PerudoEnv
from perudo.research.observation import ObservationEncoder

Key = tuple[int, int]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--block", type=int, default=1000)
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games per point")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rules = dataclasses.replace(find_ruleset("liars_dice_openspiel"), dice_per_player=1)
    env = PerudoEnv(rules, num_players=2, opponents="random")
    encoder = ObservationEncoder(rules, 2)
    rng = random.Random(args.seed)
    q: defaultdict[Key, np.ndarray] = defaultdict(lambda: np.zeros(env.num_ids))

    def key(obs: dict[str, np.ndarray]) -> Key:
        vec = obs["observation"]
        bid = encoder.piece(vec, "bid")
        return int(encoder.piece(vec, "hand").argmax()), int(bid.argmax()) if bid.any() else -1

    def choose(obs: dict[str, np.ndarray], epsilon: float) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        if rng.random() < epsilon:
            return int(legal[rng.randrange(len(legal))])
        values = q[key(obs)][legal]
        return int(legal[int(values.argmax())])

    def evaluate(games: int, seed: int) -> float:
        wins = 0
        for i in range(games):
            obs, _ = env.reset(seed=seed + i)
            done, reward = False, 0.0
            while not done:
                obs, reward, done, _, _ = env.step(choose(obs, 0.0))
            wins += reward > 0
        return wins / games

    print("episodes  win rate vs random (greedy)")
    curve = [evaluate(args.eval, 10**6)]
    print(f"{0:>8}  {curve[-1]:.3f}")
    alpha = 0.1
    for episode in range(1, args.episodes + 1):
        epsilon = max(0.05, 1.0 - episode / (0.7 * args.episodes))
        obs, _ = env.reset(seed=args.seed * 10**7 + episode)
        done = False
        while not done:
            state, action = key(obs), choose(obs, epsilon)
            obs, reward, done, _, _ = env.step(action)
            target = reward
            if not done:
                legal = np.flatnonzero(obs["action_mask"])
                target = float(q[key(obs)][legal].max())
            q[state][action] += alpha * (target - q[state][action])
        if episode % args.block == 0:
            curve.append(evaluate(args.eval, 10**6))
            print(f"{episode:>8}  {curve[-1]:.3f}")
    print(f"learned: win rate {curve[0]:.3f} -> {curve[-1]:.3f} ({len(q)} states)")


if __name__ == "__main__":
    main()
