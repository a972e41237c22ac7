"""The core's errors: both are :class:`ValueError` subclasses, as python-chess does.

Every error the core raises carries, besides its English message (for the library's users and
for logs; it names the rule, ``P-12`` …), a stable :attr:`~PerudoError.code` and JSON-able
:attr:`~PerudoError.params`, so that a front end can say the same thing in the player's
language (:func:`perudo.i18n.refusal_text`). In ``params`` a seat is its index (the front end
turns it into a name), a bid is ``[quantity, face]``, and the rule set's wild face is given as
``wild`` wherever a face or a bid is named (so that face 1 is called "aces" only where it is
wild: in Bluff the wild face is 6).

>>> err = IllegalActionError("it is seat 2's turn, not seat 0's (P-11)",
...                          code="turn.not_yours", params={"seat": 0, "to_act": 2})
>>> str(err), err.code, err.params
("it is seat 2's turn, not seat 0's (P-11)", 'turn.not_yours', {'seat': 0, 'to_act': 2})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Self, TypeAlias

__all__ = ["IllegalActionError", "NotationError", "Params", "PerudoError", "Refusal"]

Params: TypeAlias = dict[str, object]
"""A refusal's parameters: JSON values only (ints, strings, ``None``, lists, nested dicts)."""


class PerudoError(Exception):
    """Base class of every error the rules core raises.

    ``str(err)`` is the English message; :attr:`code` and :attr:`params` say the same for a
    translation (see the module's docstring).
    """

    default_code: ClassVar[str] = "error"
    code: str
    params: Params

    def __init__(
        self, message: str, *, code: str | None = None, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code if code is not None else self.default_code
        self.params = dict(params) if params is not None else {}

    @classmethod
    def of(cls, refusal: Refusal) -> Self:
        """The error saying ``refusal``."""
        return cls(refusal.message, code=refusal.code, params=refusal.params)


class IllegalActionError(PerudoError, ValueError):
    """An action that the rules do not allow now; the message names the rule (``P-12`` …).

    The state the action was tried on is unchanged (states are immutable).
    """

    default_code = "illegal"


class NotationError(PerudoError, ValueError):
    """Text or JSON that does not parse as a bid, an action or a game record."""

    default_code = "notation"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why something is not allowed, before it is raised: the checks that only *say* why
    (:func:`perudo.core.bidding.bid_refusal`, the engine's calza / pass / set-aside checks)
    return one, and ``IllegalActionError.of(refusal)`` raises it."""

    code: str
    message: str
    params: Params = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message
