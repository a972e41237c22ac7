"""What a command that prints a saved game to its reader sets up first (``perudo replay``,
``perudo analyze``): the reader's language, checked and readable on this terminal, its
catalog, and a console that never fails to print (ASCII where the output is not UTF-8)."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from perudo.i18n import LANGS, Catalog, detect_lang, load_catalog

from .tui.plain import PlainStream, output_encoding, readable_language

__all__ = ["open_reading"]


def open_reading(lang: str | None, ascii_only: bool) -> tuple[str, Catalog, Console, bool]:
    """``(language, catalog, console, plain)`` for ``--lang`` (``None``: from the locale) and
    ``--ascii``; ``plain``: draw in ASCII (asked for, or the output is not UTF-8).

    :raises typer.BadParameter: for a language without messages, naming the known ones.
    """
    language = detect_lang() if lang is None else lang.strip().lower()
    if language not in LANGS:
        raise typer.BadParameter(
            f"no messages for {lang!r}; known: {', '.join(LANGS)}", param_hint="--lang"
        )
    encoding = output_encoding()
    utf8 = encoding.startswith("utf")
    if not utf8:
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
        language = readable_language(language, encoding)
    plain = ascii_only or not utf8
    stream = PlainStream(sys.stdout) if plain else sys.stdout
    console = Console(file=stream, highlight=False, emoji=False)  # type: ignore[arg-type]
    return language, load_catalog(language), console, plain
