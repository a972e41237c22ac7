"""``perudo replay``: show a saved game record round by round.

Every hand is shown as the record holds it, marked revealed at the table (P-21) or hidden. A file
that is not a game record, or a record whose moves do not replay, gets a clear message in the
viewer's language and exit status 1, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["register", "replay"]


def replay(
    file: Annotated[
        Path, typer.Argument(help="A game record (JSON), as written by perudo play --save.")
    ],
    show_all: Annotated[
        bool,
        typer.Option(
            "--all", metavar="", help="Print every round at once instead of waiting for Enter."
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(help="Language: en, ko or it (default: from the locale, else en)."),
    ] = None,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", metavar="", help="Draw with plain ASCII.")
    ] = False,
) -> None:
    """Play a saved game back, round by round (Enter for the next round)."""

    from perudo.core import GameRecord, NotationError
    from perudo.i18n import refusal_text

    from .reading import open_reading
    from .tui.replay import Replayer

    language, cat, console, plain = open_reading(lang, ascii_only)
    try:
        record = GameRecord.loads(file.read_text(encoding="utf-8"))
    except NotationError as err:
        why = refusal_text(language, err.code, err.params, lambda s: cat.t("seat.generic", n=s + 1))
        _unreadable(console, cat.t("replay.unreadable", path=str(file), error=why))
    except UnicodeDecodeError:
        _unreadable(console, cat.t("replay.not_text", path=str(file)))
    except OSError as err:
        _unreadable(console, cat.t("replay.unreadable", path=str(file), error=err.strerror or err))
    pause = not show_all and sys.stdin.isatty()
    code = Replayer(record, console, cat, pause=pause, ascii_only=plain).run()
    raise typer.Exit(code)


def _unreadable(console: Console, message: str) -> NoReturn:
    console.print(message, style="bold red", soft_wrap=True)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``perudo replay`` to the ``perudo`` command."""
    app.command("replay")(replay)
