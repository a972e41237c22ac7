"""One heads-up round as a game for the solver, built from the rules core and nothing else.

A two-player round is a game of bids and one dudo (docs/rules.md P-10…P-16, P-20, P-30…P-33 and the
switches V-1…V-8, V-11). The solver does not re-derive any rule:

* the bids and their order are :func:`perudo.core.bidding.bid_table`'s (a bid's index there is
  its *rank*); which bids may follow which comes from :func:`perudo.core.raises_after`, asked
  once per ``(previous bid, bidder holds one die)``;
* dice are counted with :func:`perudo.core.count_hand`;
* what a challenge leads to is what :func:`perudo.core.apply` does: for each last bid, bidder
  and total count the solver plays one real round through the core (``start_round``, the bids,
  ``Dudo()``) and scores the state it ends in with a *payoff* function (by default +1 when the
  opener wins the challenge, −1 when it loses it; the match solver passes win probabilities).

Every legal raise goes up the table order (checked when the game is built), so a public history
is an increasing set of ranks: a bit mask ``m`` over the ``N`` bids. The player to act is the
parity of ``popcount(m)`` (player 0 is the opener). The solver keeps each player's nodes in its
own array, indexed by ``j = m >> 1``: bit ``b`` of ``j`` is the bid of rank ``b + 1``, and
whether rank 0 was bid follows from the parity. In that numbering

* node ``j ≥ 1`` of either player has top bid ``rank = j.bit_length()``; node 0 is the root for
  the opener (player 0) and the history ``[rank 0]`` for player 1;
* the raise to rank ``r ≥ 1`` from node ``k < 2**(r-1)`` of player ``p`` is edge
  ``j = 2**(r-1) + k`` of player ``p`` and leads to node ``j`` of player ``1 - p``; edge 0 of the
  opener is the opening bid of rank 0.

So "all raises to rank r" is the contiguous slice ``[2**(r-1), 2**r)`` of edges whose parents
are the slice ``[0, 2**(r-1))``: each pass of the solver is ``N`` slice operations over arrays of
``2**(N-1)`` rows × hands (numpy), the layout of :mod:`perudo.solve.cfr`.

What the solver plays is the explicit list :data:`SUPPORTS`. Rounds with calza by the player
to act (V-7 ``to_act`` with two players), passing (V-10) or set-aside and re-roll (V-9) have
other actions than bids and dudo; they are refused with a :class:`ValueError` naming the
switch, and so is any rule field added to :class:`~perudo.core.RuleSet` after this module.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final, TypeAlias

import numpy as np
import numpy.typing as npt

from perudo.core import (
    Bid,
    Dudo,
    GameState,
    PlayerAction,
    RuleSet,
    apply,
    count_hand,
    legal_actions,
    raises_after,
    start_round,
    unsupported,
)
from perudo.core.bidding import bid_table
from perudo.core.rules import PLAIN_PLAY

__all__ = [
    "MAX_BIDS",
    "SUPPORTS",
    "Hands",
    "Payoff",
    "RoundGame",
    "hands_of",
    "round_payoff",
]

FloatArray: TypeAlias = npt.NDArray[np.float64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
IntArray: TypeAlias = npt.NDArray[np.int64]

Payoff: TypeAlias = Callable[[GameState], float]
"""Scores the state a round ends in, for the opener (seat 0): the round's utility."""

MAX_BIDS = 30
"""Most bids a round may have for the solver (its arrays have ``2**(bids-1)`` rows)."""


def round_payoff(after: GameState) -> float:
    """+1 when the opener (seat 0) won the challenge, −1 when it lost it (P-20, V-4).

    The loser of a heads-up challenge is the seat whose dice went down.
    """
    result = after.past[-1].result
    lost = {seat for seat, change in result.changes if change < 0}
    if 0 in lost:
        return -1.0
    if 1 in lost:
        return 1.0
    raise ValueError(f"round ended without a loser: {result!r}")


