"""The heads-up match, solved from the smallest positions up.

In a two-player game a round is not worth ±1: it is worth the position it leads to. A
*position* is what the next round starts from: the opener's and the other player's dice, who
has had their palifico (P-30), and the kind of round — ``normal``, ``palifico`` (opened by a
one-die player, P-30…P-33) or ``choose`` (the opener holds one die for the first time and,
heads-up, chooses before the deal, P-34).

Its value is the opener's chance to win the match. A round at a position is a zero-sum game
whose payoff for the opener is ``2·W − 1``, with ``W`` the opener's winning chance from the
state the round ends in, as :func:`perudo.core.apply` leaves it (loser or winner opens,
P-22 / V-5; palifico switched on or the P-34 choice pending, P-30 / P-34 / V-6; game over,
P-23). A ``choose`` position is worth the better of its two choices, played through
``apply(state, ChoosePalifico(…))``. Every round loses dice, so positions are solved in order
of total dice, each from values already known.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from perudo.core import Bid, ChoosePalifico, Dudo, GameState, Phase, RuleSet, apply, start_round
from perudo.core.bidding import bid_table

from .game import MAX_BIDS, FloatArray, Payoff, RoundGame, round_payoff
from .saved import read_json
from .solution import Solution
from .solver import solve_round

__all__ = [
    "MATCH_FORMAT",
    "MatchSolution",
    "Position",
    "match_dice_limit",
    "position_after",
    "solve_match",
]

MATCH_FORMAT = "perudo-solve-match/1"

Kind = Literal["normal", "palifico", "choose"]


@dataclass(frozen=True, order=True)
class Position:
    """Where a heads-up round starts, from the opener's side (player 0)."""

    dice: tuple[int, int]
    """The opener's dice, the other player's."""
    palifico_used: tuple[bool, bool]
    """Whether the opener, and the other player, have had their palifico (P-30)."""
    kind: Kind = "normal"

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1]

    @property
    def palifico(self) -> bool:
        """Whether the round is a palifico round (P-30)."""
        return self.kind == "palifico"

    def game(
        self, rules: RuleSet, *, payoff: Payoff = round_payoff, utility: FloatArray | None = None
    ) -> RoundGame:
        """The round that starts here under ``rules`` (``payoff`` or ``utility`` as
        :class:`~perudo.solve.game.RoundGame` takes them)."""
        return RoundGame(
            rules,
            self.dice,
            palifico=self.palifico,
            palifico_used=self.palifico_used,
            payoff=payoff,
            utility=utility,
        )

    def __str__(self) -> str:
        used = "".join("u" if u else "-" for u in self.palifico_used)
        return f"{self.dice[0]}v{self.dice[1]} {self.kind} [{used}]"

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": list(self.dice),
            "palifico_used": list(self.palifico_used),
            "kind": self.kind,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        kind = str(data["kind"])
        if kind not in ("normal", "palifico", "choose"):
            raise ValueError(f"unknown position kind {kind!r}")
        return cls(
            (int(data["dice"][0]), int(data["dice"][1])),
            (bool(data["palifico_used"][0]), bool(data["palifico_used"][1])),
            kind,  # type: ignore[arg-type]
        )


def position_after(state: GameState) -> tuple[Position | None, int]:
    """The position a finished heads-up round leads to, and the seat that opens it.

    ``(None, winner)`` when the game is over (P-23).
    """
    if state.phase is Phase.GAME_OVER:
        assert state.winner is not None
        return None, state.winner
    opener = state.opener
    alive = [s for s, c in enumerate(state.dice_counts) if c]
    if len(alive) != 2:
        raise ValueError("the match solver plays two players")
    other = alive[0] if alive[1] == opener else alive[1]
    kind: Kind
    if state.phase is Phase.CHOOSE_PALIFICO:
        kind = "choose"
    elif state.phase is Phase.DEAL:
        kind = "palifico" if state.palifico else "normal"
    else:
        raise ValueError(f"a round ends before a deal or a choice, not in {state.phase.value}")
    pos = Position(
        (state.dice_counts[opener], state.dice_counts[other]),
        (state.palifico_used[opener], state.palifico_used[other]),
        kind,
    )
    return pos, opener


def _valid(rules: RuleSet, pos: Position) -> bool:
    d0, d1 = pos.dice
    if not (1 <= d0 <= rules.dice_per_player and 1 <= d1 <= rules.dice_per_player):
        return False
    if pos.kind == "palifico":
        return d0 == 1 and pos.palifico_used[0] and rules.palifico == "on"
    if pos.kind == "choose":
        return (
            d0 == 1
            and not pos.palifico_used[0]
            and rules.palifico == "on"
            and rules.dice_per_player > 1
        )
    return True


def _order(pos: Position) -> tuple[int, int, Position]:
    # Rounds before the choices of the same total (a choice leads to a round).
    return pos.total, 1 if pos.kind == "choose" else 0, pos


