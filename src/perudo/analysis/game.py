"""A whole game's analysis for one viewer: every decision judged, the chart, the turning points.

:func:`analyze` takes a game record and a viewer (a seat, or ``None`` for the public) and builds
everything from the core's views (P-70): :func:`decision_views` replays the record and hands
on, for each decision, only what :func:`perudo.core.view` shows the viewer, so nothing below it
can read a die the viewer did not see. A decision of the viewer's own is judged with its dice;
another seat's decision only when its hand was lifted at the table at the end of that round
(P-21), which everybody saw.

Each judged decision gets the chance that the standing bid holds given the decider's dice
(:func:`perudo.bots.probability.bid_probability`), the same chance under the ``expert``'s
beliefs from the bids (:class:`perudo.bots.beliefs.Beliefs`), the expert's choice and its mixed
strategy, and the loss of the decision against the expert's choice: exact where the shipped
book solves the round (:mod:`.exact`), estimated from rollouts elsewhere (:mod:`.rollouts`).
docs/analysis.md explains every figure.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import numpy as np

from perudo.bots.beliefs import Beliefs, BidModel
from perudo.bots.prob_bot import ProbBot
from perudo.bots.probability import bid_probability
from perudo.bots.strong_bot import StrongBot
from perudo.core import (
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    GameRecord,
    GameState,
    Pass,
    Phase,
    PlayerAction,
    PlayerView,
    SetAside,
    apply,
    count_hand,
    view,
)
from perudo.core.actions import action_to_json
from perudo.core.bidding import wild_active
from perudo.solve.expert import SHIPPED_BOOK, ExpertBot, StrategyBook
from perudo.solve.match import Position

from .chances import Chances, match_wins, rules_key, wins_after
from .exact import exact_values
from .reveal import every_hand, true_count
from .rollouts import estimate_actions, supported

__all__ = [
    "THRESHOLDS",
    "Analysis",
    "Decision",
    "analyze",
    "decision_views",
    "default_book",
    "explain",
    "label_of",
]

Label = Literal["good", "inaccuracy", "mistake", "blunder"]

THRESHOLDS: Final[tuple[tuple[float, Label], ...]] = (
    (0.20, "blunder"),
    (0.10, "mistake"),
    (0.05, "inaccuracy"),
)
"""Loss of the chance to win the round from which a decision gets each label (docs/analysis.md)."""

ROLLOUTS: Final = 32
"""Rollouts per estimated decision by default."""
CHART_GAMES: Final = 8
"""Self-play games per estimated point of the chart by default."""


_BOOK: list[StrategyBook] = []


def default_book() -> StrategyBook:
    """The analysis's book: the shipped one (and ``PERUDO_SOLVED``), with no solve started on
    demand: an analysis judges from what is solved, and never spends a core on solving."""
    if not _BOOK:
        book = StrategyBook(SHIPPED_BOOK, on_demand=0)
        extra = os.environ.get("PERUDO_SOLVED")
        if extra:
            book.load(extra)
        _BOOK.append(book)
    return _BOOK[0]


def label_of(loss: float) -> Label:
    """The label of a decision that gives up ``loss`` of the chance to win the round."""
    for threshold, label in THRESHOLDS:
        if loss >= threshold:
            return label
    return "good"


@dataclass(frozen=True)
class DecisionView:
    """One decision as the viewer may know it: the decider's view (its hand only where the
    viewer saw it), the action taken, and where it is in the record."""

    move: int
    """The index of the move in the record."""
    seat: int
    action: PlayerAction
    view: PlayerView
    """The decider's view as the viewer may know it: ``hand`` empty where the viewer did not
    see the decider's dice (then ``seat`` is ``None``: a spectator's view)."""


def _revealed(final: PlayerView) -> dict[tuple[int, int], tuple[int, ...]]:
    """The hands lifted at the table, by (round, seat), as ``final`` (the viewer's view at the
    end) shows them (P-21)."""
    out: dict[tuple[int, int], tuple[int, ...]] = {}
    for past in final.past:
        for reveal in past.result.reveals:
            out[(past.round, reveal.seat)] = tuple(sorted(reveal.hand))
    return out


def decision_views(record: GameRecord, viewer: int | None) -> Iterator[DecisionView]:
    """Every player decision of the game, as ``viewer`` (a seat, or ``None``: the public) may
    know it. Built from :func:`perudo.core.view` only (P-70): the viewer's own view at each
    decision, and for another seat's decision the public view with that seat's hand where it
    was lifted at the end of the round (P-21), nothing else.

    :raises IllegalActionError: for a record whose moves do not replay.
    """
    final = view(record.replay(), viewer)
    lifted = _revealed(final)
    state = record.replay(0)
    for i, (seat, action) in enumerate(record.moves):
        if (
            seat is not None
            and state.phase in (Phase.BIDDING, Phase.CHOOSE_PALIFICO)
            and isinstance(action, (Bid, Dudo, Calza, Pass, ChoosePalifico, SetAside))
        ):
            yield DecisionView(i, seat, action, _decider_view(state, seat, viewer, lifted))
        state, _ = apply(state, action, seat)


def _decider_view(
    state: GameState,
    seat: int,
    viewer: int | None,
    lifted: dict[tuple[int, int], tuple[int, ...]],
) -> PlayerView:
    if seat == viewer:
        return view(state, seat)
    public = view(state, viewer)
    hand = lifted.get((state.round, seat))
    if hand is None or any(public.shown) or public.must_raise:
        return dataclasses.replace(public, seat=None, hand=(), legal=())
    # The hand lifted at the table; what the decider could do follows from the public state
    # (set-asides name dice, and there are none here: no dice are shown this round).
    legal = tuple(a for a in view(state, seat).legal if not isinstance(a, SetAside))
    return dataclasses.replace(public, seat=seat, hand=hand, legal=legal)


@dataclass
class Decision:
    """One judged decision (see docs/analysis.md for every figure)."""

    move: int
    round: int
    seat: int
    action: PlayerAction
    hand: tuple[int, ...] | None
    """The decider's dice where the viewer saw them (else ``None``)."""
    bid: Bid | None
    """The standing bid the decision answered."""
    holds: float | None = None
    """Chance the standing bid holds given the decider's dice (or, without them, the dice
    nobody sees)."""
    holds_beliefs: float | None = None
    """The same chance under the expert's beliefs from the bids."""
    expert: PlayerAction | None = None
    policy: dict[PlayerAction, float] = field(default_factory=dict)
    """The expert's mixed strategy (exact book) or its choice (probability 1)."""
    method: Literal["exact", "estimate"] | None = None
    loss_round: float | None = None
    """Chance of winning the round given up against the expert's choice."""
    loss_game: float | None = None
    """Chance of winning the game given up: exact where the book holds the round, else
    estimated from the same rollouts, each outcome valued by the seat's chance to win the game
    after it (:func:`.chances.seat_chance`)."""
    low: float | None = None
    high: float | None = None
    """The 95% interval of an estimated ``loss_round``."""
    game_low: float | None = None
    game_high: float | None = None
    """The 95% interval of an estimated ``loss_game``."""
    rollouts: int = 0
    label: Label | None = None
    own_chance: float | None = None
    """For a bid: the chance it holds given the decider's own dice."""
    wild: int | None = None
    """The face wild in the decision's round (P-15, P-31, V-2), for a display."""

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "round": self.round,
            "seat": self.seat,
            "action": str(self.action),
            "action_info": action_to_json(self.action),
            "hand": None if self.hand is None else list(self.hand),
            "bid": None if self.bid is None else str(self.bid),
            "holds": self.holds,
            "holds_beliefs": self.holds_beliefs,
            "expert": None if self.expert is None else str(self.expert),
            "policy": [[str(a), p] for a, p in self.policy.items()],
            "method": self.method,
            "loss_round": self.loss_round,
            "loss_game": self.loss_game,
            "interval": None if self.low is None else [self.low, self.high],
            "game_interval": None if self.game_low is None else [self.game_low, self.game_high],
            "rollouts": self.rollouts,
            "label": self.label,
            "own_chance": self.own_chance,
            "wild": self.wild,
            "bid_info": None if self.bid is None else action_to_json(self.bid),
            "expert_info": None if self.expert is None else action_to_json(self.expert),
            "policy_info": [[action_to_json(a), p] for a, p in self.policy.items()],
        }


