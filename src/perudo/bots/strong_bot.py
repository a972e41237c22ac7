"""``strong``: reads the other seats' hands from their bids and exploits how they decide.

Two parts:

* **Beliefs** (:mod:`perudo.bots.beliefs`): a Bayesian belief over every other seat's hand,
  updated on each of its bids (and passes, and dice it sets aside) under a model of a player
  who bids by exact chances (from three seats up, half of them reading the bids before theirs:
  :attr:`~perudo.bots.beliefs.BidModel.reads_bids`). The table's count for any face is then
  the convolution of the per-seat posteriors with the bot's own dice, which gives the chance
  that any bid is true or exact far more sharply than the binomial alone.
* **Evaluation**: each candidate action is scored by the expected change in dice it brings,
  its own loss counted against the other seats' losses (weighted ``1 / (players − 1)``, so a
  heads-up die lost by the opponent is as good as one kept):

  - dudo and calza are settled at once: their values come straight from the posterior count;
  - a raise is evaluated against the hands the next seat may hold, weighted by its belief:
    for each such hand, the chance that seat calls dudo (its modelled choice between dudo and
    its best raises) and the chance the raise is then false given that hand; if it raises
    instead, the round goes on and the bot is charged an even share of the round's die
    (``continuation / players``).

  Raises considered: per face, the smallest legal quantity and a few above it.

All of it reads the seat's :class:`~perudo.core.PlayerView` only (P-70). The choice is the
best value (ties: the earlier legal action), so the bot is deterministic; :meth:`StrongBot.policy`
states it as a point mass. ``mixed_expert``'s fallback adds a fitted mixture from three seats up
(:attr:`StrongSettings.mixing`, :mod:`perudo.bots.mixing`). Cost: a few milliseconds a
decision at six players of five dice (``perudo bench-bots`` prints the figures).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from perudo.core import (
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    Pass,
    PlayerAction,
    PlayerView,
    SetAside,
    count_hand,
    next_seat,
)

from .base import BotBase
from .beliefs import Beliefs, BidModel, FloatArray, lowest_raises
from .mixing import MixedPlay, mixed_policy
from .openings import OpeningReader, OpeningTrust
from .prob_bot import ProbBot, sample_policy
from .switches import SwitchReader

__all__ = ["StrongBot", "StrongSettings"]


@dataclass(frozen=True, slots=True)
class StrongSettings:
    """The knobs of :class:`StrongBot`."""

    model: BidModel = field(default_factory=BidModel)
    """How the other seats are assumed to bid (for beliefs and their replies)."""
    continuation: float = 0.9
    """A round that goes on costs this bot ``continuation / players in`` of a die."""
    jumps: int = 3
    """Raises considered per face: the smallest legal quantity and this many above it."""
    others_weight: float = 1.0
    """Weight of the other seats' dice lost, shared among them (1: heads-up zero-sum)."""
    openings: OpeningTrust | None = None
    """Read each opponent's openings with its own opening-bluff rate, learned from the hands
    revealed at calls (:mod:`perudo.bots.openings`; ``expert``'s fallback); ``None``: every
    opening as the model's honest opener (``strong``)."""
    switches: OpeningTrust | None = None
    """Read each opponent's switches to the wild face with its own switch-bluff rate, learned
    from the hands revealed at calls (:mod:`perudo.bots.switches`; ``expert``'s fallback);
    ``None``: every switch as the model's honest bidder (``strong``)."""
    mixing: MixedPlay | None = None
    """From three seats up, mix the opening bluff and the call at the fitted frequencies
    (:mod:`perudo.bots.mixing`; ``mixed_expert``'s fallback, not ``expert``'s); ``None``:
    deterministic (``strong``, ``expert``)."""


