"""``perudo arena`` (bots against bots, with win rates and ratings) and ``perudo bench-bots``
(decision times). Registered on the app by :func:`register`; heavy imports stay inside."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register"]


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _importable_here() -> None:
    """Let ``--bots package.module:Name`` name a module of the current folder, as uvicorn does
    for ``module:app`` (worker processes inherit the path)."""
    import os
    import sys

    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)


ARENA_HELP = (
    "Pit bots against each other and print win rates, places and ratings.\n\n"
    # One line per paragraph: typer's help keeps a docstring's line breaks, cutting a
    # sentence after "mean" at 80 columns.
    "Seats rotate every game; the figures are win rates with 95% Wilson intervals, mean "
    "finishing places and OpenSkill ratings. The --out and --plot files are checked before any "
    "game is played; an existing one is replaced only with --overwrite."
)


def arena(
    rules: Annotated[
        str, typer.Option(help="Rule set preset (perudo, perudo_calza, liars_dice, bluff, …).")
    ] = "perudo_calza",
    players: Annotated[int, typer.Option(help="Seats at the table.")] = 6,
    bots: Annotated[
        str,
        typer.Option(
            help="Bots, comma-separated, cycled to fill the seats: levels, bot names, or your "
            "own as package.module:Class (docs/bots.md)."
        ),
    ] = "strong,prob",
    games: Annotated[int, typer.Option(help="Games to play.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same results.")] = 0,
    jobs: Annotated[
        int,
        typer.Option(help="Worker processes (0: every core; with --backend ray, every CPU)."),
    ] = 0,
    backend: Annotated[
        str,
        typer.Option(
            help="Where the games run: process (this machine) or ray (a Ray cluster); the "
            "results are the same."
        ),
    ] = "process",
    ray_address: Annotated[
        str | None,
        typer.Option(
            envvar="RAY_ADDRESS",
            help="With --backend ray: the cluster's address (HEAD:6379, as `ray start --head` "
            "prints it); default: start Ray on this machine for the run.",
        ),
    ] = None,
    dice: Annotated[int, typer.Option(help="Dice per player (0: the rule set's).")] = 0,
    out: Annotated[Path | None, typer.Option(help="Write the figures as JSON here.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Draw the figures to this PNG.")] = None,
    overwrite: Annotated[
        bool,
        typer.Option("--overwrite", metavar="", help="Let --out and --plot replace files."),
    ] = False,
) -> None:
    """Pit bots against each other and print win rates, places and ratings (the help text
    is :data:`ARENA_HELP`)."""
    import os
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from perudo.arena import run_arena
    from perudo.arena.report import figures_table, write_json
    from perudo.arena.report import plot as draw
    from perudo.core import find_ruleset
    from perudo.sim.workers import BACKENDS

    from .paths import check_output, has_module

    console = Console()
    if not console.is_terminal:  # piped or captured: room for the whole table
        console = Console(width=120)
    try:
        ruleset = find_ruleset(rules)
        if dice:
            ruleset = dataclasses.replace(ruleset, dice_per_player=dice)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--rules/--dice") from None
    out = check_output(out, "--out", overwrite=overwrite)
    plot = check_output(plot, "--plot", overwrite=overwrite)
    if plot is not None and plot.suffix.lower() != ".png":
        raise typer.BadParameter(f"{plot}: the chart is a PNG; name it ….png", param_hint="--plot")
    if plot is not None and not has_module("matplotlib"):
        raise typer.BadParameter(
            "drawing needs matplotlib, the plot extra: pip install 'perudo[plot]'",
            param_hint="--plot",
        )
    names = _split(bots)
    _importable_here()
    if backend not in BACKENDS:
        raise typer.BadParameter(
            f"{backend!r}: choose {' or '.join(BACKENDS)}", param_hint="--backend"
        )
    if backend == "ray":  # the cluster's CPUs are known once connected
        workers = jobs or None
        where_to = f"the Ray cluster at {ray_address}" if ray_address else "Ray on this machine"
        if jobs:
            where_to += f", {jobs} games at a time"
    else:
        workers = jobs or (os.cpu_count() or 1)
        where_to = f"{workers} process{'es' if workers != 1 else ''}"
    start = time.perf_counter()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{games} games on {where_to}", total=games)
        try:
            result = run_arena(
                ruleset,
                players,
                names,
                games,
                seed=seed,
                jobs=workers,
                backend=backend,
                ray_address=ray_address if backend == "ray" else None,
                progress=lambda k: progress.advance(task, k),
            )
        except ImportError as err:
            raise typer.BadParameter(str(err), param_hint="--backend") from None
        except ConnectionError as err:
            raise typer.BadParameter(str(err), param_hint="--ray-address") from None
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
    elapsed = time.perf_counter() - start
    console.print(figures_table(result))
    console.print(
        f"lineup: {', '.join(result.lineup)} (turned one seat each game); "
        f"{elapsed:.1f} s on {where_to}"
    )
    try:  # checked before the games; a disk that fills up meanwhile is still told plainly
        if out is not None:
            write_json(result, out)
            console.print(f"figures written to {out}")
        if plot is not None:
            draw(result, plot)
    except OSError as err:
        console.print(f"could not write {err.filename}: {err.strerror}", style="bold red")
        raise typer.Exit(1) from None
    if plot is not None:
        console.print(f"chart drawn to {plot}")


def bench_bots(
    bots: Annotated[str, typer.Option(help="Bots to time, comma-separated.")] = (
        "random,prob,strong"
    ),
    rules: Annotated[str, typer.Option(help="Rule set preset.")] = "perudo_calza",
    players: Annotated[int, typer.Option(help="Seats (every seat plays the bot timed).")] = 6,
    games: Annotated[int, typer.Option(min=1, help="Games per bot.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
) -> None:
    """Print each bot's decision time (p50, p95, max of act and out-of-turn calza calls)."""
    from rich.console import Console
    from rich.table import Table

    from perudo.arena.timing import time_bot
    from perudo.core import find_ruleset
    from perudo.registry import make_bot

    try:
        ruleset = find_ruleset(rules)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--rules") from None
    _importable_here()
    for name in _split(bots):
        try:
            make_bot(name, 0)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--bots") from None
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise typer.BadParameter(
            f"{players} players: these rules take {ruleset.min_players}–{ruleset.max_players}",
            param_hint="--players",
        )
    table = Table(
        title=f"decision time, {ruleset} · {players} players × {ruleset.dice_per_player} dice"
    )
    for col in ("bot", "call", "calls", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="left" if col in ("bot", "call") else "right")
    for name in _split(bots):
        times = time_bot(name, ruleset, players, games, seed)
        for which in ("act", "calza"):
            calls, p50, p95, top = times.summary(which)
            if calls:
                table.add_row(
                    name,
                    which,
                    str(calls),
                    f"{p50 * 1e3:.2f}",
                    f"{p95 * 1e3:.2f}",
                    f"{top * 1e3:.2f}",
                )
    console = Console()
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``arena`` and ``bench-bots`` to the ``perudo`` app."""
    app.command("arena", help=ARENA_HELP)(arena)
    app.command("bench-bots")(bench_bots)
