"""What one seat may know (P-70): the only door hidden information leaves by.

:func:`view` builds a :class:`PlayerView` from a state: the seat's own hidden dice, every
public action, every revealed hand, dice set aside face up, dice counts, and the seat's legal
actions; nothing else. Bots, the terminal and network clients get views (and events filtered
by :func:`~perudo.core.events.visible_to`), never a :class:`GameState`.

``view(state, None)`` is the spectators' view: no hidden dice at all.

Memory mode (P-40) is drawn here too, for every display alike: ``view(state, seat,
memory=True)`` is the view a display of a memory-mode table shows. Its JSON has no other
seat's count (``None`` while the seat has dice, :attr:`PlayerView.counts_seen`), nothing that
tells the total of dice in play, and no story of the rounds before the latest (their dice lost
and openers would tell every count; the Italian text: lost dice go into a bag unseen, and good
players remember). The bids offered run to the dice at the start of the game (the core still
refuses one above the dice in play, P-16, and :func:`refusal_seen` says so without the count);
an event's JSON goes through :func:`event_seen`. The rules never depend on it: the view's
:attr:`~PlayerView.dice_counts` stay the counts (P-3: they are public; a display hides them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from operator import is_
from typing import Any

from .actions import Bid, PlayerAction, SetAside, action_to_json, parse_action
from .bidding import raises_after, wild_active
from .engine import _set_aside_base_error, _set_asides, legal_actions
from .errors import Params
from .events import Reveal, RoundResolved, event_to_json
from .rules import RuleSet
from .state import GameState, Phase, RoundRecord

__all__ = [
    "PlayerView",
    "event_seen",
    "legal_json",
    "legal_texts",
    "refusal_seen",
    "round_to_json",
    "view",
    "view_from_json",
    "views_json",
]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A seat's knowledge of the game (P-70). JSON-ready through :meth:`to_json`."""

    seat: int | None
    """Whose view this is (``None``: a spectator)."""
    rules: RuleSet
    phase: Phase
    round: int
    opener: int
    to_act: int | None
    dice_counts: tuple[int, ...]
    """Dice per seat (P-3; a display may hide them in memory mode, P-40)."""
    hand: tuple[int, ...]
    """This seat's hidden dice (empty for a spectator, and before the deal)."""
    shown: tuple[tuple[int, ...], ...]
    """Dice set aside face up this round, per seat (V-9)."""
    palifico: bool
    palifico_used: tuple[bool, ...]
    bid: Bid | None
    bidder: int | None
    passer: int | None
    must_raise: bool
    actions: tuple[tuple[int, PlayerAction], ...]
    """This round's public actions, in order."""
    past: tuple[RoundRecord, ...]
    """Finished rounds with what was revealed (P-21: hands kept hidden stay hidden). In memory
    mode (P-40) only the latest: the story of every round (each die lost, and who opened
    next: the loser, P-22) would tell every count without anyone remembering."""
    winner: int | None
    rolloff: tuple[tuple[int, ...], ...]
    legal: tuple[PlayerAction, ...]
    """What this seat may do now (out of turn: calza, where P-50 allows it). In memory mode
    the bids run to the dice at the start of the game (P-40)."""
    memory: bool = False
    """Drawn for a display of a memory-mode table (P-40): it shows :attr:`counts_seen` and
    :attr:`total_seen`, never :attr:`dice_counts`."""

    @property
    def num_players(self) -> int:
        return len(self.dice_counts)

    @property
    def total_dice(self) -> int:
        """Dice in play (P-16)."""
        return sum(self.dice_counts)

    @property
    def counts_seen(self) -> tuple[int | None, ...]:
        """The dice counts a display shows: in memory mode (P-40) another seat's count is
        ``None`` while it has dice (a seat that is out shows 0); otherwise the counts."""
        if not self.memory:
            return self.dice_counts
        return tuple(_counts_seen(self.dice_counts, self.seat))

    @property
    def total_seen(self) -> int | None:
        """The dice in play a display shows: ``None`` in memory mode (P-40; with two players
        left it would tell the other's count)."""
        return None if self.memory else self.total_dice

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act

    def to_json(self, *, past: bool = True) -> dict[str, Any]:
        """A JSON-ready dict (strings for actions, lists for dice).

        ``past=False`` leaves out what a stream of views (the server's updates, a replay's
        frames) sends once: the finished rounds (the ``past`` key: they only grow), the rule
        set (``rules``) and the roll-off for the first opener (``rolloff``, P-2), which never
        change during a game.

        Each action also comes structured (:func:`~perudo.core.actions.action_to_json`) beside
        its notation: ``bid_info``, ``actions_info``; and ``wild`` names the face wild this
        round (P-15, P-31, V-2; ``None``: none). A display reads those and parses no notation.
        What the seat may do, ``legal``, comes compactly (:func:`legal_json`: the bids as runs
        of quantities per face, the other actions structured): a display reads it and decides
        no rule.
        """
        (
            rules,
            phase,
            dice_counts,
            shown,
            palifico_used,
            bid,
            bid_info,
            wild,
            actions,
            actions_info,
            rolloff,
        ) = _public_json(self)
        data: dict[str, Any] = {"seat": self.seat}
        if past:
            data["rules"] = dict(rules)
        data |= {
            "phase": phase,
            "round": self.round,
            "opener": self.opener,
            "to_act": self.to_act,
            "dice_counts": _counts_seen(self.dice_counts, self.seat)
            if self.memory
            else list(dice_counts),
            "hand": list(self.hand),
            "shown": list(shown),
            "palifico": self.palifico,
            "palifico_used": list(palifico_used),
            "bid": bid,
            "bid_info": bid_info,
            "wild": wild,
            "bidder": self.bidder,
            "passer": self.passer,
            "must_raise": self.must_raise,
            "actions": list(actions),
            "actions_info": list(actions_info),
        }
        if past:
            data["past"] = [round_to_json(r) for r in self.past]
        data["winner"] = self.winner
        if past:
            data["rolloff"] = list(rolloff)
        data["legal"] = legal_json(self.legal)
        return data


