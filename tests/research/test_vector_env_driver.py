"""The batch vector environment's own loop against the one driver (:mod:`perudo.sim.driver`).

:class:`~perudo.research.vector_env.BatchVectorEnv` steps its games with numpy, outside the
driver: it deals, lets the other seats play until the agent's turn, and ends the agent's episode
when it wins or is out. Each game it plays (the agent's first episode in each slot: its dice,
every seat's actions, where the agent was asked) is played again through
:func:`perudo.sim.driver.run` on the rules core; the driver must roll where the environment
dealt, ask the seats the environment let act, in the same order, ask the agent exactly where the
environment did, and reach the same dice counts and winner (P-20…P-23, P-30, P-34). The rules
are those the batch supports (no V-9, V-10 or out-of-turn calza: no calza window ever opens).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from perudo.core import (  # noqa: E402
    PRESETS,
    Action,
    Deal,
    GameState,
    PlayerAction,
    RuleSet,
    apply,
    start_game,
)
from perudo.core.encoding import encoding  # noqa: E402
from perudo.research import vector_env  # noqa: E402
from perudo.sim.batch import BIDDING, CHOOSE, BatchGame  # noqa: E402
from perudo.sim.driver import run  # noqa: E402

RULES: dict[str, RuleSet] = {
    "perudo": PRESETS["perudo"],
    "liars_dice": PRESETS["liars_dice"],
    "calza_to_act": dataclasses.replace(PRESETS["perudo"], calza="to_act", dice_per_player=3),
    "palifico_not_two": dataclasses.replace(
        PRESETS["perudo"], palifico="not_two_players", dice_per_player=2
    ),
}
ENVS = 6


def _hands(counts: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """Per-seat face counts as the core's hands."""
    return tuple(tuple(f + 1 for f, k in enumerate(c) for _ in range(k)) for c in counts)


class _Recording(BatchGame):
    """The batch game, noting per slot every deal and every seat's action, in order."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.first_opener: list[int] = []
        self.last_counts: dict[int, list[int]] = {}
        """Each slot's dice counts when its first episode ended."""
        self.moves: list[list[tuple[int | None, Any]]] = [[] for _ in range(len(self.opener))]
        self.closed = np.zeros(len(self.opener), np.bool_)
        """Slots whose first episode has ended (nothing more is noted there)."""

    def deal(self, games: Any = None, *, hands: Any = None) -> None:
        super().deal(games, hands=hands)
        for g in np.asarray(games).tolist():
            if not self.closed[g]:
                self.moves[g].append((None, _hands(self.hands[g].tolist())))

    def step(self, actions: Any, *, check: bool = True) -> None:
        ids = np.asarray(actions)
        acting = (self.phase == BIDDING) | (self.phase == CHOOSE)
        for g in np.flatnonzero(acting & (ids >= 0) & ~self.closed).tolist():
            self.moves[g].append((int(self.to_act[g]), int(ids[g])))
        super().step(actions, check=check)


def _first_episodes(
    rules: RuleSet, n: int, seat: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[_Recording, list[float]]:
    """Play the agent's first episode in every slot with random legal actions: the game that
    noted them, and each slot's reward."""
    monkeypatch.setattr(vector_env, "BatchGame", _Recording)
    env = vector_env.BatchVectorEnv(rules, n, ENVS, seat=seat, seed=3)
    obs, _ = env.reset(seed=3)
    game = env.game
    assert isinstance(game, _Recording)
    game.first_opener = game.opener.tolist()
    rng = np.random.default_rng(4)
    rewards = [0.0] * ENVS
    while not game.closed.all():
        mask = obs["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        obs, reward, terminated, _, _ = env.step(actions)
        for g in np.flatnonzero(terminated & ~game.closed).tolist():
            rewards[g] = float(reward[g])
            game.last_counts[g] = game.counts[g].tolist()
            game.closed[g] = True
    return game, rewards


def _through_the_driver(
    rules: RuleSet, n: int, seat: int, opener: int, moves: list[tuple[int | None, Any]]
) -> GameState:
    """Play one slot's noted game through :func:`perudo.sim.driver.run`, checking at each step
    that the driver asks for what the environment did next; the state where the driver stops
    (the game over, or the agent out)."""
    enc = encoding(rules, n)
    noted = iter(moves)

    def act(state: GameState, who: int) -> PlayerAction:
        by, id_ = next(noted)
        assert by == who, f"the environment let seat {by} act where the driver asks {who}"
        action = enc.id_to_action(id_)
        assert not isinstance(action, Deal)
        return action  # type: ignore[return-value]

    def step(state: GameState, who: int | None, action: Action) -> GameState:
        if who is None:
            by, hands = next(noted)
            assert by is None, f"the environment let seat {by} act where the driver rolls"
            assert [len(h) for h in hands] == list(state.dice_counts)
            action = Deal(hands)
        return apply(state, action, who)[0]

    start = start_game(rules, n, [[rules.faces if s == opener else 1 for s in range(n)]])
    end = run(
        start,
        random.Random(0),
        act,
        None,  # the batch's rules have no out-of-turn calza: no window opens
        step=step,
        until=lambda s: s.is_over or s.dice_counts[seat] == 0,
    )
    assert next(noted, None) is None, "the environment played on where the driver stops"
    return end


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_vector_env_plays_the_games_the_driver_plays(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RULES[name]
    for n, seat in ((2, 1), (3, 0)):
        if not rules.min_players <= n <= rules.max_players:
            continue
        game, rewards = _first_episodes(rules, n, seat, monkeypatch)
        assert sorted(set(rewards)) == [-1.0, 1.0], rewards  # wins and losses both met
        for g in range(ENVS):
            end = _through_the_driver(rules, n, seat, game.first_opener[g], game.moves[g])
            assert list(end.dice_counts) == game.last_counts[g]
            assert rewards[g] == (1.0 if end.winner == seat else -1.0)
