"""The batch simulator as a Gymnasium vector environment: :class:`BatchVectorEnv`.

``num_envs`` games in one :class:`~perudo.sim.batch.BatchGame`; the agent holds seat ``seat``
in every game, the other seats play a batch policy (``random``: the reference random policy;
``threshold``: :meth:`~perudo.sim.batch.BatchGame.threshold_actions`). Rule sets are those the
batch simulator plays (no V-9, V-10 or out-of-turn calza).

* **Actions**: ``Discrete(A)`` per game, the dense ids of :mod:`perudo.core.encoding`.
* **Observations** per game: ``{"observation": float32 vector, "action_mask": int8 (A,)}``;
  the vector is, seats relative to the agent (0 = the agent):

  ===============  ==========  =====================================================
  piece            size        content
  ===============  ==========  =====================================================
  ``hand``         F           the agent's dice as face counts
  ``dice_counts``  n           dice per seat
  ``choose``       1           1 when the agent makes the P-34 choice
  ``palifico``     1           1 in a palifico round (P-30)
  ``bid``          B           one-hot: the standing bid's id
  ``bidder``       n           one-hot: who made it
  ``bids``         B × n       this round's bids: ``[id, seat]`` = 1
  ===============  ==========  =====================================================

* **Rewards**: +1 when the agent wins, −1 when it is out (its episode ends there); an illegal
  action ends the episode with −1 (``info["illegal"]``) and changes nothing in the game.
* **Autoreset**: Gymnasium's ``NEXT_STEP`` mode: the step after an episode ends resets that game
  (its action is ignored) and returns the first observation of the new game.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from perudo.core import RuleSet, find_ruleset
from perudo.sim.batch import BIDDING, CHOOSE, DEAL, OVER, BatchGame, BatchTables

__all__ = ["BatchVectorEnv"]

ObsDict = dict[str, npt.NDArray[Any]]


class BatchVectorEnv(VectorEnv[ObsDict, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games against a batch policy, stepped together (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        rules: str | RuleSet = "perudo",
        num_players: int = 2,
        num_envs: int = 16,
        *,
        seat: int = 0,
        opponents: Literal["random", "threshold"] = "random",
        seed: int | None = None,
    ) -> None:
        self.rules = find_ruleset(rules) if isinstance(rules, str) else rules
        self.tables = BatchTables(self.rules, num_players)  # refuses unsupported rules
        if not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0…{num_players - 1}, not {seat!r}")
        if opponents not in ("random", "threshold"):
            raise ValueError(f"opponents must be 'random' or 'threshold', not {opponents!r}")
        self.num_envs = num_envs
        self.num_players = num_players
        self.seat = seat
        self.opponents = opponents
        enc = self.tables.enc
        self.enc = enc
        faces, n, nb = self.rules.faces, num_players, enc.num_bids
        self._layout = {
            "hand": (faces,),
            "dice_counts": (n,),
            "choose": (1,),
            "palifico": (1,),
            "bid": (nb,),
            "bidder": (n,),
            "bids": (nb, n),
        }
        size = sum(int(np.prod(s)) for s in self._layout.values())
        high = float(max(enc.max_dice, 1))
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(enc.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = seed
        self.game = BatchGame(self.rules, num_players, num_envs, seed=seed, tables=self.tables)
        self._bids = np.zeros((num_envs, nb, n), np.float32)
        self._ended = np.zeros(num_envs, np.bool_)

    # -- gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        if seed is not None:
            self._seed = seed if isinstance(seed, int) else seed[0]
        self.game = BatchGame(
            self.rules, self.num_players, self.num_envs, seed=self._seed, tables=self.tables
        )
        self._seed = None  # a later reset() without a seed continues the random stream
        self._bids[:] = 0
        self._ended[:] = False
        self._advance()
        return self._observe(), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[ObsDict, npt.NDArray[np.float64], BoolArr, BoolArr, dict[str, Any]]:
        game = self.game
        actions = np.asarray(actions, np.int64).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        illegal = np.zeros(self.num_envs, np.bool_)
        restart = np.flatnonzero(self._ended)
        if len(restart):  # NEXT_STEP autoreset: this step starts their new games
            game.reset(restart)
            self._ended[restart] = False
        playing = ~self._ended
        playing[restart] = False
        mine = playing & self._agent_turn()
        mask = game.legal_mask()
        inside = (actions >= 0) & (actions < self.enc.num_actions)
        ok = np.zeros(self.num_envs, np.bool_)
        ok[inside] = mask[np.flatnonzero(inside), actions[inside]]
        illegal = mine & ~ok
        ids = np.where(mine & ok, actions, -1)
        self._apply(ids)
        self._advance()
        over = (game.phase == OVER) | (game.counts[:, self.seat] == 0)
        done = playing & (over | illegal)
        rewards[done] = np.where(game.winner[done] == self.seat, 1.0, -1.0)
        rewards[illegal] = -1.0
        terminated[done] = True
        self._ended |= done
        info: dict[str, Any] = {"illegal": illegal, "winner": game.winner.copy()}
        return self._observe(), rewards, terminated, np.zeros(self.num_envs, np.bool_), info

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # -- the batch ---------------------------------------------------------------------------

    def _agent_turn(self) -> BoolArr:
        game = self.game
        acting = (game.phase == BIDDING) | (game.phase == CHOOSE)
        turn: BoolArr = acting & (game.to_act == self.seat) & (game.counts[:, self.seat] > 0)
        return turn

    def _apply(self, ids: npt.NDArray[np.int64]) -> None:
        """Step the games with ``ids`` and note the bids in each round's history."""
        game = self.game
        bidder = game.to_act.copy()
        bidding = game.phase == BIDDING
        game.step(ids, check=False)
        made = np.flatnonzero(bidding & (ids >= 0) & (ids < self.enc.num_bids))
        rel = (bidder[made] - self.seat) % self.num_players
        self._bids[made, ids[made], rel] = 1

    def _advance(self) -> None:
        """Deal and let the other seats play until the agent decides or its game is done."""
        game = self.game
        while True:
            # A game whose agent is out is over for the episode: no next round is dealt (the
            # driver stops there too, tests/research/test_vector_env_driver.py).
            agent_out = game.counts[:, self.seat] == 0
            dealing = np.flatnonzero((game.phase == DEAL) & ~self._ended & ~agent_out)
            if len(dealing):
                game.deal(dealing)
                self._bids[dealing] = 0
            acting = (game.phase == BIDDING) | (game.phase == CHOOSE)
            others = acting & (game.to_act != self.seat) & ~agent_out & ~self._ended
            if not others.any():
                return
            policy = (
                game.random_actions() if self.opponents == "random" else game.threshold_actions()
            )
            self._apply(np.where(others, policy, -1))

    def _observe(self) -> ObsDict:
        game = self.game
        e, n = self.num_envs, self.num_players
        rows = np.arange(e)
        order = (self.seat + np.arange(n)) % n  # relative seat r is absolute seat order[r]
        pieces = {
            "hand": game.hands[:, self.seat, :],
            "dice_counts": game.counts[:, order],
            "choose": ((game.phase == CHOOSE) & (game.to_act == self.seat))[:, None],
            "palifico": game.palifico[:, None],
            "bid": np.zeros((e, self.enc.num_bids)),
            "bidder": np.zeros((e, n)),
            "bids": self._bids.reshape(e, -1),
        }
        standing = np.flatnonzero((game.rank >= 0) & (game.phase == BIDDING))
        if len(standing):
            t = self.tables
            ids = t.rank_id[game.palifico[standing], game.total[standing], game.rank[standing]]
            pieces["bid"][standing, ids] = 1
            pieces["bidder"][standing, (game.bidder[standing] - self.seat) % n] = 1
        obs = np.concatenate([np.asarray(pieces[k], np.float32) for k in self._layout], axis=1)
        mask = np.zeros((e, self.enc.num_actions), np.int8)
        turn = self._agent_turn() & ~self._ended
        mask[turn] = game.legal_mask(rows[turn])
        return {"observation": obs, "action_mask": mask}


BoolArr = npt.NDArray[np.bool_]


def single_env(**kwargs: Any) -> gym.Env[Any, Any]:
    """``gym.make("perudo/PerudoBatch-v0")``: refused in words. The batch is a vector
    environment only (its games step together): ``gym.make_vec`` makes it, and
    ``perudo/Perudo-v0`` is the one-game environment."""
    raise gym.error.Error(
        "perudo/PerudoBatch-v0 is a vector environment (its games step together): make it "
        "with gym.make_vec('perudo/PerudoBatch-v0', num_envs=N, …); for one game, "
        "gym.make('perudo/Perudo-v0', …) after importing perudo.research.gym_env"
    )


if "perudo/PerudoBatch-v0" not in gym.registry:
    gym.register(
        id="perudo/PerudoBatch-v0",
        entry_point="perudo.research.vector_env:single_env",
        vector_entry_point="perudo.research.vector_env:BatchVectorEnv",
    )
