"""Reading what the person types: bids, the games' own words in every language, commands.

``3x5``, ``3 5`` and ``3×5`` are bids (the core's notation, :func:`perudo.core.parse_action`);
``3 aces``, ``3 조커``, ``3 teste d'Azteco`` are bids on aces; dudo / 두도 / dubito,
calza / 칼자, palifico / 팔라피코, normal, pass, ``aside 55`` (V-9), ``help`` and ``quit`` in
any of the catalogs' languages. Whether an action is *legal* is the core's business
(:func:`perudo.core.check_action`); this module only turns text into an action or a command.

>>> read_input("3 teste d'Azteco")
Bid(3, 1)
>>> read_input("두도")
Dudo()
>>> read_input("")
Command(kind='skip')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from perudo.core import (
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    NotationError,
    Pass,
    PlayerAction,
    SetAside,
    parse_action,
)
from perudo.i18n import LANGS, load_catalog

__all__ = ["Command", "InputError", "read_input"]


@dataclass(frozen=True, slots=True)
class Command:
    """Not a game action: ``help``, ``quit``, ``skip`` (an empty line), or ``end`` (skip to
    the result, once the person is out)."""

    kind: Literal["help", "quit", "skip", "end"]


class InputError(ValueError):
    """The text is not an action or a command; ``key`` is the catalog message to show, and
    ``refusal`` the core's reason when it has a more precise one (``0x3``: no zero dice)."""

    def __init__(self, key: str, text: str, refusal: NotationError | None = None) -> None:
        super().__init__(f"{key}: {text!r}")
        self.key = key
        self.text = text
        self.refusal = refusal


_SPACES: Final = re.compile(r"\s+")
_BID_SHAPE: Final = re.compile(r"^(\d+)\s*(?:[x×*]\s*)?(\d+)(?:'?s)?$")
"""``3x5``, ``3 5``, ``3×5``, and ``4 3s`` / ``4 3's`` as people write them."""
_NUMBER: Final = r"(\d+)\s*(?:개)?"
_STARRED: Final = re.compile(r"(\d)★")


@cache
def _words(key: str) -> frozenset[str]:
    """Every language's words for ``key`` (a person may type any of them)."""
    return frozenset(w for lang in LANGS for w in load_catalog(lang).words(key))


@cache
def _aces_patterns() -> tuple[re.Pattern[str], ...]:
    names = "|".join(sorted((re.escape(w) for w in _words("input.aces")), key=len, reverse=True))
    return (
        re.compile(rf"^{_NUMBER}\s*(?:[x×*]\s*)?(?:{names})$"),
        re.compile(rf"^(?:{names})\s*[x×*]?\s*{_NUMBER}$"),
    )


def read_input(text: str) -> PlayerAction | Command:
    """The action or command ``text`` asks for.

    :raises InputError: when it is neither (``key`` names the message to show).
    """
    clean = _SPACES.sub(" ", text.strip().lower().replace("’", "'")).rstrip("!.")
    clean = _STARRED.sub(r"\1", clean)  # "3 × 6★" as the screen writes Bluff's wild six
    if not clean:
        return Command("skip")
    commands = (
        ("input.help", "help"),
        ("input.quit", "quit"),
        ("input.skip", "skip"),
        ("input.end", "end"),
    )
    for key, command in commands:
        if clean in _words(key):
            return Command(command)  # type: ignore[arg-type]
    simple: tuple[tuple[str, PlayerAction], ...] = (
        ("input.dudo", Dudo()),
        ("input.calza", Calza()),
        ("input.palifico", ChoosePalifico(True)),
        ("input.normal", ChoosePalifico(False)),
        ("input.pass", Pass()),
    )
    for key, action in simple:
        if clean in _words(key):
            return action
    for pattern in _aces_patterns():
        match = pattern.match(clean)
        if match:
            return _bid(int(match.group(1)), 1, text)
    head, _, rest = clean.partition(" ")
    if head in _words("input.aside") and rest:
        digits = rest.replace(" ", "")
        if not digits.isdigit() or "0" in digits:
            raise InputError("err.aside", text)
        return SetAside(tuple(int(c) for c in digits))
    shape = _BID_SHAPE.match(clean)
    if shape:
        try:
            return Bid(int(shape.group(1)), int(shape.group(2)))
        except NotationError as err:  # 0x3: say why (no zero dice), not "not understood"
            raise InputError("err.unknown", text, err) from None
    try:
        parsed = parse_action(clean)
    except NotationError:
        raise InputError("err.unknown", text) from None
    if not isinstance(parsed, Bid):
        # Chance moves (deal, reroll) and the like are the table's, not a player's.
        raise InputError("err.unknown", text)
    return parsed


def _bid(quantity: int, face: int, text: str) -> Bid:
    try:
        return Bid(quantity, face)
    except NotationError:
        raise InputError("err.unknown", text) from None