_Public = tuple[
    dict[str, Any],
    str,
    list[int],
    list[list[int]],
    list[bool],
    str | None,
    dict[str, object] | None,
    int | None,
    list[list[object]],
    list[dict[str, object]],
    list[list[int]],
]


def _public_json(v: PlayerView) -> _Public:
    """The parts of :meth:`PlayerView.to_json` that every seat's view of one state has alike
    (the rules, the counts, this round's actions…: nothing of a hand or of what a seat may
    do). A server draws every seat's view after each move: the last state's parts are kept
    and found by the identity of the view's fields (the views of one state share the state's
    own tuples and objects); anything else is built afresh (equal is not enough:
    ``3 == 3.0``). Handed out as shared lists: :meth:`~PlayerView.to_json` copies them
    (treat their entries as read-only)."""
    key = (
        v.rules,
        v.phase,
        v.round,
        v.opener,
        v.to_act,
        v.dice_counts,
        v.shown,
        v.palifico,
        v.palifico_used,
        v.bid,
        v.bidder,
        v.passer,
        v.must_raise,
        v.actions,
        v.winner,
        v.rolloff,
    )
    last = _LAST_PUBLIC[0] if _LAST_PUBLIC else None
    if last is not None and all(map(is_, last[0], key)):
        return last[1]
    pairs, infos = _actions_json(v.actions)
    public: _Public = (
        v.rules.to_dict(),
        v.phase.value,
        list(v.dice_counts),
        [list(s) for s in v.shown],
        list(v.palifico_used),
        None if v.bid is None else str(v.bid),
        None if v.bid is None else action_to_json(v.bid),
        wild_active(v.rules, v.palifico),
        pairs,
        infos,
        [list(t) for t in v.rolloff],
    )
    _LAST_PUBLIC[:] = [(key, public)]
    return public


_LAST_PUBLIC: list[tuple[tuple[object, ...], _Public]] = []
"""The last state's fields and its parts."""


def _actions_json(
    actions: tuple[tuple[int, PlayerAction], ...],
) -> tuple[list[list[object]], list[dict[str, object]]]:
    """A round's actions as views and finished rounds send them: ``actions`` (seat and
    notation) and ``actions_info`` (each structured)."""
    return [[s, str(a)] for s, a in actions], [action_to_json(a) for _, a in actions]


def round_to_json(record: RoundRecord) -> dict[str, Any]:
    """A finished round as a JSON-ready dict (public information only)."""
    actions, actions_info = _actions_json(record.actions)
    return {
        "round": record.round,
        "opener": record.opener,
        "palifico": record.palifico,
        "actions": actions,
        "actions_info": actions_info,
        "shown": [list(s) for s in record.shown],
        "result": event_to_json(record.result),
    }


