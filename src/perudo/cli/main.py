"""The ``perudo`` command: one typer app; each command lives in its own module.

The command modules are imported inside the commands so that ``perudo --help`` stays fast.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Perudo (Dudo, Liar's Dice, Bluff): play, pit bots against each other, benchmark.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """Perudo (Dudo, Liar's Dice, Bluff): play, pit bots against each other, benchmark."""


@app.command()
def bench(
    seconds: float = typer.Option(2.0, help="Time per figure, in seconds."),
) -> None:
    """Print random-playout throughput on one core (engine API and playout kernel)."""
    from perudo.bench.playouts import run

    run(seconds)


# Commands registered by their own modules: each module defines ``register(app)`` and keeps
# its heavy imports inside the command function. One import line and one call line each.
from perudo.cli.arena import register as register_arena  # noqa: E402
from perudo.cli.play import register as register_play  # noqa: E402
from perudo.cli.replay import register as register_replay  # noqa: E402
from perudo.cli.solve import register as register_solve  # noqa: E402
from perudo.server.cli import register as register_server  # noqa: E402

register_server(app)
register_play(app)
register_replay(app)
register_arena(app)
register_solve(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