class StrongBot(BotBase):
    """Bayesian beliefs from bids plus a one-reply evaluation; see the module docstring."""

    name = "strong"

    def __init__(
        self,
        seed: int | None = None,
        *,
        settings: StrongSettings | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(seed)
        self.settings = settings if settings is not None else StrongSettings()
        self._beliefs: Beliefs | None = None
        trust = self.settings.openings
        self._openings = (
            OpeningReader(trust, self.settings.model.temperature) if trust is not None else None
        )
        switches = self.settings.switches
        self._switches = (
            SwitchReader(switches, self.settings.model) if switches is not None else None
        )
        self._fallback = ProbBot(seed, temperature=0.0)
        if name is not None:
            self.name = name

    # -- beliefs ----------------------------------------------------------------------------

    def beliefs(self, view: PlayerView) -> Beliefs:
        """The beliefs for ``view``'s round, brought up to date (read incrementally)."""
        b = self._beliefs
        if b is not None and b.matches(view):
            b.update(view)
            return b
        rates = self._openings.rates(view) if self._openings is not None else None
        switch_rates = self._switches.rates(view) if self._switches is not None else None
        b = Beliefs(view, self.settings.model, rates, switch_rates)
        self._beliefs = b
        return b

    # -- evaluation -------------------------------------------------------------------------

    def _net(self, view: PlayerView, own_loss: float) -> float:
        """Value of a round settled by one die lost: by this seat with ``own_loss``."""
        others = sum(1 for c in view.dice_counts if c) - 1
        weight = self.settings.others_weight / max(1, others)
        return -own_loss + weight * (1.0 - own_loss)

    def values(self, view: PlayerView) -> dict[PlayerAction, float]:
        """Each action considered and its value (expected dice, see the module docstring)."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action now ({view.phase.value})")
        seat = view.seat
        assert seat is not None
        if not view.my_turn:
            return {}
        rules = view.rules
        beliefs = self.beliefs(view)
        players_in = sum(1 for c in view.dice_counts if c)
        r_cont = self.settings.continuation / players_in
        own_full = tuple(view.hand) + tuple(view.shown[seat])
        dists: dict[int, FloatArray] = {}

        def own(face: int) -> int:
            return count_hand(rules, own_full, face, view.palifico)

        def dist(face: int) -> FloatArray:
            d = dists.get(face)
            if d is None:
                d = dists[face] = beliefs.count_distribution(face, own(face))
            return d

        def chance(bid: Bid) -> float:
            d = dist(bid.face)
            return float(d[bid.quantity :].sum()) if bid.quantity < len(d) else 0.0

        out: dict[PlayerAction, float] = {}
        legal_bids = [a for a in view.legal if isinstance(a, Bid)]
        out.update(self._raise_values(view, beliefs, legal_bids, own, r_cont))
        fallback: dict[PlayerAction, float] | None = None
        for action in view.legal:
            if isinstance(action, Dudo):
                if view.passer is not None:
                    held = beliefs.pass_truth(view.passer)
                else:
                    held = chance(view.bid) if view.bid is not None else 1.0
                out[action] = self._net(view, held)
            elif isinstance(action, Calza):
                assert view.bid is not None
                d = dist(view.bid.face)
                exact = float(d[view.bid.quantity]) if view.bid.quantity < len(d) else 0.0
                gain = 1.0 if view.dice_counts[seat] < rules.dice_per_player else 0.0
                out[action] = exact * gain - (1.0 - exact)
            elif isinstance(action, Pass):
                true = len(set(own_full)) == len(own_full)
                out[action] = self._net(view, 0.8 * r_cont if true else 0.5)
            elif isinstance(action, ChoosePalifico):
                out[action] = 0.01 if action.palifico else 0.0
            elif isinstance(action, SetAside):
                if fallback is None:
                    fallback = self._fallback.utilities(view)
                if action in fallback:  # prob's candidates: the dice that fit one face
                    risk = 0.5 * (1.0 - fallback[action]) + 0.5 * r_cont
                    out[action] = self._net(view, risk)
        return out

    def _raise_values(
        self,
        view: PlayerView,
        beliefs: Beliefs,
        legal_bids: list[Bid],
        own: Callable[[int], int],
        r_cont: float,
    ) -> dict[PlayerAction, float]:
        """Each candidate raise, valued against the next seat's possible hands and replies."""
        if not legal_bids:
            return {}
        rules = view.rules
        seat = view.seat
        assert seat is not None
        total = view.total_dice
        settings = self.settings
        temp = settings.model.temperature
        bluff = settings.model.bluff
        lowest: dict[int, int] = {}
        for b in legal_bids:
            if b.face not in lowest or b.quantity < lowest[b.face]:
                lowest[b.face] = b.quantity
        legal_set = set(legal_bids)
        nxt = next_seat(view.dice_counts, seat)
        belief = beliefs.seats.get(nxt)
        out: dict[PlayerAction, float] = {}
        for face, q0 in lowest.items():
            quantities = [
                q
                for q in range(q0, min(total, q0 + settings.jumps) + 1)
                if Bid(q, face) in legal_set
            ]
            if not quantities:
                continue
            own_count = own(face)
            if belief is None:  # no other seat with beliefs (cannot happen in a real round)
                for q in quantities:
                    out[Bid(q, face)] = self._net(view, r_cont)
                continue
            rest = beliefs.count_distribution(face, own_count, exclude=(nxt,))
            cdf = np.concatenate([[0.0], np.cumsum(rest)])  # cdf[x] = P(rest < x)
            m = belief.matching(rules, view.palifico)
            w = belief.weights()
            mj = m[:, face - 1]
            qs = np.array(quantities, dtype=np.int64)
            fs = np.full(len(qs), face - 1, dtype=np.int64)
            # The next seat's own chance that each raise is true, per hand it may hold (as a
            # bidder who reads bids, or not: the model's mixture).
            readings = beliefs.readings()
            their = [beliefs.actor_chances(nxt, qs, fs, m, reads) for _, reads in readings]
            one_die = view.dice_counts[nxt] == 1
            for k, q in enumerate(quantities):
                bid = Bid(q, face)
                need = np.clip(q - mj, 0, len(cdf) - 1)
                false = cdf[need]  # P(bid false | next seat's hand)
                replies = lowest_raises(rules, bid, total, view.palifico, one_die)
                if replies:
                    rq = np.array([r.quantity for r in replies], dtype=np.int64)
                    rf = np.array([r.face - 1 for r in replies], dtype=np.int64)
                    p_dudo = np.zeros(len(mj))
                    for (share, reads), chances in zip(readings, their, strict=True):
                        dudo_logit = (1.0 - chances[:, k]) / temp
                        raise_logits = beliefs.actor_chances(nxt, rq, rf, m, reads) / temp
                        top = np.maximum(raise_logits.max(axis=1), dudo_logit)
                        z = np.exp(dudo_logit - top)
                        z = z + np.exp(raise_logits - top[:, None]).sum(axis=1)
                        p_dudo += share * np.exp(dudo_logit - top) / z
                    p_dudo = bluff / (len(replies) + 1) + (1.0 - bluff) * p_dudo
                else:
                    p_dudo = np.ones(len(mj))
                p_chal = float(w @ p_dudo)
                lose = float(w @ (p_dudo * false))
                win = p_chal - lose
                others = sum(1 for c in view.dice_counts if c) - 1
                weight = settings.others_weight / max(1, others)
                out[bid] = -lose + weight * win + (1.0 - p_chal) * self._net(view, r_cont)
        return out

    def best_action(self, view: PlayerView, values: dict[PlayerAction, float]) -> PlayerAction:
        """The best-valued action (ties: the earlier legal one)."""
        best: PlayerAction | None = None
        best_value = -np.inf
        for action in view.legal:
            v = values.get(action)
            if v is not None and v > best_value:
                best, best_value = action, v
        return best if best is not None else view.legal[0]

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The action it takes with probability 1 (``strong`` is deterministic); with
        :attr:`StrongSettings.mixing`, the fitted mixture around it from three seats up."""
        values = self.values(view)
        best = self.best_action(view, values)
        mixing = self.settings.mixing
        if mixing is None:
            return {best: 1.0}
        return mixed_policy(view, values, best, mixing)

    def act(self, view: PlayerView) -> PlayerAction:
        policy = self.policy(view)
        if len(policy) == 1:
            return next(iter(policy))
        return sample_policy(policy, self.rng.random())

    def call_calza(self, view: PlayerView) -> bool:
        """Out of turn (P-50): call when the posterior chance of an exact bid makes it worth
        more than staying in the round."""
        if not self.can_calza_out_of_turn(view) or view.seat is None or view.bid is None:
            return False
        seat = view.seat
        if view.dice_counts[seat] >= view.rules.dice_per_player:
            return False
        beliefs = self.beliefs(view)
        own_full = tuple(view.hand) + tuple(view.shown[seat])
        own = count_hand(view.rules, own_full, view.bid.face, view.palifico)
        d = beliefs.count_distribution(view.bid.face, own)
        exact = float(d[view.bid.quantity]) if view.bid.quantity < len(d) else 0.0
        players_in = sum(1 for c in view.dice_counts if c)
        stay = self._net(view, self.settings.continuation / players_in)
        return exact - (1.0 - exact) > stay
