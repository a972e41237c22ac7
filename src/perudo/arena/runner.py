"""Running an arena: many seeded games between named bots, on several processes.

Seats: the bots listed fill the table cycling through the list (``strong,prob`` at four
players is ``strong, prob, strong, prob``), and game ``g`` turns that line-up ``g`` seats, so
over a multiple of ``players`` games every bot sits in every seat equally often.

Seeds: game ``g`` draws its dice and its bots' seeds from a generator seeded with
``(seed, g)`` alone, and the figures are computed in game order after all games are in, so
the same seed gives the same results whatever the number of processes (``jobs``) and
wherever they run: on this machine (the ``process`` backend) or on a Ray cluster (``ray``,
:mod:`perudo.sim.workers`). Games go to the workers in chunks of consecutive indices
(:func:`perudo.sim.workers.chunk_size`), the same way on either backend.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from perudo.core import RuleSet, preset_name
from perudo.registry import make_bot, sendable_name
from perudo.sim.match import play_game
from perudo.sim.workers import chunk_size, open_workers

from .stats import BotFigures, GameOutcome, tally

__all__ = ["ARENA_FORMAT", "ArenaResult", "game_rng", "lineup_for", "play_arena_game", "run_arena"]

ARENA_FORMAT: Final = "perudo-arena"


def lineup_for(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bots listed, cycled to fill ``players`` seats.

    >>> lineup_for(["strong", "prob", "prob", "random"], 6)
    ('strong', 'prob', 'prob', 'random', 'strong', 'prob')
    """
    if not bots:
        raise ValueError("list at least one bot")
    return tuple(bots[i % len(bots)] for i in range(players))


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game ``index``: depends on ``(seed, index)`` only (string seeds hash
    with SHA-512, the same in every process)."""
    return random.Random(f"perudo-arena:{seed}:{index}")


def play_arena_game(
    rules: RuleSet,
    lineup: Sequence[str],
    seed: int,
    index: int,
    makers: Sequence[str] | None = None,
) -> GameOutcome:
    """Play game ``index``: the line-up turned ``index`` seats, dice and bot seeds from
    :func:`game_rng`. ``makers``: the names the bots are made from, seat for seat of the
    line-up, where they differ from the names reported (a worker process makes a bot
    registered in the caller from its ``module:Name``, :func:`perudo.registry.sendable_name`)."""
    n = len(lineup)
    seats = tuple(lineup[(s + index) % n] for s in range(n))
    made = seats if makers is None else tuple(makers[(s + index) % n] for s in range(n))
    rng = game_rng(seed, index)
    try:
        bots = [make_bot(name, rng.getrandbits(62)) for name in made]
        result = play_game(rules, bots, rng)
    except Exception as err:
        # Which game to replay (it depends on the seed and index alone), on every backend:
        # the note travels with the exception from a worker process or a Ray worker.
        err.add_note(f"in arena game {index} of seed {seed} (seats: {', '.join(seats)})")
        raise
    return GameOutcome(index, seats, result.places, result.rounds)


def _play_chunk(
    args: tuple[dict[str, Any], tuple[str, ...], tuple[str, ...], int, list[int]],
) -> list[GameOutcome]:
    rules_data, lineup, makers, seed, indices = args
    rules = RuleSet.from_dict(rules_data)
    return [play_arena_game(rules, lineup, seed, i, makers) for i in indices]


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """An arena's games and figures."""

    rules: RuleSet
    players: int
    bots: tuple[str, ...]
    lineup: tuple[str, ...]
    games: int
    seed: int
    figures: tuple[BotFigures, ...]
    outcomes: tuple[GameOutcome, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; the same for the same arguments whatever ``jobs`` was."""
        return {
            "format": ARENA_FORMAT,
            "version": 1,
            "preset": preset_name(self.rules),
            "rules": self.rules.to_dict(),
            "players": self.players,
            "bots": list(self.bots),
            "lineup": list(self.lineup),
            "games": self.games,
            "seed": self.seed,
            "results": [f.to_json() for f in self.figures],
            "mean_rounds": (
                sum(o.rounds for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0
            ),
            "game_results": [
                {"game": o.index, "seats": list(o.seats), "places": list(o.places)}
                for o in self.outcomes
            ],
        }


def run_arena(
    rules: RuleSet,
    players: int,
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "process",
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games and compute the figures (see the module docstring).

    ``jobs``: worker processes (default: every core; 1 plays in this process), or with
    ``backend="ray"`` tasks at once on the cluster (default: every CPU of the cluster).
    ``ray_address``: the Ray cluster (default: ``RAY_ADDRESS``, else a Ray started here for
    the run). ``progress`` is called with the number of games just finished.

    :raises ValueError: on an unknown bot or backend, a bad player count or a non-positive
        game count, before any game is played; and whatever a bot raised in a game, as the
        bot raised it, whichever the backend.
    """
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"{players} players: these rules take {rules.min_players}–{rules.max_players} (P-1)"
        )
    for name in bots:
        make_bot(name, 0)  # an unknown name fails here, with the known names listed
    lineup = lineup_for(list(bots), players)
    if jobs is not None and jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    outcomes: list[GameOutcome] = []
    if backend == "process" and ray_address is None and (jobs == 1 or games == 1):
        for i in range(games):
            outcomes.append(play_arena_game(rules, lineup, seed, i))
            if progress is not None:
                progress(1)
    else:
        # A fresh worker knows the built-in bots only: one registered here goes by its
        # factory's module:Name (refused now, in words, when it has none).
        makers = tuple(sendable_name(name) for name in lineup)
        with open_workers(backend, jobs=jobs, address=ray_address) as workers:
            size = chunk_size(games, workers.size)
            chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
            tasks = [(rules.to_dict(), lineup, makers, seed, c) for c in chunks]
            for _, done in workers.run(_play_chunk, tasks):
                outcomes.extend(done)
                if progress is not None:
                    progress(len(done))
    outcomes.sort(key=lambda o: o.index)
    return ArenaResult(
        rules=rules,
        players=players,
        bots=tuple(bots),
        lineup=lineup,
        games=games,
        seed=seed,
        figures=tuple(tally(lineup, outcomes)),
        outcomes=tuple(outcomes),
    )
