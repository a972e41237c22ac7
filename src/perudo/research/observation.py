"""The observation vector: a seat's :class:`~perudo.core.PlayerView` as a flat numpy array.

Built from the view alone, so it holds exactly what the seat may know (P-70). Seats are
**relative to the observer**: index ``0`` is the observer, ``1`` the next seat clockwise, and so
on. ``n`` = seats, ``F`` = faces, ``B`` = bid ids of :mod:`perudo.core.encoding` (bids keep
their dense ids in every round, palifico rounds included). Counts are raw (not normalised).

=================  ==========  ==============================================================
piece              size        content
=================  ==========  ==============================================================
``hand``           F           own hidden dice as face counts (``hand[f-1]`` = dice showing f)
``shown``          n × F       dice set aside face up this round (V-9), face counts per seat
``dice_counts``    n           dice per seat (0 = out, P-23)
``to_act``         n           one-hot: the seat to act (all zero while chance acts)
``asked_calza``    1           1 when this seat is being asked in a calza window (P-50, P-53)
``phase``          5           one-hot: choose palifico, deal, bidding, re-roll, game over
``palifico``       1           1 in a palifico round (P-30, P-31)
``palifico_used``  n           seats that have had their palifico round or P-34 choice
``must_raise``     1           1 when the seat to act set dice aside and must raise (V-9)
``bids``           B × n       this round's bid history: ``[b, s]`` = 1 if seat s bid id b
``bid``            B           one-hot: the standing bid
``bidder``         n           one-hot: who made the standing bid
``passed``         n           seats that passed this round (V-10)
``passer``         n           one-hot: a standing pass (V-10)
``last_kind``      3           last finished round: one-hot dudo, calza, pass
``last_caller``    n           one-hot: who called it
``last_target``    n           one-hot: the bidder challenged (or the passer)
``last_bid``       B           one-hot: the bid checked
``last_count``     1           dice that counted toward it (as far as revealed, P-21)
``last_holds``     1           1 if the claim held
``last_revealed``  n           seats whose hands were revealed (P-21)
``last_hands``     n × F       the revealed hands, face counts
``last_changes``   n           dice lost (negative) or gained (positive) per seat
=================  ==========  ==============================================================

>>> from perudo.core import PERUDO, view, start_round
>>> enc = ObservationEncoder(PERUDO, 2)
>>> vec = enc.encode(view(start_round(PERUDO, [[1, 3, 3], [2]]), 0))
>>> enc.piece(vec, "hand").tolist(), enc.piece(vec, "dice_counts").tolist()
([1.0, 0.0, 2.0, 0.0, 0.0, 0.0], [3.0, 1.0])
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from perudo.core import Bid, Pass, Phase, PlayerView, RuleSet
from perudo.core.encoding import encoding

__all__ = ["PHASES", "ObservationEncoder"]

PHASES: Final = (
    Phase.CHOOSE_PALIFICO,
    Phase.DEAL,
    Phase.BIDDING,
    Phase.REROLL,
    Phase.GAME_OVER,
)
"""The order of the ``phase`` one-hot."""

_KINDS: Final = ("dudo", "calza", "pass")

FloatArray = npt.NDArray[np.float32]


class ObservationEncoder:
    """Encodes views of one rule set and table size (see the module docstring)."""

    def __init__(self, rules: RuleSet, num_players: int) -> None:
        enc = encoding(rules, num_players)
        self.rules = rules
        self.num_players = n = num_players
        self.encoding = enc
        faces = rules.faces
        dice = rules.dice_per_player
        total = enc.max_dice
        nb = enc.num_bids
        # (name, shape, low, high)
        spec: list[tuple[str, tuple[int, ...], float, float]] = [
            ("hand", (faces,), 0, dice),
            ("shown", (n, faces), 0, dice),
            ("dice_counts", (n,), 0, dice),
            ("to_act", (n,), 0, 1),
            ("asked_calza", (1,), 0, 1),
            ("phase", (len(PHASES),), 0, 1),
            ("palifico", (1,), 0, 1),
            ("palifico_used", (n,), 0, 1),
            ("must_raise", (1,), 0, 1),
            ("bids", (nb, n), 0, 1),
            ("bid", (nb,), 0, 1),
            ("bidder", (n,), 0, 1),
            ("passed", (n,), 0, 1),
            ("passer", (n,), 0, 1),
            ("last_kind", (len(_KINDS),), 0, 1),
            ("last_caller", (n,), 0, 1),
            ("last_target", (n,), 0, 1),
            ("last_bid", (nb,), 0, 1),
            ("last_count", (1,), 0, total),
            ("last_holds", (1,), 0, 1),
            ("last_revealed", (n,), 0, 1),
            ("last_hands", (n, faces), 0, dice),
            ("last_changes", (n,), -dice, 1),
        ]
        self.slices: dict[str, tuple[slice, tuple[int, ...]]] = {}
        """Each piece's slice of the vector and its shape."""
        lows: list[float] = []
        highs: list[float] = []
        offset = 0
        for name, shape, low, high in spec:
            size = int(np.prod(shape))
            self.slices[name] = (slice(offset, offset + size), shape)
            lows.extend([low] * size)
            highs.extend([high] * size)
            offset += size
        self.size: int = offset
        """The vector's length."""
        self.low: FloatArray = np.array(lows, dtype=np.float32)
        """Elementwise lower bounds (for a ``Box`` space)."""
        self.high: FloatArray = np.array(highs, dtype=np.float32)
        """Elementwise upper bounds."""

    def piece(self, vector: FloatArray, name: str) -> FloatArray:
        """The named piece of ``vector``, in its shape (a view, not a copy)."""
        sl, shape = self.slices[name]
        return vector[sl].reshape(shape)

    def encode(
        self, view: PlayerView, *, asked_calza: bool = False, out: FloatArray | None = None
    ) -> FloatArray:
        """The observation vector of ``view`` (a seat's view; not a spectator's)."""
        if view.seat is None:
            raise ValueError("an observation is a seat's; a spectator's view has no seat (P-70)")
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0)
        n = self.num_players
        me = view.seat
        ids = self.encoding.action_to_id

        def rel(seat: int) -> int:
            return (seat - me) % n

        p = self._pieces(out)
        for die in view.hand:
            p["hand"][die - 1] += 1
        for seat in range(n):
            r = rel(seat)
            p["dice_counts"][r] = view.dice_counts[seat]
            p["palifico_used"][r] = view.palifico_used[seat]
            for die in view.shown[seat]:
                p["shown"][r, die - 1] += 1
        if view.to_act is not None:
            p["to_act"][rel(view.to_act)] = 1
        p["asked_calza"][0] = asked_calza
        p["phase"][PHASES.index(view.phase)] = 1
        p["palifico"][0] = view.palifico
        p["must_raise"][0] = view.must_raise
        for seat, action in view.actions:
            if isinstance(action, Bid):
                p["bids"][ids(action), rel(seat)] = 1
            elif isinstance(action, Pass):
                p["passed"][rel(seat)] = 1
        if view.bid is not None and view.bidder is not None:
            p["bid"][ids(view.bid)] = 1
            p["bidder"][rel(view.bidder)] = 1
        if view.passer is not None:
            p["passer"][rel(view.passer)] = 1
        if view.past:
            result = view.past[-1].result
            p["last_kind"][_KINDS.index(result.kind)] = 1
            p["last_caller"][rel(result.caller)] = 1
            p["last_target"][rel(result.target)] = 1
            if result.bid is not None:
                p["last_bid"][ids(result.bid)] = 1
            p["last_count"][0] = result.count
            p["last_holds"][0] = result.holds
            for reveal in result.reveals:
                r = rel(reveal.seat)
                p["last_revealed"][r] = 1
                for die in reveal.hand:
                    p["last_hands"][r, die - 1] += 1
            for seat, change in result.changes:
                p["last_changes"][rel(seat)] = change
        return out

    def _pieces(self, vector: FloatArray) -> dict[str, Any]:
        return {name: vector[sl].reshape(shape) for name, (sl, shape) in self.slices.items()}
