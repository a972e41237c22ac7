"""The ``perudo`` command: one typer app; each command lives in its own module.

The command modules are imported inside the commands so that ``perudo --help`` stays fast.
``perudo --version`` prints the version. A flag (``--ascii``, ``--memory``) is listed in the
help as a flag, with no ``<bool>`` value after it (typer's rich help would print one).
"""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperOption

from perudo import __version__


def _flag_type(self: TyperOption, ctx: object) -> str | None:
    """An option's value type for the help, or nothing for a flag: ``--ascii``, not
    ``--ascii <bool>`` (a flag takes no value)."""
    if self.is_flag:
        return None
    return _OPTION_TYPE(self, ctx)  # type: ignore[arg-type]


_OPTION_TYPE = TyperOption.display_type_rich
TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign]

app = typer.Typer(
    help="Perudo (Dudo, Liar's Dice, Bluff): play, pit bots against each other, benchmark.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"perudo {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Perudo (Dudo, Liar's Dice, Bluff): play, pit bots against each other, benchmark."""


@app.command()
def bench(
    seconds: float = typer.Option(2.0, min=0.01, help="Time per figure, in seconds."),
) -> None:
    """Print random-playout throughput on one core (engine API and playout kernel)."""
    from perudo.bench.playouts import run

    run(seconds)


# Commands registered by their own modules: each module defines ``register(app)`` and keeps
# its heavy imports inside the command function. One import line and one call line each.
from perudo.cli.abstract import register as register_abstract  # noqa: E402
from perudo.cli.analyze import register as register_analyze  # noqa: E402
from perudo.cli.arena import register as register_arena  # noqa: E402
from perudo.cli.play import register as register_play  # noqa: E402
from perudo.cli.replay import register as register_replay  # noqa: E402
from perudo.cli.solve import register as register_solve  # noqa: E402
from perudo.cli.train import register as register_train  # noqa: E402
from perudo.server.cli import register as register_server  # noqa: E402

register_server(app)
register_play(app)
register_replay(app)
register_analyze(app)
register_arena(app)
register_solve(app)
register_train(app)
register_abstract(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