def _counts_seen(counts: tuple[int, ...], seat: int | None) -> list[int | None]:
    """P-40: the seat's own count; another's only when it is out (0)."""
    return [c if (i == seat or c == 0) else None for i, c in enumerate(counts)]


def view(state: GameState, seat: int | None, *, memory: bool = False) -> PlayerView:
    """What ``seat`` may know now (P-70); ``None`` gives the spectators' view.

    ``memory``: the view a display of a memory-mode table shows (P-40; see the module's
    docstring).

    :raises ValueError: for a seat that is not at the table.
    """
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players
    ):
        raise ValueError(f"there is no seat {seat!r} at this {state.num_players}-seat table")
    return PlayerView(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        round=state.round,
        opener=state.opener,
        to_act=state.to_act,
        dice_counts=state.dice_counts,
        hand=() if seat is None else state.hands[seat],
        shown=state.shown,
        palifico=state.palifico,
        palifico_used=state.palifico_used,
        bid=state.bid,
        bidder=state.bidder,
        passer=state.passer,
        must_raise=state.must_raise,
        actions=state.actions,
        past=state.past[-1:] if memory else state.past,
        winner=state.winner,
        rolloff=state.rolloff,
        legal=() if seat is None else _legal_of(state, seat, memory),
        memory=memory,
    )


def _legal_of(state: GameState, seat: int, memory: bool = False) -> tuple[PlayerAction, ...]:
    """A seat's legal actions as its view lists them (:meth:`LegalActions.as_tuple`: one tuple
    per distinct list). In memory mode (P-40) the seat to bid is offered the bids up to the
    dice at the start of the game, not to the dice in play: the highest quantity offered (or
    no raise offered at all, when the standing bid names every die in play) would tell the
    total; and the dice it may set aside before raising (V-9) as if those bids were there.
    The core still refuses a bid above the dice in play (P-16), in words that state no count
    (:func:`refusal_seen`)."""
    legal = legal_actions(state, seat).as_tuple()
    if not (memory and state.phase is Phase.BIDDING and state.to_act == seat):
        return legal
    bids = _memory_bids(
        state.rules, state.num_players, state.bid, state.palifico, state.dice_counts[seat] == 1
    )
    rest = [a for a in legal if not isinstance(a, Bid)]
    if (
        state.rules.set_aside
        and not state.must_raise
        and not any(isinstance(a, SetAside) for a in rest)
        and _set_aside_base_error(state, seat, bool(bids)) is None
    ):
        rest.extend(_set_asides(state.hands[seat]))
    return (*bids, *rest)


@lru_cache(maxsize=1024)
def _memory_bids(
    rules: RuleSet, players: int, bid: Bid | None, palifico: bool, one_die: bool
) -> tuple[Bid, ...]:
    """The bids after ``bid`` up to every seat's dice at the start of the game (P-40)."""
    start_total = rules.dice_per_player * players
    bids, start = raises_after(rules, bid, start_total, palifico=palifico, one_die=one_die)
    return tuple(bids[start:])


_COUNT_PARAMS: dict[str, tuple[tuple[str, ...], str]] = {
    "bid.too_many": (
        ("total",),
        "the bid claims more dice than are in play (P-16; memory mode hides how many, P-40)",
    ),
}
"""The refusals whose parameters tell how many dice are in play (P-16): for each code, those
parameters and the developer message said in their place in memory mode (P-40)."""


def refusal_seen(
    code: str, params: Mapping[str, object], message: str, *, memory: bool
) -> tuple[Params, str]:
    """A refusal's ``params`` and developer ``message`` as a seat's display says them: in
    memory mode (P-40) without the parameters that tell how many dice are in play, and with a
    message that states none; else as they are.

    >>> params, message = refusal_seen(
    ...     "bid.too_many", {"bid": [9, 6], "total": 8}, "…the 8 in play", memory=True
    ... )
    >>> params, "8" in message
    ({'bid': [9, 6]}, False)
    """
    hidden = _COUNT_PARAMS.get(code) if memory else None
    if hidden is None:
        return dict(params), message
    names, said = hidden
    return {k: v for k, v in params.items() if k not in names}, said


def event_seen(data: dict[str, Any], seat: int | None, *, memory: bool) -> dict[str, Any]:
    """An event's JSON (:func:`~perudo.core.events.event_to_json`) as ``seat``'s display shows
    it: in memory mode (P-40) a round's start tells only the seat's own count (and who is
    out). Any other event is ``data`` itself (shared: treat it as read-only)."""
    if memory and data.get("type") == "round_started":
        return {**data, "dice_counts": _counts_seen(tuple(data["dice_counts"]), seat)}
    return data