@dataclass
class MatchSolution:
    """Every position up to some total of dice, with its value and its round's solution."""

    rules: RuleSet
    values: dict[Position, float] = field(default_factory=dict)
    """The opener's chance to win the match from each position."""
    rounds: dict[Position, Solution] = field(default_factory=dict)
    """The solved round of each ``normal`` and ``palifico`` position."""
    choices: dict[Position, bool] = field(default_factory=dict)
    """At each ``choose`` position: whether the opener should choose a palifico round."""

    def win_chance(self, after: GameState, seat: int) -> float:
        """``seat``'s chance to win from the state a round ended in."""
        pos, opener = position_after(after)
        if pos is None:
            return 1.0 if opener == seat else 0.0
        w = self.values[pos]
        return w if opener == seat else 1.0 - w

    def payoff(self, after: GameState) -> float:
        """The opener's (seat 0's) round payoff: ``2·W − 1``."""
        return 2.0 * self.win_chance(after, 0) - 1.0

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write ``match.json`` (the values and choices) and one ``.npz`` per solved round."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        entries = []
        for pos in sorted(self.values, key=_order):
            entry: dict[str, Any] = {"position": pos.to_json(), "win": self.values[pos]}
            if pos in self.rounds:
                name = _file_name(pos)
                self.rounds[pos].save(out / name)
                sol = self.rounds[pos]
                entry.update(
                    file=name,
                    exploitability=sol.exploitability,
                    method=sol.method,
                    seconds=sol.seconds,
                )
            if pos in self.choices:
                entry["choose_palifico"] = self.choices[pos]
            entries.append(entry)
        meta = {"format": MATCH_FORMAT, "rules": self.rules.to_dict(), "positions": entries}
        path = out / "match.json"
        path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> MatchSolution:
        """Read what :meth:`save` wrote.

        :raises ValueError: if ``match.json`` is missing or of another format.
        """
        base = Path(directory)
        path = base / "match.json"
        if not path.is_file():
            raise ValueError(f"{base}: no match.json")
        meta = read_json(path, "a solved match", {"format": MATCH_FORMAT})
        out = cls(RuleSet.from_dict(meta["rules"]))
        for entry in meta["positions"]:
            pos = Position.from_json(entry["position"])
            out.values[pos] = float(entry["win"])
            if "file" in entry:
                out.rounds[pos] = Solution.load(base / entry["file"])
            if "choose_palifico" in entry:
                out.choices[pos] = bool(entry["choose_palifico"])
        return out


def _file_name(pos: Position) -> str:
    used = "".join("1" if u else "0" for u in pos.palifico_used)
    return f"round-{pos.dice[0]}v{pos.dice[1]}-{pos.kind}-{used}.npz"


def _bids(rules: RuleSet, total: int) -> int:
    """Bids of a round with ``total`` dice in play: the larger of its normal and palifico
    tables (the solver's arrays grow with it, :data:`~perudo.solve.game.MAX_BIDS`)."""
    return max(len(bid_table(rules, total, palifico).bids) for palifico in (False, True))


def match_dice_limit(rules: RuleSet) -> int:
    """The most dice in play a match position may hold for the solver: every round of that
    many dice has at most :data:`~perudo.solve.game.MAX_BIDS` bids (5 for ``perudo``'s six
    faces; at least 2, one die each, if the rules can be solved at all).

    >>> from perudo.core import PERUDO
    >>> match_dice_limit(PERUDO)
    5
    """
    total = 2
    while _bids(rules, total + 1) <= MAX_BIDS:
        total += 1
    return total


def match_positions(rules: RuleSet, max_total: int) -> list[Position]:
    """Every valid position with at most ``max_total`` dice, smallest first.

    :raises ValueError: when ``max_total`` is below 2 (one die each) or above
        :func:`match_dice_limit` (its rounds have more bids than the solver handles: it
        would solve every smaller position first, for hours, and then fail).
    """
    if max_total < 2:
        raise ValueError(
            f"{max_total} dice in play: a heads-up position holds at least 2 (one die each)"
        )
    limit = match_dice_limit(rules)
    if max_total > limit:
        raise ValueError(
            f"{max_total} dice in play: the match solver takes 2 (one die each) to {limit} "
            f"with these rules; {limit + 1} dice make rounds of {_bids(rules, limit + 1)} bids, "
            f"more than the {MAX_BIDS} it handles"
        )
    out = []
    top = min(rules.dice_per_player, max_total - 1)
    for d0 in range(1, top + 1):
        for d1 in range(1, top + 1):
            if d0 + d1 > max_total:
                continue
            for u0 in (False, True):
                for u1 in (False, True):
                    kinds: tuple[Kind, ...] = ("normal", "palifico", "choose")
                    for kind in kinds:
                        pos = Position((d0, d1), (u0, u1), kind)
                        if _valid(rules, pos):
                            out.append(pos)
    return sorted(out, key=_order)


SolveHook = Callable[[Position, RoundGame], Solution]


