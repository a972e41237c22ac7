"""``perudo play``: a person plays Perudo against bots in the terminal.

The loop lives in :mod:`perudo.cli.tui.session`; this module reads the options, checks them
(an unknown rule set, level or language is refused with the known ones listed) and starts it.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["play", "register"]


def play(
    rules: Annotated[
        str, typer.Option(help="Rule set: perudo, perudo_calza, liars_dice, bluff, …")
    ] = "perudo",
    players: Annotated[int, typer.Option(help="Players at the table, you included.")] = 4,
    level: Annotated[str, typer.Option(help="Bot level: easy, medium or hard.")] = "medium",
    seed: Annotated[
        int | None,
        typer.Option(help="Seed for reproducible dice and bots (default: system randomness)."),
    ] = None,
    dice: Annotated[
        int | None, typer.Option(help="Dice per player (default: the rule set's, 5).")
    ] = None,
    memory: Annotated[
        bool, typer.Option(help="Memory mode (P-40): other players' dice counts are not shown.")
    ] = False,
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    lang: Annotated[
        str | None,
        typer.Option(help="Language: en, ko or it (default: from the locale, else en)."),
    ] = None,
    delay: Annotated[
        float, typer.Option(min=0.0, help="Seconds of pause before each bot acts.")
    ] = 0.8,
    save: Annotated[
        Path | None, typer.Option(help="Write the game record (JSON) to this file at the end.")
    ] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 = first).")] = 0,
    ascii_only: Annotated[
        bool,
        typer.Option("--ascii", help="Draw with plain ASCII (for terminals without box drawing)."),
    ] = False,
    from_record: Annotated[
        Path | None,
        typer.Option(hidden=True, help="Continue the game in this record (tests, teaching)."),
    ] = None,
) -> None:
    """Play Perudo against the computer."""
    from rich.console import Console

    from perudo.core import GameRecord, PerudoError, find_ruleset
    from perudo.i18n import LANGS, detect_lang
    from perudo.registry import bot_names

    from .tui.session import PlayConfig, Session

    try:
        ruleset = find_ruleset(rules)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--rules") from None
    if dice is not None:
        try:
            ruleset = dataclasses.replace(ruleset, dice_per_player=dice)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--dice") from None
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise typer.BadParameter(
            f"{players} players: these rules take {ruleset.min_players}–{ruleset.max_players} "
            "(P-1)",
            param_hint="--players",
        )
    if level.strip().lower() not in bot_names():
        raise typer.BadParameter(
            f"unknown level {level!r}; known: {', '.join(bot_names())}", param_hint="--level"
        )
    language = detect_lang() if lang is None else lang.strip().lower()
    if language not in LANGS:
        raise typer.BadParameter(
            f"no messages for {lang!r}; known: {', '.join(LANGS)}", param_hint="--lang"
        )
    start = None
    if from_record is not None:
        try:
            start = GameRecord.loads(from_record.read_text(encoding="utf-8"))
            start.replay()
        except (OSError, PerudoError, ValueError) as err:
            raise typer.BadParameter(str(err), param_hint="--from-record") from None
    table = start.num_players if start is not None else players
    if not 0 <= seat < table:
        raise typer.BadParameter(f"seat {seat} is not at a {table}-seat table", param_hint="--seat")
    config = PlayConfig(
        rules=ruleset,
        players=players,
        level=level,
        seed=seed,
        memory=memory,
        name=name.strip() if name and name.strip() else None,
        delay=delay,
        save=save,
        lang=language,
        ascii_only=ascii_only or not _can_draw(),
        seat=seat,
        start=start,
    )
    console = Console(highlight=False, emoji=False)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    code = Session(config, console, interactive=interactive).run()
    raise typer.Exit(code)


def _can_draw() -> bool:
    """Whether the output can carry box drawing and dice (a UTF-8 stream)."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding.startswith("utf") or os.environ.get("PERUDO_UNICODE") == "1"


def register(app: typer.Typer) -> None:
    """Add ``perudo play`` to the ``perudo`` command."""
    app.command("play")(play)
