"""How the exploitation gate reads an opponent: heads-up games of the gated ``expert`` against one
bot, counting the games in which its evidence crossed the threshold.

Run (nicely, on a shared machine)::

    nice -n 5 .venv/bin/python benchmarks/gate.py perudo.solve.expert:ExpertBot hard \
        --games 200 --seed 5

Each opponent (a bot name, or ``module:Name``: ``perudo.solve.expert:ExpertBot`` is the
ungated ``expert``, which plays the tables always: the equilibrium player of the bound) plays
``--games`` heads-up games of Perudo against ``expert`` (the level, behind its gate,
:mod:`perudo.solve.gate`); game ``g`` seats ``expert`` at seat ``g mod 2``, and every game's
dice and seeds come from one generator seeded with ``--seed``. For each opponent it prints
``expert``'s wins, the games in which the gate handed a round to ``strong`` (the evidence
crossed the threshold), the mean round at which that first happened, and ``expert``'s turns
in rounds a table covers, with how many of them ``strong`` played. By the gate's bound an
equilibrium player is read as a chance player in at most ``e^(−threshold)`` of games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from perudo.bots.base import Bot
from perudo.core import GameState, Phase, PlayerAction, PlayerView, find_ruleset
from perudo.registry import make_bot
from perudo.sim.match import play_game
from perudo.solve.expert import ExpertBot


@dataclass
class GateTally:
    """What the gate did over one opponent's games."""

    games: int = 0
    wins: int = 0
    crossed_at: list[int] = field(default_factory=list)
    """Per game the gate crossed in: the round of its first ``strong`` turn."""
    table_turns: int = 0
    strong_turns: int = 0

    def line(self, name: str) -> str:
        at = f"{statistics.mean(self.crossed_at):.1f}" if self.crossed_at else "-"
        return (
            f"{name}: expert won {self.wins}/{self.games}; the gate crossed in "
            f"{len(self.crossed_at)}/{self.games} games (first at round {at} on average); "
            f"{self.strong_turns} of {self.table_turns} table turns were strong's"
        )


def tally(opponent: str, games: int, seed: int) -> GateTally:
    """``games`` heads-up Perudo games of the gated ``expert`` against ``opponent``."""
    rng = random.Random(seed)
    out = GateTally()
    for g in range(games):
        _game(opponent, g % 2, rng, out)
    return out


def _game(opponent: str, me: int, rng: random.Random, out: GateTally) -> None:
    """One game, ``expert`` in seat ``me``, added to ``out``."""
    expert = make_bot("expert", rng.getrandbits(62))
    assert isinstance(expert, ExpertBot) and expert.gate is not None
    gate = expert.gate
    first: list[int] = []

    def ask(state: GameState, seat: int, bot: Bot, v: PlayerView) -> PlayerAction:
        if (
            seat == me
            and v.phase is Phase.BIDDING
            and expert.book.find(v) is None
            and expert.abstract.find(v) is not None
        ):
            out.table_turns += 1
            if gate.exploit(v):
                out.strong_turns += 1
                if not first:
                    first.append(v.round)
        return bot.act(v)

    bots: list[Bot] = [expert, expert]
    bots[1 - me] = make_bot(opponent, rng.getrandbits(62))
    result = play_game(find_ruleset("perudo"), bots, rng, ask=ask)
    out.games += 1
    out.wins += result.winner == me
    out.crossed_at.extend(first)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("opponents", nargs="+", help="bot names or module:Name specs")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    for name in args.opponents:
        start = time.perf_counter()
        line = tally(name, args.games, args.seed).line(name)
        print(f"{line} [{time.perf_counter() - start:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
