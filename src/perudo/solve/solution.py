"""A solved round: the strategy, its value and exploitability, saved and loaded as ``.npz``.

A :class:`Solution` maps a seat's view to the equilibrium's action probabilities
(:meth:`Solution.policy`), so it plays through the same door as every bot (P-70): it sees the
view's hand, the round's public bids and the dice counts, nothing else.

The file is one compressed numpy archive per round: the four strategy arrays (``float32``) and
the utility table, with the rules, dice, round kind and figures as JSON in ``meta``.
"""

from __future__ import annotations

import abc
import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from perudo.core import Bid, Dudo, Phase, PlayerAction, PlayerView, RuleSet

from .game import RoundGame
from .saved import read_npz, write_npz
from .vector import Array, Kernel, Profile

__all__ = ["FORMAT", "PlayedRound", "Solution", "is_turn_of", "round_key", "strategy_at"]

FORMAT = "perudo-solve-round/1"
"""The ``format`` field of a saved round."""


@functools.lru_cache(maxsize=64)
def _rules_text(rules: RuleSet) -> str:
    # Asked at every decision of a book's bot: a rule set's JSON is made once.
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


def round_key(
    rules: RuleSet, dice: tuple[int, int], palifico: bool, palifico_used: tuple[bool, bool]
) -> str:
    """A stable text key of a heads-up round: rules, opener's and other's dice, round kind."""
    body = _rules_text(rules)
    used = "".join("1" if u else "0" for u in palifico_used)
    return f"{body}|{dice[0]}v{dice[1]}|{'P' if palifico else 'N'}|{used}"


def heads_up_seats(view: PlayerView) -> tuple[int, int] | None:
    """``(opener, other)``: the seats of a heads-up round (two seats with dice, the opener one
    of them), or ``None``."""
    alive = [s for s, c in enumerate(view.dice_counts) if c]
    if len(alive) != 2 or view.opener not in alive:
        return None
    return view.opener, alive[0] if alive[1] == view.opener else alive[1]


def is_turn_of(game: RoundGame, view: PlayerView) -> bool:
    """Whether ``view`` is a seat's turn to bid or challenge in ``game``'s round."""
    g = game
    if view.seat is None or view.rules != g.rules or not view.my_turn:
        return False
    if view.phase is not Phase.BIDDING or view.palifico != g.palifico:
        return False
    seats = heads_up_seats(view)
    if seats is None:
        return False
    other = seats[1]
    if (view.dice_counts[view.opener], view.dice_counts[other]) != g.dice:
        return False
    used = (view.palifico_used[view.opener], view.palifico_used[other])
    return used == g.palifico_used and all(
        type(a) is Bid or type(a) is Dudo for _, a in view.actions
    )


def strategy_at(
    game: RoundGame,
    raises: tuple[Array, Array],
    dudo: tuple[Array, Array],
    view: PlayerView,
) -> dict[PlayerAction, float]:
    """The probabilities of a strategy on ``game``'s tree (``raises[p][edge, hand]``,
    ``dudo[p][node, hand]``, weights of any scale, renormalized over the node's legal
    actions) at a turn of the round (:func:`is_turn_of`); empty where they are all zero.

    :raises ValueError: if the view's history does not put its seat to act.
    """
    g = game
    player = 0 if view.seat == view.opener else 1
    ranks = [g.ranks[a] for _, a in view.actions if isinstance(a, Bid)]
    p, node = g.node_of(ranks)
    if p != player:
        raise ValueError("the view's history does not put this seat to act")
    hand = g.hands[p].index[tuple(sorted(view.hand))]
    out: dict[PlayerAction, float] = {}
    lr = g.raise_legal[p]
    top = int(g.top[p][node])
    if p == 0 and node == 0 and lr[0]:
        out[g.bids[0]] = float(raises[p][0, hand])
    for r in range(max(top, 0) + 1, g.num_bids):
        e = g.edge_of(node, r)
        if lr[e]:
            out[g.bids[r]] = float(raises[p][e, hand])
    if g.dudo_legal[p][node]:
        out[Dudo()] = float(dudo[p][node, hand])
    total = sum(out.values())
    if total <= 0.0:
        return {}
    return {a: pr / total for a, pr in out.items() if pr > 0.0}


