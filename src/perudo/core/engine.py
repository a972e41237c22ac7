"""The transitions: legal actions, legality checks with reasons, and :func:`apply`.

Everything here is pure: :func:`apply` returns a new :class:`GameState` and the events the
action produced, and never changes its input. An illegal action raises
:class:`IllegalActionError` naming the rule broken, so a caller's state stays as it was.
Challenges are settled in :mod:`perudo.core.resolve`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

from .actions import (
    CALZA,
    DUDO,
    PASS,
    Action,
    Bid,
    Calza,
    ChoosePalifico,
    Concede,
    Deal,
    Dudo,
    Pass,
    PlayerAction,
    Reroll,
    SetAside,
)
from .bidding import bid_refusal, is_raise, raises_after
from .errors import IllegalActionError, Refusal
from .events import ActionTaken, DiceDealt, DiceRerolled, Event, PalificoChosen, RoundStarted
from .resolve import next_seat, resolve_calza, resolve_concede, resolve_dudo, resolve_pass
from .rules import MAX_FACES, RuleSet
from .state import NO_BID_YET, GameState, Phase

# Phase's members as module globals: CPython 3.11 reads an Enum member off its class several
# times slower than a global, and the engine compares phases on every move.
_BIDDING, _CHOOSE_PALIFICO, _DEAL, _GAME_OVER, _REROLL = (
    Phase.BIDDING,
    Phase.CHOOSE_PALIFICO,
    Phase.DEAL,
    Phase.GAME_OVER,
    Phase.REROLL,
)

__all__ = [
    "LegalActions",
    "answers",
    "apply",
    "calza_callers",
    "check_action",
    "is_legal",
    "legal_actions",
    "rerolling_seat",
    "start_game",
    "start_round",
]

_T = TypeVar("_T")
_INT_ONLY = frozenset({int})
_FACE_SETS = tuple(frozenset(range(1, f + 1)) for f in range(MAX_FACES + 1))
"""The faces of a die with ``f`` faces, built once (checked on every deal)."""
_PLAYER_ACTIONS = (Bid, Dudo, Calza, Pass, ChoosePalifico, SetAside)


def start_game(rules: RuleSet, num_players: int, rolloff: Sequence[Sequence[int]]) -> GameState:
    """A new game waiting for its first deal, the opener chosen by the roll-off (P-2).

    ``rolloff`` holds every throw of the roll-off: each throw is one die per player, and
    only the last may have a single highest die (a tie for highest means all roll again).

    :raises ValueError: on a bad player count or an impossible roll-off.
    """
    _check_players(rules, num_players)
    throws = tuple(tuple(t) for t in rolloff)
    if not throws:
        raise IllegalActionError(
            "the roll-off needs at least one throw (P-2)", code="rolloff.empty"
        )
    for i, throw in enumerate(throws):
        if len(throw) != num_players or any(
            isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= rules.faces
            for d in throw
        ):
            raise IllegalActionError(
                f"roll-off throw {i + 1} must be one die of 1–{rules.faces} per player (P-2)",
                code="rolloff.bad_throw",
                params={"throw": i + 1, "faces": rules.faces},
            )
        top = max(throw)
        unique = throw.count(top) == 1
        if unique != (i == len(throws) - 1):
            raise IllegalActionError(
                "only the last roll-off throw may have a single highest die; "
                "a tie for highest means everyone rolls again (P-2)",
                code="rolloff.tie",
            )
    opener = throws[-1].index(max(throws[-1]))
    n = num_players
    return GameState(
        rules=rules,
        phase=_DEAL,
        round=1,
        opener=opener,
        to_act=None,
        dice_counts=(rules.dice_per_player,) * n,
        hands=((),) * n,
        shown=((),) * n,
        palifico=False,
        palifico_used=(False,) * n,
        **NO_BID_YET,
        past=(),
        winner=None,
        rolloff=throws,
        log=None,
    )


def _check_players(rules: RuleSet, num_players: int) -> None:
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise ValueError(f"the number of players must be an integer, not {num_players!r}")
    if not rules.min_players <= num_players <= rules.max_players:
        raise ValueError(
            f"{num_players} players: these rules take {rules.min_players}–{rules.max_players} "
            "(P-1, V-12)"
        )


def start_round(
    rules: RuleSet,
    hands: Sequence[Sequence[int]],
    *,
    opener: int = 0,
    palifico: bool = False,
    palifico_used: Sequence[int] = (),
    shown: Sequence[Sequence[int]] | None = None,
    round: int = 1,
) -> GameState:
    """A round in progress with the given dice, ready for the opener's bid.

    For tests, puzzles and teaching: ``hands[s]`` are seat ``s``'s hidden dice (empty: out),
    ``shown[s]`` its dice set aside face up (V-9). ``palifico`` makes this a palifico round
    opened by ``opener``, whose palifico is then used (P-30); ``palifico_used`` lists other
    seats that have had theirs.

    >>> from perudo import find_ruleset
    >>> s = start_round(find_ruleset("perudo"), [[1, 4, 4], [2, 3]])
    >>> s.to_act, s.dice_counts
    (0, (3, 2))

    :raises ValueError: on impossible dice or seats.
    """
    n = len(hands)
    _check_players(rules, n)
    shown_t = tuple(tuple(sorted(s)) for s in shown) if shown is not None else ((),) * n
    if len(shown_t) != n:
        raise ValueError("shown needs one entry per seat")
    hands_t = tuple(tuple(sorted(h)) for h in hands)
    for seat, (h, s) in enumerate(zip(hands_t, shown_t, strict=True)):
        for d in h + s:
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= rules.faces:
                raise ValueError(f"seat {seat}: {d!r} is not a face of a {rules.faces}-faced die")
        if len(h) + len(s) > rules.dice_per_player:
            raise ValueError(
                f"seat {seat} holds {len(h) + len(s)} dice, more than {rules.dice_per_player}"
            )
        if s and not h:
            raise ValueError(f"seat {seat}: at least one die stays hidden under the cup (V-9)")
    counts = tuple(len(h) + len(s) for h, s in zip(hands_t, shown_t, strict=True))
    if sum(1 for c in counts if c) < 2:
        raise ValueError("a round needs at least two seats with dice (P-23)")
    if not _is_seat(opener, n) or counts[opener] == 0:
        raise ValueError(f"the opener must be a seat with dice, not {opener!r}")
    if palifico and counts[opener] != 1:
        raise ValueError("a palifico round is opened by a seat holding one die (P-30)")
    used = [False] * n
    for used_seat in palifico_used:
        if not _is_seat(used_seat, n):
            raise ValueError(f"palifico_used: there is no seat {used_seat!r} at this table")
        used[used_seat] = True
    if palifico:
        used[opener] = True
    return GameState(
        rules=rules,
        phase=_BIDDING,
        round=round,
        opener=opener,
        to_act=opener,
        dice_counts=counts,
        hands=hands_t,
        shown=shown_t,
        palifico=palifico,
        palifico_used=tuple(used),
        **NO_BID_YET,
        past=(),
        winner=None,
        rolloff=(),
        log=None,
    )


def _is_seat(seat: object, n: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n


_LISTS: dict[
    tuple[int, int, tuple[PlayerAction, ...]], tuple[Sequence[Bid], tuple[PlayerAction, ...]]
] = {}
""":meth:`LegalActions.as_tuple`'s lists, by the identity of their bid table (kept alive
beside them, so that the identity is not reused), their start and their other actions."""
_LISTS_KEPT = 4096


class LegalActions(Sequence[PlayerAction]):
    """The actions a seat may take now, as a lazy sequence (python-chess's ``legal_moves``).

    Bids come first, lowest first, then dudo, calza, pass, set-asides and the palifico choice.
    Indexing and ``len`` cost nothing extra: the bids are a slice of a shared table.
    """

    __slots__ = ("_bids", "_extras", "_n", "_seat", "_start", "_state")

    def __init__(
        self,
        state: GameState,
        seat: int | None,
        bids: Sequence[Bid],
        start: int,
        extras: tuple[PlayerAction, ...],
    ) -> None:
        self._state = state
        self._seat = seat
        self._bids = bids
        self._start = start
        self._extras = extras
        self._n = len(bids) - start

    def __len__(self) -> int:
        return self._n + len(self._extras)

    @overload
    def __getitem__(self, index: int) -> PlayerAction: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[PlayerAction]: ...
    def __getitem__(self, index: int | slice) -> PlayerAction | Sequence[PlayerAction]:
        if isinstance(index, slice):
            return list(self)[index]
        n = self._n
        if index < 0:
            index += n + len(self._extras)
        if 0 <= index < n:
            return self._bids[self._start + index]
        if n <= index < n + len(self._extras):
            return self._extras[index - n]
        raise IndexError("legal action index out of range")

    def __iter__(self) -> Iterator[PlayerAction]:
        bids = self._bids
        for i in range(self._start, len(bids)):
            yield bids[i]
        yield from self._extras

    def __contains__(self, action: object) -> bool:
        # Only player actions are listed: a due deal is legal for chance, not in this list.
        if not isinstance(action, _PLAYER_ACTIONS):
            return False
        return is_legal(self._state, action, self._seat)

    def as_tuple(self) -> tuple[PlayerAction, ...]:
        """The actions as a tuple: the same tuple object for the same list while it is kept
        (the bids of one shared table from one place, the same others; a bounded cache), so
        that what is derived from a list (its JSON, :func:`perudo.core.views.legal_json`) is found
        by identity rather than by hashing each of its 150 and more bids."""
        key = (id(self._bids), self._start, self._extras)
        kept = _LISTS.get(key)
        if kept is not None and kept[0] is self._bids:
            return kept[1]
        if len(_LISTS) >= _LISTS_KEPT:
            _LISTS.clear()
        listed = (*self._bids[self._start :], *self._extras)
        _LISTS[key] = (self._bids, listed)
        return listed

    @property
    def bids(self) -> Sequence[Bid]:
        """The legal bids alone, lowest first."""
        return self._bids[self._start :]

    def __repr__(self) -> str:
        return f"<LegalActions {' '.join(map(str, self))}>"


_EMPTY: tuple[Bid, ...] = ()


def legal_actions(state: GameState, seat: int | None = None) -> LegalActions:
    """What ``seat`` (default: the seat to act) may do now.

    Out of turn, that is calza alone, where P-50 allows it. Empty while chance acts
    (a deal or re-roll is due) and once the game is over.

    :raises IllegalActionError: for a seat that is not at the table.
    """
    to_act = state.to_act
    if seat is None:
        seat = to_act
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise IllegalActionError(
            f"there is no seat {seat!r} at this {state.num_players}-seat table",
            code="seat.unknown",
            params={"players": state.num_players},
        )
    phase = state.phase
    if seat is None or phase is _GAME_OVER or phase is _DEAL or phase is _REROLL:
        return LegalActions(state, seat, _EMPTY, 0, ())
    if seat != to_act:
        extras: tuple[PlayerAction, ...] = (
            (CALZA,) if state.rules.calza == "on" and _calza_error(state, seat) is None else ()
        )
        return LegalActions(state, seat, _EMPTY, 0, extras)
    if phase is _CHOOSE_PALIFICO:
        return LegalActions(state, seat, _EMPTY, 0, (ChoosePalifico(True), ChoosePalifico(False)))
    rules = state.rules
    bids, start = raises_after(
        rules,
        state.bid,
        sum(state.dice_counts),
        palifico=state.palifico,
        one_die=state.dice_counts[seat] == 1,
    )
    if state.must_raise or state.bid is None:
        return LegalActions(state, seat, bids, start, ())
    more: list[PlayerAction] = [DUDO]
    if rules.calza == "to_act" and _calza_error(state, seat) is None:
        more.append(CALZA)
    if rules.passing and _pass_error(state, seat) is None:
        more.append(PASS)
    if rules.set_aside and _set_aside_base_error(state, seat, start < len(bids)) is None:
        more.extend(_set_asides(state.hands[seat]))
    return LegalActions(state, seat, bids, start, tuple(more))


def _set_asides(hand: tuple[int, ...]) -> list[SetAside]:
    """Every distinct non-empty sub-multiset of ``hand`` that leaves a die hidden (V-9)."""
    faces = sorted(set(hand))
    out: list[SetAside] = []

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(faces):
            if 0 < len(chosen) < len(hand):
                out.append(SetAside(tuple(chosen)))
            return
        f = faces[i]
        for k in range(hand.count(f) + 1):
            walk(i + 1, chosen + [f] * k)

    walk(0, [])
    return out


def calza_callers(state: GameState) -> tuple[int, ...]:
    """Seats that may call calza now, in the order P-53 asks them: left of the bidder first."""
    bidder = state.bidder
    if bidder is None or _calza_bid_error(state) or _calza_round_error(state):
        return ()  # the parts of _calza_error that do not depend on the seat, checked once
    counts = state.dice_counts
    calza, to_act, must_raise = state.rules.calza, state.to_act, state.must_raise
    out: list[int] = []
    for seat in _left_of(len(counts), bidder):
        if (
            _calza_out_error(counts, seat) is None
            and _calza_seat_error(seat, calza, bidder, to_act, must_raise) is None
        ):
            out.append(seat)
    return tuple(out)


@functools.cache
def _left_of(n: int, seat: int) -> tuple[int, ...]:
    """The other seats of an ``n``-seat table, from ``seat``'s left round to its right."""
    return tuple((seat + k) % n for k in range(1, n))


def answers(state: GameState, round_: int, bid: Bid | None) -> bool:
    """Whether ``bid`` (``None``: no bid yet) is still the bid standing in round ``round_``:
    the moment a move chosen on an earlier view of the game answers.

    A dudo or a calza judges the standing bid (P-11, P-50); one chosen while ``bid`` stood
    must not be applied to a later one. Within a round every bid raises the one before
    (P-12…P-14, V-1), so the round and its standing bid name that moment.

    >>> import random
    >>> from perudo.core import PERUDO, new_game
    >>> st = new_game(PERUDO, 3, random.Random(7))
    >>> answers(st, st.round, None), answers(st, st.round, Bid(1, 5))
    (True, False)
    """
    return state.round == round_ and state.bid == bid


def is_legal(state: GameState, action: Action, seat: int | None = None) -> bool:
    """Whether ``seat`` (default: the seat to act; chance for a deal) may take ``action``."""
    try:
        check_action(state, action, seat)
    except IllegalActionError:
        return False
    return True


def check_action(state: GameState, action: Action, seat: int | None = None) -> int | None:
    """Raise :class:`IllegalActionError` naming the rule if ``action`` is illegal now.

    Returns the acting seat (``None`` for a chance action).
    """
    phase = state.phase
    to_act = state.to_act
    if (
        action.__class__ is Bid
        and phase is _BIDDING
        and to_act is not None
        and (seat is None or (seat == to_act and seat.__class__ is int))
    ):
        # The common case, checked first: the seat to act bids.
        _check_bid(state, to_act, action)  # type: ignore[arg-type]
        return to_act
    if phase is _GAME_OVER:
        raise IllegalActionError(
            f"the game is over: seat {state.winner} won (P-23)",
            code="game.over",
            params={"winner": state.winner},
        )
    if isinstance(action, (Deal, Reroll)):
        if seat is not None:
            raise IllegalActionError(
                f"seat {seat} cannot roll chance dice; the deal is chance's",
                code="chance.not_a_seat",
                params={"seat": seat},
            )
        _check_chance(state, action)
        return None
    if not isinstance(action, (*_PLAYER_ACTIONS, Concede)):
        raise IllegalActionError(
            f"{action!r} is not a Perudo action",
            code="action.unknown",
            params={"action": repr(action)},
        )
    if seat is None:
        seat = state.to_act
        if seat is None:
            raise IllegalActionError(
                f"no seat acts now: waiting for chance ({phase.value})",
                code="turn.chance",
                params={"phase": phase.value},
            )
    n = state.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalActionError(
            f"there is no seat {seat!r} at this {n}-seat table",
            code="seat.unknown",
            params={"players": n},
        )
    if state.dice_counts[seat] == 0:
        raise IllegalActionError(
            f"seat {seat} is out of the game: it has no dice (P-23)",
            code="seat.out",
            params={"seat": seat},
        )
    if isinstance(action, Concede):
        # P-24: any seat still in, at any moment, out of turn.
        return seat
    if isinstance(action, Calza):
        refusal = _calza_error(state, seat)
        if refusal is not None:
            raise IllegalActionError.of(refusal)
        return seat
    if phase is _DEAL or phase is _REROLL:
        raise IllegalActionError(
            f"no seat acts now: waiting for chance ({phase.value})",
            code="turn.chance",
            params={"phase": phase.value},
        )
    if seat != state.to_act:
        raise IllegalActionError(
            f"it is seat {state.to_act}'s turn, not seat {seat}'s (P-11)",
            code="turn.not_yours",
            params={"seat": seat, "to_act": state.to_act},
        )
    if phase is _CHOOSE_PALIFICO:
        if not isinstance(action, ChoosePalifico):
            raise IllegalActionError(
                f"seat {seat} first chooses a palifico or a normal round, before the deal (P-34)",
                code="palifico.choose_first",
                params={"seat": seat},
            )
        return seat
    if isinstance(action, ChoosePalifico):
        raise IllegalActionError("no palifico choice is due now (P-34)", code="palifico.not_due")
    if isinstance(action, Bid):
        _check_bid(state, seat, action)
        return seat
    if state.must_raise:
        raise IllegalActionError(
            f"seat {seat} set dice aside and re-rolled, and must now raise (V-9)",
            code="aside.must_raise",
            params={"seat": seat},
        )
    if isinstance(action, Dudo):
        if state.bid is None:
            raise IllegalActionError(
                "there is no bid to challenge yet: the opener bids (P-10)", code="dudo.no_bid"
            )
        return seat
    if isinstance(action, Pass):
        refusal = _pass_error(state, seat)
        if refusal is not None:
            raise IllegalActionError.of(refusal)
        return seat
    refusal = _set_aside_error(state, seat, action)
    if refusal is not None:
        raise IllegalActionError.of(refusal)
    return seat


def _check_bid(state: GameState, seat: int, bid: Bid) -> None:
    total = sum(state.dice_counts)
    one_die = state.dice_counts[seat] == 1
    if is_raise(state.rules, state.bid, bid, total, palifico=state.palifico, one_die=one_die):
        return
    refusal = bid_refusal(
        state.rules, state.bid, bid, total, palifico=state.palifico, one_die=one_die
    )
    if refusal is None:  # is_raise and bid_refusal disagree: never, but say so plainly
        refusal = Refusal(
            "bid.illegal",
            f"{bid} is not a legal bid now",
            {"bid": [bid.quantity, bid.face], "wild": state.rules.wild_face},
        )
    raise IllegalActionError.of(refusal)


def _check_chance(state: GameState, action: Deal | Reroll) -> None:
    faces = state.rules.faces
    valid = _FACE_SETS[faces]

    def bad_faces(dice: object) -> bool:
        # Set operations in C: every die a plain int (not a bool) and a face of the die.
        return (
            dice.__class__ is not tuple
            or not valid.issuperset(dice)  # type: ignore[arg-type]
            or not _INT_ONLY.issuperset(map(type, dice))  # type: ignore[call-overload]
        )

    if isinstance(action, Deal):
        if state.phase is not _DEAL:
            raise IllegalActionError(
                f"no deal is due now ({state.phase.value})",
                code="deal.not_due",
                params={"phase": state.phase.value},
            )
        hands = action.hands
        if not isinstance(hands, tuple) or len(hands) != state.num_players:
            raise IllegalActionError(
                f"a deal holds one hand per seat ({state.num_players})",
                code="deal.hands",
                params={"players": state.num_players},
            )
        for seat, (hand, count) in enumerate(zip(hands, state.dice_counts, strict=True)):
            if bad_faces(hand) or len(hand) != count:
                raise IllegalActionError(
                    f"seat {seat} rolls {count} dice of 1–{faces}, not {hand!r} (P-3)",
                    code="deal.bad_hand",
                    params={"seat": seat, "count": count, "faces": faces, "hand": _dice(hand)},
                )
        return
    if state.phase is not _REROLL:
        raise IllegalActionError(
            f"no re-roll is due now ({state.phase.value})",
            code="reroll.not_due",
            params={"phase": state.phase.value},
        )
    need = len(state.hands[rerolling_seat(state)])
    if bad_faces(action.dice) or len(action.dice) != need:
        raise IllegalActionError(
            f"the re-roll is {need} dice of 1–{faces} (V-9)",
            code="reroll.bad",
            params={"count": need, "faces": faces, "hand": _dice(action.dice)},
        )


def _dice(hand: object) -> str:
    """A hand as a refusal names it ("7 1 3 5 6"), whatever a tampered record put there."""
    if isinstance(hand, tuple):
        return " ".join(str(d) for d in hand)
    return repr(hand)


_CALZA_OFF = Refusal("calza.off", "calza is not played with these rules (V-7)")
_CALZA_NO_BID = Refusal("calza.no_bid", "calza needs a standing bid (P-50)")
_CALZA_ON_PASS = Refusal(
    "calza.on_pass",
    "calza is called on a bid, not on a pass: raise or doubt the pass (P-50, V-10)",
)
_CALZA_OWN_BID = Refusal("calza.own_bid", "the bidder cannot call calza on their own bid (P-50)")
_CALZA_NEXT_PLAYER = Refusal(
    "calza.next_player",
    "the player whose turn is next cannot call calza; raise or call dudo (P-50)",
)
_CALZA_ONLY_TO_ACT = Refusal(
    "calza.only_to_act", "with these rules only the player to act may call calza (V-7)"
)
# The refusals above say the same every time: built once (a calza window asks every seat).


def _calza_error(state: GameState, seat: int) -> Refusal | None:
    """Why ``seat`` may not call calza now (P-50, V-7), or ``None``.

    In parts, so that :func:`calza_callers` checks the ones that do not depend on the seat
    once: whether calza is in play with a bid standing, whether the seat is in, whether this
    bid may be called (not a pass, enough players), and the seat's own position.
    """
    return (
        _calza_bid_error(state)
        or _calza_out_error(state.dice_counts, seat)
        or _calza_round_error(state)
        or _calza_seat_error(seat, state.rules.calza, state.bidder, state.to_act, state.must_raise)
    )


def _calza_bid_error(state: GameState) -> Refusal | None:
    if state.rules.calza == "off":
        return _CALZA_OFF
    if state.phase is not _BIDDING or state.bid is None or state.bidder is None:
        return _CALZA_NO_BID
    return None


def _calza_out_error(dice_counts: tuple[int, ...], seat: int) -> Refusal | None:
    if dice_counts[seat] == 0:
        return Refusal("seat.out", f"seat {seat} is out of the game (P-23)", {"seat": seat})
    return None


def _calza_round_error(state: GameState) -> Refusal | None:
    if state.passer is not None:
        return _CALZA_ON_PASS
    least = state.rules.calza_min_players
    if state.players_in < least:
        return Refusal(
            "calza.few_players",
            f"calza needs at least {least} players in the game (P-50)",
            {"min": least},
        )
    return None


def _calza_seat_error(
    seat: int, calza: str, bidder: int | None, to_act: int | None, must_raise: bool
) -> Refusal | None:
    """The seat's own position (its arguments are the state's fields of those names, passed
    so that :func:`calza_callers` reads them once for every seat)."""
    if seat == bidder:
        return _CALZA_OWN_BID
    if calza == "on" and seat == to_act:
        return _CALZA_NEXT_PLAYER
    if calza == "to_act" and seat != to_act:
        return _CALZA_ONLY_TO_ACT
    if must_raise and seat == to_act:
        return Refusal(
            "aside.must_raise",
            f"seat {seat} set dice aside and re-rolled, and must now raise (V-9)",
            {"seat": seat},
        )
    return None


def _pass_error(state: GameState, seat: int) -> Refusal | None:
    if not state.rules.passing:
        return Refusal("pass.off", "passing is not played with these rules (V-10)")
    if state.bid is None:
        return Refusal("pass.opening", "the opener must bid; a pass is instead of raising (V-10)")
    if state.passer is not None:
        return Refusal(
            "pass.after_pass",
            "after a pass, raise the bid before it or call dudo on the pass (V-10)",
        )
    if state.passed >> seat & 1:
        return Refusal(
            "pass.already", f"seat {seat} has already passed this round (V-10)", {"seat": seat}
        )
    return None


def _set_aside_base_error(state: GameState, seat: int, can_raise: bool) -> Refusal | None:
    if not state.rules.set_aside:
        return Refusal("aside.off", "setting dice aside is not played with these rules (V-9)")
    if state.palifico:
        return Refusal("aside.palifico", "no dice are set aside in a palifico round (V-9)")
    if state.bid is None:
        return Refusal(
            "aside.opening", "dice are set aside before raising, not before the opening bid (V-9)"
        )
    if len(state.hands[seat]) < 2:
        return Refusal("aside.keep_one", "at least one die stays hidden under the cup (V-9)")
    if not can_raise:
        return Refusal(
            "aside.no_raise", "no bid is left to raise to after setting dice aside (V-9, P-16)"
        )
    return None


def _set_aside_error(state: GameState, seat: int, action: SetAside) -> Refusal | None:
    bids, start = raises_after(
        state.rules,
        state.bid,
        sum(state.dice_counts),
        palifico=state.palifico,
        one_die=state.dice_counts[seat] == 1,
    )
    refusal = _set_aside_base_error(state, seat, start < len(bids))
    if refusal is not None:
        return refusal
    hand = state.hands[seat]
    for face in set(action.dice):
        if action.dice.count(face) > hand.count(face):
            n = action.dice.count(face)
            return Refusal(
                "aside.not_held",
                f"seat {seat} has no {n} hidden {face}s to set aside (V-9)",
                {"seat": seat, "count": n, "face": face, "wild": state.rules.wild_face},
            )
    if len(action.dice) >= len(hand):
        return Refusal("aside.keep_one", "at least one die stays hidden under the cup (V-9)")
    return None


def apply(
    state: GameState, action: Action, seat: int | None = None
) -> tuple[GameState, tuple[Event, ...]]:
    """Take ``action`` for ``seat`` (default: the seat to act; chance for a deal or re-roll).

    Returns the new state and the events it produced; ``state`` is unchanged.

    :raises IllegalActionError: naming the rule, if the action is not legal now.
    """
    seat = check_action(state, action, seat)
    if seat is None:
        if isinstance(action, Deal):
            return _apply_deal(state, action)
        assert isinstance(action, Reroll)
        return _apply_reroll(state, action)
    if isinstance(action, Bid):
        n = len(state.dice_counts)
        counts = state.dice_counts
        nxt = (seat + 1) % n
        while counts[nxt] == 0:
            nxt = (nxt + 1) % n
        new = GameState(
            state.rules,
            state.phase,
            state.round,
            state.opener,
            nxt,
            counts,
            state.hands,
            state.shown,
            state.palifico,
            state.palifico_used,
            action,
            seat,
            None,
            state.passed,
            False,
            (*state.actions, (seat, action)),
            state.past,
            None,
            state.rolloff,
            (state.log, seat, action),
        )
        return new, (ActionTaken(seat, action),)
    logged = state._replace(log=(state.log, seat, action))
    if isinstance(action, Concede):
        return resolve_concede(logged, seat)
    if isinstance(action, Dudo):
        if state.passer is not None:
            return resolve_pass(logged, seat)
        return resolve_dudo(logged, seat)
    if isinstance(action, Calza):
        return resolve_calza(logged, seat)
    if isinstance(action, Pass):
        new = logged._replace(
            to_act=next_seat(state.dice_counts, seat),
            passer=seat,
            passed=state.passed | (1 << seat),
            actions=(*state.actions, (seat, action)),
        )
        return new, (ActionTaken(seat, action),)
    if isinstance(action, SetAside):
        hand = list(state.hands[seat])
        for d in action.dice:
            hand.remove(d)
        hands = _set(state.hands, seat, tuple(hand))
        shown = _set(state.shown, seat, tuple(sorted(state.shown[seat] + action.dice)))
        new = logged._replace(
            phase=_REROLL,
            to_act=None,
            hands=hands,
            shown=shown,
            actions=(*state.actions, (seat, action)),
        )
        return new, (ActionTaken(seat, action),)
    assert isinstance(action, ChoosePalifico)
    new = logged._replace(
        phase=_DEAL,
        to_act=None,
        palifico=action.palifico,
        palifico_used=_set(state.palifico_used, seat, True),
    )
    return new, (PalificoChosen(seat, action.palifico),)


def _apply_deal(state: GameState, action: Deal) -> tuple[GameState, tuple[Event, ...]]:
    hands = tuple(tuple(sorted(h)) for h in action.hands)
    new = GameState(
        state.rules,
        _BIDDING,
        state.round,
        state.opener,
        state.opener,
        state.dice_counts,
        hands,
        ((),) * len(hands),
        state.palifico,
        state.palifico_used,
        None,
        None,
        None,
        0,
        False,
        (),
        state.past,
        None,
        state.rolloff,
        (state.log, None, action),
    )
    events: list[Event] = [
        RoundStarted(state.round, state.opener, state.palifico, state.dice_counts)
    ]
    events.extend(DiceDealt(s, h) for s, h in enumerate(hands) if h)
    return new, tuple(events)


def rerolling_seat(state: GameState) -> int:
    """The seat whose dice a due re-roll replaces: the one that just set dice aside (V-9)."""
    return state.actions[-1][0]


def _apply_reroll(state: GameState, action: Reroll) -> tuple[GameState, tuple[Event, ...]]:
    seat = rerolling_seat(state)
    dice = tuple(sorted(action.dice))
    new = state._replace(
        phase=_BIDDING,
        to_act=seat,
        hands=_set(state.hands, seat, dice),
        must_raise=True,
        log=(state.log, None, action),
    )
    return new, (DiceRerolled(seat, dice),)


def _set(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return values[:index] + (value,) + values[index + 1 :]
