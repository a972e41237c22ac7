"""Beliefs about the other seats' hidden hands, read from their bids (for the ``strong`` bot).

For every other seat the belief is a weight on each hand it might hold: every multiset of its
hidden dice (252 hands of five six-faced dice), starting from the chance of rolling it and
multiplied, on each of its actions this round, by the likelihood of that action under a
*bidding model*: a player who bids by the exact chances its own hand gives it (the ``prob``
bot's reasoning, :mod:`perudo.bots.probability`), with what the bids so far say of the third
seats' hands (:attr:`BidModel.reads_bids`: these same beliefs), picks each option with
probability ``∝ exp(utility / temperature)``, where a raise's utility is its chance of being
true from that hand and dudo's is the chance the standing bid is false; a share ``bluff`` of
its choices is uniform (bluffs, other styles). A pass (V-10) is likely from an all-different
hand; dice set aside face up (V-9) are known and the re-rolled rest starts afresh.

Two kinds of bid can be read with a learned share of doubt per seat (``expert``'s reading, safe
exploitation): an opening, as a mixture of the honest opener and a face-blind one
(``opening_rates``, :mod:`perudo.bots.openings`), and a switch from another face to the wild
one (P-15), as a mixture of the honest bidder and one whose switch says nothing of its hand
(``switch_rates``, :mod:`perudo.bots.switches`).

Everything is read from a :class:`~perudo.core.PlayerView` (P-70): the seat's own dice, the
public actions of this round, dice counts and shown dice. The belief of a seat is independent
of the others', so the count of dice matching a face on the table is the convolution of the
per-seat count distributions (:meth:`Beliefs.count_distribution`).

Hands are numpy arrays of face counts; a table size with too many hands to enumerate (more
than :data:`MAX_HANDS`) uses a fixed sample of hands instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

from perudo.core import Bid, Pass, PlayerView, RuleSet, SetAside, count_hand, raises_after
from perudo.core.bidding import wild_active

from .probability import binomial_pmf, binomial_tail, match_chance

__all__ = [
    "MAX_HANDS",
    "Beliefs",
    "BidModel",
    "HandSpace",
    "hand_space",
    "is_switch",
    "lowest_raises",
    "matching_counts",
    "naive_tails",
    "opening_choice",
    "raise_choice",
    "same_quantity",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

MAX_HANDS: Final = 4000
"""Largest number of distinct hands enumerated exactly; beyond it, a fixed sample."""
SAMPLED_HANDS: Final = 2000


@dataclass(frozen=True, slots=True)
class HandSpace:
    """The hands ``dice`` fair dice can show: face counts per hand, and each hand's chance."""

    faces: int
    dice: int
    counts: IntArray
    """Shape ``(hands, faces)``: how many of each face (column ``f - 1``) a hand holds."""
    prior: FloatArray
    """Chance of rolling each hand (sums to 1)."""


@lru_cache(maxsize=128)
def hand_space(faces: int, dice: int) -> HandSpace:
    """Every hand of ``dice`` dice (or a fixed sample of them when there are too many)."""
    if math.comb(dice + faces - 1, dice) <= MAX_HANDS:
        rows = []
        weights = []
        for combo in combinations_with_replacement(range(faces), dice):
            row = [0] * faces
            for f in combo:
                row[f] += 1
            ways = math.factorial(dice)
            for c in row:
                ways //= math.factorial(c)
            rows.append(row)
            weights.append(ways / faces**dice)
        counts = np.array(rows, dtype=np.int64).reshape(len(rows), faces)
        prior = np.array(weights, dtype=np.float64)
    else:
        rng = random.Random(faces * 1000 + dice)  # fixed: the same sample every time
        rows = []
        for _ in range(SAMPLED_HANDS):
            row = [0] * faces
            for _ in range(dice):
                row[rng.randrange(faces)] += 1
            rows.append(row)
        counts = np.array(rows, dtype=np.int64)
        prior = np.full(len(rows), 1.0 / len(rows))
    counts.setflags(write=False)
    prior.setflags(write=False)
    return HandSpace(faces, dice, counts, prior / prior.sum())


