"""``expert``: plays the solved equilibrium in heads-up endgames, the ``strong`` bot elsewhere.

When only two seats have dice and the round is one the solver has solved (a
:class:`StrategyBook` holds it), the expert maps its view to the information state (its seat
as opener or not, the round's bids as ranks, its hand) and samples the equilibrium's action
with its seeded generator; at a P-34 choice it takes the choice with the better match value.
A heads-up round the book does not hold but an abstraction equilibrium covers (2v2 and up, and
the palifico rounds of one die against three to five: :mod:`perudo.solve.abstract_book`, a
player remembering the last few bids) is played from that table. Everywhere else (more
players, a round not solved, rules the solver cannot play) it asks its fallback bot: by
default ``strong`` reading each opponent's openings with the opening-bluff rate it learns
from the hands revealed at calls (:func:`robust_strong`, :mod:`perudo.bots.openings`). The
order is exact book, abstraction table, fallback; with a ``gate`` (the ``expert`` level's,
:mod:`perudo.solve.gate`) a table's round against an opponent whose lifted hands show it bids
by chances is played from the shipped restricted Nash response to ``hard``
(:mod:`perudo.solve.restricted`), or by the fallback where none covers it. (:func:`mixed_expert`
adds the mixed play fitted by self-play, :mod:`perudo.bots.mixing`; it is not the default: it
loses to ``hard`` where ``expert`` does not, ``docs/bots.md``.)
(The learned policy, :class:`~perudo.bots.learned_bot.LearnedBot`, is the other candidate:
``ExpertBot(seed, fallback=LearnedBot(seed))``; its shipped weights lose heads-up matches to
``medium`` and ``hard``, so it is not the default: ``docs/bots.md``.)

:class:`AnchoredBot` (the ``hard`` level) blends ``balanced`` with the same book's equilibrium.

The book holds the shipped rounds (:data:`SHIPPED_BOOK`, :mod:`perudo.solve.shipped`: the
presets' heads-up matches and the joker game's single rounds up to three dice, packed, each
file read and hash-checked when one of its views is first met), rounds loaded from a directory
written by ``perudo solve --match --out DIR`` (or named by the ``PERUDO_SOLVED`` environment
variable), and one-die-each rounds it solves on demand (the loser of such a round is out, so
the round's value is the match's). A decision never waits for the solver: where the
book has no entry, the bot plays its fallback (``expert``: ``strong``; ``hard``:
``balanced``) at once, and the book starts solving that rule set's one-die-each match in a
background thread (half a minute to a minute on a loaded machine), holding no lock that a
decision needs; its rounds are played once it is done. So under a custom rule set the same
seeds can play differently before and after that solve; for replayable games there, solve first
(``perudo solve --match --out DIR``) and name the directory in ``PERUDO_SOLVED``.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Literal

from perudo.bots.balanced_bot import BalancedBot
from perudo.bots.base import Bot, BotBase
from perudo.bots.mixing import MixedPlay, load_mixed_play
from perudo.bots.openings import OpeningTrust
from perudo.bots.prob_bot import sample_policy
from perudo.bots.strong_bot import StrongBot, StrongSettings
from perudo.core import ChoosePalifico, Phase, PlayerAction, PlayerView, RuleSet

from .abstract import AbstractStrategy
from .abstract_book import AbstractBook, default_abstract_book, default_response_book
from .gate import ExploitGate, GateSettings
from .match import MatchSolution, Position, solve_match
from .packed import PackedRound
from .shipped import BOOK_DIR, BookEntry, read_book
from .solution import Solution, round_key

__all__ = [
    "MIXED_BLUFFERS",
    "AnchoredBot",
    "ExpertBot",
    "StrategyBook",
    "default_book",
    "mixed_expert",
    "robust_strong",
    "shipped_mixed_play",
]

_ON_DEMAND_TOTAL = 2
"""Rounds with at most this many dice in play are solved when first met."""

SHIPPED_BOOK = BOOK_DIR
"""The shipped book (:mod:`perudo.solve.shipped`): the presets' heads-up matches and the joker
game's rounds up to three dice, loaded round by round when first met."""

Round = Solution | PackedRound
"""A solved round as the book holds it: full (solved here) or packed (shipped)."""


