"""The shipped abstraction equilibria: heads-up rounds too big for the exact solver.

``tables/`` beside this module holds one compressed :class:`~perudo.solve.abstract.AbstractStrategy`
per solved round (a player remembers only the last ``k`` bids: ``perudo.solve.abstract``) and
``index.json``: for each file its SHA-256, version, the round (dice, kind, the fingerprint of the
round's game: :func:`~perudo.solve.abstract.round_fingerprint`), how it was solved and its
exploitability measured exactly in the full game where that is possible (2v2).

:class:`AbstractBook` finds the table for a live view: a heads-up turn to bid or challenge whose
round (rules, dice, palifico) has a shipped table's fingerprint. The index is read when the book
is made; a table is loaded, and its SHA-256 checked, when a view first needs it. A round's
fingerprint is computed once per (rules, dice, kind) from the core (``RoundGame``), so any rule
set whose round is the same game (``perudo``, ``perudo_calza`` and ``liars_dice`` heads-up) is
played from the same table.

``perudo abstract`` writes the tables (docs/solver.md, "Abstraction equilibria").
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo.core import PRESETS, Phase, PlayerView, RuleSet

from .abstract import AbstractCFR, AbstractStrategy, Method, exact_exploitability, round_fingerprint
from .game import MAX_BIDS, RoundGame
from .reference import Policy
from .saved import read_json, sha256_of
from .shipped import joker_rules
from .solution import heads_up_seats
from .vector import keep_freed_memory

__all__ = [
    "INDEX_FORMAT",
    "SHIPPED_RESPONSES",
    "SHIPPED_TABLES",
    "AbstractBook",
    "Response",
    "build_table",
    "default_abstract_book",
    "default_response_book",
]

INDEX_FORMAT = "perudo-abstract-tables/1"
"""The ``format`` field of ``index.json``."""

SHIPPED_TABLES = Path(__file__).resolve().parent / "tables"
"""The shipped abstraction equilibria (``index.json`` and one ``.npz`` per round)."""


def read_index(directory: Path) -> list[dict[str, Any]]:
    """The entries of ``directory/index.json`` (none if there is no index).

    :raises ValueError: if the index is not one this version reads.
    """
    path = directory / "index.json"
    if not path.is_file():
        return []
    data = read_json(path, "an index of abstract tables", {"format": INDEX_FORMAT})
    entries: list[dict[str, Any]] = data["tables"]
    return entries


def write_index(directory: Path, entries: list[dict[str, Any]]) -> Path:
    path = directory / "index.json"
    body = {"format": INDEX_FORMAT, "tables": sorted(entries, key=lambda e: str(e["file"]))}
    path.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


class AbstractBook:
    """Abstraction equilibria by round fingerprint, loaded lazily and hash-checked."""

    def __init__(self, directory: str | os.PathLike[str] = SHIPPED_TABLES) -> None:
        self.directory = Path(directory)
        self.entries = read_index(self.directory)
        self._by_print = {str(e["fingerprint"]): e for e in self.entries}
        self._rounds = {
            (int(e["dice"][0]), int(e["dice"][1]), bool(e["palifico"])) for e in self.entries
        }
        self._prints: dict[tuple[RuleSet, int, int, bool], str | None] = {}
        self._loaded: dict[str, AbstractStrategy] = {}
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, object]) -> AbstractBook:
        # A book is a shared read-only cache: a copied bot plays from the same one.
        return self

    def load(self, entry: dict[str, Any]) -> AbstractStrategy:
        """The strategy of one index entry, its file's SHA-256 checked.

        :raises ValueError: if the file's hash or round differs from the index.
        """
        path = self.directory / str(entry["file"])
        strat = AbstractStrategy.load(path, sha256=str(entry["sha256"]))
        if strat.fingerprint != entry["fingerprint"]:
            raise ValueError(f"{path}: not the round the index names")
        return strat

    def _fingerprint(self, rules: RuleSet, dice: tuple[int, int], palifico: bool) -> str | None:
        key = (rules, dice[0], dice[1], palifico)
        if key not in self._prints:
            try:
                game = RoundGame(rules, dice, palifico=palifico, max_bids=999)
            except ValueError:  # rules the solver cannot play
                self._prints[key] = None
            else:
                self._prints[key] = round_fingerprint(game)
        return self._prints[key]

    def find(self, view: PlayerView) -> AbstractStrategy | None:
        """The abstraction equilibrium ``view`` is a turn of, if one is shipped."""
        if view.seat is None or not view.my_turn or view.phase is not Phase.BIDDING:
            return None
        seats = heads_up_seats(view)
        if seats is None:
            return None
        dice = (view.dice_counts[seats[0]], view.dice_counts[seats[1]])
        if (dice[0], dice[1], view.palifico) not in self._rounds:
            return None
        with self._lock:
            fp = self._fingerprint(view.rules, dice, view.palifico)
            entry = self._by_print.get(fp) if fp is not None else None
            if entry is None:
                return None
            strat = self._loaded.get(fp)  # type: ignore[arg-type]
            if strat is None:
                strat = self._loaded[str(fp)] = self.load(entry)
        return strat if strat.matches(view) else None


SHIPPED_RESPONSES = Path(__file__).resolve().parent / "responses"
"""The shipped restricted Nash responses to ``hard`` (:mod:`perudo.solve.restricted`), which
``expert`` plays once the gate reads its opponent as a chance player (same layout as
:data:`SHIPPED_TABLES`)."""

_DEFAULTS: dict[str, AbstractBook] = {}
_DEFAULT_LOCK = threading.Lock()


def _default(variable: str, shipped: Path) -> AbstractBook:
    with _DEFAULT_LOCK:
        book = _DEFAULTS.get(variable)
        if book is None:
            book = _DEFAULTS[variable] = AbstractBook(os.environ.get(variable) or shipped)
        return book


def default_abstract_book() -> AbstractBook:
    """The process-wide book of the shipped tables (``PERUDO_ABSTRACT`` names another
    directory written by ``perudo abstract``)."""
    return _default("PERUDO_ABSTRACT", SHIPPED_TABLES)


def default_response_book() -> AbstractBook:
    """The process-wide book of the shipped responses to ``hard`` (``PERUDO_RESPONSES`` names
    another directory written by ``perudo abstract --respond-to``)."""
    return _default("PERUDO_RESPONSES", SHIPPED_RESPONSES)


@dataclass(frozen=True)
class Response:
    """Solve restricted Nash responses (:mod:`perudo.solve.restricted`) rather than an
    equilibrium: to the bot named ``model`` (written to the index), whose ``policy`` is dealt
    to the other seat with probability ``share``."""

    model: str
    share: float
    policy: Policy


def build_table(
    rules: RuleSet,
    dice: tuple[int, int],
    memory: int,
    directory: str | os.PathLike[str],
    *,
    palifico: bool = False,
    iterations: int = 1000,
    minutes: float | None = None,
    method: Method = "dcfr",
    measure: bool = True,
    response: Response | None = None,
    report: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Solve one round's abstraction, write it to ``directory`` and enter it in the index
    (replacing an entry of the same round); returns the entry.

    CFR runs ``iterations`` iterations, or fewer if ``minutes`` run out first. Where the round
    fits (:data:`MEASURE_BYTES`: 2v2, not 2v3) and ``measure`` is on, the saved
    strategy (as it is loaded: float16, renormalized) is measured exactly in the full game
    (:func:`~perudo.solve.abstract.exact_exploitability`).

    With ``response``, each seat's strategy is its restricted Nash response to the named bot
    (:mod:`perudo.solve.restricted`): two solves of ``iterations`` each (``minutes`` caps each).
    What it wins against the bot is exact against the bot as tabulated on the abstraction,
    which is the bot itself where it reads no more of the round than the last bids (``hard``
    from 2v2 up), an approximation where it does (``hard``'s blend with the exact book).
    """
    if response is not None and not 0.0 <= response.share <= 1.0:
        raise ValueError(f"the model's share lies in [0, 1], not {response.share}")
    keep_freed_memory()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    game = RoundGame(rules, dice, palifico=palifico, max_bids=999)
    bids = "the last bid" if memory == 1 else f"{memory} bids"
    cap = f", at most {minutes:g} minutes" if minutes is not None else ""
    plain = AbstractCFR(game, memory, method=method) if response is None else None
    if plain is not None:
        report(f"{game.describe()}: remembering {bids}, {plain.num_states:,} abstract states")
        report(f"  {method} for {iterations:,} iterations{cap} (--iterations, --minutes)")
    elif response is not None:
        report(
            f"{game.describe()}: remembering {bids}; each seat's restricted Nash response to "
            f"{response.model!r} at share {response.share:g}"
        )
        report(
            f"  two solves (one a seat), {method} for {iterations:,} iterations each{cap} "
            "(--iterations, --minutes)"
        )
    if measure and _measurable(game):
        size = _measure_bytes(game)
        each = f"{size / 1e9:.1f} GB" if size >= 1e8 else f"{size / 1e6:.1f} MB"
        report(f"  then measured exactly in the full game: two arrays of {each}")
    states = 0

    def drive(cfr: AbstractCFR, seat: int | None = None) -> None:
        nonlocal states
        states = cfr.num_states
        who = "" if seat is None else f"seat {seat}: "
        if seat is not None and cfr.iterations == 0:
            report(f"  {who}{cfr.num_states:,} abstract states")
        start = time.perf_counter()
        while cfr.iterations < iterations:
            if minutes is not None and time.perf_counter() - start > minutes * 60.0:
                break
            cfr.iterate(min(10, iterations - cfr.iterations))
            elapsed = time.perf_counter() - start
            if cfr.iterations == 10 and iterations > 10:  # the time the whole solve will take
                whole = elapsed / 10 * iterations
                if minutes is not None:
                    whole = min(whole, minutes * 60.0)
                report(
                    f"  {who}10 iterations in {elapsed:.0f} s: about {_duration(whole)} for "
                    "the solve"
                )
            if cfr.iterations % 100 == 0:
                report(f"  {who}{cfr.iterations} iterations, {elapsed:.0f} s")

    start = time.perf_counter()
    if response is None:
        assert plain is not None
        drive(plain)
        strategy = AbstractStrategy.from_cfr(plain)
        done: int | list[int] = plain.iterations
        version = f"{method}-k{memory}-{plain.iterations}"
    else:
        from .restricted import restricted_response

        strategy, done = restricted_response(
            game, memory, response.policy, response.share, method=method, drive=drive
        )
        version = f"rnr-{response.model}-{response.share:g}-{method}-k{memory}-{max(done)}"
    seconds = time.perf_counter() - start
    fp = round_fingerprint(game)
    kind = "palifico" if palifico else "normal"
    name = f"{dice[0]}v{dice[1]}-{kind}-{fp}.npz"
    info: dict[str, Any] = {
        "method": method,
        "iterations": done,
        "seconds": round(seconds, 1),
        "abstract_states": states,
    }
    if response is not None:
        info["response"] = {"model": response.model, "share": response.share}
    strategy.info = dict(info)
    path = strategy.save(out / name)
    if measure and _measurable(game):
        strat = AbstractStrategy.load(path)
        t0 = time.perf_counter()
        br0, br1, expl = exact_exploitability(game, strat)
        info |= {
            "br": [br0, br1],
            "exploitability": expl,
            "measured_s": round(time.perf_counter() - t0, 1),
        }
        report(
            f"  exact exploitability in the full game {expl:.4f} (best responses "
            f"{br0:+.4f}, {br1:+.4f}; the opener's value lies in [{-br1:+.4f}, {br0:+.4f}])"
        )
    if response is not None:
        from .restricted import value_against

        won = value_against(AbstractStrategy.load(path), response.policy)
        info["against_model"] = [round(won[0], 6), round(won[1], 6)]
        report(
            f"  against {response.model!r} (as the abstraction states it) it wins "
            f"{won[0]:+.4f} a round as the opener and {won[1]:+.4f} as the responder"
        )
    covers = [n for n, preset in PRESETS.items() if _print_of(preset, dice, palifico) == fp]
    if _print_of(joker_rules(max(dice)), dice, palifico) == fp:
        covers.append("joker")
    entry: dict[str, Any] = {
        "file": name,
        "sha256": sha256_of(path),
        "version": version,
        "dice": list(dice),
        "palifico": palifico,
        "memory": memory,
        "fingerprint": fp,
        "covers": covers,
        "bytes": path.stat().st_size,
        **info,
    }
    entries = [e for e in read_index(out) if e["fingerprint"] != fp]
    for old in read_index(out):
        if old["fingerprint"] == fp and old["file"] != name:
            (out / str(old["file"])).unlink(missing_ok=True)
    write_index(out, [*entries, entry])
    report(f"  wrote {path} ({entry['bytes']:,} bytes, covers {', '.join(covers) or 'no preset'})")
    return entry


MEASURE_BYTES = 3 << 30
"""The most memory an exact measurement may take (two float32 arrays of ``rows × hands``)."""


def _measure_bytes(game: RoundGame) -> int:
    """The bytes of one of the two float32 arrays the full game's best responses need."""
    hands = max(len(game.hands[0]), len(game.hands[1]))
    return 2 * (1 << (game.num_bids - 1)) * hands * 4


def _measurable(game: RoundGame) -> bool:
    """Whether the full game's best responses fit :data:`MEASURE_BYTES` (2v2 does: 1.4 GB
    an array)."""
    return game.num_bids <= MAX_BIDS and _measure_bytes(game) <= MEASURE_BYTES


def _duration(seconds: float) -> str:
    """``seconds`` as a person reads an estimate: "40 s", "12 minutes", "2.5 hours"."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"


def _print_of(rules: RuleSet, dice: tuple[int, int], palifico: bool) -> str | None:
    try:
        return round_fingerprint(RoundGame(rules, dice, palifico=palifico, max_bids=999))
    except ValueError:
        return None
