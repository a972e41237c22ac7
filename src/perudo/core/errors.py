"""The core's errors: both are :class:`ValueError` subclasses, as python-chess does."""

from __future__ import annotations

__all__ = ["IllegalActionError", "NotationError", "PerudoError"]


class PerudoError(Exception):
    """Base class of every error the rules core raises."""


class IllegalActionError(PerudoError, ValueError):
    """An action that the rules do not allow now; the message names the rule (``P-12`` …).

    The state the action was tried on is unchanged (states are immutable).
    """


class NotationError(PerudoError, ValueError):
    """Text or JSON that does not parse as a bid, an action or a game record."""
