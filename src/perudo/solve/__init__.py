"""Exact play of heads-up Perudo: equilibria, exploitability, best responses, match values.

A two-player round of any rule set the core plays with bids and dudo is a finite zero-sum
game; :class:`RoundGame` builds its public tree from the core (bid tables, ``raises_after``,
``count_hand``, ``apply``), :func:`solve_round` finds an equilibrium (sequence-form LP with
HiGHS for small rounds, vectorized CFR+ otherwise) and measures its exploitability exactly,
:mod:`perudo.solve.exploit` best-responds to any bot that states its action probabilities,
:func:`solve_match` values every heads-up position from the smallest up, and
:class:`ExpertBot` plays the result. See ``docs/solver.md``.
"""

from __future__ import annotations

from .game import Hands, RoundGame, hands_of, round_payoff
from .match import MatchSolution, Position, solve_match
from .solution import Solution
from .solver import METHODS, solve_round
from .vector import Kernel, Profile

__all__ = [
    "METHODS",
    "Hands",
    "Kernel",
    "MatchSolution",
    "Position",
    "Profile",
    "RoundGame",
    "Solution",
    "hands_of",
    "round_payoff",
    "solve_match",
    "solve_round",
]
