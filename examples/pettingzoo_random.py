"""Random agents in the PettingZoo AEC environment.

    python examples/pettingzoo_random.py --rules perudo_calza --players 4 --games 20

Every agent picks uniformly among the ids its ``action_mask`` allows (calza windows included:
a seat asked about calza picks calza or no calza); the script prints the winners.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import numpy as np

from perudo.research.pettingzoo_env import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="perudo_calza")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    table = env(rules=args.rules, num_players=args.players)
    wins: Counter[str] = Counter()
    decisions = 0
    for game in range(args.games):
        table.reset(seed=args.seed + game)
        for agent in table.agent_iter():
            obs, reward, termination, truncation, _ = table.last()
            if termination or truncation:
                if reward > 0:
                    wins[agent] += 1
                table.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            table.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
    print(f"{args.games} games of {args.rules} with {args.players} random agents")
    print(f"{decisions} decisions ({decisions / args.games:.1f} per game)")
    for agent in sorted(wins):
        print(f"{agent}: {wins[agent]} wins")


if __name__ == "__main__":
    main()
