"""``perudo solve`` and ``perudo exploit``: exact play of heads-up rounds and matches.

``perudo solve --rules perudo --dice 2,1`` solves one round to an equilibrium and prints the
opener's value and the exploitability of the strategy found; ``--match`` solves every heads-up
position up to ``--max-dice`` dice in play and prints the opener's chance to win from each.
``perudo exploit --bot prob --rules liars_dice_openspiel --dice 1,1`` prints the exact
best-response value against a bot (in either seat) and against the solver's own strategy.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from perudo.core import RuleSet
    from perudo.solve import RoundGame, Solution

__all__ = ["exploit", "register", "solve"]

_RULES_HELP = "Rule set preset (perudo, liars_dice, liars_dice_openspiel, …)."


def win_chance(value: float) -> float:
    """The chance to win a round whose value (+1 won, −1 lost) is ``value``."""
    return (1.0 + value) / 2.0


def _rules(name: str) -> RuleSet:
    from perudo.core import find_ruleset

    try:
        return find_ruleset(name)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--rules") from None


def _pair(text: str, option: str, *, flags: bool = False) -> tuple[int, int]:
    parts = [p.strip() for p in text.replace("v", ",").split(",")]
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        what, like = (
            ("0 or 1 for the opener, then the other player", "1,0")
            if flags
            else ("the dice of the opener, then of the other player", "2,1")
        )
        raise typer.BadParameter(f"{text!r}: expected {what}, like {like}", param_hint=option)
    a, b = int(parts[0]), int(parts[1])
    if flags and not {a, b} <= {0, 1}:
        raise typer.BadParameter(f"{text!r}: each flag is 0 or 1", param_hint=option)
    return a, b


def _game(rules: RuleSet, dice: str, palifico: bool, used: str) -> RoundGame:
    from perudo.solve import RoundGame

    d = _pair(dice, "--dice")
    u = _pair(used, "--used", flags=True)
    try:
        return RoundGame(rules, d, palifico=palifico, palifico_used=(bool(u[0]), bool(u[1])))
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--dice") from None


def _print_solution(sol: Solution, elapsed: float, peak_mib: float) -> None:
    from rich.console import Console
    from rich.table import Table

    g = sol.game
    table = Table(title=g.describe(), show_header=False)
    table.add_row(
        "value for the opener",
        f"{sol.value:+.9f} per round (+1 a round won, −1 lost): wins "
        f"{win_chance(sol.value):.2%} of rounds",
    )
    lo, hi = sol.value_bounds
    table.add_row("value bounds", f"[{lo:+.9f}, {hi:+.9f}]")
    table.add_row("exploitability", f"{sol.exploitability:.3e}")
    # As ``perudo exploit`` prints them: the responder's value, by the seat responded to.
    table.add_row(
        "best response to the opener",
        f"{sol.br[1]:+.9f} (the other seat's value; {-sol.value:+.9f} at the equilibrium)",
    )
    table.add_row(
        "best response to the other",
        f"{sol.br[0]:+.9f} (the opener's value; {sol.value:+.9f} at the equilibrium)",
    )
    table.add_row("information states", f"{g.num_infostates():,}")
    its = f", {sol.iterations} iterations" if sol.iterations else ""
    precision = f" ({sol.info['dtype']})" if "dtype" in sol.info else ""
    table.add_row("method", f"{sol.method}{precision}{its}")
    if sol.info.get("backend") == "native":
        floor = sol.info.get("reach_floor") or 0.0
        table.add_row("kernel", f"compiled, {sol.info['threads']} threads, reach floor {floor:g}")
    elif "backend" in sol.info:
        table.add_row("kernel", "numpy")
    table.add_row("time, peak memory", f"{elapsed:.2f} s, {peak_mib:.0f} MiB")
    Console().print(table)


def _peak_mib() -> float:
    import resource
    import sys

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def _solve_round_cli(
    game: RoundGame,
    method: str,
    target: float,
    time_limit: float | None,
    max_iterations: int | None,
    float32: bool | None,
    quiet: bool,
) -> Solution:
    import numpy as np

    from perudo.solve import solve_round
    from perudo.solve.progress import solve_progress

    with solve_progress(target, enabled=not quiet) as bar:
        try:
            return solve_round(
                game,
                method=method,
                target=target,
                time_limit=time_limit,
                max_iterations=max_iterations,
                dtype=None if float32 is None else np.float32 if float32 else np.float64,
                progress=bar.round(game.describe()),
            )
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--method") from None


def solve(
    rules: Annotated[str, typer.Option(help=_RULES_HELP)] = "perudo",
    dice: Annotated[
        str, typer.Option(help="Dice of the opener and of the other player, e.g. 2,1.")
    ] = "1,1",
    palifico: Annotated[
        bool, typer.Option("--palifico", help="A palifico round (the opener holds one die).")
    ] = False,
    used: Annotated[
        str, typer.Option(help="Palifico already had by the opener, the other: 0,0 … 1,1.")
    ] = "0,0",
    method: Annotated[
        str, typer.Option(help="auto, lp, cfr+, cfr+linear, pcfr+ or dcfr.")
    ] = "auto",
    target: Annotated[float, typer.Option(help="Stop CFR at this exploitability.")] = 1e-6,
    time_limit: Annotated[
        float | None, typer.Option(help="Stop CFR after this many seconds.")
    ] = None,
    max_iterations: Annotated[
        int | None, typer.Option(help="Stop CFR after this many iterations.")
    ] = None,
    float32: Annotated[
        bool | None,
        typer.Option(
            "--float32/--float64",
            help="CFR's float type (default: float32 from three dice while --target ≥ 1e-7).",
        ),
    ] = None,
    match: Annotated[
        bool, typer.Option("--match", help="Solve the heads-up match, every position.")
    ] = False,
    max_dice: Annotated[
        int, typer.Option(help="With --match: positions with at most this many dice.")
    ] = 2,
    book: Annotated[
        bool,
        typer.Option(
            "--book",
            help="Build the shipped book into --out: the presets' matches and the joker "
            "game's rounds up to --max-dice dice, packed.",
        ),
    ] = False,
    cache: Annotated[
        Path | None,
        typer.Option(help="With --book: keep solved rounds here and reuse them next time."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Save: a .npz file for a round, a directory for --match or --book."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Solve a heads-up round (or the whole match) to a Nash equilibrium."""
    import time

    from perudo.solve.vector import keep_freed_memory

    keep_freed_memory()
    if book:
        _build_book_cli(out, max_dice, target, cache)
        return
    rule_set = _rules(rules)
    start = time.perf_counter()
    if not match:
        game = _game(rule_set, dice, palifico, used)
        sol = _solve_round_cli(game, method, target, time_limit, max_iterations, float32, quiet)
        _print_solution(sol, time.perf_counter() - start, _peak_mib())
        if out is not None:
            path = sol.save(out)
            typer.echo(f"saved {path}")
        return
    _solve_match_cli(
        rule_set, max_dice, method, target, time_limit, max_iterations, float32, quiet, out
    )


