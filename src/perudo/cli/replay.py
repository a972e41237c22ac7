"""``perudo replay``: show a saved game record round by round.

Every hand is shown as the record holds it, marked revealed at the table (P-21) or hidden.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register", "replay"]


def replay(
    file: Annotated[
        Path, typer.Argument(help="A game record (JSON), as written by perudo play --save.")
    ],
    show_all: Annotated[
        bool,
        typer.Option("--all", help="Print every round at once instead of waiting for Enter."),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(help="Language: en, ko or it (default: from the locale, else en)."),
    ] = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Draw with plain ASCII.")] = False,
) -> None:
    """Play a saved game back, round by round (Enter for the next round)."""
    from rich.console import Console

    from perudo.core import GameRecord, NotationError
    from perudo.i18n import LANGS, detect_lang, load_catalog

    from .tui.replay import Replayer

    language = detect_lang() if lang is None else lang.strip().lower()
    if language not in LANGS:
        raise typer.BadParameter(
            f"no messages for {lang!r}; known: {', '.join(LANGS)}", param_hint="--lang"
        )
    cat = load_catalog(language)
    console = Console(highlight=False, emoji=False)
    try:
        record = GameRecord.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, NotationError) as err:
        console.print(
            cat.t("replay.unreadable", path=str(file), error=str(err)),
            style="bold red",
            soft_wrap=True,
        )
        raise typer.Exit(1) from None
    pause = not show_all and sys.stdin.isatty()
    code = Replayer(record, console, cat, pause=pause, ascii_only=ascii_only).run()
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``perudo replay`` to the ``perudo`` command."""
    app.command("replay")(replay)
