"""Fit ``expert``'s mixed play from three seats up (:mod:`perudo.bots.mixing`) by fictitious play.

The population is a table of ``expert``\\ s all playing the current average mixture
:math:`\\bar m_k` = (opening-bluff rate, call temperature, reading prior). Iteration ``k`` plays
``games`` self-play games of that population and, at decisions with three or more seats holding
dice, forks the round (:func:`branch_value`: the round played out twice from the same state by
fresh bots of the population, the same dice and seeds, the two alternatives taken first) to
measure, from the deciding seat's side (dice it keeps, the others' dice lost shared among
them, as ``strong`` values a round):

* at an opening where the weakest-face bluff is open (:func:`~perudo.bots.deviations.
  weakest_face_opening`): the gain of the bluff over the chosen opening. The opener's best
  response to a table reading openings at the average rate is pure: bluff (rate 1) when the
  mean gain is positive, else never (rate 0);
* at a call whose dudo and best raise are within ``window`` of each other by the bot's
  values (difference ``Δ``): the gain of the dudo over the raise. Where the fitted line of
  the gain on ``Δ`` crosses 0 is the indifference point ``c``; the call response mixes
  ``σ((Δ − c) / τ)`` with the widest ``τ`` whose value lost against the step at ``c`` the
  forks cannot tell from 0 (:func:`call_fit`), within the window it was measured on
  (:attr:`~perudo.bots.mixing.MixedPlay.call_window`);
* from the hands revealed at calls: the maximum-likelihood opening-bluff rate of the
  population's own openings (:func:`~perudo.bots.openings.fixed_point`), the rate a table
  of them should read openings with.

Fictitious play averages each response into the population:
``m̄_{k+1} = m̄_k + (response_k − m̄_k) / (k + 2)`` (the starting point, today's deterministic
``expert``, counts as the first strategy). The command is ``benchmarks/mixed_fit.py``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from perudo.bots.base import Bot
from perudo.bots.deviations import weakest_face_opening
from perudo.bots.mixing import BLUFF_FLOOR, MixedPlay
from perudo.bots.openings import finished_rounds, fixed_point, opening_evidence
from perudo.bots.strong_bot import StrongBot
from perudo.core import (
    Bid,
    Dudo,
    GameState,
    Phase,
    PlayerAction,
    PlayerView,
    RuleSet,
    apply,
    view,
)
from perudo.sim.driver import play_out_round
from perudo.sim.match import play_game
from perudo.solve.expert import ExpertBot, robust_strong

__all__ = ["FitStep", "branch_value", "call_fit", "fit_mixed_play"]

TEMPERATURES = np.geomspace(0.002, 2.0, 61)
"""The call temperatures the maximum-likelihood search considers."""


@dataclass
class FitStep:
    """What one iteration measured and the average mixture after it."""

    iteration: int
    games: int
    openings: int
    """Opening forks (bluff against the chosen bid)."""
    bluff_gain: float
    """Their mean gain of the bluff, in dice (the opener's side)."""
    bluff_gain_se: float
    calls: int
    """Call forks."""
    call_shift: float
    """This iteration's indifference point ``c`` of the call forks."""
    call_temperature: float
    """This iteration's ``τ`` of the call forks."""
    revealed: int
    """Revealed openings the reading prior rests on."""
    reading_rate: float
    play: MixedPlay = field(default_factory=MixedPlay)
    """The average mixture after this iteration."""


def _population(seed: int, play: MixedPlay) -> StrongBot:
    return robust_strong(seed, mixing=play)


def branch_value(
    state: GameState, seat: int, first: PlayerAction, play: MixedPlay, seed: int
) -> float:
    """``seat``'s value of the round under way when it plays ``first`` now and every seat then
    plays the population ``play`` (fresh bots seeded from ``seed``, dice re-rolls from
    ``seed``): its dice change, plus the other seats' dice lost shared among them."""
    rng = random.Random(seed)
    n = len(state.dice_counts)
    bots = [_population(rng.getrandbits(62), play) for _ in range(n)]

    def act(s: GameState, who: int) -> PlayerAction:
        return bots[who].act(view(s, who))

    def calza(s: GameState, who: int) -> bool:
        return bots[who].call_calza(view(s, who))

    after, _ = apply(state, first, seat)
    # A dudo or calza settles the round at once: nothing more of it to play.
    end = after if after.round != state.round else play_out_round(after, rng, act, calza)
    before = state.dice_counts
    change = [end.dice_counts[s] - before[s] for s in range(n)]
    others = [s for s in range(n) if s != seat and before[s]]
    return change[seat] - sum(change[s] for s in others) / max(1, len(others))


def call_fit(pairs: list[tuple[float, float]], default: MixedPlay) -> tuple[float, float]:
    """``(c, τ)`` from ``pairs`` of ``(Δ, gain of the dudo over the best raise)``: ``c`` where
    the least-squares line of the gain on ``Δ`` crosses 0 (the indifference point; within the
    pairs' range of ``Δ``, else 0), and ``τ`` the widest mixture ``σ((Δ − c) / τ)`` whose
    value lost against the step at ``c``, estimated on the pairs, stays within two standard
    errors of 0 (so as mixed as the self-play data cannot tell from the best pure call). With
    fewer than 8 pairs: ``default``'s."""
    if len(pairs) < 8:
        return default.call_shift, default.call_temperature
    d = np.array([x for x, _ in pairs])
    g = np.array([y for _, y in pairs])
    slope, intercept = np.polyfit(d, g, 1)
    shift = float(-intercept / slope) if slope > 0.0 else 0.0
    if not d.min() <= shift <= d.max():
        shift = 0.0
    step = (d > shift).astype(float)
    tau = 0.0
    for t in TEMPERATURES:
        mix = 1.0 / (1.0 + np.exp(-np.clip((d - shift) / t, -700.0, 700.0)))
        lost = (step - mix) * g
        if lost.mean() > 2.0 * lost.std() / math.sqrt(len(lost)):  # the data tells: stop
            break
        tau = float(t)
    return shift, tau


def fit_mixed_play(
    rules: RuleSet,
    *,
    players: int = 4,
    iterations: int = 6,
    games: int = 30,
    seed: int = 1,
    window: float = 0.25,
    progress: Callable[[FitStep], None] | None = None,
) -> tuple[MixedPlay, list[FitStep]]:
    """Fictitious play over the mixture (see the module docstring): the average after
    ``iterations`` iterations of ``games`` games each, and every iteration's figures."""
    if players < 3 or iterations < 1 or games < 1 or window <= 0.0:
        raise ValueError(
            "fitting needs players >= 3, iterations >= 1, games >= 1 and window > 0, "
            f"not players={players}, iterations={iterations}, games={games}, window={window}"
        )
    avg = MixedPlay(call_window=window)
    steps: list[FitStep] = []
    for k in range(iterations):
        bluffs: list[float] = []
        calls: list[tuple[float, float]] = []
        revealed: list[tuple[float, float]] = []
        for g in range(games):
            rng = random.Random((seed * 1_000_003 + k) * 1_000_003 + g)
            fallbacks: list[StrongBot] = []
            bots: list[Bot] = []
            for _ in range(players):
                s = rng.getrandbits(62)
                fb = _population(s, avg)
                fallbacks.append(fb)
                bots.append(ExpertBot(s, fallback=fb))
            fork_rng = random.Random(rng.getrandbits(62))
            ask = _forking(fallbacks, avg, window, fork_rng, bluffs, calls)
            result = play_game(rules, bots, rng, ask=ask)
            final = view(result.record.replay(), None)
            temperature = fallbacks[0].settings.model.temperature
            for record, counts in finished_rounds(final):
                got = opening_evidence(rules, record, counts, temperature)
                if got is not None:
                    revealed.append(got[1:])
        gain = float(np.mean(bluffs)) if bluffs else 0.0
        se = float(np.std(bluffs) / math.sqrt(len(bluffs))) if len(bluffs) > 1 else math.inf
        response_bluff = 1.0 if bluffs and gain > 0.0 else 0.0
        shift, tau = call_fit(calls, avg)
        rate = fixed_point(revealed) if revealed else avg.reading_prior
        w = 1.0 / (k + 2)
        avg = MixedPlay(
            opening_bluff=avg.opening_bluff + w * (response_bluff - avg.opening_bluff),
            call_temperature=avg.call_temperature + w * (tau - avg.call_temperature),
            call_shift=avg.call_shift + w * (shift - avg.call_shift),
            call_window=window,
            reading_prior=min(0.8, avg.reading_prior + w * (rate - avg.reading_prior)),
        )
        step = FitStep(
            iteration=k,
            games=games,
            openings=len(bluffs),
            bluff_gain=gain,
            bluff_gain_se=se,
            calls=len(calls),
            call_shift=shift,
            call_temperature=tau,
            revealed=len(revealed),
            reading_rate=rate,
            play=avg,
        )
        steps.append(step)
        if progress is not None:
            progress(step)
    return avg, steps


def _forking(
    fallbacks: list[StrongBot],
    play: MixedPlay,
    window: float,
    rng: random.Random,
    bluffs: list[float],
    calls: list[tuple[float, float]],
) -> Callable[[GameState, int, Bot, PlayerView], PlayerAction]:
    """The game's ``ask``: fork where the fit learns (three seats up), then play as usual."""

    def ask(state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> PlayerAction:
        if sum(1 for c in state.dice_counts if c) >= 3:
            _fork(state, seat, seat_view, fallbacks[seat], play, window, rng, bluffs, calls)
        return bot.act(seat_view)

    return ask


def _fork(
    state: GameState,
    seat: int,
    seat_view: PlayerView,
    bot: StrongBot,
    play: MixedPlay,
    window: float,
    rng: random.Random,
    bluffs: list[float],
    calls: list[tuple[float, float]],
) -> None:
    """Fork the round at ``seat``'s decision where the fit learns from it (see
    :func:`fit_mixed_play`), appending what it measured."""
    if state.phase is not Phase.BIDDING or state.to_act != seat:
        return
    values = bot.values(seat_view)
    if not values:
        return
    best = bot.best_action(seat_view, values)
    seed = rng.getrandbits(62)
    if seat_view.bid is None:
        if seat_view.palifico or not isinstance(best, Bid):
            return
        bluff = weakest_face_opening(seat_view, best, BLUFF_FLOOR)
        if bluff == best:
            return
        bluffs.append(
            branch_value(state, seat, bluff, play, seed)
            - branch_value(state, seat, best, play, seed)
        )
        return
    dudo = values.get(Dudo())
    raises = [a for a in seat_view.legal if isinstance(a, Bid) and a in values]
    if dudo is None or not raises:
        return
    top = max(raises, key=lambda a: values[a])
    delta = dudo - values[top]
    if abs(delta) >= window:
        return
    gain = branch_value(state, seat, Dudo(), play, seed) - branch_value(
        state, seat, top, play, seed
    )
    calls.append((delta, gain))
