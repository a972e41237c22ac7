"""The web app: play Perudo with friends and bots in the browser (``perudo serve``).

:func:`create_app` builds the ASGI app from :class:`Settings`; :mod:`.store` keeps every game
as an append-only action log; :mod:`.tables` runs one serialized worker per table;
:mod:`.protocol` holds the wire messages; ``static/`` is the page (HTML, CSS and JS, no build).
The server decides no rule: actions go through :mod:`perudo.core`, and clients receive only
seat views and audience-filtered events (docs/rules.md P-70).

The names below are imported on first use, so that ``perudo --help`` (which imports
:mod:`perudo.server.cli`) does not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, serve
    from .settings import Settings

__all__ = ["Settings", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in ("create_app", "serve"):
        from . import app

        return getattr(app, name)
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(f"module 'perudo.server' has no attribute {name!r}")
