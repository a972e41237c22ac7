"""Local best response (LBR): a sound lower bound on a heads-up player's exploitability where
exact best responses do not fit (3v3 and up).

LBR (Lisý and Bowling, 2017) is a concrete strategy that plays against a player who states its
action probabilities (``policy(view) -> {action: probability}``, P-70: the bot is shown only
what a seat sees, views built by :func:`perudo.core.view` from states played through
:func:`perudo.core.apply`):

* it keeps an exact Bayesian belief over the other player's hand: the chance of rolling each
  hand (P-3), times the probability the player's policy gave every action it took this round,
  asked of the view that hand would have;
* at its own turn it takes the action of highest one-step value under that belief: a challenge
  is settled exactly by the counts (P-20, with the wild rules of the round, via
  :class:`~perudo.solve.game.RoundGame`'s utilities from the core); a raise is valued by the
  other player's stated reply to it, hand by hand: a challenge of the raise settled by the
  counts, and any raise in reply valued as if LBR then challenged it.

LBR plays a real strategy, so its average payoff against the player over sampled rounds is a
lower bound on what a best response wins; with the seats alternated the mean is a lower bound
on the exploitability in OpenSpiel's convention (``(br0 + br1) / 2``). The figure comes with a
95% interval (normal, over independent rounds). At one die each :meth:`LocalBestResponse.value`
computes LBR's expected payoff exactly (every deal, every branch of the player's policy), and
the tests check it against the exact best response (``perudo.solve.exploit``).

Built from the core and the player's ``policy`` only; nothing here knows how the bot decides.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from perudo.core import Bid, Dudo, PlayerAction
from perudo.core import view as view_of

from .game import RoundGame
from .vector import Array

__all__ = ["DUDO", "LBRResult", "LocalBestResponse", "lbr_match"]

DUDO = -1
"""The challenge, beside bid ranks, in LBR's action numbering."""

Policy = Callable[[Any], Any]


class LocalBestResponse:
    """LBR in the seat of ``player`` (0: the opener) of ``game`` against ``policy``.

    ``raises_per_face``: LBR considers, at its turns, the challenge and the lowest
    ``raises_per_face`` legal raises of each face (every legal raise with ``0``). Fewer
    candidates make it faster; any choice keeps it a strategy, so the bound stays sound.
    """

    def __init__(
        self, game: RoundGame, policy: Policy, player: int, *, raises_per_face: int = 2
    ) -> None:
        if player not in (0, 1):
            raise ValueError(f"player is 0 (the opener) or 1, not {player}")
        self.game = game
        self.policy = policy
        self.me = player
        self.opp = 1 - player
        self.raises_per_face = raises_per_face
        self._cache: dict[tuple[int, tuple[int, ...]], dict[int, float]] = {}
        self.calls = 0
        """Views the player's policy was asked about (each (hand, history) once)."""
        self.faces = np.array([b.face - 1 for b in game.bids], dtype=np.int64)
        self._filler = game.hands[player].hands[0]

    # -- the other player's stated policy -----------------------------------------------------

    def opp_policy(self, hand: int, history: tuple[int, ...]) -> dict[int, float]:
        """The other player's probabilities at ``history`` holding its hand number ``hand``:
        ``{rank: p, DUDO: p}``, asked of the view that hand would have (P-70)."""
        key = (hand, history)
        got = self._cache.get(key)
        if got is not None:
            return got
        g = self.game
        opp_hand = g.hands[self.opp].hands[hand]
        pair = (self._filler, opp_hand) if self.me == 0 else (opp_hand, self._filler)
        state = g.play(pair[0], pair[1], history)
        probs: dict[PlayerAction, float] = dict(self.policy(view_of(state, self.opp)))
        self.calls += 1
        out: dict[int, float] = {}
        for action, pr in probs.items():
            if pr <= 0.0:
                continue
            if isinstance(action, Dudo):
                out[DUDO] = out.get(DUDO, 0.0) + float(pr)
            elif isinstance(action, Bid) and action in g.ranks:
                out[g.ranks[action]] = float(pr)
            else:
                raise ValueError(f"the policy plays {action}, which LBR's round does not have")
        total = sum(out.values())
        if total <= 0.0:
            raise ValueError("the policy states no action")
        out = {a: p / total for a, p in out.items()}
        self._cache[key] = out
        return out

    def prior(self) -> Array:
        return self.game.hands[self.opp].weights.copy()

    def observe(self, belief: Array, history: tuple[int, ...], action: int) -> Array:
        """The belief after the other player took ``action`` at ``history`` (Bayes)."""
        like = np.array(
            [
                self.opp_policy(h, history).get(action, 0.0) if belief[h] > 0.0 else 0.0
                for h in range(len(belief))
            ]
        )
        out: Array = belief * like
        return out

    # -- values ------------------------------------------------------------------------------

    def _payoff(self, rank: int, bidder: int, mine: int, opp: Array | int) -> Array:
        """LBR's payoff of a challenge of ``bidder``'s bid ``rank``, by the other's hand."""
        f = int(self.faces[rank])
        g = self.game
        count = g.counts[self.me][mine, f] + g.counts[self.opp][opp, f]
        pay = g.utility[rank, bidder][count]
        return np.asarray(pay if self.me == 0 else -pay, dtype=np.float64)

    def candidates(self, history: tuple[int, ...]) -> list[int]:
        """LBR's actions at ``history``: the challenge (after a bid) and raises."""
        g = self.game
        last = history[-1] if history else -1
        legal = g.opening if last < 0 else g.raise_ok[self.me][last]
        ranks = [r for r in range(last + 1, g.num_bids) if legal[r]]
        if self.raises_per_face > 0:
            seen: dict[int, int] = {}
            kept = []
            for r in ranks:
                f = int(self.faces[r])
                if seen.get(f, 0) < self.raises_per_face:
                    seen[f] = seen.get(f, 0) + 1
                    kept.append(r)
            ranks = kept
        return ([DUDO] if history else []) + ranks

    def action_values(self, mine: int, history: tuple[int, ...], belief: Array) -> dict[int, float]:
        """One-step values of LBR's candidates under ``belief`` (normalized here)."""
        live = np.flatnonzero(belief > 0.0)
        w = belief[live] / belief[live].sum()
        out: dict[int, float] = {}
        for a in self.candidates(history):
            if a == DUDO:
                out[a] = float(w @ self._payoff(history[-1], self.opp, mine, live))
                continue
            nxt = (*history, a)
            total = 0.0
            for h, wh in zip(live, w, strict=True):
                v = 0.0
                for b, pb in self.opp_policy(int(h), nxt).items():
                    if b == DUDO:
                        v += pb * float(self._payoff(a, self.me, mine, int(h)))
                    else:
                        v += pb * float(self._payoff(b, self.opp, mine, int(h)))
                total += wh * v
            out[a] = total
        return out

    def choose(self, mine: int, history: tuple[int, ...], belief: Array) -> int:
        """LBR's action: the best one-step value (the first of equals, in candidate order)."""
        values = self.action_values(mine, history, belief)
        return max(values, key=lambda a: values[a])

    # -- playing -----------------------------------------------------------------------------

    def play(self, mine: int, opp: int, rng: random.Random) -> float:
        """One round with these hands (numbers in ``game.hands``); LBR's payoff (±1 …)."""
        history: tuple[int, ...] = ()
        belief = self.prior()
        to_act = 0
        while True:
            if to_act == self.me:
                a = self.choose(mine, history, belief)
                if a == DUDO:
                    return float(self._payoff(history[-1], self.opp, mine, opp))
            else:
                pol = self.opp_policy(opp, history)
                x = rng.random()
                acc = 0.0
                a = next(iter(pol))
                for b, pb in pol.items():
                    acc += pb
                    a = b
                    if x < acc:
                        break
                if a == DUDO:
                    return float(self._payoff(history[-1], self.me, mine, opp))
                belief = self.observe(belief, history, a)
            history = (*history, a)
            to_act = 1 - to_act

    def value(self) -> float:
        """LBR's expected payoff exactly: every deal, every branch of the other player's
        policy (small rounds only: the tree under the policy's support is walked)."""
        g = self.game
        total = 0.0
        for mine, wm in enumerate(g.hands[self.me].weights):
            for opp, wo in enumerate(g.hands[self.opp].weights):
                total += wm * wo * self._walk(mine, opp, (), self.prior())
        return total

    def _walk(self, mine: int, opp: int, history: tuple[int, ...], belief: Array) -> float:
        if len(history) % 2 == self.me:
            a = self.choose(mine, history, belief)
            if a == DUDO:
                return float(self._payoff(history[-1], self.opp, mine, opp))
            return self._walk(mine, opp, (*history, a), belief)
        v = 0.0
        for b, pb in self.opp_policy(opp, history).items():
            if b == DUDO:
                v += pb * float(self._payoff(history[-1], self.me, mine, opp))
            else:
                nxt = self.observe(belief, history, b)
                v += pb * self._walk(mine, opp, (*history, b), nxt)
        return v


