"""Actions and their notation: what a seat (or chance) can do, as immutable values.

Player actions: :class:`Bid`, :class:`Dudo`, :class:`Calza` (Part A), and the variant actions
:class:`Pass` (V-10), :class:`SetAside` (V-9) and :class:`ChoosePalifico` (P-34). Chance
actions: :class:`Deal` (a round's hands) and :class:`Reroll` (the dice re-rolled after a
set-aside, V-9); the core never rolls dice itself, so these make a record complete.

``str(action)`` is the notation and :func:`parse_action` reads it back; ``repr`` is eval-able.

>>> Bid.parse("3x5")
Bid(3, 5)
>>> str(Bid(3, 5))
'3x5'
>>> parse_action("Dudo")
Dudo()
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, TypeAlias

from .errors import NotationError

__all__ = [
    "Action",
    "Bid",
    "Calza",
    "ChanceAction",
    "ChoosePalifico",
    "Concede",
    "Deal",
    "Dudo",
    "Pass",
    "PlayerAction",
    "Reroll",
    "SetAside",
    "action_to_json",
    "parse_action",
]

_BID_RE: Final = re.compile(r"^\s*(\d+)\s*(?:[x×*]|\s)\s*(\d+)\s*$", re.IGNORECASE)


_WHAT: Final[dict[str, str]] = {
    "quantity": "a bid's quantity",
    "face": "a bid's face",
    "die": "a die",
}


def _check_die(value: object, what: str) -> int:
    """``value`` as a count or face; ``what`` is ``quantity``, ``face`` or ``die``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise NotationError(
            f"{_WHAT[what]} must be a positive integer, not {value!r}",
            code="notation.positive",
            params={"what": what, "value": repr(value)},
        )
    return value


@dataclass(frozen=True, slots=True)
class Bid:
    """A claim that at least ``quantity`` dice on the table show ``face`` (P-10).

    Whether a bid is legal depends on the rules and the bid before it: see
    :func:`perudo.core.legal_actions`.
    """

    quantity: int
    """How many dice the bid claims (at least 1)."""
    face: int
    """The face claimed (1 = aces)."""

    def __post_init__(self) -> None:
        _check_die(self.quantity, "quantity")
        _check_die(self.face, "face")

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Parse ``"3x5"`` (also ``"3 5"``, ``"3×5"``, ``"3*5"``).

        :raises NotationError: if ``text`` is not a bid.
        """
        match = _BID_RE.match(text) if isinstance(text, str) else None
        if match is not None:
            try:
                quantity, face = int(match.group(1)), int(match.group(2))
            except ValueError:  # more digits than int() reads: not a bid either
                pass
            else:
                return cls(quantity, face)
        raise NotationError(
            f"{text!r} is not a bid: write quantity x face, for example 3x5 (three 5s)",
            code="notation.bid",
            params={"text": text},
        )

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"

    def __repr__(self) -> str:
        return f"Bid({self.quantity}, {self.face})"


@dataclass(frozen=True, slots=True)
class Dudo:
    """Challenge the last bid (P-11, P-20), or the pass before it (V-10)."""

    def __str__(self) -> str:
        return "dudo"

    def __repr__(self) -> str:
        return "Dudo()"


@dataclass(frozen=True, slots=True)
class Calza:
    """Claim the standing bid is exactly right, possibly out of turn (P-50)."""

    def __str__(self) -> str:
        return "calza"

    def __repr__(self) -> str:
        return "Calza()"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass instead of raising, claiming all one's dice differ (V-10)."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True)
class ChoosePalifico:
    """The two-player choice before the deal (P-34): a palifico round or a normal one."""

    palifico: bool
    """True for a palifico round, False for a normal round (either uses up the palifico)."""

    def __str__(self) -> str:
        return "palifico" if self.palifico else "normal"

    def __repr__(self) -> str:
        return f"ChoosePalifico({self.palifico!r})"


@dataclass(frozen=True, slots=True)
class SetAside:
    """Put these hidden dice face up beside the cup and re-roll the rest (V-9)."""

    dice: tuple[int, ...]
    """The faces set aside (sorted)."""

    def __post_init__(self) -> None:
        if not isinstance(self.dice, tuple) or not self.dice:
            raise NotationError("set aside needs at least one die (V-9)", code="notation.aside")
        for die in self.dice:
            _check_die(die, "die")
        if list(self.dice) != sorted(self.dice):
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def __str__(self) -> str:
        return "aside " + "".join(map(str, self.dice))

    def __repr__(self) -> str:
        return f"SetAside({self.dice!r})"


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: every seat's hand for a new round (an empty hand for a seat that is out)."""

    hands: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return "deal " + " ".join("".join(map(str, h)) or "-" for h in self.hands)

    def __repr__(self) -> str:
        return f"Deal({self.hands!r})"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Chance: the new faces of the dice re-rolled after a set-aside (V-9)."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "reroll " + "".join(map(str, self.dice))

    def __repr__(self) -> str:
        return f"Reroll({self.dice!r})"


