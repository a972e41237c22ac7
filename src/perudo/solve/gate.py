"""Safe exploitation heads-up: the equilibrium until an opponent shows it bids by chances.

``expert`` plays a heads-up round from an abstraction equilibrium where one is shipped
(:mod:`perudo.solve.abstract_book`): against an opponent it knows nothing about, that is the
play no opponent can read. But most opponents are not equilibrium players. Many (people
counting their dice, and the ``medium``, ``hard`` and ``strong`` levels) bid by the chances
their own hand gives them, and ``strong`` is built to punish exactly that player: it reads the
hand from the bids (:mod:`perudo.bots.beliefs`) and answers the calls it expects. Against
``hard``, ``strong`` in the rounds the tables cover wins about five points more of the whole
heads-up matches than the tables do (``docs/bots.md``), and a restricted Nash response to
``hard`` (:mod:`perudo.solve.restricted`) more still in the rounds it covers, at half
``strong``'s exploitability. The gate decides, opponent by opponent, whether the equilibrium
or the exploiting play (the response where one is shipped, ``strong`` elsewhere) plays.

**The evidence.** Every finished heads-up round is replayed from its hands through the core,
and each decision the opponent took where a table covers its turn is scored with the log of a
likelihood ratio:

* a *chance player*: a softmax of each action's chance as the opponent's own hand gives it
  (``prob``'s :meth:`~perudo.bots.prob_bot.ProbBot.utilities`: a raise's chance of being
  true, dudo's of the bid being false; or ``balanced``'s, whose counts also lean on the
  other seat's bids), at each of :attr:`GateSettings.temperatures`, with a share
  :attr:`GateSettings.bluff` spread evenly over the legal actions: six players in all;
* the *equilibrium player*: the table's own strategy at that turn.

Per chance player, the sum over the opponent's decisions read in this game is the log of its
likelihood ratio; the opponent's *evidence* is the log of the six ratios' mean. ``expert``
plays the exploiting play in a round a table covers once the evidence reaches
:attr:`GateSettings.threshold`, and the table otherwise (a new game starts from nothing).

**The bound, and how it is kept.** Against an opponent who plays the equilibrium, each chance
player's likelihood ratio is a non-negative martingale of mean at most 1 (each decision's ratio
has expectation ``Σ p_table · p_chance / p_table = 1`` under the table's own play; the floor on
``p_table`` only lowers it), and so is the mean of six such martingales; by Ville's inequality
the chance that its evidence *ever* reaches the threshold ``c`` in a game is at most
``e^(−c)``: with the default ``c = 3``, under 5% of games, and in the others ``expert`` never
leaves the equilibrium. That needs every round read, not a selection of them, and a hand P-21
keeps down is not guessed:

* where it is the seat's own (it doubted, and the opponent's hand proved the bid), the
  opponent's decisions do not depend on it (its view never shows it, P-70): any dice stand in;
* where it is the opponent's (it doubted, and the seat's own hand proved the bid), each
  player's likelihood of the round is summed over every hand the opponent may hold, weighted
  by its chance, and the round's ratio is the ratio of the two sums: the likelihood ratio of
  what the seat saw, whose mean under the table's play is at most 1 all the same
  (``tests/solve/test_gate.py`` computes that mean exactly, over every hand and every move of
  the table, in rounds where the opponent's hand stays down).

Against any opponent, ``expert`` leaves the table only on evidence from what it saw, and only
in the rounds a table covers: the exact book (1v1, 2v1, 1v2: exploitability at most 0.01 a
seat) is always played as solved, and a game's first rounds, with no evidence, are played as
before. An opponent that reads ``strong`` must answer its bids by what they say of
``expert``'s hand, not by the chances of its own: each such call or raise weighs against the
chance player and sends ``expert`` back to the table. The measured cost and gain are in
``docs/bots.md`` (``benchmarks/head_to_head.py``).

Only what the seat's view shows is read (P-70): the finished rounds' actions, the hands lifted
at their calls (``RoundRecord.result.reveals``), and the dice counts each round started with.
Rounds with dice set aside (V-9) or of more than two seats are not read. Nothing is drawn from
a generator: the gate is deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np

from perudo.bots.balanced_bot import BalancedBot, BalancedSettings
from perudo.bots.openings import GameWatch, finished_rounds
from perudo.bots.prob_bot import Matrix, ProbBot
from perudo.core import (
    Phase,
    PlayerAction,
    PlayerView,
    RoundRecord,
    SetAside,
    apply,
    start_round,
    view,
)

from .abstract import AbstractStrategy
from .abstract_book import AbstractBook
from .solution import heads_up_seats

__all__ = ["ExploitGate", "GateSettings", "decision_evidence", "hands_of"]


@dataclass(frozen=True, slots=True)
class GateSettings:
    """The gate's model of a chance player and its threshold (see the module docstring)."""

    threshold: float = 3.0
    """Evidence (in nats) from which the exploiting play (the response to ``hard``, or
    ``strong``) plays the rounds a table covers: an
    equilibrium player's evidence reaches it in at most ``e^(−threshold)`` of games."""
    temperatures: tuple[float, ...] = (0.02, 0.05, 0.1)
    """Softmax temperatures of the chance players (the bid model's is 0.05)."""
    bluff: float = 0.08
    """The chance player's share of choices spread evenly over the legal actions."""

    def __post_init__(self) -> None:
        if (
            not self.threshold > 0.0
            or not self.temperatures
            or not all(t > 0.0 for t in self.temperatures)
            or not 0.0 < self.bluff < 1.0
        ):
            raise ValueError(
                "the gate needs threshold > 0, temperatures > 0 and 0 < bluff < 1, " f"not {self}"
            )