@dataclass(frozen=True)
class LBRResult:
    """LBR's payoff against a player over sampled rounds, seats alternated."""

    rounds: int
    mean: float
    """LBR's mean payoff a round (both seats): a lower bound on the exploitability."""
    half_width: float
    """Half the 95% interval of :attr:`mean` (normal approximation)."""
    seat_means: tuple[float, float]
    """LBR's mean payoff as the opener, and as the responder."""
    calls: int

    @property
    def interval(self) -> tuple[float, float]:
        return self.mean - self.half_width, self.mean + self.half_width


def lbr_match(
    game: RoundGame,
    policy: Policy,
    rounds: int,
    *,
    seed: int = 0,
    raises_per_face: int = 2,
    seconds: float | None = None,
) -> LBRResult:
    """LBR against ``policy`` over ``rounds`` sampled rounds (LBR opens every other round),
    or as many as ``seconds`` allow. Hands are dealt by chance (P-3)."""
    import time

    rng = random.Random(seed)
    lbrs = [LocalBestResponse(game, policy, p, raises_per_face=raises_per_face) for p in (0, 1)]
    faces = game.rules.faces
    pays: list[list[float]] = [[], []]
    start = time.perf_counter()
    for i in range(rounds):
        if seconds is not None and i >= 2 and time.perf_counter() - start > seconds:
            break
        p = i % 2
        lbr = lbrs[p]
        dealt = [tuple(sorted(rng.randint(1, faces) for _ in range(game.dice[s]))) for s in (0, 1)]
        mine = game.hands[p].index[dealt[p]]
        opp = game.hands[1 - p].index[dealt[1 - p]]
        pays[p].append(lbr.play(mine, opp, rng))
    both = pays[0] + pays[1]
    n = len(both)
    mean = sum(both) / n
    var = sum((x - mean) ** 2 for x in both) / max(n - 1, 1)
    seat = tuple(sum(x) / len(x) if x else float("nan") for x in pays)
    return LBRResult(
        rounds=n,
        mean=mean,
        half_width=1.96 * math.sqrt(var / n),
        seat_means=(seat[0], seat[1]),
        calls=lbrs[0].calls + lbrs[1].calls,
    )
