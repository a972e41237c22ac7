"""The rule set: every switch of docs/rules.md's variants as a field, and the named presets.

Variants are data (ARCHITECTURE.md): one frozen :class:`RuleSet`, no subclass per variant.
The defaults are Part A (the ``perudo`` preset). A combination that makes no sense is refused
in ``__post_init__`` with a :class:`ValueError` that says why.

>>> find_ruleset("Perudo").calza
'off'
>>> find_ruleset("perudo-calza") == PERUDO_CALZA
True
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, Final, Literal

__all__ = [
    "BLUFF",
    "LIARS_DICE",
    "LIARS_DICE_OPENSPIEL",
    "PERUDO",
    "PERUDO_CALZA",
    "PRESETS",
    "SWITCHES",
    "CalzaRule",
    "LossRule",
    "NextOpener",
    "PalificoRule",
    "RaiseOrder",
    "RevealOrder",
    "RuleSet",
    "WildConversion",
    "find_ruleset",
    "preset_name",
    "unsupported",
]

RaiseOrder = Literal["perudo", "monotone"]
"""V-1: ``perudo`` (P-12) or ``monotone`` (neither quantity nor face may go down)."""
WildConversion = Literal["perudo", "bluff", "none"]
"""V-3: how bids convert to and from the wild face."""
LossRule = Literal["one", "difference"]
"""V-4: dice lost on a dudo."""
NextOpener = Literal["loser", "winner"]
"""V-5: who opens the next round after a challenge."""
PalificoRule = Literal["on", "off", "not_two_players"]
"""V-6: palifico on, off, or on except with two players (P-34 off: no palifico heads-up)."""
CalzaRule = Literal["off", "on", "to_act"]
"""V-7: calza off, out of turn (P-50), or only by the player to act."""
RevealOrder = Literal["until_proven", "all"]
"""V-8: reveal until the bid is proven (P-21) or reveal every hand."""

MAX_PLAYERS: Final = 10
MAX_DICE: Final = 10
MAX_FACES: Final = 9


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """A complete, validated set of rules. Hashable; works with :func:`dataclasses.replace`.

    Every field is a switch of docs/rules.md's variants; the defaults are plain Perudo (``perudo``).
    """

    raise_order: RaiseOrder = "perudo"
    """V-1: how a bid may be raised."""
    wild_face: int | None = 1
    """V-2: the wild face (aces = 1; Bluff's star = 6), or ``None`` for no wilds."""
    wild_conversion: WildConversion = "perudo"
    """V-3: ``perudo`` (to wild ceil(q/2), back 2q+1, no opening on wild), ``bluff`` (to wild
    floor(q/2)+1, back 2q, opening on wild allowed), ``none`` (the wild face ranks as an ordinary
    face)."""
    loss: LossRule = "one"
    """V-4: dice lost on dudo (P-20, or Bluff's difference)."""
    next_opener: NextOpener = "loser"
    """V-5: who opens the next round (P-22, or the challenge's winner)."""
    palifico: PalificoRule = "on"
    """V-6: palifico rounds (P-30…P-35)."""
    calza: CalzaRule = "off"
    """V-7: calza (P-50…P-53)."""
    reveal: RevealOrder = "until_proven"
    """V-8: reveal order after dudo (P-21)."""
    set_aside: bool = False
    """V-9: before raising, a player may set dice aside face up and re-roll the rest."""
    passing: bool = False
    """V-10: once per round a player may pass instead of raising."""
    straight_counts_nothing: bool = False
    """V-11: a hand of 5 dice all different counts zero toward any bid."""
    dice_per_player: int = 5
    """V-12 / P-1: dice each player starts with (1–10)."""
    faces: int = 6
    """V-12: faces per die (2–9; at least 3 when a wild face exists)."""
    min_players: int = 2
    """V-12 / P-1: fewest players at the table."""
    max_players: int = MAX_PLAYERS
    """V-12 / P-1: most players at the table."""
    calza_min_players: int = 3
    """P-50: calza only while at least this many players are in."""
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __hash__(self) -> int:
        # Rule sets key the bid tables, looked up on every action: hash once.
        return self._hash

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt through __init__ in the process that unpickles it: the cached hash is of
        # strings, which each process hashes with its own seed, so a copied one would make an
        # equal rule set miss in that process's dicts (a worker process's lookups).
        fields = {f: getattr(self, f) for f in self.__dataclass_fields__ if f != "_hash"}
        return (partial(type(self), **fields), ())

    def __post_init__(self) -> None:
        for name, allowed in SWITCHES.items():
            value = getattr(self, name)
            if allowed == (False, True):
                if not isinstance(value, bool):
                    raise ValueError(f"{name} must be true or false, not {value!r}")
            elif value not in allowed:
                raise ValueError(f"{name}={value!r} is not one of {', '.join(map(str, allowed))}")
        for name in ("dice_per_player", "faces", "min_players", "max_players"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be an integer, not {value!r}")
        if not 1 <= self.dice_per_player <= MAX_DICE:
            raise ValueError(
                f"dice_per_player={self.dice_per_player}: each player needs 1 to {MAX_DICE} dice "
                "(V-12)"
            )
        if not 2 <= self.faces <= MAX_FACES:
            raise ValueError(f"faces={self.faces}: a die needs 2 to {MAX_FACES} faces (V-12)")
        if self.wild_face is not None:
            if isinstance(self.wild_face, bool) or not isinstance(self.wild_face, int):
                raise ValueError(f"wild_face must be a face or None, not {self.wild_face!r}")
            if not 1 <= self.wild_face <= self.faces:
                raise ValueError(
                    f"wild_face={self.wild_face} is not a face of a {self.faces}-faced die (V-2)"
                )
            if self.faces < 3:
                raise ValueError(
                    f"a wild face needs at least 3 faces, this die has {self.faces} (V-12)"
                )
        if not 2 <= self.min_players <= self.max_players <= MAX_PLAYERS:
            raise ValueError(
                f"players {self.min_players}–{self.max_players}: need "
                f"2 <= min_players <= max_players <= {MAX_PLAYERS} (P-1)"
            )
        if self.calza_min_players < 2:
            raise ValueError("calza_min_players must be at least 2 (P-50)")
        values = tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(values))

    def to_dict(self) -> dict[str, Any]:
        """The rule set as a JSON-ready dict (every field; a fresh dict, built once per rule
        set: a server draws a view's rules for every seat after every move)."""
        kept = _DICTS.get(id(self))
        if kept is None or kept[0] is not self:
            if len(_DICTS) >= 256:
                _DICTS.clear()
            kept = _DICTS[id(self)] = (self, {name: getattr(self, name) for name in _dict_fields()})
        return dict(kept[1])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_dict` output (missing fields take their defaults).

        :raises ValueError: on an unknown field or a bad value.
        """
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule field(s): {', '.join(unknown)}")
        return cls(**dict(data))

    def __str__(self) -> str:
        name = preset_name(self)
        return name if name is not None else "custom"


_DICTS: dict[int, tuple[RuleSet, dict[str, Any]]] = {}
""":meth:`RuleSet.to_dict` by the identity of the rule set (kept alive beside its dict)."""


@lru_cache(maxsize=1)
def _dict_fields() -> tuple[str, ...]:
    """The fields :meth:`RuleSet.to_dict` gives, in order (looked up once: a server draws a
    view's rules for every seat after every move)."""
    return tuple(f.name for f in dataclasses.fields(RuleSet) if f.compare)


def _switches() -> dict[str, tuple[object, ...]]:
    hints = typing.get_type_hints(RuleSet)
    out: dict[str, tuple[object, ...]] = {}
    for f in dataclasses.fields(RuleSet):
        kind = hints[f.name]
        if typing.get_origin(kind) is Literal:
            out[f.name] = typing.get_args(kind)
        elif kind is bool:
            out[f.name] = (False, True)
    return out


SWITCHES: Final[Mapping[str, tuple[object, ...]]] = _switches()
"""Every switch with a fixed set of values (a ``Literal`` or a ``bool`` field of
:class:`RuleSet`), its values default first: ``SWITCHES["calza"] == ("off", "on", "to_act")``.
Derived from the fields, so a new switch is validated, fuzzed by the property tests and
refused by the fast paths (:func:`unsupported`) without another list to update. The numeric
fields (V-12's table, ``wild_face``) are not switches of this kind."""


def unsupported(
    rules: RuleSet, supports: Mapping[str, object], *, table: frozenset[str] = frozenset()
) -> list[str]:
    """What of ``rules`` a second implementation does not play, as ``field=value`` strings.

    ``supports`` maps each field the implementation knows to the values it plays (a
    collection), or to ``...`` for any value; ``table`` names further fields it takes as they
    come. A field in neither — a switch added to :class:`RuleSet` after the implementation was
    written — is reported whenever it differs from its default, so a fast path refuses it
    until someone adds it (ARCHITECTURE.md: one thing, one place; the core stays the
    reference).

    >>> unsupported(RuleSet(calza="on"), {"calza": ("off",)})
    ['calza=on']
    """
    out: list[str] = []
    for f in dataclasses.fields(rules):
        if not f.compare or f.name in table:
            continue
        value = getattr(rules, f.name)
        allowed = supports.get(f.name)
        if allowed is ...:
            continue
        if allowed is None:
            if value != f.default:
                out.append(f"{f.name}={value}")
        elif value not in allowed:  # type: ignore[operator]
            out.append(f"{f.name}={value}")
    return out


PLAIN_PLAY: Final[Mapping[str, object]] = {
    "raise_order": ("perudo", "monotone"),
    "wild_face": ...,
    "wild_conversion": ("perudo", "bluff", "none"),
    "loss": ("one", "difference"),
    "next_opener": ("loser", "winner"),
    "palifico": ("on", "off", "not_two_players"),
    "calza": ("off", "on", "to_act"),
    "reveal": ("until_proven", "all"),  # who reveals changes no move
    "set_aside": (False,),
    "passing": (False,),
    "straight_counts_nothing": (False, True),
    "dice_per_player": ...,
    "faces": ...,
    "min_players": ...,
    "max_players": ...,
    "calza_min_players": ...,
}
"""What the fast second implementations (the batch simulator, the random playout, the solver)
have in common, for :func:`unsupported`: every switch but set-aside (V-9) and passing (V-10).
Each narrows it where it plays less (``{**PLAIN_PLAY, "calza": ("off", "to_act")}``); a field
added to :class:`RuleSet` later is in none of them, so every fast path refuses it until
someone teaches it."""


PERUDO: Final = RuleSet()
"""Part A without calza."""
PERUDO_CALZA: Final = RuleSet(calza="on")
"""Part A with calza out of turn (P-50…P-53)."""
LIARS_DICE: Final = RuleSet(palifico="off", reveal="all")
"""Wild aces with the Perudo conversion, no palifico, no calza, reveal all."""
BLUFF: Final = RuleSet(
    wild_face=6,
    wild_conversion="bluff",
    loss="difference",
    next_opener="winner",
    set_aside=True,
    reveal="all",
    palifico="off",
)
"""Wild 6 (the star), Bluff conversion, loss by difference, winner opens, set aside and
re-roll, reveal all, no palifico, no calza."""
LIARS_DICE_OPENSPIEL: Final = RuleSet(
    wild_face=6,
    wild_conversion="none",
    reveal="all",
    palifico="off",
    min_players=2,
    max_players=2,
)
"""Two players, wild 6 ranked as an ordinary face: OpenSpiel's ``liars_dice`` when played
with one die each (as one round)."""

PRESETS: Final[Mapping[str, RuleSet]] = {
    "perudo": PERUDO,
    "perudo_calza": PERUDO_CALZA,
    "liars_dice": LIARS_DICE,
    "bluff": BLUFF,
    "liars_dice_openspiel": LIARS_DICE_OPENSPIEL,
}

_ALIASES: Final[Mapping[str, str]] = {
    "perudo": "perudo",
    "classic": "perudo",
    "dudo": "perudo",
    "perudo_calza": "perudo_calza",
    "calza": "perudo_calza",
    "liars_dice": "liars_dice",
    "liar's_dice": "liars_dice",
    "liarsdice": "liars_dice",
    "bluff": "bluff",
    "liars_dice_openspiel": "liars_dice_openspiel",
    "openspiel": "liars_dice_openspiel",
}


def _normalize(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


def find_ruleset(name: str) -> RuleSet:
    """The preset called ``name``; case-insensitive, ``-``/``_``/space are the same.

    >>> find_ruleset("Liars Dice") is LIARS_DICE
    True

    :raises ValueError: for an unknown name, listing the known presets.
    """
    key = _ALIASES.get(_normalize(name))
    if key is None:
        raise ValueError(f"unknown rule set {name!r}; known: {', '.join(PRESETS)}")
    return PRESETS[key]


def preset_name(rules: RuleSet) -> str | None:
    """The preset name of ``rules`` if it equals a preset, else ``None``."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
