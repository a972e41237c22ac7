"""A Gymnasium single-agent environment: the agent holds one seat against bots.

>>> from perudo.research.gym_env import PerudoEnv
>>> env = PerudoEnv("perudo", num_players=3, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> sorted(obs), obs["action_mask"].sum() == len(info["legal_ids"])
(['action_mask', 'observation'], np.True_)

* **Opponents** are :mod:`perudo.bots` by name (:func:`perudo.bots.make_bot`: ``random``, and
  whatever else is registered), one name for all or one per opponent seat, seeded from
  ``reset(seed=…)``. They see only their views (P-70) and answer calza windows with
  ``call_calza`` (P-53 order).
* **The agent** acts whenever its seat decides: its turns, the P-34 choice, and its calza
  windows (calza or *no calza*, see :mod:`perudo.research.table`).
* **Observation**: the same dict as the PettingZoo environment, ``{"observation",
  "action_mask"}``; ``info`` also carries ``action_mask`` and ``legal_ids``.
* **Reward**: 0 until the episode ends; then ``reward="win"`` gives +1 for winning and −1 once
  the agent is out (the episode ends there), and ``reward="placement"`` gives
  ``1 − 2 (place − 1) / (n − 1)``.
* **An illegal action** changes nothing in the game. With ``illegal_action="lose"`` (default,
  the usual RL convention and what ``check_env``'s random actions need) the episode ends with
  reward −1 and ``info["illegal_action"]`` holds the core's reason, naming the rule; with
  ``illegal_action="raise"`` it raises :class:`~perudo.core.IllegalActionError` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from perudo.bots import Bot
from perudo.core import Calza, IllegalActionError, RoundResolved, RuleSet, find_ruleset
from perudo.registry import make_bot

from .observation import ObservationEncoder
from .pettingzoo_env import placement_rewards
from .table import Table, num_ids

__all__ = ["PerudoEnv"]

ObsDict = dict[str, npt.NDArray[Any]]


class PerudoEnv(gym.Env[ObsDict, int]):
    """One seat of Perudo against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        rules: str | RuleSet = "perudo",
        num_players: int = 2,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        reward: Literal["win", "placement"] = "win",
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        self.rules = find_ruleset(rules) if isinstance(rules, str) else rules
        self.num_players = num_players
        self._obs = ObservationEncoder(self.rules, num_players)  # checks the player count
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0…{num_players - 1}, not {seat!r}")
        names = [opponents] * (num_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != num_players - 1:
            raise ValueError(
                f"{num_players} players need {num_players - 1} opponents, got {len(names)}"
            )
        for name in names:
            make_bot(name, 0)  # unknown names fail here, listing the known ones
        if reward not in ("win", "placement"):
            raise ValueError(f"reward must be 'win' or 'placement', not {reward!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.opponent_names = names
        self.seat = seat
        self.reward_mode = reward
        self.num_ids = num_ids(self.rules, num_players)
        self.action_space = spaces.Discrete(self.num_ids)  # type: ignore[assignment]
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(
                    self._obs.low, self._obs.high, (self._obs.size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.num_ids,), np.int8),
            }
        )
        self._rng = random.Random()
        self._bots: dict[int, Bot] = {}
        self._illegal: str | None = None
        self.table: Table | None = None
        self._out_order: list[tuple[int, ...]] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        others = [s for s in range(self.num_players) if s != self.seat]
        self._bots = {
            s: make_bot(name, self._rng.randrange(2**32))
            for s, name in zip(others, self.opponent_names, strict=True)
        }
        self.table = Table.new(self.rules, self.num_players, self._rng)
        self._out_order = []
        self._illegal = None
        self._play_others()
        return self._observe(), self._info()

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before step()")
        return self.table

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        table = self._table()
        if self._done():
            raise IllegalActionError("the episode is over: call reset()")
        try:
            action_id = int(action)
            if not 0 <= action_id < self.num_ids:
                raise IllegalActionError(f"action id {action!r} is not in 0…{self.num_ids - 1}")
            self._note(table.play(self.seat, action_id))
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            self._illegal = str(err)
            info = self._info()
            info["illegal_action"] = self._illegal
            return self._observe(), -1.0, True, False, info
        self._note(table.settle_chance(self._rng))
        self._play_others()
        reward = 0.0
        done = self._done()
        if done:
            reward = self._reward()
        return self._observe(), reward, done, False, self._info()

    def _done(self) -> bool:
        table = self._table()
        return self._illegal is not None or table.is_over or table.state.dice_counts[self.seat] == 0

    def _reward(self) -> float:
        table = self._table()
        if self.reward_mode == "win":
            return 1.0 if table.state.winner == self.seat else -1.0
        # The agent's place depends only on the seats out before it (and with it), so it is
        # decided the moment it is out, even while the others play on.
        return placement_rewards(self.num_players, self._out_order)[self.seat]

    def _play_others(self) -> None:
        """Let the bots and chance act until the agent decides or its episode ends."""
        table = self._table()
        while not self._done():
            if table.needs_chance:
                self._note(table.roll(self._rng))
                continue
            actor = table.actor
            if actor is None or actor == self.seat:
                return
            bot = self._bots[actor]
            view = table.view(actor)
            if table.asking:
                call = Calza() in view.legal and bot.call_calza(view)
                assert table.no_calza is not None
                action_id = table.enc.calza if call else table.no_calza
            else:
                action_id = table.enc.action_to_id(bot.act(view))
            self._note(table.play(actor, action_id))

    def _note(self, events: Any) -> None:
        for event in events:
            if isinstance(event, RoundResolved) and event.eliminated:
                self._out_order.append(event.eliminated)

    def _observe(self) -> ObsDict:
        table = self._table()
        asked = bool(table.asking) and table.actor == self.seat
        obs = self._obs.encode(table.view(self.seat), asked_calza=asked)
        return {"observation": obs, "action_mask": self._mask()}

    def _mask(self) -> npt.NDArray[np.int8]:
        table = self._table()
        mask = np.zeros(self.num_ids, dtype=np.int8)
        if not self._done() and table.actor == self.seat:
            mask[table.legal_ids(self.seat)] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        table = self._table()
        legal = table.legal_ids(self.seat) if not self._done() else []
        return {
            "action_mask": self._mask(),
            "legal_ids": legal,
            "legal": [table.action_name(i) for i in legal],
            "winner": table.state.winner,
        }

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        v = self._table().view(self.seat)
        lines = [
            f"round {v.round}{' (palifico)' if v.palifico else ''}  your dice "
            f"{''.join(map(str, v.hand))}  dice {list(v.dice_counts)}",
        ]
        if v.actions:
            lines.append("  " + ", ".join(f"seat {s} {a}" for s, a in v.actions))
        return "\n".join(lines)


if "perudo/Perudo-v0" not in gym.registry:
    gym.register(id="perudo/Perudo-v0", entry_point="perudo.research.gym_env:PerudoEnv")
