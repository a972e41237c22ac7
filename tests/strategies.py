"""Hypothesis strategies and random play for the property tests of the rules core.

Games are reached by legal play from :func:`perudo.core.new_game` only: a seeded
:class:`random.Random` drives both the dice and a mixed policy (uniform legal actions, low
raises, challenges, set-asides, passes and out-of-turn calza), so each drawn game replays from
its seed and a failing example prints the seed that reproduces it.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from perudo.core import (
    PRESETS,
    SWITCHES,
    Action,
    Bid,
    Calza,
    Event,
    GameState,
    Phase,
    RuleSet,
    apply,
    calza_callers,
    chance_action,
    legal_actions,
    new_game,
)

__all__ = [
    "MAX_PLAYERS",
    "Playthrough",
    "Step",
    "bids_around",
    "interesting_indices",
    "pairwise_rulesets",
    "playthroughs",
    "random_play",
    "random_rulesets",
    "rerolled_others",
    "rulesets",
]

MAX_PLAYERS = 6
"""Most seats in a drawn game: enough for every rule (calza needs 3), cheap to play."""

MAX_STEPS = 20_000
"""A game that has not ended after this many moves is a failure (P-23: every game ends)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a game: the state before, who moved (``None``: chance), and the result."""

    before: GameState
    seat: int | None
    action: Action
    after: GameState
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Playthrough:
    """A game played from :func:`new_game` by :func:`random_play`."""

    rules: RuleSet
    players: int
    seed: int
    start: GameState
    steps: tuple[Step, ...]

    @property
    def final(self) -> GameState:
        return self.steps[-1].after if self.steps else self.start

    def states(self) -> list[GameState]:
        """Every state of the game, the start first."""
        return [self.start, *(s.after for s in self.steps)]

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # hypothesis prints falsifying examples with this: keep it to the line that replays.
        printer.text(repr(self))

    def __repr__(self) -> str:
        # Short, so that hypothesis prints something a person can rerun.
        return (
            f"random_play({self.rules!r}, {self.players}, {self.seed})"
            f"  # {len(self.steps)} moves"
        )


def _choose(state: GameState, rng: random.Random) -> tuple[int | None, Action]:
    """A move for the state: chance, an out-of-turn calza, or a legal action of the seat to act."""
    if state.to_act is None:
        return None, chance_action(state, rng)
    if state.rules.calza == "on" and rng.random() < 0.15:
        callers = calza_callers(state)
        if callers:
            return rng.choice(callers), Calza()
    legal = legal_actions(state)
    bids = legal.bids
    extras = list(legal)[len(bids) :]
    r = rng.random()
    if r < 0.4 or not extras or not bids:
        return state.to_act, legal[rng.randrange(len(legal))]
    if r < 0.75:
        return state.to_act, bids[rng.randrange(min(3, len(bids)))]
    return state.to_act, extras[rng.randrange(len(extras))]


def random_play(
    rules: RuleSet, players: int, seed: int, *, max_steps: int = MAX_STEPS
) -> Playthrough:
    """Play a whole game from :func:`new_game` with a seeded mixed random policy.

    :raises AssertionError: if the game has not ended within ``max_steps`` moves.
    """
    rng = random.Random(seed)
    state = start = new_game(rules, players, rng)
    steps: list[Step] = []
    while not state.is_over:
        assert len(steps) < max_steps, f"no winner after {max_steps} moves (P-23)"
        seat, action = _choose(state, rng)
        after, events = apply(state, action, seat)
        steps.append(Step(state, seat, action, after, events))
        state = after
    return Playthrough(rules, players, seed, start, tuple(steps))


def interesting_indices(play: Playthrough, rng: random.Random, k: int = 10) -> list[int]:
    """Indices into ``play.states()``: ``k`` at random plus one of each special situation.

    Special: the P-34 choice, a V-9 re-roll due, a seat that must raise (V-9), a pending pass
    (V-10), a palifico round (P-30), a standing bid with calza callers (P-50), the end.
    """
    states = play.states()
    chosen = set(rng.sample(range(len(states)), min(k, len(states))))
    seen: set[str] = set()
    for i, s in enumerate(states):
        tags = []
        if s.phase is Phase.CHOOSE_PALIFICO:
            tags.append("choose")
        if s.phase is Phase.REROLL:
            tags.append("reroll")
        if s.must_raise:
            tags.append("must_raise")
        if s.passer is not None:
            tags.append("pass")
        if s.palifico and s.bid is not None:
            tags.append("palifico")
        if s.phase is Phase.BIDDING and s.bid is not None and calza_callers(s):
            tags.append("calza")
        if s.is_over:
            tags.append("over")
        for tag in tags:
            if tag not in seen:
                seen.add(tag)
                chosen.add(i)
    return sorted(chosen)


def rerolled_others(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """``state`` with every other seat's hidden dice re-rolled (same number of dice)."""
    faces = state.rules.faces
    hands = tuple(
        h if s == seat else tuple(sorted(rng.choices(range(1, faces + 1), k=len(h))))
        for s, h in enumerate(state.hands)
    )
    return state._replace(hands=hands)


