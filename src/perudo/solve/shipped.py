"""The book shipped with the package: solved heads-up rounds up to three dice; rebuilding it.

``book/book.json`` beside this module is the manifest (:data:`BOOK_FORMAT`, a ``version``);
``book/rounds/<digest>.npz`` are the rounds, packed (:mod:`perudo.solve.packed`: ``uint16``
weights, pruned to what play reaches, figures measured after packing), each named in the
manifest with its SHA-256, which :meth:`~perudo.solve.packed.PackedRound.load` checks.

What it holds (:func:`build_book`, ``perudo solve --book``):

* for each preset of :data:`BOOK_PRESETS`, the heads-up **match** up to ``max_dice`` dice in
  play (:func:`~perudo.solve.match.solve_match`): every position's round solved with the
  match's payoffs (``2·W − 1``: a round is worth the position it leads to), with every
  palifico history and palifico round that exists there, and the P-34 choices;
* the **joker** game of issue 17 (thomasahle/liars-dice, dudo.ai's engine: six faces, 1s
  wild and ranked lowest, bids by quantity then face, :func:`joker_rules`) as single rounds
  of ±1 — the call decides that game — for 1v1, 2v1 and 1v2.

Rounds whose trees and payoffs are equal are one file (Perudo's, Perudo-with-calza's and Liar's
Dice's 2v1 rounds, whatever palifico each player has had, are the same game), solved once.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo.core import LIARS_DICE_OPENSPIEL, PRESETS, RuleSet, find_ruleset

from .game import RoundGame
from .match import Position, solve_match
from .packed import LEVELS, PackedRound, game_digest
from .saved import read_json, sha256_of
from .solution import Solution, round_key
from .solver import solve_round

__all__ = [
    "BOOK_DIR",
    "BOOK_FORMAT",
    "BOOK_PRESETS",
    "BOOK_VERSION",
    "JOKER_DICE",
    "BookEntry",
    "build_book",
    "joker_rules",
    "read_book",
    "round_rules",
]

BOOK_DIR = Path(__file__).resolve().parent / "book"
"""The shipped book: ``book.json`` and ``rounds/``."""

BOOK_FORMAT = "perudo-book/1"
BOOK_VERSION = "3-dice.1"
"""Raised whenever the shipped rounds change."""

BOOK_PRESETS = ("perudo", "perudo_calza", "liars_dice", "liars_dice_openspiel")
"""The presets whose heads-up matches the book holds (``bluff`` re-rolls, V-9: not solvable)."""

JOKER_DICE = ((1, 1), (2, 1), (1, 2))
"""The joker game's single rounds the book holds."""


def joker_rules(dice_per_player: int) -> RuleSet:
    """The joker game (issue 17) with ``dice_per_player`` dice: OpenSpiel's Liar's Dice with
    the 1s wild and ranked as the lowest ordinary face."""
    return dataclasses.replace(LIARS_DICE_OPENSPIEL, wild_face=1, dice_per_player=dice_per_player)


def round_rules(name: str, dice: tuple[int, int]) -> RuleSet:
    """The rules of a heads-up round of ``dice`` by name, as the benchmarks take them:
    ``joker`` is the joker game with ``max(dice)`` dice (:func:`joker_rules`); any other name
    a preset (:func:`perudo.core.find_ruleset`).

    :raises ValueError: for a name that is neither.
    """
    if name.strip().lower() == "joker":
        return joker_rules(max(dice))
    return find_ruleset(name)


@dataclass(frozen=True)
class BookEntry:
    """A round the book holds: where its packed file is and what it must hash to."""

    rules: RuleSet
    dice: tuple[int, int]
    palifico: bool
    palifico_used: tuple[bool, bool]
    path: Path
    sha256: str

    @property
    def key(self) -> str:
        return round_key(self.rules, self.dice, self.palifico, self.palifico_used)

    def load(self) -> PackedRound:
        """The packed round, hash-checked, as this entry's round."""
        return PackedRound.load(
            self.path, sha256=self.sha256, rules=self.rules, palifico_used=self.palifico_used
        )


@dataclass
class ReadBook:
    """What :func:`read_book` finds: the rounds (not loaded) and the P-34 choices."""

    version: str
    entries: dict[str, BookEntry]
    choices: dict[tuple[RuleSet, Position], bool]
    wins: dict[tuple[RuleSet, Position], float] = dataclasses.field(default_factory=dict)
    """The opener's chance to win the match from each position of a match table (its rounds
    and its P-34 choices), as the build measured it."""


