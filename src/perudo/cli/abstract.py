"""``perudo abstract``: solve a heads-up round too big for the exact solver as an abstraction
(a player remembers the last ``--memory`` bids) and write it where ``expert`` plays it from.

``perudo abstract --rules perudo --dice 2,2 --memory 3 --iterations 800`` rewrites the shipped
table of Perudo's 2v2 round in ``src/perudo/solve/tables/`` (``--out`` writes elsewhere; name
that directory in ``PERUDO_ABSTRACT`` to play from it). Rounds of at most 30 bids (2v2) are
measured exactly in the full game after the solve (docs/solver.md, "Abstraction equilibria").
``--respond-to hard --share 0.5`` solves each seat's restricted Nash response to ``hard``
instead (docs/solver.md, "Restricted Nash responses").
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from perudo.cli.solve import _pair, _rules

__all__ = ["abstract", "register"]


def abstract(
    rules: Annotated[
        str, typer.Option(help="A preset (perudo, liars_dice_openspiel, …) or 'joker'.")
    ] = "perudo",
    dice: Annotated[str, typer.Option(help="Opener's dice, other's dice: 2,2.")] = "2,2",
    memory: Annotated[int, typer.Option(help="Bids a player remembers (the last k).")] = 3,
    iterations: Annotated[int, typer.Option(help="CFR iterations.")] = 800,
    minutes: Annotated[
        float | None, typer.Option(help="Stop CFR after this long, if sooner (each solve).")
    ] = None,
    method: Annotated[str, typer.Option(help="dcfr or cfr+.")] = "dcfr",
    palifico: Annotated[bool, typer.Option(help="A palifico round (P-30).")] = False,
    measure: Annotated[
        bool, typer.Option(help="Measure the exploitability exactly (rounds of ≤ 30 bids).")
    ] = True,
    out: Annotated[Path | None, typer.Option(help="Directory of the tables.")] = None,
    respond_to: Annotated[
        str | None,
        typer.Option(
            help="Solve each seat's restricted Nash response to this bot level (e.g. hard) "
            "instead of an equilibrium."
        ),
    ] = None,
    share: Annotated[
        float, typer.Option(help="With --respond-to: the chance the other seat is that bot.")
    ] = 0.5,
) -> None:
    """Solve a round's abstraction and write its table and index entry."""
    from perudo.registry import make_bot
    from perudo.solve.abstract_book import SHIPPED_TABLES, Response, build_table
    from perudo.solve.exploit import policy_of
    from perudo.solve.shipped import joker_rules

    d = _pair(dice, "--dice")
    ruleset = joker_rules(max(d)) if rules.strip().lower() == "joker" else _rules(rules)
    if memory < 1:
        raise typer.BadParameter("a player remembers at least the last bid", param_hint="--memory")
    if method not in ("dcfr", "cfr+"):
        raise typer.BadParameter(f"{method!r}: dcfr or cfr+", param_hint="--method")
    response = None
    if respond_to is None and share != 0.5:
        raise typer.BadParameter(
            "a share of what: name the bot with --respond-to", param_hint="--share"
        )
    if respond_to is not None:
        try:
            policy = policy_of(make_bot(respond_to, seed=0))
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--respond-to") from None
        if not 0.0 <= share <= 1.0:
            raise typer.BadParameter(f"{share:g}: a chance, from 0 to 1", param_hint="--share")
        response = Response(respond_to, share, policy)
    try:
        build_table(
            ruleset,
            d,
            memory,
            out if out is not None else SHIPPED_TABLES,
            palifico=palifico,
            iterations=iterations,
            minutes=minutes,
            method=method,  # type: ignore[arg-type]
            measure=measure,
            response=response,
            report=typer.echo,
        )
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--dice") from None


def register(app: typer.Typer) -> None:
    """Add ``abstract`` to the ``perudo`` command."""
    app.command(name="abstract")(abstract)