class StrategyBook:
    """Solved heads-up rounds and P-34 choices, by rules and position."""

    def __init__(self, directory: str | os.PathLike[str] | None = None, *, on_demand: int = 2):
        self.rounds: dict[str, Round] = {}
        self.choices: dict[tuple[RuleSet, Position], bool] = {}
        self.shipped: dict[str, BookEntry] = {}
        """Rounds of a shipped book not loaded yet, by key: loaded when first met."""
        self._files: dict[str, PackedRound] = {}
        """Packed rounds loaded, by file hash: positions that share a file share its arrays."""
        self.on_demand = on_demand
        self._tried: set[RuleSet] = set()
        self._solving: list[threading.Thread] = []
        self._lock = threading.Lock()
        """Guards the dicts above; held only to read or add entries, never during a solve."""
        if directory is not None:
            self.load(directory)

    def __deepcopy__(self, memo: dict[int, object]) -> StrategyBook:
        # A book is a shared cache of solved rounds: a copied bot plays from the same one.
        return self

    def add(self, match: MatchSolution) -> None:
        """Take every round and choice of a solved match."""
        for sol in match.rounds.values():
            self.rounds[sol.key] = sol
        for pos, choice in match.choices.items():
            self.choices[(match.rules, pos)] = choice

    def load(self, directory: str | os.PathLike[str]) -> None:
        """Load a book (``book.json``: its rounds load when first met), a solved match
        (``match.json`` and its rounds) or loose ``.npz`` rounds.

        :raises ValueError: if the directory holds none of them.
        """
        base = Path(directory)
        if (base / "book.json").is_file():
            book = read_book(base)
            with self._lock:
                self.shipped.update(book.entries)
                self.choices.update(book.choices)
            return
        if (base / "match.json").is_file():
            self.add(MatchSolution.load(base))
            return
        files = sorted(base.glob("*.npz"))
        if not files:
            raise ValueError(f"{base}: no match.json and no saved rounds (.npz)")
        for f in files:
            sol = Solution.load(f)
            self.rounds[sol.key] = sol

    @staticmethod
    def position(view: PlayerView) -> Position | None:
        """The heads-up position of ``view``'s round, or ``None`` with more players."""
        alive = [s for s, c in enumerate(view.dice_counts) if c]
        if len(alive) != 2 or view.opener not in alive:
            return None
        opener = view.opener
        other = alive[0] if alive[1] == opener else alive[1]
        if view.phase is Phase.CHOOSE_PALIFICO:
            kind = "choose"
        else:
            kind = "palifico" if view.palifico else "normal"
        return Position(
            (view.dice_counts[opener], view.dice_counts[other]),
            (view.palifico_used[opener], view.palifico_used[other]),
            kind,  # type: ignore[arg-type]
        )

    def _request(self, rules: RuleSet, pos: Position) -> None:
        # The caller holds self._lock. Starts the rule set's on-demand solve in the background
        # (once per rule set) and returns at once: no decision waits for the solver.
        if pos.total > self.on_demand or rules in self._tried:
            return
        self._tried.add(rules)
        thread = threading.Thread(
            target=self._solve, args=(rules,), name="perudo-book-solve", daemon=True
        )
        self._solving.append(thread)
        thread.start()

    def _solve(self, rules: RuleSet) -> None:
        try:
            match = solve_match(rules, self.on_demand)
        except ValueError:  # rules the solver cannot play: the fallback plays on
            return
        with self._lock:
            self.add(match)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the on-demand solves started so far; whether all of them are done."""
        with self._lock:
            threads = list(self._solving)
        for thread in threads:
            thread.join(timeout)
        return not any(t.is_alive() for t in threads)

    def find(self, view: PlayerView) -> Round | None:
        """The solved round ``view`` is a turn of, if the book holds it and the view's
        information state (a packed round holds those its strategy reaches). Never waits for
        a solve: a round not held starts its rule set's on-demand solve in the background; a
        shipped round is read from its file when first met (hash-checked, a fraction of a
        second).

        :raises ValueError: if a shipped round's file does not match the book's hash.
        """
        pos = self.position(view)
        if pos is None or pos.kind == "choose" or view.seat is None:
            return None
        key = round_key(view.rules, pos.dice, pos.palifico, pos.palifico_used)
        with self._lock:
            sol = self.rounds.get(key)
            entry = self.shipped.get(key) if sol is None else None
            if sol is None and entry is None:
                self._request(view.rules, pos)
        if sol is None and entry is not None:
            sol = self._load_shipped(entry)
        if sol is None or not sol.holds(view):
            return None
        return sol

    def _load_shipped(self, entry: BookEntry) -> Round:
        # Read outside the lock (other tables' bots decide meanwhile); two threads meeting
        # the same round at once may both read it, and the first one stored is kept.
        with self._lock:
            base = self._files.get(entry.sha256)
        if base is None:
            base = entry.load()
        sol = base if base.key == entry.key else base.rebind(entry.rules, entry.palifico_used)
        with self._lock:
            self._files.setdefault(entry.sha256, base)
            return self.rounds.setdefault(entry.key, sol)

    def choose(self, view: PlayerView) -> bool | None:
        """At a P-34 choice: whether to play a palifico round, if the book knows."""
        pos = self.position(view)
        if pos is None or pos.kind != "choose":
            return None
        with self._lock:
            key = (view.rules, pos)
            if key not in self.choices:
                self._request(view.rules, pos)
            return self.choices.get(key)


_DEFAULT: StrategyBook | None = None
_DEFAULT_LOCK = threading.Lock()


def default_book() -> StrategyBook:
    """The process-wide book: the shipped presets' matches, ``PERUDO_SOLVED`` (a directory) if
    set, plus on-demand solves (in the background)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            book = StrategyBook(SHIPPED_BOOK, on_demand=_ON_DEMAND_TOTAL)
            extra = os.environ.get("PERUDO_SOLVED")
            if extra:
                book.load(extra)
            _DEFAULT = book
        return _DEFAULT