@lru_cache(maxsize=4096)
def matching_counts(rules: RuleSet, dice: int, shown: tuple[int, ...], palifico: bool) -> IntArray:
    """Shape ``(hands, faces)``: dice of each whole hand (``dice`` hidden plus ``shown``) that
    count toward a bid on each face (P-15, P-31, V-11), as :func:`~perudo.core.count_hand`."""
    space = hand_space(rules.faces, dice)
    full = space.counts.copy()
    for d in shown:
        full[:, d - 1] += 1
    wild = wild_active(rules, palifico)
    out = full.copy()
    if wild is not None:
        for f in range(rules.faces):
            if f != wild - 1:
                out[:, f] += full[:, wild - 1]
    if rules.straight_counts_nothing and dice + len(shown) == 5:
        straight = (full <= 1).all(axis=1)
        out[straight] = 0
    # A cross-check on the first hand keeps this in step with the core's counting.
    if len(out):
        first = tuple(f + 1 for f in range(rules.faces) for _ in range(int(space.counts[0, f])))
        for f in range(rules.faces):
            assert out[0, f] == count_hand(rules, first + shown, f + 1, palifico)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4096)
def naive_tails(rules: RuleSet, unseen: int, palifico: bool) -> FloatArray:
    """Shape ``(faces, unseen + 2)``: ``P(Binomial(unseen, p_f) >= x)`` per face ``f``."""
    out = np.array(
        [binomial_tail(unseen, match_chance(rules, f, palifico)) for f in range(1, rules.faces + 1)]
    )
    out.setflags(write=False)
    return out


@lru_cache(maxsize=65536)
def lowest_raises(
    rules: RuleSet, prev: Bid | None, total: int, palifico: bool, one_die: bool
) -> tuple[Bid, ...]:
    """For each face with a legal raise after ``prev``, its smallest legal quantity."""
    seq, start = raises_after(rules, prev, total, palifico=palifico, one_die=one_die)
    best: dict[int, Bid] = {}
    for i in range(start, len(seq)):
        b = seq[i]
        old = best.get(b.face)
        if old is None or b.quantity < old.quantity:
            best[b.face] = b
    return tuple(best[f] for f in sorted(best))


@lru_cache(maxsize=65536)
def _raise_arrays(
    rules: RuleSet, prev: Bid | None, total: int, palifico: bool, one_die: bool
) -> tuple[IntArray, IntArray, dict[Bid, int]]:
    seq, start = raises_after(rules, prev, total, palifico=palifico, one_die=one_die)
    bids = list(seq[start:])
    q = np.array([b.quantity for b in bids], dtype=np.int64)
    f = np.array([b.face - 1 for b in bids], dtype=np.int64)
    return q, f, {b: i for i, b in enumerate(bids)}


def same_quantity(q: IntArray, i: int) -> IntArray:
    """Indices of the bids of ``q`` (the legal raises' quantities) with ``q[i]``'s quantity."""
    return np.flatnonzero(q == q[i])


def is_switch(rules: RuleSet, prev: Bid, bid: Bid, palifico: bool) -> bool:
    """Whether ``bid`` after ``prev`` switches to the wild face from another (P-15's
    conversion to aces; never in a palifico round, P-31, where no face is wild)."""
    wild = wild_active(rules, palifico)
    return wild is not None and bid.face == wild and prev.face != wild


def raise_choice(
    utilities: FloatArray, dudo: FloatArray | None, temperature: float, i: int
) -> FloatArray:
    """Per hand (rows of ``utilities``, shape ``(hands, bids)``, each raise's chance of being
    true from that hand): the chance of choosing bid ``i`` by the softmax of the raises'
    utilities and, where ``dudo`` is given (per hand: the chance the standing bid is false),
    of doubting."""
    logits = utilities / temperature
    if dudo is not None:
        logits = np.concatenate([logits, (dudo / temperature)[:, None]], axis=1)
    top = logits.max(axis=1, keepdims=True)
    log_z = np.log(np.exp(logits - top).sum(axis=1)) + top[:, 0]
    out: FloatArray = np.exp(logits[:, i] - log_z)
    return out


def opening_choice(
    utilities: FloatArray, temperature: float, i: int, same: IntArray
) -> tuple[FloatArray, FloatArray]:
    """Per hand (rows of ``utilities``, shape ``(hands, bids)``): the honest opener's chance of
    bid ``i`` (the softmax of the utilities) and the face-blind opener's (the honest chance of
    its quantity, spread evenly over the ``same`` bids of that quantity)."""
    logits = utilities / temperature
    top = logits.max(axis=1, keepdims=True)
    probs = np.exp(logits - top)
    probs /= probs.sum(axis=1, keepdims=True)
    honest: FloatArray = probs[:, i]
    blind: FloatArray = probs[:, same].sum(axis=1) / len(same)
    return honest, blind