def solve_match(
    rules: RuleSet,
    max_total: int,
    *,
    positions: Iterable[Position] | None = None,
    solve: SolveHook | None = None,
    on_position: Callable[[Position, float, Solution | None], None] | None = None,
) -> MatchSolution:
    """Solve every position with at most ``max_total`` dice (or just ``positions`` and what
    they lead to, when given), smallest first.

    ``solve(position, game)`` solves one round (default: :func:`solve_round` with its
    defaults); rounds whose payoff tables are equal share one solve.

    :raises ValueError: if a round leads to a position that is not solved first (it would be
        a loop: never the case when every challenge costs dice).
    """
    if rules.min_players > 2:
        raise ValueError(
            f"these rules need {rules.min_players} players; the match solver plays two"
        )
    todo = match_positions(rules, max_total) if positions is None else _closure(rules, positions)
    result = MatchSolution(rules)
    cache: dict[tuple[Any, ...], Solution] = {}
    hook = solve if solve is not None else (lambda _pos, game: solve_round(game))
    for pos in todo:
        if pos.kind == "choose":
            best: tuple[float, bool] | None = None
            state = _choice_state(rules, pos)
            for choice in (True, False):
                after, _ = apply(state, ChoosePalifico(choice))
                nxt, _ = position_after(after)
                assert nxt is not None
                if nxt not in result.values:
                    raise ValueError(f"{pos} leads to {nxt}, which is not solved yet")
                w = result.values[nxt]
                if best is None or w > best[0]:
                    best = (w, choice)
            assert best is not None
            result.values[pos] = best[0]
            result.choices[pos] = best[1]
            if on_position is not None:
                on_position(pos, best[0], None)
            continue
        game = pos.game(rules, payoff=_MissingCheck(result).payoff)
        key = (pos.dice, pos.kind, game.utility.tobytes())
        sol = cache.get(key)
        if sol is None:
            sol = hook(pos, game)
            cache[key] = sol
        elif sol.game.palifico_used != pos.palifico_used:
            sol = Solution(
                game=game,
                profile=sol.profile,
                value=sol.value,
                br=sol.br,
                method=sol.method,
                iterations=sol.iterations,
                seconds=0.0,
                info={**sol.info, "shared_with": str(sol.game.palifico_used)},
            )
        result.rounds[pos] = sol
        result.values[pos] = (sol.value + 1.0) / 2.0
        if on_position is not None:
            on_position(pos, result.values[pos], sol)
    return result


class _MissingCheck:
    """The round payoff from positions already solved; a clear error for one that is not."""

    def __init__(self, result: MatchSolution) -> None:
        self.result = result

    def payoff(self, after: GameState) -> float:
        pos, _ = position_after(after)
        if pos is not None and pos not in self.result.values:
            raise ValueError(f"a round leads to {pos}, which is not solved yet")
        return self.result.payoff(after)


def _choice_state(rules: RuleSet, pos: Position) -> GameState:
    """A real state waiting for the opener's P-34 choice at ``pos``, played through the core:
    seat 0 loses a die on a bid false by one (loser opens, P-22), or seat 1 on a bid exactly
    right (winner opens, V-5)."""
    d0, d1 = pos.dice
    plain = [f for f in range(rules.faces, 0, -1) if f != rules.wild_face]
    face, other = plain[0], plain[1]
    used = [s for s in (0, 1) if pos.palifico_used[s]]
    tries = (
        ([(face,) * (d0 + 1), (other,) * d1], Bid(d0 + 2, face)),
        ([(face,) * d0, (other,) * (d1 + 1)], Bid(d0, face)),
    )
    for hands, bid in tries:
        state = start_round(rules, hands, opener=0, palifico_used=used)
        state, _ = apply(state, bid)
        after, _ = apply(state, Dudo())
        if after.phase is Phase.CHOOSE_PALIFICO and position_after(after) == (pos, 0):
            return after
    raise ValueError(f"{pos}: the core does not offer the P-34 choice here")


def _closure(rules: RuleSet, roots: Iterable[Position]) -> list[Position]:
    """``roots`` and every position they can lead to, smallest first."""
    seen: set[Position] = set()
    stack = list(roots)
    while stack:
        pos = stack.pop()
        if pos in seen:
            continue
        if not _valid(rules, pos):
            raise ValueError(f"{pos} is not a position of these rules")
        seen.add(pos)
        stack.extend(_successors(rules, pos))
    return sorted(seen, key=_order)


def _successors(rules: RuleSet, pos: Position) -> list[Position]:
    if pos.kind == "choose":
        state = _choice_state(rules, pos)
        out = []
        for choice in (True, False):
            after, _ = apply(state, ChoosePalifico(choice))
            nxt, _ = position_after(after)
            if nxt is not None:
                out.append(nxt)
        return out
    found: list[Position] = []

    def collect(after: GameState) -> float:
        nxt, _ = position_after(after)
        if nxt is not None:
            found.append(nxt)
        return 0.0

    pos.game(rules, payoff=collect)
    return found
