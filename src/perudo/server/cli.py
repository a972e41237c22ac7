"""``perudo serve``, ``perudo bench-load``, ``perudo bench-abuse``: registered on the typer app
by :func:`register`.

Heavy imports (FastAPI, uvicorn, SQLAlchemy) happen inside the commands.
"""

from __future__ import annotations

from typing import Any

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the web app's commands to ``app``."""

    @app.command()
    def serve(
        host: str = typer.Option(
            None, help="Address to listen on (default PERUDO_HOST or 127.0.0.1)."
        ),
        port: int = typer.Option(None, help="Port (default PERUDO_PORT or 8000)."),
        database_url: str = typer.Option(
            None,
            help="SQLAlchemy async URL (default PERUDO_DATABASE_URL or an SQLite file in ./data/).",
        ),
        public: bool = typer.Option(
            False,
            "--public",
            help="Let friends on other machines in: listen on every network address (0.0.0.0) "
            "and print each address and a QR code of the lobby.",
        ),
        public_url: str = typer.Option(
            None,
            help="The address friends open, which invite links are built on "
            "(default PERUDO_PUBLIC_URL; with --public, the machine's first network address).",
        ),
    ) -> None:
        """Start the web app: play Perudo with friends and bots in the browser."""
        from pydantic import ValidationError

        from .app import serve as run
        from .hosting import PUBLIC_HOST
        from .settings import Settings

        if public and host is None:
            host = PUBLIC_HOST
        given = {"host": host, "port": port, "database_url": database_url, "public_url": public_url}
        overrides: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        try:
            settings = Settings(**overrides)
        except ValidationError as err:
            # A setting's mistake is the user's: say which and why, without a traceback.
            for e in err.errors():
                name = "PERUDO_" + "_".join(str(x) for x in e["loc"]).upper()
                typer.echo(f"perudo serve: {name}: {e['msg']}", err=True)
            raise typer.Exit(2) from None
        run(settings)

    @app.command("bench-load")
    def bench_load(
        tables: int = typer.Option(100, help="Concurrent 6-seat tables (at most 500)."),
        seconds: float = typer.Option(20.0, help="Measured time in seconds (at most 300)."),
        think: float = typer.Option(0.5, help="Each client bot's mean pause before acting (s)."),
        url: str = typer.Option(
            None,
            help="A running server to load (default: start one); it must lift its limits per "
            "client, every client here coming from one address (docs/scaling.md).",
        ),
        signed_in: bool = typer.Option(
            False,
            "--signed-in",
            help="Every player signs up first and plays with their session's cookie "
            "(their seats and budgets are their accounts').",
        ),
    ) -> None:
        """Load benchmark: tables of bots playing as real WebSocket clients on loopback."""
        from .loadbench import ServerRefused, main

        try:
            main(tables=tables, seconds=seconds, think=think, url=url, signed_in=signed_in)
        except ServerRefused as err:
            typer.echo(f"perudo bench-load: {err}", err=True)
            raise typer.Exit(1) from None

    @app.command("bench-abuse")
    def bench_abuse(
        seconds: float = typer.Option(8.0, help="Seconds each attack lasts (at most 60)."),
        attack: list[str] = typer.Option(  # noqa: B008 (typer reads it, never mutates it)
            None,
            help="Run only this attack after the baseline (repeatable): chat crowd, "
            "same-address chat, "
            "spectator crowd, table flood, slow headers, message flood, sign-in stuffing, "
            "sign-in spread.",
        ),
    ) -> None:
        """Abuse benchmark: issue 14's attacks on a fresh server on loopback, each while a
        player plays; prints the player's latency under each (docs/security.md)."""
        from .abusebench import main

        try:
            main(seconds=seconds, only=attack or None)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--attack") from None