@dataclass(frozen=True, slots=True)
class BidModel:
    """How the other seats are assumed to choose (see the module docstring)."""

    temperature: float = 0.05
    """Softmax temperature of the modelled choices (low: near-greedy)."""
    bluff: float = 0.08
    """Share of choices assumed uniform over the legal options."""
    pass_bluff: float = 0.25
    """Chance a seat whose dice are not all different passes anyway (V-10)."""
    reads_bids: float = 0.5
    """The share of bidders assumed to read the others' bids too (0 to 1): such a bidder
    judges a bid's chance from its own hand and what the bids so far say of the third seats'
    hands (these beliefs of them; the viewer's own hidden dice as a stranger sees them); the
    rest judge from their own hand alone. A bid's likelihood is the mixture of the two. Read
    as judging alone only (0, the model before issue 17's eighth session), a bid that follows
    the bids before it (aces answered with more aces) reads as a hand full of that face, and
    bots that read each other so spiral upward; read as reading only (1), a player who bids
    from its own hand (``prob``) is read too little. Heads-up there is no third seat, and
    both read the same."""


class Beliefs:
    """Per-seat beliefs for one round, updated action by action from views.

    Build with :meth:`for_view`; call :meth:`update` with each later view of the same round
    (the cheap path: only new actions are read).
    """

    __slots__ = (
        "_actions",
        "_key",
        "_last_bid",
        "_must_raise",
        "_own_shown",
        "_pass_pending",
        "_post",
        "_seen",
        "counts",
        "model",
        "opening_rates",
        "palifico",
        "rules",
        "seat",
        "seats",
        "switch_rates",
        "total",
    )

    def __init__(
        self,
        view: PlayerView,
        model: BidModel,
        opening_rates: Mapping[int, float] | None = None,
        switch_rates: Mapping[int, float] | None = None,
    ) -> None:
        if view.seat is None:
            raise ValueError("beliefs are a seat's: a spectator's view has no seat")
        self.model = model
        self.opening_rates: Mapping[int, float] = opening_rates or {}
        """Each seat's opening-bluff rate: the share of its opening bid read as face-blind
        (:mod:`perudo.bots.openings`); a seat not named is read as the model's opener."""
        self.switch_rates: Mapping[int, float] = switch_rates or {}
        """Each seat's switch-bluff rate: the share of its switches to the wild face read as
        blind to its hand (:mod:`perudo.bots.switches`); a seat not named is read as the
        model's bidder."""
        self.rules = view.rules
        self.seat = view.seat
        self.palifico = view.palifico
        self.counts = view.dice_counts
        self.total = view.total_dice
        self._key = self.key(view)
        self._seen = 0
        self._last_bid: Bid | None = None
        self._must_raise = False
        self._pass_pending: int | None = None
        self._post: dict[tuple[int, int], FloatArray] = {}
        self._own_shown: tuple[int, ...] = ()
        self._actions: tuple[object, ...] = ()
        faces = self.rules.faces
        self.seats: dict[int, _SeatBelief] = {
            s: _SeatBelief(faces, c, ())
            for s, c in enumerate(view.dice_counts)
            if c and s != view.seat
        }
        self.update(view)

    @staticmethod
    def key(view: PlayerView) -> tuple[object, ...]:
        return (view.rules, view.round, len(view.past), view.dice_counts, view.palifico)

    def matches(self, view: PlayerView) -> bool:
        """Whether ``view`` is a later moment of the round these beliefs follow."""
        seen = self._seen
        return (
            self.key(view) == self._key
            and view.seat == self.seat
            and len(view.actions) >= seen
            and view.actions[:seen] == self._actions[:seen]
        )

    def update(self, view: PlayerView) -> None:
        """Read the actions of ``view``'s round not read yet."""
        actions = view.actions
        for seat, action in actions[self._seen :]:
            self._post.clear()
            if isinstance(action, Bid):
                if seat != self.seat and seat in self.seats:
                    self._observe_bid(seat, action)
                self._last_bid = action
                self._must_raise = False
                self._pass_pending = None
            elif isinstance(action, Pass):
                if seat != self.seat and seat in self.seats:
                    self._observe_pass(seat)
                self._pass_pending = seat
            elif isinstance(action, SetAside):
                if seat in self.seats:
                    self.seats[seat].set_aside(action.dice)
                elif seat == self.seat:
                    self._own_shown = tuple(sorted(self._own_shown + action.dice))
                self._must_raise = True
        self._seen = len(actions)
        self._actions = actions

    # -- what a seat assumed to be naive would compute --------------------------------------

    def _others_shown(self, actor: int) -> tuple[int, tuple[int, ...]]:
        """(dice the actor cannot see, shown dice of the others) as the actor sees them."""
        unseen = 0
        shown: list[int] = []
        for s, c in enumerate(self.counts):
            if s == actor or not c:
                continue
            sb = self.seats.get(s)
            sh = sb.shown if sb is not None else self._own_shown
            shown.extend(sh)
            unseen += c - len(sh)
        return unseen, tuple(shown)

    def readings(self) -> tuple[tuple[float, bool], ...]:
        """The bidders assumed, as ``(share, reads bids)`` (:attr:`BidModel.reads_bids`; one
        heads-up, where both read alike)."""
        w = self.model.reads_bids
        if len(self.seats) <= 1 or w <= 0.0:
            return ((1.0, False),)
        if w >= 1.0:
            return ((1.0, True),)
        return ((w, True), (1.0 - w, False))

    def actor_chances(
        self,
        actor: int,
        bids_q: IntArray,
        bids_f: IntArray,
        matching: IntArray,
        reads: bool = False,
    ) -> FloatArray:
        """Shape ``(hands, bids)``: each bid's chance of being true as ``actor`` would compute
        it from each of its possible hands (binomial over the dice it cannot see; ``reads``:
        over what the bids say of them, :attr:`BidModel.reads_bids`)."""
        if reads and len(self.seats) > 1:
            tails = self._read_tails(actor)
            need = bids_q[None, :] - matching[:, bids_f]
            np.clip(need, 0, tails.shape[1] - 1, out=need)
            return tails[bids_f[None, :], need]  # type: ignore[no-any-return]
        unseen, shown = self._others_shown(actor)
        tails = naive_tails(self.rules, unseen, self.palifico)
        extra = np.zeros(self.rules.faces, dtype=np.int64)
        for d in shown:
            for f in range(1, self.rules.faces + 1):
                extra[f - 1] += count_hand(self.rules, (d,), f, self.palifico)
        need = bids_q[None, :] - matching[:, bids_f] - extra[bids_f][None, :]
        np.clip(need, 0, unseen + 1, out=need)
        return tails[bids_f[None, :], need]  # type: ignore[no-any-return]

    def _read_tails(self, actor: int) -> FloatArray:
        """Shape ``(faces, n + 2)``: ``P(the others' dice counting toward f >= x)`` as
        ``actor`` sees it when it reads bids: every other seat as these beliefs have it, the
        viewer's hidden dice binomial (nobody reads them from its bids here), shown dice as
        they are. ``n``: the dice of all but ``actor``."""
        key = (-1 - actor, 0)
        cached = self._post.get(key)
        if cached is not None:
            return cached
        rules = self.rules
        hidden = self.counts[self.seat] - len(self._own_shown)
        n = sum(c for s, c in enumerate(self.counts) if s != actor)
        out = np.zeros((rules.faces, n + 2))
        for f in range(1, rules.faces + 1):
            dist = np.zeros(
                1 + sum(count_hand(rules, (d,), f, self.palifico) for d in self._own_shown)
            )
            dist[-1] = 1.0
            dist = np.convolve(dist, binomial_pmf(hidden, match_chance(rules, f, self.palifico)))
            for s in self.seats:
                if s != actor:
                    dist = np.convolve(dist, self.seat_distribution(s, f))
            tail = np.cumsum(dist[::-1])[::-1]
            out[f - 1, : len(tail)] = np.minimum(tail, 1.0)
        out.setflags(write=False)
        self._post[key] = out
        return out

    def _observe_bid(self, actor: int, bid: Bid) -> None:
        belief = self.seats[actor]
        model = self.model
        one_die = self.counts[actor] == 1
        prev = self._last_bid
        q, f, index = _raise_arrays(self.rules, prev, self.total, self.palifico, one_die)
        i = index.get(bid)
        if i is None or not len(q):
            return
        m = belief.matching(self.rules, self.palifico)
        may_doubt = prev is not None and not self._must_raise
        options = len(q) + may_doubt
        chosen = np.zeros(len(m))
        blind_rate = self.opening_rates.get(actor, 0.0) if prev is None else 0.0
        switch_rate = 0.0
        if prev is not None and is_switch(self.rules, prev, bid, self.palifico):
            switch_rate = self.switch_rates.get(actor, 0.0)
        for share, reads in self.readings():
            u = self.actor_chances(actor, q, f, m, reads)
            if blind_rate > 0.0:  # an opening (no dudo to weigh): honest and face-blind
                honest, blind = opening_choice(u, model.temperature, i, same_quantity(q, i))
                chosen += share * (blind_rate * blind + (1.0 - blind_rate) * honest)
                continue
            dudo = None
            if prev is not None and may_doubt:
                if self._pass_pending is not None:
                    dudo = np.full(len(m), 0.3)
                else:
                    pq = np.array([prev.quantity]), np.array([prev.face - 1])
                    dudo = 1.0 - self.actor_chances(actor, pq[0], pq[1], m, reads)[:, 0]
            part = raise_choice(u, dudo, model.temperature, i)
            if switch_rate > 0.0:  # a switch to the wild face: honest or blind to the hand
                part = (1.0 - switch_rate) * part + switch_rate * float(belief.weights() @ part)
            chosen += share * part
        like = model.bluff / options + (1.0 - model.bluff) * chosen
        belief.add(np.log(like))

    def _observe_pass(self, actor: int) -> None:
        belief = self.seats[actor]
        full = belief.full_counts()
        distinct = (full <= 1).all(axis=1)
        like = np.where(distinct, 1.0, self.model.pass_bluff)
        belief.add(np.log(like))

    # -- what the beliefs say ---------------------------------------------------------------

    def weights(self, seat: int) -> FloatArray:
        """The belief over ``seat``'s hands (normalized), in the order of :func:`hand_space`."""
        return self.seats[seat].weights()

    def pass_truth(self, seat: int) -> float:
        """Chance that ``seat``'s whole hand is all different: its pass is true (V-10)."""
        b = self.seats.get(seat)
        if b is None:
            return 1.0
        distinct = (b.full_counts() <= 1).all(axis=1)
        return float(b.weights() @ distinct)

    def seat_distribution(self, seat: int, face: int) -> FloatArray:
        """``P(seat's dice counting toward face = c)``, ``c = 0…its dice``."""
        key = (seat, face)
        cached = self._post.get(key)
        if cached is not None:
            return cached
        b = self.seats[seat]
        m = b.matching(self.rules, self.palifico)[:, face - 1]
        dist: FloatArray = np.bincount(
            m, weights=b.weights(), minlength=self.counts[seat] + 1
        ).astype(np.float64)
        self._post[key] = dist
        return dist

    def count_distribution(self, face: int, own: int, exclude: Sequence[int] = ()) -> FloatArray:
        """``P(count = c)`` of the dice counting toward ``face`` on the table, given the
        viewer's own count ``own`` and these beliefs; seats in ``exclude`` are left out."""
        dist = np.zeros(own + 1)
        dist[own] = 1.0
        for s in self.seats:
            if s not in exclude:
                dist = np.convolve(dist, self.seat_distribution(s, face))
        return dist


