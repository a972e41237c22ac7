"""The catalogs themselves: :class:`Catalog`, :func:`load_catalog`, :func:`detect_lang`."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from typing import Final, TypeAlias

from . import en, it, ko
from .grammar import Addressee, fill

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "PAGE_PREFIXES",
    "Catalog",
    "catalog_json",
    "detect_lang",
    "load_catalog",
    "page_words_js",
]

Entry: TypeAlias = str | list[str]

LANGS: Final[tuple[str, ...]] = ("en", "ko", "it")
"""The languages with a catalog."""
DEFAULT_LANG: Final = "en"
PAGE_PREFIXES: Final = ("say.", "name.", "level.", "word.aces", "word.label.")
"""The catalog entries the web page takes from here (faces and bids as a screen reader says
them, bot seats' names, the bot levels, the aces' name, the games' words as its buttons and
headings say them: ``word.label.dudo``, "Dudo", where a sentence says "dudo") rather than
keeping its own copy (:func:`page_words_js`), by the start of their keys."""

_CATALOGS: Final[Mapping[str, Mapping[str, Entry]]] = {
    "en": en.MESSAGES,
    "ko": ko.MESSAGES,
    "it": it.MESSAGES,
}


class Catalog:
    """One language's messages: :meth:`t` formats a template, :meth:`words` lists input words."""

    __slots__ = ("lang", "messages")

    def __init__(self, lang: str, messages: Mapping[str, Entry]) -> None:
        self.lang = lang
        self.messages = messages

    def t(self, key: str, /, **fields: object) -> str:
        """The message ``key`` with ``fields`` filled in.

        :raises KeyError: for a key the catalog lacks (every key exists in every catalog).
        """
        entry = self.messages[key]
        if not isinstance(entry, str):
            raise KeyError(f"{key!r} is a word list, not a message")
        return fill(entry, **fields) if fields else entry

    def you(self) -> Addressee:
        """The person spoken to, as a player's name ("You", "나", "Tu") whose sentences agree
        with it ("you lose", "내가", "tu hai": :class:`~perudo.i18n.grammar.Addressee`)."""
        return Addressee(
            self.t("seat.you"),
            subject=self.t("seat.you_subject"),
            object=self.t("seat.you_object"),
        )

    def recorded_name(self, name: str, *, human: bool) -> str:
        """A player's name as a game record keeps it; the person saved as "You" (in any
        language's words) is the person spoken to again, in this language (:meth:`you`)."""
        if human and name in {load_catalog(lang).t("seat.you") for lang in LANGS}:
            return self.you()
        return name

    def words(self, key: str) -> tuple[str, ...]:
        """The words a player may type for ``key`` (an ``input.…`` key), lower case."""
        entry = self.messages[key]
        if isinstance(entry, str):
            return (entry.lower(),)
        return tuple(w.lower() for w in entry)

    def __repr__(self) -> str:
        return f"<Catalog {self.lang}>"


@cache
def load_catalog(lang: str) -> Catalog:
    """The catalog for ``lang`` (``en``, ``ko``, ``it``; a region such as ``ko_KR`` is fine).

    :raises ValueError: for a language without a catalog, listing the known ones.
    """
    key = _base_lang(lang)
    if key not in _CATALOGS:
        raise ValueError(f"no messages for language {lang!r}; known: {', '.join(LANGS)}")
    return Catalog(key, _CATALOGS[key])


def _base_lang(tag: str) -> str:
    return tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def detect_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, as
    POSIX orders them), or English when it names none of :data:`LANGS`."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            lang = _base_lang(value)
            return lang if lang in _CATALOGS else DEFAULT_LANG
    return DEFAULT_LANG


def catalog_json(lang: str) -> str:
    """The whole catalog for ``lang`` as JSON text (for a browser client)."""
    return json.dumps(dict(load_catalog(lang).messages), ensure_ascii=False, sort_keys=True)


def page_words_js() -> str:
    """The entries of every catalog under :data:`PAGE_PREFIXES`, as a JavaScript module
    (``export const WORDS = {lang: {key: template}}``) that the web page imports; templates
    keep their plural forms (``{n:die/dice}``, :mod:`perudo.i18n.grammar`)."""
    words = {
        lang: {
            k: v
            for k, v in sorted(load_catalog(lang).messages.items())
            if k.startswith(PAGE_PREFIXES) and isinstance(v, str)
        }
        for lang in LANGS
    }
    return "export const WORDS = " + json.dumps(words, ensure_ascii=False, indent=1) + ";\n"