def views_json(
    state: GameState, seats: Iterable[int | None], *, past: bool = True, memory: bool = False
) -> list[dict[str, Any]]:
    """``[view(state, seat, memory=memory).to_json(past=past) for seat in seats]``, drawn at
    once (a server draws every seat's view after each move).

    A seat's view is the spectators' view with its own seat, its own dice and what it may do
    (P-70: the fields :func:`view` fills from the seat): the spectators' dict is drawn once,
    and each seat's is a copy of it with those. So the dicts share their other lists and
    nested dicts: treat them as read-only (replace a key rather than change its value in
    place).

    :raises ValueError: for a seat that is not at the table.
    """
    spectators = view(state, None, memory=memory).to_json(past=past)
    out: list[dict[str, Any]] = []
    for seat in seats:
        if seat is None:
            out.append(spectators)
            continue
        # The seat's own fields, as view(state, seat) has them (tests/core/test_properties.py
        # compares the two over random games of every preset).
        legal = _legal_of(state, seat, memory)
        data = {**spectators, "seat": seat, "hand": list(state.hands[seat])}
        if memory:
            data["dice_counts"] = _counts_seen(state.dice_counts, seat)
        if legal:
            data["legal"] = legal_json(legal)
        out.append(data)
    return out


def legal_json(legal: tuple[PlayerAction, ...]) -> dict[str, list[Any]]:
    """A list of legal actions as :meth:`PlayerView.to_json` sends it, compactly:

    * ``bids``: the bids as ``[face, lowest, highest]`` runs, each every quantity from
      ``lowest`` to ``highest`` on that face, by face then quantity (the legal quantities of a
      face are one run in every rule set of RULES.md, P-12…P-16, V-1, V-3: two numbers, not a
      list of 150 bids and more; a face whose quantities were not would take a run each);
    * ``actions``: every other action, structured (:func:`~perudo.core.actions.action_to_json`,
      its notation as ``text``), in the view's order.

    A bid's notation is ``{quantity}x{face}`` (what a client sends back to bid);
    :func:`legal_texts` lists every notation. A pure function of the list, built once per
    distinct list (a bounded cache; a list :func:`view` gave is found by its identity first,
    :meth:`~perudo.core.engine.LegalActions.as_tuple`: the same list is the same tuple) and
    handed out as a fresh dict of fresh lists of shared entries (treat the entries as
    read-only).

    >>> legal_json((Bid(3, 5), Bid(4, 5), Bid(2, 1), Bid(3, 1), Bid(3, 6), Bid(4, 6)))
    {'bids': [[1, 2, 3], [5, 3, 4], [6, 3, 4]], 'actions': []}
    """
    kept = _BY_IDENTITY.get(id(legal))
    if kept is not None and kept[0] is legal:
        bids, actions = kept[1]
    else:
        bids, actions = _legal_json(legal)
        if len(_BY_IDENTITY) >= 1024:
            _BY_IDENTITY.clear()
        _BY_IDENTITY[id(legal)] = (legal, (bids, actions))
    return {"bids": list(bids), "actions": list(actions)}


_Legal = tuple[tuple[list[int], ...], tuple[dict[str, object], ...]]

_BY_IDENTITY: dict[int, tuple[tuple[PlayerAction, ...], _Legal]] = {}
""":func:`legal_json`'s parts by the identity of the tuple (kept alive beside them)."""


@lru_cache(maxsize=1024)
def _legal_json(legal: tuple[PlayerAction, ...]) -> _Legal:
    by_face: dict[int, list[int]] = {}
    actions = []
    for a in legal:
        if isinstance(a, Bid):
            by_face.setdefault(a.face, []).append(a.quantity)
        else:
            actions.append(action_to_json(a))
    runs: list[list[int]] = []
    for face in sorted(by_face):
        quantities = sorted(by_face[face])
        low = high = quantities[0]
        for q in quantities[1:]:
            if q != high + 1:
                runs.append([face, low, high])
                low = q
            high = q
        runs.append([face, low, high])
    return tuple(runs), tuple(actions)


