"""``perudo play``: a person plays Perudo against bots in the terminal.

The loop lives in :mod:`perudo.cli.tui.session`; this module reads the options, checks them
before anything is played (an unknown rule set, level or language is refused with the known ones
listed; a ``--save`` path that cannot be written, or an existing file without ``--overwrite``, is
refused at once; a ``--resume`` record that does not replay says which move and why) and starts
it. Seats are counted from 1 for people. An output that is not UTF-8 gets ASCII drawing
(:mod:`perudo.cli.tui.plain`).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from perudo.core import GameRecord, RuleSet

__all__ = ["play", "register"]


def play(
    ctx: typer.Context,
    rules: Annotated[
        str, typer.Option(help="Rule set: perudo, perudo_calza, liars_dice, bluff, …")
    ] = "perudo",
    players: Annotated[int, typer.Option(help="Players at the table, you included.")] = 4,
    level: Annotated[
        str, typer.Option(help="Bot level: easy, medium, hard or expert (the solver's).")
    ] = "medium",
    seed: Annotated[
        int | None,
        typer.Option(help="Seed for reproducible dice and bots (default: system randomness)."),
    ] = None,
    dice: Annotated[
        int | None, typer.Option(help="Dice per player (default: the rule set's, 5).")
    ] = None,
    memory: Annotated[
        bool,
        typer.Option(
            "--memory",
            metavar="",
            help="Memory mode: other players' dice counts are not shown.",
        ),
    ] = False,
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    lang: Annotated[
        str | None,
        typer.Option(help="Language: en, ko or it (default: from the locale, else en)."),
    ] = None,
    delay: Annotated[
        float, typer.Option(help="Seconds of pause before each bot acts (0 or more).")
    ] = 0.8,
    save: Annotated[
        Path | None,
        typer.Option(help="Write the game record (JSON) to this file at the end (checked first)."),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", metavar="", help="Let --save replace an existing file.")
    ] = False,
    seat: Annotated[int, typer.Option(help="Your seat, from 1.")] = 1,
    calza_ask: Annotated[
        str,
        typer.Option(
            help="When to offer you calza out of turn: likely (only when the bid has at least "
            "a 1 in 4 chance of being exact), always (after every bid), or never."
        ),
    ] = "likely",
    ascii_only: Annotated[
        bool,
        typer.Option(
            "--ascii",
            metavar="",
            help="Draw with plain ASCII (chosen by itself when the output is not UTF-8).",
        ),
    ] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="Go on with a game saved by --save or at the save question: same table, same "
            "names, your seat.",
        ),
    ] = None,
    from_record: Annotated[
        Path | None,
        # The older name of --resume, kept working but out of the help (its long name widened
        # every row of the option table past 80 columns).
        typer.Option("--from-record", hidden=True),
    ] = None,
) -> None:
    """Play Perudo against the computer."""
    from rich.console import Console

    from perudo.core import GameRecord, NotationError, PerudoError, find_ruleset
    from perudo.core.rules import MAX_DICE
    from perudo.i18n import LANGS, detect_lang, load_catalog, refusal_text
    from perudo.registry import bot_names

    from .paths import check_output
    from .tui.plain import PlainStream, output_encoding, readable_language
    from .tui.session import CALZA_ASK, PlayConfig, Session

    resume = resume if resume is not None else from_record
    if delay < 0:
        raise typer.BadParameter(
            f"{delay} is below 0: the pause is 0 or more seconds", param_hint="--delay"
        )
    try:
        ruleset = find_ruleset(rules)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--rules") from None
    if dice is not None:
        try:
            ruleset = dataclasses.replace(ruleset, dice_per_player=dice)
        except ValueError:
            # V-12 (the core decides); a player reads words, not the rule id
            raise typer.BadParameter(
                f"{dice}: each player starts with 1 to {MAX_DICE} dice", param_hint="--dice"
            ) from None
    if not ruleset.min_players <= players <= ruleset.max_players:
        # P-1; a player reads words, not the rule id
        noun = "player" if players == 1 else "players"
        raise typer.BadParameter(
            f"{players} {noun}: these rules take {ruleset.min_players}–{ruleset.max_players}",
            param_hint="--players",
        )
    level = level.strip().lower()
    if level not in bot_names():
        raise typer.BadParameter(
            f"unknown level {level!r}; known: {', '.join(bot_names())}", param_hint="--level"
        )
    if calza_ask not in CALZA_ASK:
        raise typer.BadParameter(
            f"{calza_ask!r}: choose {', '.join(CALZA_ASK)}", param_hint="--calza-ask"
        )
    language = detect_lang() if lang is None else lang.strip().lower()
    if language not in LANGS:
        raise typer.BadParameter(
            f"no messages for {lang!r}; known: {', '.join(LANGS)}", param_hint="--lang"
        )
    save = check_output(save, "--save", overwrite=overwrite)
    start = None
    seat_index = seat - 1
    if resume is not None:
        en = load_catalog("en")
        try:
            start = GameRecord.loads(resume.read_text(encoding="utf-8"))
        except NotationError as err:
            why = refusal_text("en", err.code, err.params, lambda s: f"seat {s + 1}")
            raise typer.BadParameter(why, param_hint="--resume") from None
        except (OSError, UnicodeDecodeError) as err:
            raise typer.BadParameter(
                f"cannot read {resume}: {err}", param_hint="--resume"
            ) from None
        names = [en.recorded_name(i.name, human=i.kind == "human") for i in start.seats]
        try:
            start.replay()
        except PerudoError as err:  # told of the record's players, by their names
            why = refusal_text(
                "en",
                err.code,
                err.params,
                lambda s: names[s] if 0 <= s < len(names) else en.t("seat.generic", n=s + 1),
                about=True,
            )
            raise typer.BadParameter(why, param_hint="--resume") from None
        _refuse_a_second_table(ctx, start, ruleset, players, dice, level)
        memory = memory or start.memory
        humans = [i for i, info in enumerate(start.seats) if info.kind == "human"]
        if humans and seat == 1:
            seat_index = humans[0]
    table = start.num_players if start is not None else players
    if not 0 <= seat_index < table:
        raise typer.BadParameter(
            f"seat {seat} is not at a {table}-seat table (seats 1–{table})", param_hint="--seat"
        )
    encoding = output_encoding()
    utf8 = encoding.startswith("utf") or os.environ.get("PERUDO_UNICODE") == "1"
    if not utf8:
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
        language = readable_language(language, encoding)
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
        ascii_only=ascii_only or not utf8,
        seat=seat_index,
        start=start,
        calza_ask=calza_ask,
    )
    stream = PlainStream(sys.stdout) if config.ascii_only else sys.stdout
    console = Console(file=stream, highlight=False, emoji=False)  # type: ignore[arg-type]
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    code = Session(config, console, interactive=interactive).run()
    raise typer.Exit(code)


def _refuse_a_second_table(
    ctx: typer.Context,
    start: GameRecord,
    rules: RuleSet,
    players: int,
    dice: int | None,
    level: str,
) -> None:
    """A resumed game keeps its recorded table: an option that asks for another one (other
    rules, players, dice, or a level where the record names every bot's) is refused in words,
    never ignored. The same value as the record's is fine."""
    from perudo.core.rules import PRESETS

    def given(name: str) -> bool:
        source = ctx.get_parameter_source(name)  # typer's click or click's: by the name
        return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")

    dice_each = start.rules.dice_per_player
    preset = next(
        (
            n
            for n, p in PRESETS.items()
            if dataclasses.replace(p, dice_per_player=dice_each) == start.rules
        ),
        "custom rules",
    )
    table = f"{preset}, {start.num_players} players"
    same_dice = dataclasses.replace(rules, dice_per_player=start.rules.dice_per_player)
    if given("rules") and same_dice != start.rules:
        raise typer.BadParameter(
            f"the recorded game is played with its own rules ({table}); leave --rules out",
            param_hint="--rules",
        )
    if given("players") and players != start.num_players:
        raise typer.BadParameter(
            f"the recorded game has its own table ({table}); leave --players out",
            param_hint="--players",
        )
    if given("dice") and dice != start.rules.dice_per_player:
        raise typer.BadParameter(
            f"the recorded game started with {start.rules.dice_per_player} dice each; leave "
            "--dice out",
            param_hint="--dice",
        )
    levels = {info.level for info in start.seats if info.kind == "bot"}
    if given("level") and start.seats and None not in levels and levels != {level}:
        raise typer.BadParameter(
            f"the recorded bots keep their levels ({', '.join(sorted(str(x) for x in levels))});"
            " leave --level out",
            param_hint="--level",
        )


def register(app: typer.Typer) -> None:
    """Add ``perudo play`` to the ``perudo`` command."""
    app.command("play")(play)
