"""Fit ``expert``'s mixed play from three seats up (:mod:`perudo.bots.mixing`) by fictitious play.

The population is a table of ``expert`` bots all playing the current average mixture
``m̄_k`` = (opening-bluff rate, call temperature and shift, reading prior). Iteration
``k`` plays ``games`` self-play games of that population and, at decisions with three or more
seats holding dice, forks the round (:func:`branch_value`: the round played out twice from the
same state, the same dice and seeds, the two alternatives taken first, the deciding seat then
playing the population) at each of its *tables*: the population's own, and a table where
every other seat is a level of ``against`` (by default ``hard``: a mixture fitted against
``expert`` bots alone learned to bluff four openings in five, which ``hard`` punished). It
measures, from the deciding seat's side (dice it keeps, the others' dice lost shared among
them, as ``strong`` values a round):

* at an opening where the weakest-face bluff is open (:func:`~perudo.bots.deviations.
  weakest_face_opening`): the gain of the bluff over the chosen opening. The opener's best
  response is pure: bluff (rate 1) when the mean gain is positive at every table, else never
  (rate 0): a safe response, one no table punishes;
* at a call whose dudo and best raise are within ``window`` of each other by the bot's
  values (difference ``Δ``): the gain of the dudo over the raise. Where the fitted line of
  the gain on ``Δ`` crosses 0 is the indifference point ``c``; the call response mixes
  ``σ((Δ − c) / τ)`` with the widest ``τ`` whose value lost against the step at ``c`` the
  forks cannot tell from 0 at any table (:func:`call_fit`, the least ``τ`` of the tables),
  within the window it was measured on (:attr:`~perudo.bots.mixing.MixedPlay.call_window`);
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
from perudo.registry import make_bot
from perudo.sim.driver import play_out_round
from perudo.sim.match import play_game
from perudo.solve.expert import ExpertBot, robust_strong

__all__ = ["POPULATION", "FitStep", "branch_value", "call_fit", "fit_mixed_play"]

TEMPERATURES = np.geomspace(0.002, 2.0, 61)
"""The call temperatures the maximum-likelihood search considers."""


@dataclass
class FitStep:
    """What one iteration measured and the average mixture after it."""

    iteration: int
    games: int
    gains: dict[str, tuple[float, float, int]]
    """Per table: the opening bluff's mean gain over the chosen opening (the opener's side, in
    dice), its standard error and the forks it rests on."""
    calls: dict[str, int]
    """Per table: the call forks."""
    call_shift: float
    """This iteration's indifference point ``c`` of the call forks (every table's)."""
    call_temperatures: dict[str, float]
    """Per table: this iteration's ``τ`` of the call forks (the response is the least)."""
    revealed: int
    """Revealed openings the reading prior rests on."""
    reading_rate: float
    play: MixedPlay = field(default_factory=MixedPlay)
    """The average mixture after this iteration."""


def _population(seed: int, play: MixedPlay) -> StrongBot:
    return robust_strong(seed, mixing=play)


def branch_value(
    state: GameState,
    seat: int,
    first: PlayerAction,
    play: MixedPlay,
    seed: int,
    others: str | None = None,
) -> float:
    """``seat``'s value of the round under way when it plays ``first`` now and then plays the
    population ``play``, every other seat the population too or, with ``others``, that bot
    level (fresh bots seeded from ``seed``, dice re-rolls from ``seed``): its dice change, plus
    the other seats' dice lost shared among them."""
    rng = random.Random(seed)
    n = len(state.dice_counts)
    bots: list[Bot] = []
    for s in range(n):
        bot_seed = rng.getrandbits(62)
        if others is None or s == seat:
            bots.append(_population(bot_seed, play))
        else:
            bots.append(make_bot(others, bot_seed))

    def act(s: GameState, who: int) -> PlayerAction:
        return bots[who].act(view(s, who))

    def calza(s: GameState, who: int) -> bool:
        return bots[who].call_calza(view(s, who))

    after, _ = apply(state, first, seat)
    # A dudo or calza settles the round at once: nothing more of it to play.
    end = after if after.round != state.round else play_out_round(after, rng, act, calza)
    before = state.dice_counts
    change = [end.dice_counts[s] - before[s] for s in range(n)]
    rest = [s for s in range(n) if s != seat and before[s]]
    return change[seat] - sum(change[s] for s in rest) / max(1, len(rest))