def legal_texts(legal: Mapping[str, Any]) -> list[str]:
    """The notation of every action a view's JSON ``legal`` (:func:`legal_json`) offers: the
    bids by face then quantity, then the other actions.

    >>> legal_texts({"bids": [[2, 3, 4], [5, 3, 3]], "actions": [{"kind": "dudo", "text": "dudo"}]})
    ['3x2', '4x2', '3x5', 'dudo']
    """
    texts = [f"{q}x{face}" for face, low, high in legal["bids"] for q in range(low, high + 1)]
    return texts + [str(a["text"]) for a in legal["actions"]]


def view_from_json(data: Mapping[str, Any]) -> PlayerView:
    """The :class:`PlayerView` a whole view's JSON (:meth:`PlayerView.to_json` with ``past``:
    a snapshot's ``view``) was drawn from: what a client at the far end of a socket gives a
    bot, so that it sees there what it sees in the arena. ``legal`` comes in the order
    :func:`legal_texts` lists it (bids by face then quantity, then the other actions).

    >>> from perudo.core import PERUDO, start_game, apply, Deal
    >>> state, _ = apply(start_game(PERUDO, 2, [[6, 2]]), Deal(((1, 2, 3, 4, 5), (6,) * 5)))
    >>> seen = view_from_json(view(state, 0).to_json())
    >>> seen.hand, seen.to_act, seen.legal[:2]
    ((1, 2, 3, 4, 5), 0, (Bid(1, 2), Bid(2, 2)))

    :raises ValueError: for JSON that is not a whole view (naming what is missing or wrong),
        or a memory-mode view (P-40: other seats' counts are not in it, and a view has them).
    """
    try:
        counts = data["dice_counts"]
        if any(c is None for c in counts):
            raise ValueError(
                "a memory-mode view (P-40) leaves other seats' dice counts out: it is no "
                "PlayerView (read its JSON instead)"
            )
        return PlayerView(
            seat=data["seat"],
            rules=RuleSet.from_dict(data["rules"]),
            phase=Phase(data["phase"]),
            round=int(data["round"]),
            opener=int(data["opener"]),
            to_act=data["to_act"],
            dice_counts=tuple(int(c) for c in counts),
            hand=tuple(data["hand"]),
            shown=tuple(tuple(s) for s in data["shown"]),
            palifico=bool(data["palifico"]),
            palifico_used=tuple(bool(u) for u in data["palifico_used"]),
            bid=None if data["bid"] is None else Bid.parse(data["bid"]),
            bidder=data["bidder"],
            passer=data["passer"],
            must_raise=bool(data["must_raise"]),
            actions=_actions_from_json(data["actions"]),
            past=tuple(_round_from_json(r) for r in data["past"]),
            winner=data["winner"],
            rolloff=tuple(tuple(r) for r in data["rolloff"]),
            legal=tuple(_player_action(t) for t in legal_texts(data["legal"])),
        )
    except KeyError as err:
        raise ValueError(
            f"not a whole view: {err.args[0]!r} is missing (an update's view leaves out "
            "past, rules and rolloff: carry them over from the snapshot)"
        ) from None
    except (TypeError, AttributeError) as err:
        raise ValueError(f"not a view: {err}") from None


def _player_action(text: str) -> PlayerAction:
    action = parse_action(text)
    if not isinstance(action, PlayerAction):
        raise ValueError(f"{text!r} is a chance move, not a seat's action")
    return action


def _actions_from_json(actions: Iterable[Any]) -> tuple[tuple[int, PlayerAction], ...]:
    return tuple((int(seat), _player_action(text)) for seat, text in actions)


def _round_from_json(data: Mapping[str, Any]) -> RoundRecord:
    """A finished round from :func:`round_to_json`."""
    r = data["result"]
    return RoundRecord(
        round=int(data["round"]),
        opener=int(data["opener"]),
        palifico=bool(data["palifico"]),
        actions=_actions_from_json(data["actions"]),
        shown=tuple(tuple(s) for s in data["shown"]),
        result=RoundResolved(
            kind=r["kind"],
            caller=r["caller"],
            target=r["target"],
            bid=None if r["bid"] is None else Bid.parse(r["bid"]),
            reveals=tuple(Reveal(v["seat"], tuple(v["hand"]), v["count"]) for v in r["reveals"]),
            hidden=tuple(r["hidden"]),
            count=r["count"],
            holds=r["holds"],
            changes=tuple((a, b) for a, b in r["changes"]),
            eliminated=tuple(r["eliminated"]),
            next_opener=r["next_opener"],
            palifico=r["palifico"],
        ),
    )
