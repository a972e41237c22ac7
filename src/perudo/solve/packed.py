"""A solved round packed for shipping: quantized, pruned to what play can meet, hash-checked.

A :class:`~perudo.solve.solution.Solution` of a round with three dice holds every information
state of both players as ``float32`` (about 14 MB per round, 3.5 million information states).
The shipped book keeps far less, and nothing a game could miss:

* **quantized**: each action's probability becomes an integer weight out of
  :data:`LEVELS` (``uint16``, rounded to nearest), renormalized over the node's legal actions
  when played (:func:`~perudo.solve.solution.strategy_at`);
* **pruned**: a player's weights are kept only at the information states it reaches under its
  own quantized strategy — any history of the other player's, its own actions of positive
  probability. A bot that plays the strategy never meets the others, and a best response
  against it gains nothing from them; everywhere else the weights are zero, and a zero node
  is "not held" (:meth:`PackedRound.holds`);
* **measured after packing**: :meth:`PackedRound.pack` recomputes the value and both best
  responses of the strategy as shipped (float64, exactly), so the figures in the book are the
  ones of what the bots play.

The file is a compressed ``.npz``: ``raises0``, ``raises1`` (edge × hand), ``dudo0``,
``dudo1`` (node × hand) as ``uint16``, the ``utility`` table, and ``meta`` (JSON: format,
the rules and round it was solved as, :func:`game_digest`, figures). Rounds whose trees and
payoffs are equal (Perudo's and Liar's Dice's 2v1, whatever palifico each player has had) are
one file: :meth:`PackedRound.load` rebuilds the tree from the rules of the position asked for,
through the core, and refuses a file whose digest differs from that tree's.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from perudo.core import RuleSet

from .game import RoundGame
from .saved import read_npz, write_npz
from .solution import PlayedRound, Solution
from .vector import Array, Kernel, Profile

__all__ = ["FORMAT", "LEVELS", "PackedRound", "game_digest"]

FORMAT = "perudo-book-round/1"
"""The ``format`` field of a packed round."""

LEVELS = 65535
"""Integer weight of a probability of 1 (``uint16``)."""

U16 = npt.NDArray[np.uint16]


def game_digest(game: RoundGame) -> str:
    """A digest of what a strategy of ``game`` means: dice, round kind, the bid tree (bids,
    openings, raises), the dice counted and the payoff table. Two rounds with equal digests
    are the same game, whatever rule set or palifico history they come from."""
    h = hashlib.sha256()
    h.update(repr((game.dice, game.palifico, game.bids)).encode())
    for a in (game.opening, *game.raise_ok, *game.counts, game.utility):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


@dataclass(eq=False)
class PackedRound(PlayedRound):
    """A round's equilibrium as the book ships it (see the module docstring)."""

    game: RoundGame
    raises: tuple[U16, U16]
    dudo: tuple[U16, U16]
    value: float
    """The opener's expected payoff under the packed strategy."""
    br: tuple[float, float]
    """Each player's best-response value against the other's packed strategy."""
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        return game_digest(self.game)

    def strategy(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        return self.raises, self.dudo

    def profile(self) -> Profile:
        """The packed strategy as a float64 behaviour profile (renormalized; uniform at the
        information states not held, which the player never reaches)."""
        k = Kernel(self.game)
        r0, r1 = (self.raises[p].astype(np.float64) * k.legal_f[p] for p in (0, 1))
        d0, d1 = (self.dudo[p].astype(np.float64) * k.dudo_f[p] for p in (0, 1))
        return k.profile_of((r0, r1), (d0, d1))

    def evaluate(self) -> PackedRound:
        """Recompute :attr:`value` and :attr:`br` from the packed strategy (float64)."""
        k = Kernel(self.game)
        prof = self.profile()
        br0, br1, _ = k.exploitability(prof)
        self.value = k.value(prof)
        self.br = (br0, br1)
        return self

    def rebind(self, rules: RuleSet, palifico_used: tuple[bool, bool]) -> PackedRound:
        """The same strategy as the round of ``rules`` with ``palifico_used`` (sharing the
        arrays), when that round is the same game.

        :raises ValueError: if its tree or payoffs differ (another :func:`game_digest`).
        """
        g = self.game
        game = RoundGame(
            rules, g.dice, palifico=g.palifico, palifico_used=palifico_used, utility=g.utility
        )
        if game_digest(game) != self.digest:
            raise ValueError(f"the round of {rules} is not the game this strategy was solved for")
        return PackedRound(game, self.raises, self.dudo, self.value, self.br, self.info)

    # -- packing ---------------------------------------------------------------------------

    @classmethod
    def pack(cls, sol: Solution) -> PackedRound:
        """Quantize, prune and re-measure a solved round."""
        game = sol.game
        k = Kernel(game)
        quant_r: list[U16] = []
        quant_d: list[U16] = []
        for p in (0, 1):
            r = sol.profile.raises[p].astype(np.float64) * k.legal_f[p]
            d = sol.profile.dudo[p].astype(np.float64) * k.dudo_f[p]
            k.normalize(p, r, d)
            quant_r.append(np.rint(r * LEVELS).astype(np.uint16))
            quant_d.append(np.rint(d * LEVELS).astype(np.uint16))
        out = cls(
            game,
            (quant_r[0], quant_r[1]),
            (quant_d[0], quant_d[1]),
            0.0,
            (0.0, 0.0),
            {
                "solved": {
                    "method": sol.method,
                    "iterations": sol.iterations,
                    "seconds": sol.seconds,
                    "exploitability": sol.exploitability,
                    "value": sol.value,
                }
            },
        )
        prof = out.profile()
        held = 0
        for p in (0, 1):
            reach = k.reach(p, prof.raises[p])[p]
            mask = (reach > 0.0) & game.reachable[p][:, None]
            out.dudo[p][~mask] = 0
            out.raises[p][~mask[k.parent]] = 0
            held += int(mask.sum())
        out.info["held"] = held
        out.info["infostates"] = game.num_infostates()
        return out.evaluate()

    # -- files -----------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the packed round as a compressed ``.npz``; returns the path written."""
        g = self.game
        meta = {
            "format": FORMAT,
            **self.round_meta(),
            "digest": self.digest,
            "levels": LEVELS,
            "value": self.value,
            "br": list(self.br),
            "exploitability": self.exploitability,
            "info": self.info,
        }
        return write_npz(
            path,
            meta,
            {
                "utility": g.utility,
                "raises0": self.raises[0],
                "raises1": self.raises[1],
                "dudo0": self.dudo[0],
                "dudo1": self.dudo[1],
            },
        )

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        sha256: str | None = None,
        rules: RuleSet | None = None,
        palifico_used: tuple[bool, bool] | None = None,
    ) -> PackedRound:
        """Read a packed round, as the round of ``rules`` and ``palifico_used`` when given
        (default: those it was solved as).

        :raises ValueError: if the file's SHA-256 is not ``sha256``, the file is not a packed
            round, or its tree and payoffs are not those of the round asked for.
        """
        meta, arrays = read_npz(
            path,
            "a packed perudo round",
            {"format": FORMAT, "levels": LEVELS},
            ("utility", "raises0", "raises1", "dudo0", "dudo1"),
            sha256=sha256,
        )
        game = cls.game_of(meta, arrays["utility"], rules=rules, palifico_used=palifico_used)
        if game_digest(game) != meta["digest"]:
            raise ValueError(f"{path}: not a strategy of the round of {game.rules} asked for")
        for p in (0, 1):
            want = (game.rows, len(game.hands[p]))
            for k in (f"raises{p}", f"dudo{p}"):
                if arrays[k].shape != want or arrays[k].dtype != np.uint16:
                    got = f"{arrays[k].dtype} {arrays[k].shape}"
                    raise ValueError(f"{path}: {k} is {got}, expected uint16 {want}")
        return cls(
            game,
            (arrays["raises0"], arrays["raises1"]),
            (arrays["dudo0"], arrays["dudo1"]),
            float(meta["value"]),
            (float(meta["br"][0]), float(meta["br"][1])),
            dict(meta.get("info", {})),
        )