def read_book(directory: str | os.PathLike[str] = BOOK_DIR) -> ReadBook:
    """Read a book's manifest (``book.json``); the rounds themselves load when first asked for.

    :raises ValueError: if the manifest is missing or of another format.
    """
    path = Path(directory) / "book.json"
    if not path.is_file():
        raise ValueError(f"{directory}: no book.json")
    meta = read_json(path, "a book manifest", {"format": BOOK_FORMAT, "levels": LEVELS})
    files = meta["files"]
    entries: dict[str, BookEntry] = {}
    choices: dict[tuple[RuleSet, Position], bool] = {}
    wins: dict[tuple[RuleSet, Position], float] = {}
    for table in meta["tables"]:
        rules = RuleSet.from_dict(table["rules"])
        for r in table["rounds"]:
            entry = BookEntry(
                rules,
                (int(r["dice"][0]), int(r["dice"][1])),
                bool(r["palifico"]),
                (bool(r["palifico_used"][0]), bool(r["palifico_used"][1])),
                Path(directory) / r["file"],
                str(files[r["file"]]["sha256"]),
            )
            entries[entry.key] = entry
            if table.get("kind") == "match" and "win" in r:
                pos = Position(
                    entry.dice, entry.palifico_used, "palifico" if entry.palifico else "normal"
                )
                wins[(rules, pos)] = float(r["win"])
        for c in table.get("choices", []):
            pos = Position.from_json(c["position"])
            choices[(rules, pos)] = bool(c["choose_palifico"])
            if "win" in c:
                wins[(rules, pos)] = float(c["win"])
    return ReadBook(str(meta["version"]), entries, choices, wins)


# -- building --------------------------------------------------------------------------------


def _tables(max_dice: int) -> Iterator[tuple[str, RuleSet, str]]:
    for name in BOOK_PRESETS:
        yield name, PRESETS[name], "match"
    for d in sorted({max(d) for d in JOKER_DICE if sum(d) <= max_dice}):
        yield f"joker, {d} dice each", joker_rules(d), "rounds"


def build_book(
    out: str | os.PathLike[str],
    *,
    max_dice: int = 3,
    target: float = 1e-5,
    cache: str | os.PathLike[str] | None = None,
    log: Callable[[str], None] = print,
) -> Path:
    """Solve, pack and write the book (``book.json`` and ``rounds/``) into ``out``.

    Each distinct round (:func:`~perudo.solve.packed.game_digest`) is solved once, to
    ``target`` exploitability (the LP at one die each and palifico rounds, DCFR otherwise: a
    minute or two a three-dice round on two cores), packed, and re-measured as packed. With
    ``cache``, solved rounds are kept there (``<digest>.npz``) and reused by the next build.
    Files of ``rounds/`` the new manifest does not name are removed.
    """
    base = Path(out)
    (base / "rounds").mkdir(parents=True, exist_ok=True)
    store = Path(cache) if cache is not None else None
    packed: dict[str, PackedRound] = {}

    def solved(game: RoundGame) -> Solution:
        digest = game_digest(game)
        path = store / f"{digest}.npz" if store is not None else None
        if path is not None and path.is_file():
            sol = Solution.load(path)
            if game_digest(sol.game) == digest and sol.exploitability <= target:
                return sol
        t = time.perf_counter()
        sol = solve_round(game, target=target)
        log(
            f"  solved {game.describe().splitlines()[0]}: exploitability "
            f"{sol.exploitability:.1e}, {time.perf_counter() - t:.0f} s"
        )
        if path is not None:
            sol.save(path)
        return sol

    def round_entry(game: RoundGame, sol: Solution) -> dict[str, Any]:
        digest = game_digest(game)
        if digest not in packed:
            packed[digest] = pk = PackedRound.pack(sol)
            log(
                f"  packed {digest}: {pk.info['held']:,} of {pk.info['infostates']:,} "
                f"information states held, exploitability {pk.exploitability:.1e} as packed"
            )
        pk = packed[digest]
        return {
            "dice": list(game.dice),
            "palifico": game.palifico,
            "palifico_used": list(game.palifico_used),
            "file": f"rounds/{digest}.npz",
            "value": pk.value,
            "br": list(pk.br),
            "exploitability": pk.exploitability,
        }

    tables = []
    for name, rules, kind in _tables(max_dice):
        log(f"{name}: {kind}")
        table: dict[str, Any] = {"name": name, "kind": kind, "rules": rules.to_dict()}
        rounds: list[dict[str, Any]] = []
        if kind == "match":
            result = solve_match(rules, max_dice, solve=lambda _pos, game: solved(game))
            for pos, sol in result.rounds.items():
                game = pos.game(rules, utility=sol.game.utility)
                rounds.append({**round_entry(game, sol), "win": result.values[pos]})
            table["choices"] = [
                {"position": pos.to_json(), "choose_palifico": c, "win": result.values[pos]}
                for pos, c in result.choices.items()
            ]
        else:
            for dice in JOKER_DICE:
                if max(dice) == rules.dice_per_player and sum(dice) <= max_dice:
                    game = RoundGame(rules, dice)
                    rounds.append(round_entry(game, solved(game)))
        table["rounds"] = rounds
        tables.append(table)
    files: dict[str, dict[str, Any]] = {}
    size = 0
    for digest, pk in packed.items():
        name = f"rounds/{digest}.npz"
        pk.save(base / name)
        files[name] = {"sha256": sha256_of(base / name), "bytes": (base / name).stat().st_size}
        size += files[name]["bytes"]
    for old in (base / "rounds").glob("*.npz"):
        if f"rounds/{old.name}" not in files:
            old.unlink()
    meta = {
        "format": BOOK_FORMAT,
        "version": BOOK_VERSION,
        "levels": LEVELS,
        "max_dice": max_dice,
        "target": target,
        "tables": tables,
        "files": files,
    }
    path = base / "book.json"
    path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    log(f"wrote {path}: {len(files)} rounds, {size:,} bytes")
    return path
