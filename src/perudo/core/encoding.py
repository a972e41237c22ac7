"""A dense integer encoding of the player actions, shared by the research adapters and solvers.

Reinforcement-learning libraries (PettingZoo, Gymnasium, OpenSpiel) and the exact solver want
actions as integers ``0 … num_actions − 1`` with a boolean mask of the legal ones. This module
fixes that numbering once per ``(rules, num_players)``; it decides no rule: the mask is built
from :func:`perudo.core.legal_actions` (or a view's ``legal``), never re-derived.

Layout (``E = encoding(rules, n)``, ``T = n × rules.dice_per_player`` the most dice ever in
play, ``F = rules.faces``, ``D = rules.dice_per_player``):

==========================  =========================================================
ids                         action
==========================  =========================================================
``0 … T·F − 1``             ``Bid(q, f)`` for ``1 ≤ q ≤ T``, every face, in the rank order
                            of the normal round at ``T`` dice:
                            ``bid_table(rules, T).bids`` (P-12…P-14, V-1, V-3). A bid's id
                            never changes from round to round; the bids of a round with
                            fewer dice are a subset (P-16).
``T·F``                     ``Dudo()``
``T·F + 1``                 ``Calza()``
``T·F + 2``                 ``Pass()`` (V-10)
``T·F + 3``                 ``ChoosePalifico(True)`` (P-34: a palifico round)
``T·F + 4``                 ``ChoosePalifico(False)`` (P-34: a normal round)
``T·F + 5 …``               ``SetAside(dice)`` (V-9), one id per multiset of 1 … ``D − 1``
                            faces: by size, then lexicographically (``(1,)``, ``(2,)``, …,
                            ``(1, 1)``, ``(1, 2)``, …)
==========================  =========================================================

Every block is present whatever the switches (a rule set without calza simply never has the
calza id legal), so the layout depends only on ``T``, ``F``, ``D`` and the bid order.

In a palifico round aces rank lowest (P-33), so the round's order differs from the id order:
ids stay the normal-order ids, and which bids are legal comes from the core, as always.

>>> from perudo.core.rules import PERUDO
>>> from perudo.core.actions import Bid, Dudo
>>> enc = encoding(PERUDO, 2)
>>> enc.num_bids, enc.dudo, enc.num_actions
(60, 60, 274)
>>> enc.action_to_id(Bid(1, 2)), enc.id_to_action(0)
(0, Bid(1, 2))
>>> enc.id_to_action(enc.action_to_id(Bid(3, 1)))
Bid(3, 1)
>>> enc.id_to_action(60)
Dudo()
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from functools import cache

from .actions import (
    CALZA,
    DUDO,
    PASS,
    Bid,
    ChoosePalifico,
    PlayerAction,
    SetAside,
)
from .bidding import bid_table
from .engine import _check_players, legal_actions
from .rules import RuleSet
from .state import GameState
from .views import PlayerView

__all__ = [
    "ActionEncoding",
    "action_to_id",
    "encoding",
    "id_to_action",
    "legal_ids",
    "legal_mask",
    "num_actions",
]


class ActionEncoding:
    """The dense action numbering of one rule set and table size (see the module docstring).

    Build it with :func:`encoding` (cached); it is immutable after construction.
    """

    __slots__ = (
        "_actions",
        "_ids",
        "bids",
        "calza",
        "dudo",
        "max_dice",
        "normal",
        "num_actions",
        "num_bids",
        "num_players",
        "palifico",
        "pass_",
        "rules",
        "set_aside_start",
        "set_asides",
    )

    def __init__(self, rules: RuleSet, num_players: int) -> None:
        _check_players(rules, num_players)
        self.rules = rules
        """The rule set."""
        self.num_players = num_players
        """Seats at the table."""
        self.max_dice = num_players * rules.dice_per_player
        """``T``: the most dice ever in play (P-16 bounds every bid's quantity by it)."""
        self.bids: tuple[Bid, ...] = bid_table(rules, self.max_dice).bids
        """Every bid, in id order (the normal round's rank order at ``T`` dice)."""
        self.num_bids = len(self.bids)
        """``T × F``: bids take ids ``0 … num_bids − 1``."""
        self.dudo = self.num_bids
        """The id of ``Dudo()``."""
        self.calza = self.num_bids + 1
        """The id of ``Calza()``."""
        self.pass_ = self.num_bids + 2
        """The id of ``Pass()`` (V-10)."""
        self.palifico = self.num_bids + 3
        """The id of ``ChoosePalifico(True)`` (P-34)."""
        self.normal = self.num_bids + 4
        """The id of ``ChoosePalifico(False)`` (P-34)."""
        self.set_aside_start = self.num_bids + 5
        """The first set-aside id (V-9)."""
        faces = range(1, rules.faces + 1)
        self.set_asides: tuple[tuple[int, ...], ...] = tuple(
            combo
            for size in range(1, rules.dice_per_player)
            for combo in itertools.combinations_with_replacement(faces, size)
        )
        """The dice of each set-aside id, in id order (sizes 1 … ``D − 1``)."""
        self.num_actions = self.set_aside_start + len(self.set_asides)
        """How many ids there are."""
        actions: list[PlayerAction] = [
            *self.bids,
            DUDO,
            CALZA,
            PASS,
            ChoosePalifico(True),
            ChoosePalifico(False),
        ]
        actions.extend(SetAside(d) for d in self.set_asides)
        self._actions: tuple[PlayerAction, ...] = tuple(actions)
        self._ids: dict[PlayerAction, int] = {a: i for i, a in enumerate(self._actions)}

    def action_to_id(self, action: PlayerAction) -> int:
        """The id of ``action``.

        :raises ValueError: for an action outside this table (a quantity above ``T``, P-16;
            a face the die lacks; a set-aside of ``D`` dice or more, V-9; a chance action).
        """
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            pass
        if isinstance(action, Bid):
            raise ValueError(
                f"{action} is outside the action space: quantities go up to the "
                f"{self.max_dice} dice of a {self.num_players}-seat table (P-16) and faces "
                f"up to {self.rules.faces} (V-12)"
            )
        if isinstance(action, SetAside):
            raise ValueError(
                f"{action} is outside the action space: a set-aside keeps at least one of "
                f"{self.rules.dice_per_player} dice hidden, with faces up to {self.rules.faces} "
                "(V-9)"
            )
        raise ValueError(f"{action!r} is not a player action with an id")

    def id_to_action(self, action_id: int) -> PlayerAction:
        """The action with id ``action_id``.

        :raises ValueError: for an id outside ``0 … num_actions − 1``.
        """
        try:
            index = operator.index(action_id)  # ints and numpy integers, not floats or bools
        except TypeError:
            index = -1
        if isinstance(action_id, bool) or not 0 <= index < self.num_actions:
            raise ValueError(
                f"action id {action_id!r} is not in 0…{self.num_actions - 1} "
                f"({self.rules}, {self.num_players} players)"
            )
        return self._actions[index]

    def ids(self, actions: Sequence[PlayerAction]) -> list[int]:
        """The ids of ``actions``, in the same order."""
        table = self._ids
        return [table[a] for a in actions]

    def mask(self, actions: Sequence[PlayerAction]) -> list[bool]:
        """A ``num_actions`` list of bools, true exactly at the ids of ``actions``."""
        out = [False] * self.num_actions
        table = self._ids
        for a in actions:
            out[table[a]] = True
        return out

    def __repr__(self) -> str:
        return (
            f"<ActionEncoding {self.rules} {self.num_players} players: "
            f"{self.num_actions} ids, dudo={self.dudo}>"
        )


@cache
def encoding(rules: RuleSet, num_players: int) -> ActionEncoding:
    """The shared :class:`ActionEncoding` for ``rules`` at a table of ``num_players``.

    :raises ValueError: on a player count the rules do not allow (P-1).
    """
    return ActionEncoding(rules, num_players)


def num_actions(rules: RuleSet, num_players: int) -> int:
    """How many action ids there are for ``rules`` with ``num_players`` seats."""
    return encoding(rules, num_players).num_actions


def action_to_id(rules: RuleSet, num_players: int, action: PlayerAction) -> int:
    """The id of ``action`` (see the module docstring for the layout)."""
    return encoding(rules, num_players).action_to_id(action)


def id_to_action(rules: RuleSet, num_players: int, action_id: int) -> PlayerAction:
    """The action with id ``action_id``."""
    return encoding(rules, num_players).id_to_action(action_id)


def _legal(source: GameState | PlayerView, seat: int | None) -> Sequence[PlayerAction]:
    if isinstance(source, PlayerView):
        if seat is not None and seat != source.seat:
            raise ValueError(
                f"this is seat {source.seat}'s view; it holds no legal actions for seat {seat} "
                "(P-70)"
            )
        return source.legal
    return legal_actions(source, seat)


def legal_ids(source: GameState | PlayerView, seat: int | None = None) -> list[int]:
    """The ids of the legal actions of ``seat`` (default: the seat to act; for a view, its
    own seat), in :func:`~perudo.core.legal_actions` order."""
    return encoding(source.rules, source.num_players).ids(_legal(source, seat))


def legal_mask(source: GameState | PlayerView, seat: int | None = None) -> list[bool]:
    """A ``num_actions`` list of bools: which ids ``seat`` may take now.

    ``source`` is a state (``seat`` defaults to the seat to act; another seat gets its
    out-of-turn actions, calza where P-50 allows it) or a seat's view (its ``legal``). All
    false while chance acts and after the game.
    """
    return encoding(source.rules, source.num_players).mask(_legal(source, seat))
