"""What ``perudo train`` measures at each checkpoint.

* **Exact exploitability** of the network's policy in heads-up rounds of one die each, in the
  joker game and in Perudo (:func:`perudo.solve.exploit.exploit`: the policy tabulated over
  every view it can meet and best-responded to exactly; the gain over the equilibrium value,
  per seat: opener / responder).
* **Win rate against fixed references** (``medium`` and ``hard``) in heads-up Perudo rounds
  with random dice counts (1–5 each), seats alternated, with its 95% Wilson interval.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from perudo.arena.stats import wilson
from perudo.bots import Bot
from perudo.bots.learned_bot import LearnedBot, Network
from perudo.core import PERUDO, GameState, PlayerAction, RuleSet, start_round, view
from perudo.solve import RoundGame, Solution, solve_round
from perudo.solve.exploit import exploit
from perudo.solve.shipped import joker_rules

from .selfplay import play_out_round

__all__ = ["Duel", "Exploitability", "duel", "exploitability", "solved_rounds"]


@dataclass(frozen=True)
class Duel:
    wins: int
    rounds: int

    @property
    def rate(self) -> float:
        return self.wins / self.rounds if self.rounds else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.rounds)


def _seated(bots: list[Bot]) -> Callable[[GameState, int], PlayerAction]:
    """Each seat's decision by its bot, from that seat's view (P-70)."""
    return lambda state, seat: bots[seat].act(view(state, seat))


def duel(
    bot: Bot,
    other: Bot,
    rounds: int,
    seed: int,
    *,
    rules: RuleSet = PERUDO,
    max_dice: int = 5,
) -> Duel:
    """Heads-up rounds of ``rules`` between ``bot`` and ``other``: random dice counts, the
    opener alternating; how many rounds ``bot`` did not lose a die in."""
    rng = random.Random(seed)
    wins = 0
    for r in range(rounds):
        counts = [rng.randint(1, max_dice), rng.randint(1, max_dice)]
        hands = [[rng.randint(1, rules.faces) for _ in range(c)] for c in counts]
        me = r % 2
        seats = [bot, other] if me == 0 else [other, bot]
        state = start_round(rules, hands, opener=rng.randrange(2))
        before = state.dice_counts
        state = play_out_round(state, rng, _seated(seats))
        if state.dice_counts[me] >= before[me]:
            wins += 1
    return Duel(wins, rounds)


@dataclass(frozen=True)
class Exploitability:
    game: str
    opener: float
    responder: float


def solved_rounds() -> dict[str, Solution]:
    """The equilibria of the one-die-each rounds the curves measure (an LP: seconds)."""
    games = {"joker": joker_rules(1), "perudo": PERUDO}
    return {
        name: solve_round(RoundGame(rules, (1, 1)), target=1e-9) for name, rules in games.items()
    }


def exploitability(
    policy: Callable[..., object], solutions: dict[str, Solution]
) -> list[Exploitability]:
    """The exact gain of a best response against ``policy`` in each seat of each round."""
    out = []
    for name, sol in solutions.items():
        gains = [
            exploit(sol.game, policy, seat, game_value=sol.value).gain  # type: ignore[arg-type]
            for seat in (0, 1)
        ]
        out.append(Exploitability(name, gains[0], gains[1]))
    return out


def learned(network: Network, seed: int = 0) -> LearnedBot:
    return LearnedBot(seed, network=network)
