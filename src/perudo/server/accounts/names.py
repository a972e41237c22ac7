"""Usernames: which are accepted, and when two are the same name (docs/accounts.md).

A name is read after Unicode's NFKC normalization (full-width ``ＡＮＮ`` is ``ANN``). It has
3 to 20 characters, each a letter, a decimal digit, ``_`` or ``-``. Refused, each with its
reason (:class:`NameRefused`'s ``code``, a message key of :mod:`perudo.i18n`):

* ``length``: fewer than 3 or more than 20 characters;
* ``invisible``: a character that is not seen or that reorders the text (bidirectional
  controls, zero-width characters, any format or control character), refused whatever else
  the name holds, since such a name shows as another;
* ``chars``: a space or any other character but letters, digits, ``_`` and ``-``;
* ``mixed``: letters of two of the alphabets that share look-alike letters (Latin, Greek,
  Cyrillic, Armenian, Cherokee), as ``pаypal`` with a Cyrillic ``а``;
* ``reserved``: a name the game itself uses (``bot``, ``spectator``, ``deleted player``, the
  bot levels' words in English, Korean and Italian, from the catalogs), alone or followed
  by digits.

Two names are the same name when their keys (:func:`name_key`) are equal: case folded and
with look-alike characters taken as one (``0`` as ``o``, ``1`` as ``l``, ``rn`` as ``m``,
Greek and Cyrillic letters shaped as Latin ones as those), so ``Ann``, ``ANN`` and ``Аnn``
(Cyrillic) cannot be three players.

>>> name_key("Ann") == name_key("ANN") == name_key("ａｎｎ")
True
>>> name_key("b0b") == name_key("bob"), name_key("modern") == name_key("modem")
(True, True)
>>> check_name("Zoë_42"), check_name("김민지")
('zoë_42', '김민지')
>>> [refusal(n) for n in ("x", "Ann Lee", "p\\u0430ypal", "Bot7", "a\\u200bb")]
['length', 'chars', 'mixed', 'reserved', 'invisible']
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Final

from perudo.i18n import LANGS, load_catalog
from perudo.i18n.names import BOT_LEVELS

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "NameRefused", "check_name", "name_key", "refusal"]

MIN_LENGTH: Final = 3
MAX_LENGTH: Final = 20

_CONFUSABLE_SCRIPTS: Final = frozenset({"LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE"})

_LOOKALIKE: Final = str.maketrans(
    {
        # Digits and Latin letters that pass for others.
        "0": "o",
        "1": "l",
        "ı": "i",
        "-": "_",
        # Greek letters shaped as Latin ones (after case folding).
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ζ": "z",
        # Cyrillic letters shaped as Latin ones.
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "і": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
    }
)
_PAIRS: Final = (("rn", "m"), ("vv", "w"), ("cl", "d"))

_RESERVED_WORDS: Final = (
    "bot",
    "bots",
    "봇",
    "spectator",
    "관전자",
    "spettatore",
    "deleted player",
    "deletedplayer",
    "admin",
    "perudo",
)


class NameRefused(ValueError):
    """A username refused; ``code`` says why (``account.name.<code>`` in each language)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"username refused: {code}")
        self.code = code


def name_key(name: str) -> str:
    """What a name is compared as: NFKC, case folded, look-alikes taken as one. Defined for
    any string (a sign-in with a name that could not be signed up is compared the same way)."""
    key = unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKE)
    for pair, one in _PAIRS:
        key = key.replace(pair, one)
    return key[: MAX_LENGTH * 4]


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp") or ch in (
        "\u115f\u1160\u3164\uffa0"  # Hangul fillers: letters with no shape
    )


def _script(ch: str) -> str:
    return unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]


@cache
def _reserved() -> frozenset[str]:
    words = set(_RESERVED_WORDS)
    for lang in LANGS:
        cat = load_catalog(lang)
        words.add(cat.t("account.deleted"))
        for level in BOT_LEVELS:
            words.add(cat.t(f"name.level.{level}"))
            words.add(cat.t(f"level.{level}"))
    return frozenset(name_key(w.replace(" ", "")) for w in words) | frozenset(
        name_key(w.replace(" ", "_")) for w in words
    )


def refusal(name: str) -> str | None:
    """Why ``name`` cannot be a username (a :class:`NameRefused` code), or ``None``."""
    text = unicodedata.normalize("NFKC", name)
    if any(_invisible(ch) for ch in text):
        return "invisible"
    if not MIN_LENGTH <= len(text) <= MAX_LENGTH:
        return "length"
    for ch in text:
        kind = unicodedata.category(ch)
        if not (kind.startswith("L") or kind == "Nd" or ch in "_-"):
            return "chars"
    scripts = {_script(ch) for ch in text if unicodedata.category(ch).startswith("L")}
    if len(scripts & _CONFUSABLE_SCRIPTS) > 1:
        return "mixed"
    key = name_key(text)
    if key in _reserved() or key.rstrip("0123456789lo_") in _reserved():
        return "reserved"
    return None


def check_name(name: str) -> str:
    """The key of an acceptable username (:func:`name_key`).

    :raises NameRefused: the name is refused (its ``code`` says why)."""
    code = refusal(name)
    if code is not None:
        raise NameRefused(code)
    return name_key(name)