@dataclass
class Analysis:
    """The whole analysis: decisions, accuracies, chart, turning points, calls and bluffs."""

    viewer: int | None
    seats: tuple[int, ...]
    """The seats whose decisions are judged."""
    players: int
    names: tuple[str, ...]
    decisions: list[Decision]
    accuracy: dict[int, float | None]
    chart: list[dict[str, Any]]
    moments: list[dict[str, Any]]
    calls: list[dict[str, Any]]
    bluffs: list[dict[str, Any]]
    show_hands: bool = False
    """Every hand was shown at the end (the table's agreement): the calls carry every hand
    of their round and the true count."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "perudo-analysis/1",
            "show_hands": self.show_hands,
            "viewer": self.viewer,
            "seats": list(self.seats),
            "players": self.players,
            "names": list(self.names),
            "thresholds": {label: t for t, label in THRESHOLDS},
            "accuracy": {str(s): a for s, a in self.accuracy.items()},
            "decisions": [d.to_json() for d in self.decisions],
            "chart": self.chart,
            "moments": self.moments,
            "calls": self.calls,
            "bluffs": self.bluffs,
        }


def _holds_beliefs(v: PlayerView) -> float | None:
    if v.seat is None or v.bid is None or v.passer is not None:
        return None
    beliefs = Beliefs(v, BidModel())
    own = count_hand(v.rules, tuple(v.hand) + tuple(v.shown[v.seat]), v.bid.face, v.palifico)
    dist = beliefs.count_distribution(v.bid.face, own)
    return float(dist[v.bid.quantity :].sum()) if v.bid.quantity < len(dist) else 0.0


def judge(
    dv: DecisionView,
    *,
    book: StrategyBook | None = None,
    rollouts: int = ROLLOUTS,
    seed: int = 0,
) -> Decision:
    """One decision judged from ``dv`` alone (the viewer's knowledge of it)."""
    book = book if book is not None else default_book()
    v = dv.view
    d = Decision(
        dv.move,
        v.round,
        dv.seat,
        dv.action,
        tuple(v.hand) if v.seat is not None and v.hand else None,
        v.bid,
    )
    d.wild = wild_active(v.rules, v.palifico)
    if v.bid is not None and v.passer is None:
        d.holds = bid_probability(v)
    if isinstance(dv.action, ChoosePalifico):
        if v.seat is not None and v.my_turn:
            _judge_choice(d, v)
        return d
    if v.seat is None or not v.my_turn:
        return d
    if isinstance(dv.action, Bid):
        d.own_chance = bid_probability(v, dv.action)
    d.holds_beliefs = _holds_beliefs(v)
    exact = None
    try:
        exact = exact_values(v, book)
    except (KeyError, ValueError):  # a bid outside the solved round's table (P-40 memory mode)
        exact = None
    if exact is not None and dv.action in exact.values:
        d.method = "exact"
        d.expert = exact.best
        d.policy = {a: p for a, p in exact.policy.items() if p >= 0.001}
        d.loss_round = max(0.0, exact.round_loss(dv.action))
        d.loss_game = max(0.0, exact.game_loss(dv.action))
        d.label = label_of(d.loss_round)
        return d
    expert = ExpertBot(seed, book=book, fallback=StrongBot(seed))
    policy = expert.policy(v) if expert.solved(v) else {expert.fallback.act(v): 1.0}
    d.policy = {a: p for a, p in policy.items() if p >= 0.001}
    d.expert = max(policy, key=lambda a: policy[a])
    if rollouts <= 0:
        return d
    if dv.action == d.expert and d.policy.get(dv.action, 0.0) >= 0.5:
        # The expert's own choice: it loses nothing against itself.
        d.method = "estimate"
        d.loss_round, d.low, d.high = 0.0, 0.0, 0.0
        d.loss_game, d.game_low, d.game_high = 0.0, 0.0, 0.0
        d.label = "good"
        return d
    if not supported(v):
        return d
    est = estimate_actions(
        v,
        [dv.action],
        d.expert,
        rollouts=rollouts,
        book=book,
        seed=seed,
        fallback=_rollout_bot,
        game=True,
    )[dv.action]
    d.method = "estimate"
    d.loss_round = max(0.0, est.loss)
    d.low, d.high, d.rollouts = est.low, est.high, est.rollouts
    if est.game_loss is not None:
        d.loss_game = max(0.0, est.game_loss)
        d.game_low, d.game_high = est.game_low, est.game_high
    # An estimate is labelled by its interval's low end: a label it is sure of.
    d.label = label_of(max(0.0, est.low))
    return d


def _judge_choice(d: Decision, v: PlayerView) -> None:
    """A P-34 choice, exactly where the book's match values hold both positions it leads to:
    the opener's chance to win the game after choosing palifico or a normal round (making the
    choice counts as the opener's palifico, P-30). Labelled by the game's chance: the choice
    is no round of its own."""
    alive = [s for s, c in enumerate(v.dice_counts) if c]
    if len(alive) != 2 or v.seat != v.opener:
        return
    other = alive[0] if alive[1] == v.opener else alive[1]
    dice = (v.dice_counts[v.opener], v.dice_counts[other])
    used = (True, v.palifico_used[other])
    wins = match_wins()
    key = rules_key(v.rules)
    values = {
        choice: wins.get((key, Position(dice, used, "palifico" if choice else "normal")))
        for choice in (True, False)
    }
    chosen = values[isinstance(d.action, ChoosePalifico) and d.action.palifico]
    if chosen is None or any(w is None for w in values.values()):
        return
    best = max(values, key=lambda c: values[c] or 0.0)
    d.method = "exact"
    d.expert = ChoosePalifico(best)
    d.policy = {ChoosePalifico(best): 1.0}
    d.loss_game = max(0.0, (values[best] or 0.0) - chosen)
    d.label = label_of(d.loss_game)


def _rollout_bot(seed: int) -> ProbBot:
    # Where the book does not hold the round, the rollouts' seats play prob's exact chances:
    # strong's beliefs cost milliseconds a decision, and a rollout is a whole round: strong's
    # rollouts took 28 times as long as prob's for a six-seat game (docs/analysis.md).
    return ProbBot(seed, temperature=0.0)


# -- the chart --------------------------------------------------------------------------------


def _point(args: tuple[PlayerView, int, int]) -> Chances:
    public, games, seed = args
    return wins_after(public, games, seed)


def chart(
    record: GameRecord,
    *,
    games: int = CHART_GAMES,
    seed: int = 0,
    executor: Executor | None = None,
) -> list[dict[str, Any]]:
    """Each seat's chance to win the game at the start and after every round, from the public
    views after each round (no hidden die is read); the points are computed in ``executor``
    when given."""
    state = record.replay(0)
    n = record.num_players
    after: list[PlayerView] = []
    for seat, action in record.moves:
        before = len(state.past)
        state, _ = apply(state, action, seat)
        if len(state.past) != before:
            after.append(view(state, None))
    jobs = [(public, games, seed) for public in after]
    results = list(executor.map(_point, jobs)) if executor is not None else map(_point, jobs)
    points: list[dict[str, Any]] = [
        {"round": 0, "wins": [1.0 / n] * n, "method": "exact", "games": 0}
    ]
    for public, c in zip(after, results, strict=True):
        points.append(
            {
                "round": public.past[-1].round,
                "wins": None if c.wins is None else list(c.wins),
                "method": c.method,
                "games": c.games,
            }
        )
    return points


# -- the game as a whole ----------------------------------------------------------------------


def _moments(points: list[dict[str, Any]], seats: tuple[int, ...]) -> list[dict[str, Any]]:
    """The three rounds that moved the judged seats' chances (or, for several seats, any
    seat's) the most."""
    swings = []
    known = [p for p in points if p["wins"] is not None]
    for prev, cur in itertools.pairwise(known):
        deltas = [cur["wins"][s] - prev["wins"][s] for s in seats]
        k = int(np.argmax(np.abs(deltas)))
        swings.append(
            {
                "round": cur["round"],
                "seat": seats[k],
                "before": prev["wins"][seats[k]],
                "after": cur["wins"][seats[k]],
                "change": deltas[k],
            }
        )
    swings.sort(key=lambda m: -abs(m["change"]))
    return sorted(swings[:3], key=lambda m: m["round"])


def _calls(
    final: PlayerView,
    record: GameRecord,
    hands: dict[int, tuple[tuple[int, ...], ...]] | None,
) -> list[dict[str, Any]]:
    """Every dudo and calza of the game and whether it worked (public: the rounds' results).
    With ``hands`` (every hand, shown at the end by the table's agreement), each call also
    carries every seat's dice of its round and what the bid met with all of them known: the
    true count (a challenge's reveal stops once the count is proven, P-21)."""
    out: list[dict[str, Any]] = []
    for past in final.past:
        r = past.result
        if r.kind not in ("dudo", "calza"):
            continue
        worked = r.holds if r.kind == "calza" else not r.holds
        out.append(
            {
                "round": past.round,
                "kind": r.kind,
                "caller": r.caller,
                "target": r.target,
                "bid": None if r.bid is None else str(r.bid),
                "bid_info": None if r.bid is None else action_to_json(r.bid),
                "wild": wild_active(final.rules, past.palifico),
                "count": r.count,
                "worked": worked,
            }
        )
        if hands is not None and r.bid is not None and past.round in hands:
            round_hands = hands[past.round]
            out[-1]["hands"] = [list(h) for h in round_hands]
            out[-1]["true_count"] = true_count(record, round_hands, r.bid, past.palifico)
    return out


def _bluffs(decisions: list[Decision], final: PlayerView) -> list[dict[str, Any]]:
    """The judged seats' bids that their own dice made unlikely (under one chance in two) and
    what became of them: caught (challenged and false) or not."""
    results = {p.round: p.result for p in final.past}
    out = []
    for d in decisions:
        if not isinstance(d.action, Bid) or d.hand is None:
            continue
        v_chance = d.own_chance
        if v_chance is None or v_chance >= 0.5:
            continue
        r = results.get(d.round)
        caught = (
            r is not None
            and r.kind == "dudo"
            and r.target == d.seat
            and r.bid == d.action
            and not r.holds
        )
        out.append(
            {
                "round": d.round,
                "seat": d.seat,
                "bid": str(d.action),
                "chance": v_chance,
                "worked": not caught,
            }
        )
    return out


def analyze(
    record: GameRecord,
    viewer: int | None,
    *,
    seats: tuple[int, ...] | None = None,
    rollouts: int = ROLLOUTS,
    chart_games: int = CHART_GAMES,
    seed: int = 0,
    book: StrategyBook | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    show_hands: bool = False,
) -> Analysis:
    """The analysis of ``record`` for ``viewer`` (a seat, or ``None``: the public, P-70).

    ``show_hands``: the table agreed to show every hand at the end; the calls then carry every
    hand of their round and the true count (:func:`.reveal.every_hand`, which refuses a game
    that is not over). The decisions are judged from the viewer's knowledge all the same.

    ``seats`` are the seats whose decisions are judged: by default the viewer's own, or every
    seat for the public (judged where their hands were lifted at the table). ``progress(done,
    total)`` is called after each decision judged and after the chart.

    :raises ValueError: for a viewer or seat the game does not have, or ``show_hands`` for a
        game that is not over.
    :raises IllegalActionError: for a record whose moves do not replay.
    """
    n = record.num_players
    hands = every_hand(record) if show_hands else None
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"seat {viewer + 1} is not in this {n}-player game")
    judged = seats if seats is not None else ((viewer,) if viewer is not None else tuple(range(n)))
    if any(not 0 <= s < n for s in judged):
        raise ValueError(f"the seats judged must be among the game's {n} seats")
    views = [dv for dv in decision_views(record, viewer) if dv.seat in judged]
    total = len(views) + 1
    decisions: list[Decision] = []
    if executor is None:
        book = book if book is not None else default_book()
        for i, dv in enumerate(views):
            decisions.append(judge(dv, book=book, rollouts=rollouts, seed=seed + i))
            if progress is not None:
                progress(i + 1, total)
    else:
        futures = [
            executor.submit(judge, dv, rollouts=rollouts, seed=seed + i)
            for i, dv in enumerate(views)
        ]
        for i, fut in enumerate(futures):
            decisions.append(fut.result())
            if progress is not None:
                progress(i + 1, total)
    points = chart(record, games=chart_games, seed=seed, executor=executor)
    if progress is not None:
        progress(total, total)
    final = view(record.replay(), viewer)
    accuracy: dict[int, float | None] = {}
    for s in judged:
        losses = [d.loss_round for d in decisions if d.seat == s and d.loss_round is not None]
        accuracy[s] = (
            100.0 * sum(max(0.0, 1.0 - 2.0 * x) for x in losses) / len(losses) if losses else None
        )
    names = tuple(info.name for info in record.seats) or tuple(f"{s + 1}" for s in range(n))
    return Analysis(
        viewer,
        judged,
        n,
        names,
        decisions,
        accuracy,
        points,
        _moments(points, judged),
        _calls(final, record, hands),
        _bluffs(decisions, final),
        show_hands,
    )