def _build_book_cli(out: Path | None, max_dice: int, target: float, cache: Path | None) -> None:
    from perudo.solve.shipped import build_book

    if out is None:
        raise typer.BadParameter(
            "--book writes a book directory: name it, e.g. --out src/perudo/solve/book",
            param_hint="--out",
        )
    try:
        build_book(out, max_dice=max_dice, target=target, cache=cache, log=typer.echo)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--max-dice") from None


def _solve_match_cli(
    rules: RuleSet,
    max_dice: int,
    method: str,
    target: float,
    time_limit: float | None,
    max_iterations: int | None,
    float32: bool | None,
    quiet: bool,
    out: Path | None,
) -> None:
    import time

    import numpy as np
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from perudo.solve import solve_round
    from perudo.solve.match import Position, match_positions, solve_match
    from perudo.solve.progress import solve_progress

    start = time.perf_counter()
    try:
        positions = match_positions(rules, max_dice)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--max-dice") from None
    with solve_progress(target, enabled=not quiet) as bar:
        bar.start_match(len(positions))

        def hook(pos: Position, game: RoundGame) -> Solution:
            return solve_round(
                game,
                method=method,
                target=target,
                time_limit=time_limit,
                max_iterations=max_iterations,
                dtype=None if float32 is None else np.float32 if float32 else np.float64,
                progress=bar.round(str(pos)),
            )

        try:
            result = solve_match(
                rules,
                max_dice,
                solve=hook,
                on_position=lambda pos, w, sol: bar.advance_match(str(pos)),
            )
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
    table = Table(title=f"{rules}: the opener's chance to win the match")
    for col in ("position", "opener wins", "round value", "exploitability", "method", "time"):
        table.add_column(col, no_wrap=col == "position")
    for pos in positions:
        w = result.values[pos]
        sol = result.rounds.get(pos)
        if sol is None:
            choice = "palifico" if result.choices[pos] else "normal"
            table.add_row(escape(str(pos)), f"{w:.6f}", f"choose {choice}", "", "", "")
        else:
            table.add_row(
                escape(str(pos)),  # "[u-]", "[uu]": the palifico flags, not rich markup
                f"{w:.6f}",
                f"{sol.value:+.6f}",
                f"{sol.exploitability:.1e}",
                sol.method,
                f"{sol.seconds:.1f} s",
            )
    console = Console()
    console.print(table)
    console.print(f"total {time.perf_counter() - start:.1f} s, peak memory {_peak_mib():.0f} MiB")
    if out is not None:
        path = result.save(out)
        console.print(f"saved {path}")


