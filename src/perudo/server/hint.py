"""The probability hint: how likely the standing bid is to hold, from one seat's knowledge.

Computed by :mod:`perudo.bots.probability` from the seat's view only (its own dice, dice set
aside face up, dice counts: P-70), so it tells a player nothing they could not work out.
"""

from __future__ import annotations

from typing import Any

from perudo.bots.probability import bid_probability, exact_probability
from perudo.core import PlayerView
from perudo.core.state import Phase

__all__ = ["bid_hint"]


def bid_hint(v: PlayerView) -> dict[str, Any] | None:
    """``{"bid", "holds", "exact"}`` for ``v``'s seat: the chances that the standing bid is
    met (a dudo would fail, P-20) and exactly right (a calza would win, P-51); ``None`` for a
    spectator or when no bid stands."""
    if v.seat is None or v.bid is None or v.phase is not Phase.BIDDING:
        return None
    return {
        "bid": str(v.bid),
        "holds": round(bid_probability(v), 4),
        "exact": round(exact_probability(v), 4),
    }
