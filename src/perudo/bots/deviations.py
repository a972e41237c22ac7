"""Deviations: a bot that plays like another except in one simple, fixed habit.

Each deviation wraps an *inner* bot (in the exploiter search, ``expert``) and changes its
choice in one kind of decision only; everywhere else it plays exactly what the inner bot
plays. They are the probes of the exploiter search (``benchmarks/exploiters.py``): if a fixed
habit wins more than its fair share against a table of the inner bot, the inner bot can be
read, and the deviation names how.

Every deviation sees only its seat's view (P-70) and plays only actions of ``view.legal``
(P-10…P-16 are the core's to decide: a deviation picks among what the core offers). The inner
bot is always asked first, so that its own generator advances exactly as it would undeviated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from perudo.bots.base import Bot
from perudo.bots.probability import bid_probability, exact_probability
from perudo.core import Bid, Calza, Dudo, PlayerAction, PlayerView
from perudo.core.bidding import wild_active

__all__ = ["DEVIATIONS", "Deviation", "deviate"]


def _faces_held(view: PlayerView) -> dict[int, int]:
    """How many of this seat's dice show each non-wild face (the wild face left out)."""
    wild = wild_active(view.rules, view.palifico)
    held = {f: 0 for f in range(1, view.rules.faces + 1) if f != wild}
    for die in view.hand:
        if die in held:
            held[die] += 1
    return held


def weakest_face_opening(view: PlayerView, chosen: PlayerAction, threshold: float) -> PlayerAction:
    """Open on the face held fewest of, at the inner bot's quantity, when this seat's own
    chance of that bid is at least ``threshold`` (the bluff of the issue "An expert no one can
    read": ties go to the highest face, which outranks the others at the same quantity)."""
    if view.bid is not None or not isinstance(chosen, Bid):
        return chosen
    held = _faces_held(view)
    for face in sorted(held, key=lambda f: (held[f], -f)):
        bid = Bid(chosen.quantity, face)
        if bid in view.legal and bid_probability(view, bid) >= threshold:
            return bid
    return chosen


def calls_more(view: PlayerView, chosen: PlayerAction, threshold: float) -> PlayerAction:
    """Doubt every standing bid whose chance is under ``threshold``, whatever the inner bot
    chose."""
    if view.bid is None or Dudo() not in view.legal or isinstance(chosen, Dudo):
        return chosen
    return Dudo() if bid_probability(view) < threshold else chosen


def calls_less(view: PlayerView, chosen: PlayerAction, threshold: float) -> PlayerAction:
    """Where the inner bot doubts a bid whose chance is at least ``threshold``, raise instead
    with the likeliest legal bid."""
    if not isinstance(chosen, Dudo) or view.bid is None or bid_probability(view) < threshold:
        return chosen
    bids = [a for a in view.legal if isinstance(a, Bid)]
    if not bids:
        return chosen
    return max(bids, key=lambda b: (bid_probability(view, b), -b.quantity))


def raises_aces(view: PlayerView, chosen: PlayerAction, threshold: float) -> PlayerAction:
    """Where the inner bot raises on an ordinary face, bid the wild face instead (its lowest
    legal quantity, P-15), when its chance is at least ``threshold``."""
    wild = wild_active(view.rules, view.palifico)
    if wild is None or not isinstance(chosen, Bid) or chosen.face == wild:
        return chosen
    aces = [a for a in view.legal if isinstance(a, Bid) and a.face == wild]
    if not aces:
        return chosen
    lowest = min(aces, key=lambda b: b.quantity)
    return lowest if bid_probability(view, lowest) >= threshold else chosen


def wants_calza(view: PlayerView, threshold: float) -> bool:
    """Calza (P-50) is legal here and the standing bid is exact with chance >= ``threshold``."""
    return view.bid is not None and Calza() in view.legal and exact_probability(view) >= threshold


def calza_happy(view: PlayerView, chosen: PlayerAction, threshold: float) -> PlayerAction:
    """Call calza whenever :func:`wants_calza` says so (in turn here; out of turn through the
    deviant's ``call_calza``)."""
    return Calza() if wants_calza(view, threshold) else chosen


Habit = Callable[[PlayerView, PlayerAction, float], PlayerAction]


@dataclass(frozen=True)
class Deviation:
    """One habit with its threshold, by name."""

    name: str
    habit: Habit
    threshold: float
    description: str


DEVIATIONS: Mapping[str, Deviation] = {
    d.name: d
    for d in (
        Deviation(
            "weakest-face-opening",
            weakest_face_opening,
            0.3,
            "opens on the face it holds fewest of (same quantity) when its chance is >= 0.3",
        ),
        Deviation("calls-more", calls_more, 0.5, "doubts every bid whose chance is under 0.5"),
        Deviation(
            "calls-less",
            calls_less,
            0.25,
            "raises with its likeliest bid instead of doubting a bid whose chance is >= 0.25",
        ),
        Deviation(
            "raises-aces",
            raises_aces,
            0.35,
            "raises on aces instead of an ordinary face when the aces bid's chance is >= 0.35",
        ),
        Deviation(
            "calza-happy",
            calza_happy,
            0.2,
            "calls calza whenever the bid is exact with chance >= 0.2, in turn or out of turn",
        ),
    )
}
"""The deviations the exploiter search plays, by name."""


class _Deviant:
    """``inner`` with one habit: the inner bot decides, then the habit may change it."""

    def __init__(self, inner: Bot, deviation: Deviation) -> None:
        self.inner = inner
        self.deviation = deviation
        self.name = f"{inner.name}+{deviation.name}"

    def act(self, view: PlayerView) -> PlayerAction:
        chosen = self.inner.act(view)
        return self.deviation.habit(view, chosen, self.deviation.threshold)

    def call_calza(self, view: PlayerView) -> bool:
        inner = self.inner.call_calza(view)
        if self.deviation.habit is calza_happy:
            return inner or wants_calza(view, self.deviation.threshold)
        return inner

    def __repr__(self) -> str:
        return f"<deviation {self.name}>"


def deviate(inner: Bot, name: str) -> Bot:
    """``inner`` playing with the deviation ``name`` (a key of :data:`DEVIATIONS`).

    :raises KeyError: naming the known deviations, for an unknown name.
    """
    try:
        deviation = DEVIATIONS[name]
    except KeyError:
        raise KeyError(
            f"no deviation named {name!r}; known: {', '.join(sorted(DEVIATIONS))}"
        ) from None
    return _Deviant(inner, deviation)