_MIXED: MixedPlay | None = None

MIXED_BLUFFERS = 0.05
"""The prior chance of a bluffer with which the mixed play reads openings: the odds its
shipped fit was made and measured with (``docs/bots.md``), where ``expert`` reads strangers
at even odds (:attr:`perudo.bots.openings.OpeningTrust.bluffers`)."""


SWITCHES_MAX_SEATS = 4
"""The largest table at which ``expert`` reads switches to the wild face with learned
switch-bluff rates (:mod:`perudo.bots.switches`; from three seats with dice up). At four seats
the ``raises-aces`` habit took 31.1% of 1,000 games from three ``expert``s reading every
switch as honest, 25.6% of 4,000 with the rates, which cost nothing measurable against three
``hard`` (43.6% of 4,000 games, 43.4% before). At six seats the habit is no exploit (17.2% of
500 games, fair 16.7%), and reading switches there lost 1.2 to 1.7 points against five
``hard`` at Perudo with calza (4,000 games; docs/bots.md), so a six-seat game reads them as
``strong`` does. At five seats the habit took 22.5% of 1,000 games (fair 20%), 17.0% with
the rates; their cost against ``hard`` there is not measured."""


def shipped_mixed_play() -> MixedPlay:
    """The shipped fit of :mod:`perudo.bots.mixing` (read and hash-checked once a process).

    :raises ValueError: if the shipped file does not match its manifest's SHA-256.
    """
    global _MIXED
    with _DEFAULT_LOCK:
        if _MIXED is None:
            _MIXED = load_mixed_play()
        return _MIXED


def robust_strong(
    seed: int | None = None, *, mixing: MixedPlay | Literal["shipped"] | None = None
) -> StrongBot:
    """``expert``'s fallback: ``strong`` reading each opponent's openings with the
    opening-bluff rate it learns from the hands revealed at calls, from three seats up
    (:mod:`perudo.bots.openings`: every opponent at even odds of a bluffer, the prior 0), and
    its switches to the wild face with the switch-bluff rate it learns the same way
    (:mod:`perudo.bots.switches`).
    With ``mixing`` (``"shipped"``: the package's fit; or a
    :class:`~perudo.bots.mixing.MixedPlay`) it also mixes its opening bluff and its calls
    there at frequencies fitted by self-play and reads openings from the fit's prior, at the
    odds of a bluffer the fit was made and measured with (:data:`MIXED_BLUFFERS`;
    :mod:`perudo.bots.mixing`, :func:`mixed_expert`)."""
    play = shipped_mixed_play() if mixing == "shipped" else mixing
    if play is None:
        switches = OpeningTrust(max_seats=SWITCHES_MAX_SEATS)
        settings = StrongSettings(openings=OpeningTrust(), switches=switches)
        return StrongBot(seed, settings=settings)
    trust = OpeningTrust(prior=play.reading_prior, bluffers=MIXED_BLUFFERS)
    return StrongBot(seed, settings=StrongSettings(openings=trust, mixing=play))


def mixed_expert(seed: int | None = None) -> ExpertBot:
    """``expert`` with the shipped mixed play from three seats up (:mod:`perudo.bots.mixing`):
    not the ``expert`` level, which it loses to against ``hard`` (``docs/bots.md``); a bot
    spec for the benchmarks, ``perudo.solve.expert:mixed_expert``."""
    return ExpertBot(seed, fallback=robust_strong(seed, mixing="shipped"))