@st.composite
def random_rulesets(draw: st.DrawFn) -> RuleSet:
    """A preset with every switch redrawn (``dataclasses.replace``), on a small table.

    The switches and their values are :data:`perudo.core.SWITCHES`, derived from
    :class:`~perudo.core.RuleSet`'s fields: a new switch is fuzzed without touching this file.
    """
    base = draw(st.sampled_from(list(PRESETS.values())))
    changes: dict[str, object] = {
        name: draw(st.sampled_from(values)) for name, values in SWITCHES.items()
    }
    faces = draw(st.integers(3, 6))
    changes["faces"] = faces
    changes["wild_face"] = draw(st.sampled_from([None, 1, faces]))
    changes["dice_per_player"] = draw(st.integers(1, 5))
    changes["max_players"] = max(base.max_players, 2)
    return dataclasses.replace(base, **changes)


def rulesets() -> st.SearchStrategy[RuleSet]:
    """Every preset, or a random rule set."""
    return st.one_of(st.sampled_from(list(PRESETS.values())), random_rulesets())


@st.composite
def playthroughs(draw: st.DrawFn, rules: st.SearchStrategy[RuleSet] | RuleSet) -> Playthrough:
    """A whole game under ``rules`` (a rule set or a strategy of them) from a drawn seed."""
    chosen = rules if isinstance(rules, RuleSet) else draw(rules)
    top = min(chosen.max_players, MAX_PLAYERS)
    players = draw(st.integers(chosen.min_players, top))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_play(chosen, players, seed)


def bids_around(state: GameState) -> list[Bid]:
    """Every bid of up to one more die than in play and one face past the die (legal or not)."""
    rules = state.rules
    return [Bid(q, f) for q in range(1, state.total_dice + 2) for f in range(1, rules.faces + 2)]


def pairwise_rulesets(**table: int) -> list[RuleSet]:
    """Rule sets in which every pair of values of any two switches appears together at least
    once (a pairwise covering array, built greedily and deterministically), on ``table``'s
    numeric settings (``dice_per_player=2``, …).

    The switches are :data:`perudo.core.SWITCHES` (derived from :class:`RuleSet`'s fields)
    plus V-2's wild face (aces, the die's top face, or none): a new switch joins by itself.
    """
    faces = table.get("faces", RuleSet().faces)
    domains: dict[str, tuple[object, ...]] = {**SWITCHES, "wild_face": (1, faces, None)}
    names = list(domains)
    uncovered = {
        ((a, va), (b, vb))
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        for va in domains[a]
        for vb in domains[b]
    }
    out: list[RuleSet] = []
    while uncovered:
        (a, va), (b, vb) = min(uncovered, key=lambda pair: (names.index(pair[0][0]), repr(pair)))
        row: dict[str, object] = {a: va, b: vb}
        for name in names:
            if name in row:
                continue

            def gain(value: object, name: str = name, row: dict[str, object] = row) -> int:
                return sum(
                    1
                    for other, v in row.items()
                    if _pair(name, value, other, v, names) in uncovered
                )

            row[name] = max(domains[name], key=gain)
        for i, x in enumerate(names):
            for y in names[i + 1 :]:
                uncovered.discard(((x, row[x]), (y, row[y])))
        out.append(RuleSet(**row, **table))  # type: ignore[arg-type]
    return out


def _pair(
    a: str, va: object, b: str, vb: object, names: list[str]
) -> tuple[tuple[str, object], tuple[str, object]]:
    if names.index(a) < names.index(b):
        return ((a, va), (b, vb))
    return ((b, vb), (a, va))
