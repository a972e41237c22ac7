"""Text from people (display names, table names, chat lines), made safe to show to others.

Control and format characters are removed: NUL and the other C0/C1 controls, the bidi
overrides and isolates (which could make a name or a line read backwards, or spill into the
text after it), zero-width spaces and joiners (but a joiner inside an emoji: 👩🏽‍🚀 stays
whole), the byte-order mark, and lone surrogates (which no page can display). Whitespace runs
become one space. Names are also NFKC-normalized, so
look-alike forms of one name compare equal (:func:`name_key`).

>>> clean_text("hi\\u202e dlrow\\u200b\\x00 !")
'hi dlrow !'
>>> clean_name(" Ann\\u200d ", "your name", 24)
'Ann'
>>> name_key("ＡＮＮ") == name_key("ann")
True
"""

from __future__ import annotations

import re
import unicodedata

from .config import TableError

__all__ = ["RESERVED_NAMES", "check_person_name", "clean_name", "clean_text", "name_key"]

_DROP = frozenset({"Cc", "Cf", "Cs", "Co"})
"""Unicode categories removed: controls, format characters (bidi controls, zero-width
characters, the BOM), surrogates, private use."""

RESERVED_NAMES = re.compile(r"^(spectators?|(easy|medium|hard|expert) bot \d+|bot|server)$")
"""Names no person may take (matched on :func:`name_key`): what the page calls spectators,
and the bots' own names."""


def _emoji(ch: str) -> bool:
    """A pictograph or an emoji modifier (skin tones, ♀/♂ signs, VS16)."""
    return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"


def _joins(text: str, i: int) -> bool:
    """Whether the format character ``text[i]`` is part of an emoji and is kept: a zero-width
    joiner between two pictographs (👩🏽‍🚀, 🏳️‍🌈), or the tag characters after a black flag
    (🏴󠁧󠁢󠁳󠁣󠁴󠁿, a subdivision's flag). Any other zero-width or format character goes."""
    ch = text[i]
    if ch == "\u200d":
        return 0 < i < len(text) - 1 and _emoji(text[i - 1]) and _emoji(text[i + 1])
    if "\U000e0020" <= ch <= "\U000e007f":
        j = i
        while j > 0 and "\U000e0020" <= text[j - 1] <= "\U000e007f":
            j -= 1
        return j > 0 and text[j - 1] == "\U0001f3f4"
    return False


def clean_text(text: str) -> str:
    """``text`` without control or format characters (but the joiners inside an emoji),
    whitespace runs as one space."""
    kept = "".join(
        ch for i, ch in enumerate(text) if unicodedata.category(ch) not in _DROP or _joins(text, i)
    )
    return " ".join(kept.split())


def name_key(name: str) -> str:
    """What two names must differ in to be different at one table (case and width folded)."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_name(text: str, what: str, limit: int) -> str:
    """A display name: NFKC-normalized, cleaned as :func:`clean_text`, and only printable
    characters, 1..``limit`` of them.

    :raises TableError: naming what is wrong.
    """
    name = clean_text(unicodedata.normalize("NFKC", text))
    name = " ".join(
        "".join(ch for i, ch in enumerate(name) if ch.isprintable() or _joins(name, i)).split()
    )
    if not name:
        raise TableError("bad_name", f"{what} must not be empty")
    if len(name) > limit:
        raise TableError("bad_name", f"{what} must be at most {limit} characters")
    return name


def check_person_name(name: str, taken: list[str]) -> None:
    """A person's display name at a table: not reserved, and not another seat's name.

    :raises TableError: ``name_taken`` naming the clash.
    """
    key = name_key(name)
    if RESERVED_NAMES.match(key):
        raise TableError("name_taken", f"{name!r} is reserved at every table: pick another name")
    if any(name_key(other) == key for other in taken):
        raise TableError(
            "name_taken", f"someone at this table is already called {name!r}: pick another name"
        )