class ExpertBot(BotBase):
    """The solved equilibrium in heads-up endgames the book holds; else an abstraction
    equilibrium where one is shipped for the round (2v2 and up, and the palifico rounds of
    one die against three to five); ``fallback`` elsewhere."""

    name = "exact"

    def __init__(
        self,
        seed: int | None = None,
        *,
        book: StrategyBook | None = None,
        fallback: Bot | None = None,
        abstract: AbstractBook | None = None,
        gate: GateSettings | None = None,
        responses: AbstractBook | None = None,
    ) -> None:
        super().__init__(seed)
        self.book = book if book is not None else default_book()
        self.abstract = abstract if abstract is not None else default_abstract_book()
        """Abstraction equilibria of heads-up rounds the book does not hold (2v2 and up, and
        the palifico rounds of one die against three to five)."""
        self.gate = ExploitGate(self.abstract, gate) if gate is not None else None
        """Where set, a table's round against an opponent whose revealed decisions read as a
        chance player's (:mod:`perudo.solve.gate`) is played from :attr:`responses`, or by the
        fallback where no response covers it."""
        self.responses = (
            responses if responses is not None or gate is None else default_response_book()
        )
        """Restricted Nash responses to ``hard`` (:mod:`perudo.solve.restricted`), played
        where the gate opens."""
        self.fallback: Bot = fallback if fallback is not None else robust_strong(seed)
        """Who plays where the book has nothing (default: :func:`robust_strong` with the same
        seed)."""

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The action probabilities: the equilibrium's where solved, else the fallback's."""
        if view.my_turn:
            if view.phase is Phase.CHOOSE_PALIFICO:
                choice = self.book.choose(view)
                if choice is not None:
                    return {ChoosePalifico(choice): 1.0}
            elif view.phase is Phase.BIDDING:
                sol = self.book.find(view)
                if sol is not None:
                    probs = sol.policy(view)
                    # In the order of view.legal, so that a seeded game replays exactly.
                    return {a: probs[a] for a in view.legal if a in probs}
                strat = self._table(view)
                if strat is not None:
                    return strat.policy(view)
        stated = getattr(self.fallback, "policy", None)
        if stated is None:
            raise ValueError(f"the fallback bot {self.fallback.name!r} states no policy")
        return dict(stated(view))

    def solved(self, view: PlayerView) -> bool:
        """Whether this view is played from a solved equilibrium: the exact book's first, then
        an abstraction equilibrium's (:mod:`perudo.solve.abstract_book`)."""
        if view.phase is Phase.CHOOSE_PALIFICO:
            return self.book.choose(view) is not None
        return self.book.find(view) is not None or self._table(view) is not None

    def _table(self, view: PlayerView) -> AbstractStrategy | None:
        """The abstraction equilibrium ``view`` is a turn of; where the gate opens, the
        response to a chance player that covers the round instead, or none (the fallback
        plays)."""
        strat = self.abstract.find(view)
        if strat is not None and self.gate is not None and self.gate.exploit(view):
            return self.responses.find(view) if self.responses is not None else None
        return strat

    def act(self, view: PlayerView) -> PlayerAction:
        if view.my_turn and self.solved(view):
            return sample_policy(self.policy(view), self.rng.random())
        return self.fallback.act(view)

    def call_calza(self, view: PlayerView) -> bool:
        return self.fallback.call_calza(view)


class AnchoredBot(BotBase):
    """``balanced`` anchored to the equilibrium where the book holds the round (the ``hard``
    level): there it plays ``share`` of the equilibrium's probability and ``1 − share`` of
    ``balanced``'s, action by action; everywhere else ``balanced`` alone.

    ``balanced`` alone gives a best response up to 0.24 a round at one die each
    (``benchmarks/levels.py``); the equilibrium gives nothing, and a best response's gain is
    convex in the strategy played, so half of each stays under 0.15 at 1v1 (measured in
    ``docs/bots.md``) while the bot keeps ``balanced``'s style and its speed elsewhere.
    """

    name = "anchored"

    def __init__(
        self,
        seed: int | None = None,
        *,
        share: float = 0.75,
        book: StrategyBook | None = None,
        base: BalancedBot | None = None,
    ) -> None:
        super().__init__(seed)
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share must lie in [0, 1], not {share}")
        self.share = share
        self.book = book if book is not None else default_book()
        self.base = base if base is not None else BalancedBot(seed)

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The blend where the round is solved, ``balanced``'s policy elsewhere."""
        base = self.base.policy(view)
        if not (view.my_turn and view.phase is Phase.BIDDING and self.share > 0.0):
            return base
        sol = self.book.find(view)
        if sol is None:
            return base
        eq = sol.policy(view)
        mixed = {
            a: self.share * eq.get(a, 0.0) + (1.0 - self.share) * base.get(a, 0.0)
            for a in view.legal
        }
        return {a: p for a, p in mixed.items() if p > 0.0}

    def act(self, view: PlayerView) -> PlayerAction:
        return sample_policy(self.policy(view), self.rng.random())

    def call_calza(self, view: PlayerView) -> bool:
        return self.base.call_calza(view)