@dataclass(frozen=True, slots=True)
class Concede:
    """Give up the game (P-24): the seat leaves it with all its dice, at any moment, out of
    turn. Never among a view's legal actions: a player concedes by leaving the table, and the
    web app's table decides whether a bot plays the seat instead."""

    def __str__(self) -> str:
        return "concede"

    def __repr__(self) -> str:
        return "Concede()"


PlayerAction: TypeAlias = Bid | Dudo | Calza | Pass | ChoosePalifico | SetAside
ChanceAction: TypeAlias = Deal | Reroll
Action: TypeAlias = PlayerAction | ChanceAction | Concede

DUDO: Final = Dudo()
CALZA: Final = Calza()
PASS: Final = Pass()
CONCEDE: Final = Concede()

_WORDS: Final[dict[str, PlayerAction]] = {
    "dudo": DUDO,
    "calza": CALZA,
    "pass": PASS,
    "palifico": ChoosePalifico(True),
    "normal": ChoosePalifico(False),
}


def _digits(text: str, what: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not (text.isascii() and text.isdigit()):  # "²".isdigit() is true, int("²") fails
        raise NotationError(
            f"{what}: {text!r} is not a run of faces such as 1346",
            code="notation.faces",
            params={"move": what, "text": text},
        )
    return tuple(int(c) for c in text)


def parse_action(text: str) -> Action:
    """Parse the notation written by ``str(action)``.

    >>> parse_action("aside 55")
    SetAside((5, 5))
    >>> parse_action("deal 1345 - 26")
    Deal(((1, 3, 4, 5), (), (2, 6)))

    :raises NotationError: naming what is wrong.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"an action must be text, not {type(text).__name__}",
            code="notation.not_text",
            params={"type": type(text).__name__},
        )
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty action: write a bid such as 3x5, or dudo", code="notation.empty")
    head = words[0]
    if len(words) == 1 and head in _WORDS:
        return _WORDS[head]
    if words == ["concede"]:
        return CONCEDE
    if head == "aside" and len(words) == 2:
        return SetAside(_digits(words[1], "aside"))
    if head == "reroll" and len(words) == 2:
        return Reroll(_digits(words[1], "reroll"))
    if head == "deal" and len(words) >= 3:
        return Deal(tuple(_digits(w, "deal") for w in words[1:]))
    try:
        return Bid.parse(text)
    except NotationError:
        raise NotationError(
            f"{text!r} is not an action: write a bid such as 3x5, or dudo, calza, pass, "
            "palifico, normal, aside 55",
            code="notation.action",
            params={"text": text},
        ) from None


def action_to_json(action: Action) -> dict[str, object]:
    """An action as structured JSON for a display that must not read the notation: ``kind``
    (``bid``, ``dudo``, ``calza``, ``pass``, ``palifico``, ``normal``, ``aside``, ``deal``,
    ``reroll``), ``text`` (the notation, ``str(action)``), and the numbers the kind has:
    ``quantity`` and ``face`` for a bid, ``dice`` for a set-aside or a re-roll, ``hands`` for a
    deal.

    >>> action_to_json(Bid(3, 5))
    {'kind': 'bid', 'text': '3x5', 'quantity': 3, 'face': 5}
    >>> action_to_json(SetAside((5, 5)))
    {'kind': 'aside', 'text': 'aside 55', 'dice': [5, 5]}
    """
    data: dict[str, object] = {"kind": "", "text": str(action)}
    if isinstance(action, Bid):
        data.update(kind="bid", quantity=action.quantity, face=action.face)
    elif isinstance(action, ChoosePalifico):
        data["kind"] = "palifico" if action.palifico else "normal"
    elif isinstance(action, SetAside):
        data.update(kind="aside", dice=list(action.dice))
    elif isinstance(action, Reroll):
        data.update(kind="reroll", dice=list(action.dice))
    elif isinstance(action, Deal):
        data.update(kind="deal", hands=[list(h) for h in action.hands])
    else:
        data["kind"] = str(action)  # dudo, calza, pass: the word is the kind
    return data
