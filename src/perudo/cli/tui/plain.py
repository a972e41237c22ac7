"""Output for terminals that cannot show everything: ASCII symbols, and no crash on any stream.

``--ascii`` (or an output whose encoding is not UTF-8, such as ``PYTHONIOENCODING=ascii`` or a
``C`` locale) draws the game in ASCII: every symbol the catalogs and the painter use has an ASCII
stand-in (``★`` → ``*``, ``×`` → ``x``, ``·`` → ``|``, …), and :class:`PlainStream` writes only
what the stream's encoding carries (accents dropped, anything else as ``?``), so a print never
raises :class:`UnicodeEncodeError`.

>>> to_ascii("3 × 6★ · Ana ▸ dudo! “x”")
'3 x 6* | Ana > dudo! "x"'
"""

from __future__ import annotations

import codecs
import sys
import unicodedata
from typing import Final, TextIO

__all__ = ["PlainStream", "can_encode", "output_encoding", "readable_language", "to_ascii"]

_SYMBOLS: Final = str.maketrans(
    {
        "★": "*",
        "×": "x",
        "·": "|",
        "▸": ">",
        "◀": "<",
        "−": "-",
        "–": "-",
        "—": "-",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "↑": "^",
        "…": "...",
        "●": "o",
        "─": "-",
        "━": "-",
        "│": "|",
        "┌": "+",
        "┐": "+",
        "└": "+",
        "┘": "+",
        "≥": ">=",
        "≤": "<=",
        "±": "+/-",
    }
)


def to_ascii(text: str) -> str:
    """``text`` with every drawing symbol replaced by its ASCII stand-in (letters kept)."""
    return text.translate(_SYMBOLS)


def output_encoding(stream: TextIO | None = None) -> str:
    """The normalised encoding of ``stream`` (default: standard output), e.g. ``utf-8``."""
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None) or "ascii"
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return "ascii"


def can_encode(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def _fold(text: str, encoding: str) -> str:
    """``text`` reduced to what ``encoding`` carries: accents dropped, the rest ``?``."""
    out = []
    for char in text:
        if can_encode(char, encoding):
            out.append(char)
            continue
        bare = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        out.append(bare if bare and can_encode(bare, encoding) else "?")
    return "".join(out)


_SAMPLES: Final = {"ko": "두도 비드", "it": "è", "en": "a"}


def readable_language(lang: str, encoding: str) -> str:
    """``lang``, or English when the output's encoding cannot show that language's letters
    (Korean on an ASCII or Latin-1 output; Italian only loses its accents, so it stays),
    saying so on standard error."""
    if lang == "ko" and not can_encode(_SAMPLES["ko"], encoding):
        print(
            f"Korean cannot be shown in this output's encoding ({encoding}); "
            "the messages are in English.",
            file=sys.stderr,
        )
        return "en"
    return lang


class PlainStream:
    """A text stream that writes ASCII symbols and never fails on what it cannot encode.

    It says its encoding is ``ascii`` so that ``rich`` draws its own rules and boxes in ASCII.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.target = output_encoding(stream)

    @property
    def encoding(self) -> str:
        return "ascii"

    def write(self, text: str) -> int:
        text = to_ascii(text)
        if not can_encode(text, self.target):
            text = _fold(text, self.target)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()