class PlayedRound(abc.ABC):
    """What a solved round offers the bots, full (:class:`Solution`) or packed
    (:class:`~perudo.solve.packed.PackedRound`): its key, figures and policy at a view."""

    game: RoundGame
    br: tuple[float, float]

    @abc.abstractmethod
    def strategy(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        """``(raises, dudo)``: each player's weights by edge and by node (any scale)."""

    @property
    def exploitability(self) -> float:
        """Mean of the two best-response gains: ``(br0 + br1) / 2`` (0 at an equilibrium)."""
        return (self.br[0] + self.br[1]) / 2.0

    @property
    def key(self) -> str:
        g = self.game
        return round_key(g.rules, g.dice, g.palifico, g.palifico_used)

    def matches(self, view: PlayerView) -> bool:
        """Whether ``view`` is a seat's turn to bid or challenge in this solved round."""
        return is_turn_of(self.game, view)

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The strategy's action probabilities for ``view`` (see :meth:`matches`; empty where
        a packed round does not hold the view).

        :raises ValueError: if the view is not a turn in this round.
        """
        if not self.matches(view):
            raise ValueError("this view is not a turn in the solved round")
        raises, dudo = self.strategy()
        return strategy_at(self.game, raises, dudo, view)

    def round_meta(self) -> dict[str, Any]:
        """The round in a saved file's ``meta``: rules, dice, round kind, palifico flags."""
        g = self.game
        return {
            "rules": g.rules.to_dict(),
            "preset": str(g.rules),
            "dice": list(g.dice),
            "palifico": g.palifico,
            "palifico_used": list(g.palifico_used),
        }

    @staticmethod
    def game_of(
        meta: dict[str, Any],
        utility: Array,
        *,
        rules: RuleSet | None = None,
        palifico_used: tuple[bool, bool] | None = None,
    ) -> RoundGame:
        """The round a saved file's :meth:`round_meta` names, with its ``utility`` table (as
        the round of ``rules`` and ``palifico_used`` when given), rebuilt through the core."""
        if palifico_used is None:
            palifico_used = (bool(meta["palifico_used"][0]), bool(meta["palifico_used"][1]))
        return RoundGame(
            rules if rules is not None else RuleSet.from_dict(meta["rules"]),
            (int(meta["dice"][0]), int(meta["dice"][1])),
            palifico=bool(meta["palifico"]),
            palifico_used=palifico_used,
            utility=utility,
        )

    def holds(self, view: PlayerView) -> bool:
        """Whether ``view`` is a turn of this round that the strategy has probabilities for
        (every turn for a full solution; those its own play reaches for a packed one)."""
        return self.matches(view) and bool(self.policy(view))


@dataclass(eq=False)
class Solution(PlayedRound):
    """An (approximate) equilibrium of one round, with its figures."""

    game: RoundGame
    profile: Profile
    value: float
    """The opener's expected payoff under :attr:`profile`."""
    br: tuple[float, float]
    """Each player's best-response value against the other's strategy."""
    method: str
    iterations: int = 0
    seconds: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)

    def strategy(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        return self.profile.raises, self.profile.dudo

    @property
    def value_bounds(self) -> tuple[float, float]:
        """The game value for the opener lies in ``[-br1, br0]``."""
        return -self.br[1], self.br[0]

    # -- files -----------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the solution as a compressed ``.npz``; returns the path written."""
        g = self.game
        meta = {
            "format": FORMAT,
            **self.round_meta(),
            "value": self.value,
            "br": list(self.br),
            "exploitability": self.exploitability,
            "method": self.method,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "info": self.info,
        }
        out = Path(path)
        if out.suffix != ".npz":
            out = out.with_name(out.name + ".npz")
        return write_npz(
            out,
            meta,
            {
                "utility": g.utility,
                "raises0": self.profile.raises[0].astype(np.float32),
                "raises1": self.profile.raises[1].astype(np.float32),
                "dudo0": self.profile.dudo[0].astype(np.float32),
                "dudo1": self.profile.dudo[1].astype(np.float32),
            },
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, sha256: str | None = None) -> Solution:
        """Read a solution written by :meth:`save` (its SHA-256 checked when given).

        :raises ValueError: if the file is not a saved round, has another hash or does not fit
            its rules.
        """
        meta, data = read_npz(
            path,
            "a saved perudo round",
            {"format": FORMAT},
            ("utility", "raises0", "raises1", "dudo0", "dudo1"),
            sha256=sha256,
        )
        game = cls.game_of(meta, data["utility"])
        arrays: dict[str, Array] = {
            k: data[k].astype(np.float64) for k in ("raises0", "raises1", "dudo0", "dudo1")
        }
        for p in (0, 1):
            want = (game.rows, len(game.hands[p]))
            for k in (f"raises{p}", f"dudo{p}"):
                if arrays[k].shape != want:
                    raise ValueError(f"{path}: {k} has shape {arrays[k].shape}, expected {want}")
        profile = Profile(
            (arrays["raises0"], arrays["raises1"]), (arrays["dudo0"], arrays["dudo1"])
        )
        return cls(
            game=game,
            profile=profile,
            value=float(meta["value"]),
            br=(float(meta["br"][0]), float(meta["br"][1])),
            method=str(meta["method"]),
            iterations=int(meta["iterations"]),
            seconds=float(meta["seconds"]),
            info=dict(meta.get("info", {})),
        )

    def evaluate(self) -> Solution:
        """Recompute :attr:`value` and :attr:`br` from the strategy (float64)."""
        k = Kernel(self.game)
        prof = self.profile.astype(np.float64)
        br0, br1, _ = k.exploitability(prof)
        self.value = k.value(prof)
        self.br = (br0, br1)
        return self
