"""Self-play of single rounds through the core: the samples ``perudo train`` learns from.

A round is drawn from a :class:`TableDistribution` (a rule set among the presets, 2–10 seats,
each seat's dice count, an opener, sometimes a palifico round when the opener holds one die,
P-30), dealt with the injected generator and played through :func:`perudo.core.apply` with
every seat's view (P-70) encoded by :func:`perudo.bots.learned_bot.encode`. Every seat plays
the current network's regret-matching policy, mixed with ``explore`` uniform over its
candidates. A V-9 re-roll is chance (:func:`perudo.core.chance_action`); out-of-turn calza
(P-50) is not offered during training (the bot calls it by ``balanced``'s rule in play).

The round's outcome for a seat is its dice gained less the mean of the other seats' (a lost die
is −1, the others share +1). Each decision yields two samples with that outcome as target: the
chosen candidate's row (its action value) and the state's row (the state value, regret
matching's baseline).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from perudo.bots.learned_bot import LearnedBot, Network, encode, regret_matching
from perudo.bots.prob_bot import sample_index
from perudo.core import (
    LIARS_DICE_OPENSPIEL,
    PRESETS,
    GameState,
    PlayerAction,
    RuleSet,
    start_round,
    view,
)
from perudo.sim.driver import play_out_round
from perudo.solve.shipped import joker_rules

__all__ = [
    "JOKER",
    "RoundSamples",
    "TableDistribution",
    "deal_round",
    "play_out_round",
    "play_round",
]

JOKER = joker_rules(LIARS_DICE_OPENSPIEL.dice_per_player)
"""The single-round game of thomasahle/liars-dice (dudo.ai): 1s wild, bids by quantity then
face (issue 17's joker game)."""


@dataclass(frozen=True)
class TableDistribution:
    """Which rounds self-play draws."""

    rule_sets: tuple[RuleSet, ...] = (*PRESETS.values(), JOKER)
    seats: tuple[int, ...] = (2, 2, 2, 3, 4, 5, 6, 8, 10)
    """Seat counts, drawn uniformly from this list (heads-up more often)."""
    max_dice: int = 5
    palifico_share: float = 0.3
    """Chance of a palifico round when the opener holds one die and the rules allow it."""


@dataclass
class RoundSamples:
    """Rows (features), targets (outcomes) and how the round went."""

    rows: list[np.ndarray]
    targets: list[float]
    decisions: int


def deal_round(
    dist: TableDistribution, rng: random.Random
) -> tuple[RuleSet, list[list[int]], int, bool]:
    """A random round: ``(rules, hands, opener, palifico)``."""
    rules = rng.choice(dist.rule_sets)
    n = max(rules.min_players, min(rules.max_players, rng.choice(dist.seats)))
    top = min(dist.max_dice, rules.dice_per_player)
    hands = [[rng.randint(1, rules.faces) for _ in range(rng.randint(1, top))] for _ in range(n)]
    opener = rng.randrange(n)
    palifico = (
        rules.palifico != "off" and len(hands[opener]) == 1 and rng.random() < dist.palifico_share
    )
    return rules, hands, opener, palifico


def play_round(
    network: Network,
    rng: random.Random,
    dist: TableDistribution,
    *,
    explore: float = 0.1,
) -> RoundSamples:
    """One self-play round with every seat on ``network``; its samples."""
    rules, hands, opener, palifico = deal_round(dist, rng)
    state = start_round(rules, hands, opener=opener, palifico=palifico)
    encoder = LearnedBot(0, network=network)
    before = state.dice_counts
    seen: list[tuple[int, np.ndarray, np.ndarray]] = []

    def act(state: GameState, seat: int) -> PlayerAction:
        candidates, x = encode(encoder, view(state, seat))
        if len(candidates) == 1:
            choice = 0
        else:
            out = network(x)
            probs = regret_matching(out[:-1], float(out[-1]))
            probs = (1.0 - explore) * probs + explore / len(candidates)
            choice = sample_index(probs, rng.random())
        seen.append((seat, x[choice], x[-1]))
        return candidates[choice]

    state = play_out_round(state, rng, act)
    after = state.dice_counts
    gained = [a - b for a, b in zip(after, before, strict=True)]
    n = len(gained)
    total = sum(gained)
    outcome = [g - (total - g) / (n - 1) for g in gained]
    rows: list[np.ndarray] = []
    targets: list[float] = []
    for seat, chosen, own in seen:
        rows += [chosen, own]
        targets += [outcome[seat], outcome[seat]]
    return RoundSamples(rows, targets, len(seen))