class _SeatBelief:
    __slots__ = ("_w", "dice", "faces", "logw", "shown")

    def __init__(self, faces: int, count: int, shown: tuple[int, ...]) -> None:
        self.faces = faces
        self.dice = count - len(shown)
        self.shown = shown
        self.logw: FloatArray = np.log(hand_space(faces, self.dice).prior)
        self._w: FloatArray | None = None

    def set_aside(self, dice: tuple[int, ...]) -> None:
        # V-9: the dice set aside are known; the rest are re-rolled, so earlier bids say
        # nothing about them.
        self.shown = tuple(sorted(self.shown + dice))
        self.dice -= len(dice)
        self.logw = np.log(hand_space(self.faces, self.dice).prior)
        self._w = None

    def add(self, loglik: FloatArray) -> None:
        self.logw = self.logw + loglik
        self.logw -= self.logw.max()
        self._w = None

    def weights(self) -> FloatArray:
        if self._w is None:
            w = np.exp(self.logw - self.logw.max())
            self._w = w / w.sum()
        return self._w

    def matching(self, rules: RuleSet, palifico: bool) -> IntArray:
        return matching_counts(rules, self.dice, self.shown, palifico)

    def full_counts(self) -> IntArray:
        full = hand_space(self.faces, self.dice).counts.copy()
        for d in self.shown:
            full[:, d - 1] += 1
        return full
