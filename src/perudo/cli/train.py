"""``perudo train``: train the learned policy (``expert``'s play beyond the solved rounds).

``perudo train --rounds 60000 --seed 1 --out runs/expert`` plays that many seeded self-play
rounds, prints progress and a checkpoint line (exact exploitability at 1v1, win rates against
``medium`` and ``hard``) every ``--eval-every`` rounds, and writes ``learned.npz`` with its
manifest, ``curves.json``, ``curves.png`` and ``report.md`` into ``--out``. ``--ship`` copies the
final weights into the package (``perudo/bots/weights/``), where ``expert`` loads them. Needs
the ``train`` extra (PyTorch, CPU build): ``pip install -e '.[train]'``, and for the
exploitability (unless ``--no-exploit``) scipy's LP solver, from the ``research`` extra: both
are checked before anything runs.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register", "train"]


def train(
    out: Annotated[Path, typer.Option(help="Directory for weights, curves and the report.")],
    rounds: Annotated[int, typer.Option(min=1, help="Self-play rounds in all.")] = 60_000,
    seed: Annotated[int, typer.Option(help="Seed of everything random.")] = 1,
    minutes: Annotated[float, typer.Option(min=0.1, help="Wall-time cap.")] = 75.0,
    hidden: Annotated[int, typer.Option(min=4, help="Units per hidden layer.")] = 64,
    eval_every: Annotated[int, typer.Option(min=1, help="Rounds between checkpoints.")] = 10_000,
    eval_rounds: Annotated[
        int, typer.Option(min=10, help="Rounds against each reference per checkpoint.")
    ] = 400,
    rules: Annotated[
        str, typer.Option(help="Comma-separated presets (and 'joker'); empty: all.")
    ] = "",
    seats: Annotated[str, typer.Option(help="Seat counts drawn from (e.g. 2,2,3,6).")] = "",
    no_exploit: Annotated[
        bool, typer.Option("--no-exploit", help="Skip the exact 1v1 exploitability.")
    ] = False,
    ship: Annotated[
        bool, typer.Option("--ship", help="Copy the final weights into the package.")
    ] = False,
) -> None:
    """Train the learned policy by self-play (regret matching over learned action values)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        typer.echo("perudo train needs PyTorch (CPU build): pip install -e '.[train]'", err=True)
        raise typer.Exit(2) from None
    from .paths import has_module

    if not has_module("matplotlib"):
        typer.echo(
            "perudo train draws curves.png with matplotlib: pip install -e '.[train]' (or the "
            "plot extra)",
            err=True,
        )
        raise typer.Exit(2)
    if not no_exploit:
        try:
            import scipy.optimize  # type: ignore[import-untyped]  # noqa: F401
        except ImportError:
            # Without scipy's LP the 1v1 rounds would be solved by CFR to 1e-9: minutes of
            # silence before the first round is played.
            typer.echo(
                "perudo train measures the exact exploitability at each checkpoint with scipy's "
                "LP solver: pip install -e '.[research]', or add --no-exploit",
                err=True,
            )
            raise typer.Exit(2) from None
    from perudo.bots.learned_bot import WEIGHTS_DIR
    from perudo.core import find_ruleset
    from perudo.train import TrainConfig
    from perudo.train import train as run

    names = tuple(x.strip() for x in rules.split(",") if x.strip())
    for name in names:
        if name != "joker":
            try:
                find_ruleset(name)
            except ValueError as err:
                raise typer.BadParameter(str(err), param_hint="--rules") from None
    try:
        seat_list = tuple(int(x) for x in seats.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(
            "seat counts are whole numbers, e.g. 2,3,6", param_hint="--seats"
        ) from None
    if any(not 2 <= s <= 10 for s in seat_list):
        raise typer.BadParameter("seat counts are 2 to 10", param_hint="--seats")
    kwargs = {"seats": seat_list} if seat_list else {}
    config = TrainConfig(
        seed=seed,
        rounds=rounds,
        minutes=minutes,
        hidden=hidden,
        eval_every=eval_every,
        eval_rounds=eval_rounds,
        rule_sets=names,
        exploit=not no_exploit,
        **kwargs,  # type: ignore[arg-type]
    )
    run(config, out, progress=lambda line: typer.echo(line))
    if ship:
        for suffix in (".npz", ".json"):
            shutil.copyfile(out / f"learned{suffix}", WEIGHTS_DIR / f"learned{suffix}")
        typer.echo(f"shipped into {WEIGHTS_DIR}")


def register(app: typer.Typer) -> None:
    """Add ``train`` to the ``perudo`` command."""
    app.command(name="train")(train)
