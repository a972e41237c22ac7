"""The ``perudo`` command line (typer): play, replay, arena, bench."""