@dataclass(frozen=True, eq=False)
class Hands:
    """Every hand one player can roll: sorted multisets of faces with their chance weights."""

    dice: int
    hands: tuple[tuple[int, ...], ...]
    """Sorted hands, lexicographic order."""
    weights: FloatArray
    """Chance of each hand (they sum to 1): ``dice! / Π(multiplicity!) / faces**dice``."""

    @cached_property
    def index(self) -> dict[tuple[int, ...], int]:
        return {h: i for i, h in enumerate(self.hands)}

    def __len__(self) -> int:
        return len(self.hands)


def hands_of(faces: int, dice: int) -> Hands:
    """The hands of ``dice`` dice of ``faces`` faces (P-3).

    >>> h = hands_of(6, 2)
    >>> len(h), h.hands[:3], round(float(h.weights[0] * 36), 6), round(float(h.weights[1] * 36), 6)
    (21, ((1, 1), (1, 2), (1, 3)), 1.0, 2.0)
    """
    hands = tuple(itertools.combinations_with_replacement(range(1, faces + 1), dice))
    total = faces**dice
    weights = np.array(
        [
            math.factorial(dice) / math.prod(math.factorial(h.count(f)) for f in set(h)) / total
            for h in hands
        ],
        dtype=np.float64,
    )
    return Hands(dice, hands, weights)


