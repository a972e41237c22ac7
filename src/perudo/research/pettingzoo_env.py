"""A PettingZoo AEC environment for every rule set and 2–10 players.

>>> from perudo.research.pettingzoo_env import env
>>> e = env(rules="perudo", num_players=3)
>>> e.reset(seed=1)
>>> sorted(e.observe(e.agent_selection))
['action_mask', 'observation']

* **Agents** ``player_0 … player_{n-1}``: agent ``player_s`` plays seat ``s``.
* **Actions**: ``Discrete(A)``, the dense ids of :mod:`perudo.core.encoding`, plus, when calza
  is played out of turn (``calza="on"``), one more id: *no calza* (``A − 1``).
* **Out-of-turn calza** (P-50, P-53) is modelled by calza windows (see
  :mod:`perudo.research.table`): after every bid (and V-9 re-roll) each seat that may call calza
  is selected in turn, left of the bidder first, and chooses calza or no calza; the first calza
  ends the round; when all decline the seat to act plays.
* **Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector
  is :class:`~perudo.research.observation.ObservationEncoder`'s encoding of the agent's
  :func:`perudo.core.view` (P-70: nothing hidden leaks), the mask is all zero except for the
  selected agent.
* **Rewards** at the end of the game, for every agent at once: ``reward="win"`` (default) gives
  +1 to the winner and −1 to every other seat; ``reward="placement"`` gives
  ``1 − 2 (place − 1) / (n − 1)`` (winner +1, first out −1; seats out in the same round share
  their places). Seats that are out stay in ``agents`` but are never selected until the end.
* **Chance** (the P-2 roll-off, deals, V-9 re-rolls) is rolled inside the environment with a
  :class:`random.Random` seeded by ``reset(seed=…)``.
* An illegal action raises :class:`~perudo.core.IllegalActionError` naming the rule from the raw
  environment (and changes nothing); :func:`env` wraps it with PettingZoo's standard wrappers,
  where an illegal move ends the game with −1 for the offender.
"""

from __future__ import annotations

import random
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from perudo.core import IllegalActionError, RoundResolved, RuleSet, find_ruleset

from .observation import ObservationEncoder
from .table import Table, num_ids

__all__ = ["Reward", "env", "placement_rewards", "raw_env"]

Reward = Literal["win", "placement"]
ObsDict = dict[str, npt.NDArray[Any]]

_NAME: Final = "perudo_v0"


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's standard wrappers (illegal move ends the game with
    −1 for the offender; action bounds asserted; call order enforced)."""
    wrapped: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def placement_rewards(num_players: int, out_order: list[tuple[int, ...]]) -> list[float]:
    """Placement rewards from the seats knocked out, round by round (first out first).

    The winner is the one seat never knocked out. Place 1 earns +1, place ``n`` earns −1,
    linearly between; seats out in the same round share the mean of their places.

    >>> placement_rewards(3, [(2,), (0,)])
    [0.0, 1.0, -1.0]
    >>> placement_rewards(3, [(0, 2)])
    [-0.5, 1.0, -0.5]
    """
    n = num_players
    reward = [0.0] * n
    place = n  # the worst place still free
    out = set()
    for group in out_order:
        places = range(place - len(group) + 1, place + 1)
        mean = sum(1 - 2 * (p - 1) / (n - 1) for p in places) / len(group)
        for seat in group:
            reward[seat] = mean
            out.add(seat)
        place -= len(group)
    for seat in range(n):
        if seat not in out:
            reward[seat] = 1.0
    return reward


class raw_env(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """Perudo as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["human", "ansi"],
        "name": _NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet = "perudo",
        num_players: int = 2,
        *,
        reward: Reward = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = find_ruleset(rules) if isinstance(rules, str) else rules
        if reward not in ("win", "placement"):
            raise ValueError(f"reward must be 'win' or 'placement', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of human, ansi, not {render_mode!r}")
        self.reward_mode: Reward = reward
        self.render_mode = render_mode
        self.num_players = num_players
        self._obs = ObservationEncoder(self.rules, num_players)  # checks the player count
        self.num_ids = num_ids(self.rules, num_players)
        self.possible_agents = [f"player_{s}" for s in range(num_players)]
        self.agents = list(self.possible_agents)
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.num_ids) for a in self.possible_agents}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self._obs.low, self._obs.high, (self._obs.size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.num_ids,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self._rng = random.Random()
        self.table: Table | None = None
        self._out_order: list[tuple[int, ...]] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.table = Table.new(self.rules, self.num_players, self._rng)
        self._out_order = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _select(self) -> None:
        actor = self._table().actor
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]

    def observe(self, agent: str) -> ObsDict:
        table = self._table()
        seat = self._seats[agent]
        obs = self._obs.encode(
            table.view(seat), asked_calza=bool(table.asking) and table.actor == seat
        )
        mask = np.zeros(self.num_ids, dtype=np.int8)
        if not table.is_over and agent == self.agent_selection:
            mask[table.legal_ids(seat)] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        seat = self._seats[agent]
        if action is None:
            raise IllegalActionError(f"{agent} must act now: an action id, not None")
        action_id = int(action)
        if not 0 <= action_id < self.num_ids:
            raise IllegalActionError(f"action id {action!r} is not in 0…{self.num_ids - 1}")
        events = table.play(seat, action_id)
        self._note(events)
        self._note(table.settle_chance(self._rng))
        self._cumulative_rewards[agent] = 0.0
        if table.is_over:
            self._finish()
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _note(self, events: Any) -> None:
        for event in events:
            if isinstance(event, RoundResolved) and event.eliminated:
                self._out_order.append(event.eliminated)

    def _finish(self) -> None:
        table = self._table()
        n = self.num_players
        if self.reward_mode == "placement":
            values = placement_rewards(n, self._out_order)
        else:
            values = [1.0 if s == table.state.winner else -1.0 for s in range(n)]
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = values[seat]
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._describe()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _describe(self) -> str:
        """The public table (the spectators' view, P-70): no hidden dice."""
        table = self._table()
        v = table.view(None)
        dice = " ".join(
            f"{a}:{c}" for a, c in zip(self.possible_agents, v.dice_counts, strict=True)
        )
        lines = [f"round {v.round}{' (palifico)' if v.palifico else ''}  dice {dice}"]
        if v.actions:
            lines.append("  " + ", ".join(f"player_{s} {a}" for s, a in v.actions))
        if v.winner is not None:
            lines.append(f"  winner player_{v.winner}")
        elif table.actor is not None:
            asked = " (calza?)" if table.asking else ""
            lines.append(f"  to act: player_{table.actor}{asked}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