def decision_evidence(
    chance_player: dict[PlayerAction, float],
    table: dict[PlayerAction, float],
    action: PlayerAction,
    legal: int,
    bluff: float,
) -> float:
    """The log of the ratio of the chance player's chance of ``action`` (its softmax
    ``chance_player``, mixed with ``bluff`` spread over ``legal`` actions) to the table's.

    The table's chance is taken to be at least the chance player's uniform share
    ``bluff / legal``: a move the table never makes (a person's jump, say) then counts only as
    much as a chance player prefers it, and a floor only lowers the ratio, which keeps the
    bound."""
    mine, theirs = _terms(
        np.array([chance_player.get(action, 0.0)]), np.array([table.get(action, 0.0)]), legal, bluff
    )
    return float(mine[0] - theirs[0])


def _terms(chance: Matrix, table: Matrix, legal: int, bluff: float) -> tuple[Matrix, Matrix]:
    """The logs of the two sides of :func:`decision_evidence`, elementwise (one entry a hand
    the opponent may hold): the chance player's chance mixed with its even share, and the
    table's floored at that share."""
    share = bluff / legal
    mine: Matrix = np.log((1.0 - bluff) * chance + share)
    theirs: Matrix = np.log(np.maximum(table, share))
    return mine, theirs


class ExploitGate:
    """One seat's reading of its heads-up opponents in one game, from the rounds it saw end.

    :meth:`exploit` says whether to exploit (the response to ``hard``, or ``strong``) where
    the table would play. Build one per
    bot (it keeps the game's evidence); a view of a new game, or of another seat, starts it
    afresh.
    """

    __slots__ = ("_players", "_read", "_sums", "_watch", "abstract", "seat", "settings")

    def __init__(self, abstract: AbstractBook, settings: GateSettings | None = None) -> None:
        self.abstract = abstract
        self.settings = settings if settings is not None else GateSettings()
        self.seat: int | None = None
        self._read: set[int] = set()
        """Round numbers already read."""
        self._watch = GameWatch()
        self._sums: dict[int, list[float]] = {}
        """Per opponent seat: per chance player, the sum of its rounds' log likelihood
        ratios."""
        self._players: list[ProbBot] = []
        """The chance players: ``prob`` and ``balanced`` at each temperature."""
        for t in self.settings.temperatures:
            self._players.append(ProbBot(None, temperature=t))
            self._players.append(BalancedBot(None, settings=BalancedSettings(temperature=t)))

    def evidence(self, seat: int) -> float:
        """``seat``'s evidence so far (0 before any of its decisions was read): the log of the
        mean, over the chance players, of their likelihood ratios to the table."""
        sums = self._sums.get(seat)
        if sums is None:
            return 0.0
        top = max(sums)
        return top + math.log(sum(math.exp(x - top) for x in sums) / len(sums))

    def exploit(self, v: PlayerView) -> bool:
        """Whether ``v``'s seat exploits rather than plays the table in this heads-up round:
        whether its opponent's evidence has reached the threshold (read up to ``v`` first)."""
        self.observe(v)
        seats = heads_up_seats(v)
        if seats is None or v.seat not in seats:
            return False
        other = seats[1] if seats[0] == v.seat else seats[0]
        return self.evidence(other) >= self.settings.threshold

    def observe(self, v: PlayerView) -> None:
        """Fold in every finished round of ``v`` not read yet (a new game starts afresh)."""
        if v.seat is None:
            return
        if self._watch.new_game(v):
            self.seat = v.seat
            self._read.clear()
            self._sums.clear()
        for record, counts in finished_rounds(v):
            if record.round in self._read:
                continue
            self._read.add(record.round)
            try:
                found = self.round_evidence(v, record, counts)
            except (ValueError, KeyError):
                # A record the replay cannot rebuild (IllegalActionError is a ValueError) is
                # not read: the gate must never stop a game.
                found = None
            if found is not None:
                seat, gains = found
                old = self._sums.get(seat, [0.0] * len(gains))
                self._sums[seat] = [a + b for a, b in zip(old, gains, strict=True)]

    def round_evidence(
        self, v: PlayerView, record: RoundRecord, counts: tuple[int, ...]
    ) -> tuple[int, list[float]] | None:
        """``(opponent, evidence per chance player)`` of one finished heads-up round that
        started with ``counts`` dice per seat, or ``None`` for a round not read (see the
        module docstring).

        The round is replayed through the core from the hands lifted at its call, and each
        opponent decision a table covers is scored (:func:`decision_evidence`, every hand it
        may have held at once: :meth:`_log_likelihoods`). A hand that
        stayed down (P-21: the bid was proven before it) is not guessed:

        * this seat's own: the opponent's decisions do not depend on it (its view never shows
          it, P-70), so any dice stand in for it;
        * the opponent's: each chance player's likelihood and the table's are summed over
          every hand it may hold, weighted by that hand's chance (:func:`hands_of`), and
          their ratio is the round's evidence. That is the likelihood ratio of what the seat
          saw, so against the table's player it still has mean at most 1: the rounds read
          are every heads-up round, not a selection, and the bound holds. The sum is exact
          at every size: each player values all the hands at once (252 at five dice).

        Where a table covers only some of the opponent's turns (its moves at the others would
        say something of its hand that no model here weighs; no shipped table does that, as
        the tables cover a round's turns all or none), the round's ratio is taken at its floor
        instead, ``Π bluff / legal`` over the covered turns: never more than the
        true ratio, so the mean stays at most 1, and such a round weighs against every chance
        player."""
        me = v.seat
        alive = [s for s, c in enumerate(counts) if c]
        if me not in alive or len(alive) != 2:
            return None
        if any(isinstance(a, SetAside) for _, a in record.actions):
            return None
        other = alive[1] if alive[0] == me else alive[0]
        hands: list[tuple[int, ...]] = [() for _ in counts]
        for reveal in record.result.reveals:
            hands[reveal.seat] = reveal.hand
        if any(hands[s] and len(hands[s]) != counts[s] for s in alive):
            return None
        if not hands[me]:
            hands[me] = (v.rules.faces,) * counts[me]
        lifted = hands[other]
        if not lifted:
            hands[other] = (v.rules.faces,) * counts[other]
        # The opponent's turns, replayed once: which of its moves a table covers reads only
        # public fields (the dice counts, the bids), and so do its legal moves, so they are
        # the same for every hand it may hold.
        turns = self._turns(v, record, hands, other)
        covered = [(theirs, action, strat) for theirs, action, strat in turns if strat]
        if not covered:
            return None
        n = len(self._players)
        if len(covered) < len(turns):
            floor = sum(math.log(self.settings.bluff / len(t.legal)) for t, _, _ in covered)
            return other, [floor] * n
        if lifted:
            candidates: list[tuple[int, ...]] = [tuple(sorted(lifted))]
            log_weights = np.zeros(1)
        else:
            weighted = hands_of(counts[other], v.rules.faces)
            candidates = [hand for hand, _ in weighted]
            log_weights = np.array([w for _, w in weighted])
        chance_logs, table_log = self._log_likelihoods(covered, candidates)
        if lifted:
            return other, [float(x[0] - table_log[0]) for x in chance_logs]
        table = _log_sum_exp(log_weights + table_log)
        return other, [float(_log_sum_exp(log_weights + x) - table) for x in chance_logs]

    def _turns(
        self, v: PlayerView, record: RoundRecord, hands: list[tuple[int, ...]], other: int
    ) -> list[tuple[PlayerView, PlayerAction, AbstractStrategy | None]]:
        """The opponent's bidding turns of the round replayed from ``hands``: for each, its
        view, its move and the table that covers it (if one does)."""
        state = start_round(
            v.rules, hands, opener=record.opener, palifico=record.palifico, round=record.round
        )
        turns: list[tuple[PlayerView, PlayerAction, AbstractStrategy | None]] = []
        for seat, action in record.actions:
            if seat == other and state.phase is Phase.BIDDING:
                theirs = view(state, other)
                turns.append((theirs, action, self.abstract.find(theirs)))
            state, _ = apply(state, action, seat)
        return turns

    def _log_likelihoods(
        self,
        covered: list[tuple[PlayerView, PlayerAction, AbstractStrategy]],
        candidates: list[tuple[int, ...]],
    ) -> tuple[list[Matrix], Matrix]:
        """For each hand of ``candidates`` the opponent may have held: per chance player, the
        log of its chance of the opponent's moves at the covered turns (mixed with its even
        share, :func:`decision_evidence`), and the log of the table's (floored at that
        share). Every hand is valued at once (:meth:`ProbBot.policy_rows`,
        :meth:`AbstractStrategy.policy_rows`)."""
        bluff = self.settings.bluff
        chance_logs = [np.zeros(len(candidates)) for _ in self._players]
        table_log = np.zeros(len(candidates))
        for theirs, action, strat in covered:
            legal = len(theirs.legal)
            j = theirs.legal.index(action)
            table = strat.policy_rows(theirs, candidates)[:, j]
            for k, player in enumerate(self._players):
                mine, floored = _terms(
                    player.policy_rows(theirs, candidates)[:, j], table, legal, bluff
                )
                chance_logs[k] += mine
            table_log += floored
        return chance_logs, table_log


def hands_of(dice: int, faces: int) -> list[tuple[tuple[int, ...], float]]:
    """Every hand of ``dice`` dice of ``faces`` faces (sorted), with the log of its chance:
    the hands a player whose dice stayed down may hold."""
    out: list[tuple[tuple[int, ...], float]] = []
    ways = math.lgamma(dice + 1) - dice * math.log(faces)
    for hand in combinations_with_replacement(range(1, faces + 1), dice):
        repeats = sum(math.lgamma(hand.count(f) + 1) for f in set(hand))
        out.append((hand, ways - repeats))
    return out


def _log_sum_exp(xs: Matrix) -> float:
    top = float(xs.max())
    return top + math.log(float(np.exp(xs - top).sum()))