def _mean_se(xs: list[float]) -> tuple[float, float, int]:
    """Mean, standard error and count of ``xs`` (0, inf, 0 when empty)."""
    if not xs:
        return 0.0, math.inf, 0
    se = float(np.std(xs) / math.sqrt(len(xs))) if len(xs) > 1 else math.inf
    return float(np.mean(xs)), se, len(xs)


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
    against: tuple[str, ...] = ("hard",),
    progress: Callable[[FitStep], None] | None = None,
) -> tuple[MixedPlay, list[FitStep]]:
    """Fictitious play over the mixture (see the module docstring): the average after
    ``iterations`` iterations of ``games`` games each, and every iteration's figures. Each
    fork is played at the population's own table and at a table of each level of
    ``against`` (bot names); a response must hold at every one of them."""
    if players < 3 or iterations < 1 or games < 1 or window <= 0.0:
        raise ValueError(
            "fitting needs players >= 3, iterations >= 1, games >= 1 and window > 0, "
            f"not players={players}, iterations={iterations}, games={games}, window={window}"
        )
    tables = (POPULATION, *against)
    avg = MixedPlay(call_window=window)
    steps: list[FitStep] = []
    for k in range(iterations):
        bluffs: Measured = {t: [] for t in tables}
        calls: Calls = {t: [] for t in tables}
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
            ask = _forking(fallbacks, avg, window, fork_rng, tables, bluffs, calls)
            result = play_game(rules, bots, rng, ask=ask)
            final = view(result.record.replay(), None)
            temperature = fallbacks[0].settings.model.temperature
            for record, counts in finished_rounds(final):
                got = opening_evidence(rules, record, counts, temperature)
                if got is not None:
                    revealed.append(got[1:])
        gains = {t: _mean_se(g) for t, g in bluffs.items()}
        response_bluff = 1.0 if all(g[2] and g[0] > 0.0 for g in gains.values()) else 0.0
        shift, _ = call_fit([p for t in tables for p in calls[t]], avg)
        taus = {t: call_fit(calls[t], avg)[1] for t in tables}
        tau = min(taus.values())
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
            gains=gains,
            calls={t: len(c) for t, c in calls.items()},
            call_shift=shift,
            call_temperatures=taus,
            revealed=len(revealed),
            reading_rate=rate,
            play=avg,
        )
        steps.append(step)
        if progress is not None:
            progress(step)
    return avg, steps


POPULATION = "expert"
"""The name the population's own table goes by in :attr:`FitStep.gains` and ``against``."""


Measured = dict[str, list[float]]
Calls = dict[str, list[tuple[float, float]]]


def _forking(
    fallbacks: list[StrongBot],
    play: MixedPlay,
    window: float,
    rng: random.Random,
    tables: tuple[str, ...],
    bluffs: Measured,
    calls: Calls,
) -> Callable[[GameState, int, Bot, PlayerView], PlayerAction]:
    """The game's ``ask``: fork where the fit learns (three seats up), then play as usual."""

    def ask(state: GameState, seat: int, bot: Bot, seat_view: PlayerView) -> PlayerAction:
        if sum(1 for c in state.dice_counts if c) >= 3:
            _fork(state, seat, seat_view, fallbacks[seat], play, window, rng, tables, bluffs, calls)
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
    tables: tuple[str, ...],
    bluffs: Measured,
    calls: Calls,
) -> None:
    """Fork the round at ``seat``'s decision where the fit learns from it (see
    :func:`fit_mixed_play`), once per table, appending what it measured."""
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
        for table in tables:
            others = None if table == POPULATION else table
            gain = branch_value(state, seat, bluff, play, seed, others) - branch_value(
                state, seat, best, play, seed, others
            )
            bluffs.setdefault(table, []).append(gain)
        return
    dudo = values.get(Dudo())
    raises = [a for a in seat_view.legal if isinstance(a, Bid) and a in values]
    if dudo is None or not raises:
        return
    top = max(raises, key=lambda a: values[a])
    delta = dudo - values[top]
    if abs(delta) >= window:
        return
    for table in tables:
        others = None if table == POPULATION else table
        gain = branch_value(state, seat, Dudo(), play, seed, others) - branch_value(
            state, seat, top, play, seed, others
        )
        calls.setdefault(table, []).append((delta, gain))