def exploit(
    bot: Annotated[list[str], typer.Option(help="Bot to best-respond to (repeat for several).")],
    rules: Annotated[str, typer.Option(help=_RULES_HELP)] = "perudo",
    dice: Annotated[
        str, typer.Option(help="Dice of the opener and of the other player, e.g. 1,1.")
    ] = "1,1",
    palifico: Annotated[bool, typer.Option("--palifico", help="A palifico round.")] = False,
    used: Annotated[str, typer.Option(help="Palifico already had: opener,other.")] = "0,0",
    strategy: Annotated[
        Path | None, typer.Option(help="A saved round (.npz) instead of solving.")
    ] = None,
    method: Annotated[str, typer.Option(help="How to solve the round (see solve).")] = "auto",
    target: Annotated[float, typer.Option(help="Exploitability target when solving.")] = 1e-6,
    seed: Annotated[int, typer.Option(help="Seed of the bots.")] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Exact best-response values against bots that state their action probabilities."""
    from rich.console import Console
    from rich.table import Table

    from perudo.registry import make_bot
    from perudo.solve import Solution
    from perudo.solve.exploit import exploit as run_exploit
    from perudo.solve.exploit import policy_of

    rule_set = _rules(rules)
    if strategy is not None:
        try:
            sol = Solution.load(strategy)
        except (OSError, ValueError) as err:
            raise typer.BadParameter(str(err), param_hint="--strategy") from None
        game = sol.game
    else:
        game = _game(rule_set, dice, palifico, used)
        sol = _solve_round_cli(game, method, target, None, None, False, quiet)
    console = Console()
    table = Table(title=f"{game.describe()}: best responses")
    for col in (
        "player",
        "seat",
        "best response",
        "equilibrium",
        "gain",
        "views asked",
    ):
        table.add_column(col)
    table.add_row(
        "solver",
        "opener",
        f"{sol.br[1]:+.6f}",
        f"{-sol.value:+.6f}",
        f"{sol.br[1] + sol.value:+.2e}",
        "",
    )
    table.add_row(
        "solver",
        "other",
        f"{sol.br[0]:+.6f}",
        f"{sol.value:+.6f}",
        f"{sol.br[0] - sol.value:+.2e}",
        "",
    )
    for name in bot:
        try:
            b = make_bot(name, seed)
            policy = policy_of(b)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--bot") from None
        for seat in (0, 1):
            res = run_exploit(game, policy, seat, game_value=sol.value)
            table.add_row(
                name,
                "opener" if seat == 0 else "other",
                f"{res.best_response:+.6f}",
                f"{res.value:+.6f}",
                f"{res.gain:+.6f}",
                f"{res.calls:,}",
            )
    console.print(table)
    console.print(
        "Every value is the responder's, per round (+1 a round won, −1 lost): the responder "
        "plays the other seat and best-responds to the listed player. 'best response' is what "
        "it wins, 'equilibrium' what it would win at the equilibrium (−v against the opener, "
        "+v against the other player), 'gain' the difference. "
        f"Game value for the opener v = {sol.value:+.9f} (the opener wins "
        f"{win_chance(sol.value):.2%} of rounds); exploitability of the solver's strategy "
        f"{sol.exploitability:.2e}."
    )


def register(app: typer.Typer) -> None:
    """Add ``solve`` and ``exploit`` to the ``perudo`` command."""
    app.command(name="solve")(solve)
    app.command(name="exploit")(exploit)