# -- the live explain panel (against bots only) -----------------------------------------------


def explain(
    record: GameRecord, seat: int, *, rollouts: int = ROLLOUTS, seed: int = 0
) -> dict[str, Any]:
    """The live "explain" panel of ``seat`` in a game under way (a table where every other
    seat is a bot: the server refuses it elsewhere): ``current``, the seat's decision now
    (the chance the standing bid holds from its dice and reading the bids as the expert does,
    the expert's choice and its mix; no loss, it is not made yet), or ``None`` when it is not
    the seat's turn; ``last``, the seat's latest decision of the game judged as the analysis
    judges it (with its loss and label), or ``None``. From the seat's view only (P-70)."""
    state = record.replay()
    v = view(state, seat)
    current = None
    if v.my_turn and v.legal and state.phase in (Phase.BIDDING, Phase.CHOOSE_PALIFICO):
        # The decision is not made yet: judged with any legal action and without rollouts,
        # only the figures that do not depend on the action are kept.
        d = judge(DecisionView(len(record.moves), seat, v.legal[0], v), rollouts=0, seed=seed)
        full = d.to_json()
        current = {
            k: full[k]
            for k in (
                "round",
                "hand",
                "bid_info",
                "holds",
                "holds_beliefs",
                "wild",
                "expert_info",
                "policy_info",
            )
        }
    mine = [dv for dv in decision_views(record, seat) if dv.seat == seat]
    last = judge(mine[-1], rollouts=rollouts, seed=seed).to_json() if mine else None
    return {"current": current, "last": last}