class RoundGame:
    """A heads-up round for the solver: its public tree, hands, counts and payoffs.

    Player 0 is the opener, seat 0 of the states built here; player 1 is seat 1.

    Args:
        rules: the rule set (two players must be allowed by it).
        dice: dice of the opener and of the other player.
        palifico: a palifico round opened by the opener, who must then hold one die (P-30).
        palifico_used: which players have had their palifico (the opener's is set when
            ``palifico``); it only matters for what the round leads to (P-30, P-34).
        payoff: scores the state the round ends in, for the opener (default
            :func:`round_payoff`: ±1 for winning or losing the challenge).
        utility: instead of ``payoff``, the table :attr:`utility` itself (as saved with a
            solved strategy); its shape is checked.
        max_bids: the most bids accepted (default :data:`MAX_BIDS`). A larger limit builds
            only the round's tables (bids, raises, counts, utilities: what the abstraction of
            :mod:`perudo.solve.abstract` needs), never the ``2**(bids-1)``-row arrays of the
            perfect-recall tree, which must then not be asked for.

    :raises ValueError: for rules the solver cannot play (V-7 ``to_act``, V-9, V-10), impossible
        dice, or a round with more than :data:`MAX_BIDS` bids.
    """

    def __init__(
        self,
        rules: RuleSet,
        dice: tuple[int, int],
        *,
        palifico: bool = False,
        palifico_used: tuple[bool, bool] = (False, False),
        payoff: Payoff = round_payoff,
        utility: FloatArray | None = None,
        max_bids: int = MAX_BIDS,
    ) -> None:
        _check_supported(rules)
        d0, d1 = (int(d) for d in dice)
        if not (1 <= d0 <= rules.dice_per_player and 1 <= d1 <= rules.dice_per_player):
            raise ValueError(
                f"dice {d0},{d1}: each player holds 1 to {rules.dice_per_player} dice (V-12)"
            )
        if palifico and d0 != 1:
            raise ValueError("a palifico round is opened by a player holding one die (P-30)")
        self.rules = rules
        self.dice = (d0, d1)
        self.palifico = bool(palifico)
        used = (bool(palifico_used[0]) or self.palifico, bool(palifico_used[1]))
        self.palifico_used = used
        self.payoff = payoff
        self.total = d0 + d1
        table = bid_table(rules, self.total, self.palifico)
        self.bids: tuple[Bid, ...] = table.bids
        """Every bid of the round, lowest rank first (the core's table)."""
        self.ranks: dict[Bid, int] = table.ranks
        n = len(self.bids)
        if n > max_bids:
            raise ValueError(
                f"{n} bids ({self.total} dice × {rules.faces} faces): the solver handles at most "
                f"{max_bids}"
            )
        self.num_bids = n
        self.rows = 1 << (n - 1)
        """Rows of every node and edge array: ``2**(num_bids - 1)``."""
        self.hands = (hands_of(rules.faces, d0), hands_of(rules.faces, d1))
        self.counts: tuple[IntArray, IntArray] = tuple(  # type: ignore[assignment]
            np.array(
                [
                    [count_hand(rules, h, f, self.palifico) for f in range(1, rules.faces + 1)]
                    for h in hs.hands
                ],
                dtype=np.int64,
            )
            for hs in self.hands
        )
        """``counts[p][i, f - 1]``: dice of player ``p``'s hand ``i`` that count for face ``f``."""
        self.opening, self.raise_ok = self._legal_tables()
        self.paths = self._paths()
        self.outcomes: dict[tuple[int, int, int], GameState] = {}
        """The state each ``(rank, bidder, count)`` challenge ends in (through the core)."""
        if utility is None:
            self.utility = self._utilities()
        else:
            given = np.asarray(utility, dtype=np.float64)
            if given.shape != (n, 2, self.total + 1):
                raise ValueError(
                    f"a utility table for this round has shape {(n, 2, self.total + 1)}, "
                    f"not {given.shape}"
                )
            self.utility = given
        """``utility[rank, bidder, count]``: the opener's payoff when the other player calls
        dudo on ``bidder``'s bid of ``rank`` and ``count`` dice match it."""

    # -- rules, from the core -------------------------------------------------------------

    def _legal_tables(self) -> tuple[BoolArray, tuple[BoolArray, BoolArray]]:
        """Openings, and which rank may follow which for each player (P-12…P-14, P-32, P-33)."""
        rules, total, pal, n = self.rules, self.total, self.palifico, self.num_bids
        opening = np.zeros(n, dtype=np.bool_)
        seq, start = raises_after(rules, None, total, palifico=pal)
        for bid in seq[start:]:
            opening[self.ranks[bid]] = True
        tables: list[BoolArray] = []
        for p in (0, 1):
            ok = np.zeros((n, n), dtype=np.bool_)
            one_die = self.dice[p] == 1
            for r, prev in enumerate(self.bids):
                seq, start = raises_after(rules, prev, total, palifico=pal, one_die=one_die)
                for bid in seq[start:]:
                    r2 = self.ranks[bid]
                    if r2 <= r:
                        raise ValueError(
                            f"{bid} may follow {prev} but ranks below it: the solver needs every "
                            "raise to go up the bid order (V-1)"
                        )
                    ok[r, r2] = True
            tables.append(ok)
        return opening, (tables[0], tables[1])

    def _paths(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """A shortest legal bid sequence ending in each ``(rank, bidder)`` that can occur."""
        paths: dict[tuple[int, int], tuple[int, ...]] = {}
        for r in range(self.num_bids):
            if self.opening[r]:
                paths[(r, 0)] = (r,)
            for b in (0, 1):
                if (r, b) in paths:
                    continue
                best: tuple[int, ...] | None = None
                for r0 in range(r):
                    prev = paths.get((r0, 1 - b))
                    if (
                        prev is not None
                        and self.raise_ok[b][r0, r]
                        and (best is None or len(prev) + 1 < len(best))
                    ):
                        best = (*prev, r)
                if best is not None:
                    paths[(r, b)] = best
        return paths

    def start_state(self, hand0: Sequence[int], hand1: Sequence[int]) -> GameState:
        """The round through the core: seat 0 opens with ``hand0``, seat 1 holds ``hand1``."""
        return start_round(
            self.rules,
            [tuple(hand0), tuple(hand1)],
            opener=0,
            palifico=self.palifico,
            palifico_used=[s for s in (0, 1) if self.palifico_used[s]],
        )

    def play(self, hand0: Sequence[int], hand1: Sequence[int], history: Sequence[int]) -> GameState:
        """The state after the bids of ranks ``history`` (played through :func:`apply`)."""
        state = self.start_state(hand0, hand1)
        for r in history:
            state, _ = apply(state, self.bids[r])
        return state

    def _utilities(self) -> FloatArray:
        """``utility[rank, bidder, count]``: the opener's payoff when ``count`` dice match the
        last bid ``rank`` by ``bidder`` and the other player calls dudo, as :func:`apply`
        settles it (P-20, P-21, V-4, V-5) and ``payoff`` scores it."""
        n, total = self.num_bids, self.total
        c0, c1 = self.counts
        utility = np.zeros((n, 2, total + 1), dtype=np.float64)
        witness: dict[tuple[int, int], tuple[int, int]] = {}
        for f in range(self.rules.faces):
            for i in range(c0.shape[0]):
                for j in range(c1.shape[0]):
                    witness.setdefault((f, int(c0[i, f] + c1[j, f])), (i, j))
        h0, h1 = self.hands
        for (r, b), path in self.paths.items():
            f = self.bids[r].face - 1
            for c in range(total + 1):
                pair = witness.get((f, c))
                if pair is None:
                    continue
                state = self.play(h0.hands[pair[0]], h1.hands[pair[1]], path)
                assert state.bidder == b and state.to_act == 1 - b
                after, _ = apply(state, Dudo())
                self.outcomes[(r, b, c)] = after
                utility[r, b, c] = float(self.payoff(after))
        return utility

    # -- the public tree ---------------------------------------------------------------------

    @cached_property
    def top(self) -> tuple[IntArray, IntArray]:
        """``top[p][j]``: the rank of the last bid at node ``j`` of player ``p`` (−1: root)."""
        out = []
        for p in (0, 1):
            t = np.empty(self.rows, dtype=np.int64)
            t[0] = -1 if p == 0 else 0
            for r in range(1, self.num_bids):
                t[1 << (r - 1) : 1 << r] = r
            out.append(t)
        return out[0], out[1]

    @cached_property
    def raise_legal(self) -> tuple[BoolArray, BoolArray]:
        """``raise_legal[p][j]``: whether edge ``j`` of player ``p`` is a legal raise."""
        out = []
        for p in (0, 1):
            legal = np.zeros(self.rows, dtype=np.bool_)
            # Row 0 of this table is "no bid yet": the openings (P-10, P-32).
            table = np.vstack([self.opening[None, :], self.raise_ok[p]])
            if p == 0:
                legal[0] = self.opening[0]
            prev = self.top[p]
            for r in range(1, self.num_bids):
                h = 1 << (r - 1)
                legal[h : 2 * h] = table[prev[:h] + 1, r]
            out.append(legal)
        return out[0], out[1]

    @cached_property
    def dudo_legal(self) -> tuple[BoolArray, BoolArray]:
        """``dudo_legal[p][j]``: dudo is legal at every node but the root (P-11)."""
        d0 = np.ones(self.rows, dtype=np.bool_)
        d0[0] = False
        return d0, np.ones(self.rows, dtype=np.bool_)

    @cached_property
    def num_legal(self) -> tuple[FloatArray, FloatArray]:
        """Legal actions at each node of each player (raises and dudo)."""
        out = []
        for p in (0, 1):
            k = self.dudo_legal[p].astype(np.float64)
            lr = self.raise_legal[p]
            if p == 0:
                k[0] += lr[0]
            for r in range(1, self.num_bids):
                h = 1 << (r - 1)
                k[:h] += lr[h : 2 * h]
            out.append(k)
        return out[0], out[1]

    @cached_property
    def reachable(self) -> tuple[BoolArray, BoolArray]:
        """Nodes some legal history leads to."""
        reach = [np.zeros(self.rows, dtype=np.bool_), np.zeros(self.rows, dtype=np.bool_)]
        reach[0][0] = True
        reach[1][0] = bool(self.raise_legal[0][0])
        for r in range(1, self.num_bids):
            h = 1 << (r - 1)
            for p in (0, 1):
                reach[1 - p][h : 2 * h] = reach[p][:h] & self.raise_legal[p][h : 2 * h]
        return reach[0], reach[1]

    def num_infostates(self) -> int:
        """Information states a player can be in (reachable nodes × hands), both players."""
        return sum(int(self.reachable[p].sum()) * len(self.hands[p]) for p in (0, 1))

    # -- histories <-> nodes -----------------------------------------------------------------

    @staticmethod
    def node_of(history: Sequence[int]) -> tuple[int, int]:
        """``(player to act, node)`` after the bids of ranks ``history`` (increasing)."""
        m = 0
        last = -1
        for r in history:
            if r <= last:
                raise ValueError(f"bid ranks must increase along a round, got {list(history)}")
            m |= 1 << r
            last = r
        return len(history) % 2, m >> 1

    def history_of(self, player: int, node: int) -> tuple[int, ...]:
        """The bid ranks that lead to ``node`` of ``player`` (inverse of :meth:`node_of`)."""
        ranks = [b + 1 for b in range(self.num_bids - 1) if node >> b & 1]
        if (len(ranks) + player) % 2:
            ranks.insert(0, 0)
        return tuple(ranks)

    @staticmethod
    def edge_of(node: int, rank: int) -> int:
        """The edge index of the raise to ``rank`` from ``node`` (of the player to act)."""
        if rank == 0:
            if node != 0:
                raise ValueError("only the opening bid can have rank 0")
            return 0
        h = 1 << (rank - 1)
        if node >= h:
            raise ValueError(f"rank {rank} does not raise node {node}'s last bid")
        return h + node

    def actions_at(self, player: int, node: int) -> list[PlayerAction]:
        """The tree's legal actions at a node: raises lowest first, then dudo."""
        out: list[PlayerAction] = []
        lr = self.raise_legal[player]
        t = int(self.top[player][node])
        if player == 0 and node == 0 and lr[0]:
            out.append(self.bids[0])
        for r in range(max(t, 0) + 1, self.num_bids):
            if lr[self.edge_of(node, r)]:
                out.append(self.bids[r])
        if self.dudo_legal[player][node]:
            out.append(Dudo())
        return out

    def iter_reachable(self, player: int) -> Iterator[int]:
        """Reachable nodes of ``player``, in increasing order."""
        yield from (int(j) for j in np.flatnonzero(self.reachable[player]))

    def check_against_core(self, samples: int = 200, seed: int = 0) -> int:
        """Replay sampled reachable nodes through :func:`apply` with random hands and compare
        the tree's legal actions with :func:`legal_actions`; returns the nodes checked.

        :raises AssertionError: naming the history where the two disagree.
        """
        rng = random.Random(seed)
        h0, h1 = self.hands
        checked = 0
        nodes = [(p, j) for p in (0, 1) for j in np.flatnonzero(self.reachable[p])]
        picks = nodes if len(nodes) <= samples else rng.sample(nodes, samples)
        for p, j in picks:
            history = self.history_of(p, int(j))
            state = self.play(rng.choice(h0.hands), rng.choice(h1.hands), history)
            core = list(legal_actions(state))
            mine = self.actions_at(p, int(j))
            if state.to_act != p or core != mine:
                raise AssertionError(
                    f"history {[str(self.bids[r]) for r in history]}: the core allows "
                    f"{[str(a) for a in core]}, the solver's tree {[str(a) for a in mine]}"
                )
            checked += 1
        return checked

    def describe(self) -> str:
        kind = "palifico" if self.palifico else "normal"
        return (
            f"{self.rules} {self.dice[0]}v{self.dice[1]} {kind} round: {self.num_bids} bids, "
            f"{len(self.hands[0])}×{len(self.hands[1])} hands"
        )


# Calza "on" (P-50) is never legal heads-up; "to_act" only while calza needs 3 players
# (_check_supported).
SUPPORTS: Final[Mapping[str, object]] = {**PLAIN_PLAY, "min_players": (2,)}
"""Every :class:`~perudo.core.RuleSet` field the solver plays, with the values it plays
(``...``: any): a field not listed is refused (:func:`perudo.core.unsupported`)."""

_WHY: Final[Mapping[str, str]] = {
    "set_aside": "set-aside and re-roll (V-9)",
    "passing": "passing (V-10)",
}


def _check_supported(rules: RuleSet) -> None:
    if rules.min_players > 2:
        raise ValueError(f"these rules need {rules.min_players} players; the solver plays two")
    missing = unsupported(rules, SUPPORTS)
    if missing:
        why = [_WHY.get(m.partition("=")[0], m) for m in missing]
        raise ValueError(f"the solver cannot play {'; '.join(why)}")
    if rules.calza == "to_act" and rules.calza_min_players <= 2:
        raise ValueError("the solver cannot play calza by the player to act heads-up (V-7)")
    # Calza "on" (P-50) is never legal heads-up: neither the bidder nor the player to act may
    # call it, and the tree is checked against legal_actions (check_against_core).
