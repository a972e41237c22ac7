"""Settling a challenge: the reveal, the count, dice lost or gained, the next opener.

Dudo on a bid (P-20, P-21, V-4, V-5, V-8), calza (P-51, P-52), dudo on a pass (V-10), then
the end of the round: elimination and the winner (P-23), the next opener (P-22), and whether
the next round is a palifico round or waits for the two-player choice (P-30, P-34, V-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .actions import CALZA, DUDO, Bid, PlayerAction
from .bidding import count_hand
from .events import ActionTaken, Event, GameOver, ResolutionKind, Reveal, RoundResolved
from .state import NO_BID_YET, GameState, Phase, RoundRecord

__all__ = ["next_seat", "resolve_calza", "resolve_dudo", "resolve_pass", "reveal_order"]


def next_seat(counts: Sequence[int], seat: int) -> int:
    """The next seat clockwise after ``seat`` that still has dice (P-11, P-22)."""
    n = len(counts)
    nxt = (seat + 1) % n
    while counts[nxt] == 0 and nxt != seat:
        nxt = (nxt + 1) % n
    return nxt


def reveal_order(counts: Sequence[int], caller: int) -> tuple[int, ...]:
    """Seats in the round from the caller's left, clockwise, the caller last (P-21)."""
    n = len(counts)
    return tuple(s for s in ((caller + k) % n for k in range(1, n + 1)) if counts[s] or s == caller)


def _full_hands(state: GameState) -> list[tuple[int, ...]]:
    return [tuple(sorted(h + s)) if s else h for h, s in zip(state.hands, state.shown, strict=True)]


def resolve_dudo(state: GameState, caller: int) -> tuple[GameState, tuple[Event, ...]]:
    """Dudo on the standing bid: reveal in P-21 order until proven (or all, V-8 / V-4)."""
    rules = state.rules
    bid, bidder = state.bid, state.bidder
    assert bid is not None and bidder is not None
    q, face, pal = bid.quantity, bid.face, state.palifico
    full = _full_hands(state)
    order = reveal_order(state.dice_counts, caller)
    stop_early = rules.reveal == "until_proven" and rules.loss == "one"
    reveals: list[Reveal] = []
    running = 0
    for s in order:
        c = count_hand(rules, full[s], face, pal)
        running += c
        reveals.append(Reveal(s, full[s], c))
        if stop_early and running >= q:
            break
    hidden = order[len(reveals) :]
    holds = running >= q
    changes: dict[int, int]
    if rules.loss == "one":
        loser, winner = (caller, bidder) if holds else (bidder, caller)
        changes = {loser: -1}
    elif running < q:
        loser, winner = bidder, caller
        changes = {bidder: running - q}
    elif running > q:
        loser, winner = caller, bidder
        changes = {caller: q - running}
    else:
        # V-4 exact: everyone but the bidder loses one; the challenger lost the challenge.
        loser, winner = caller, bidder
        changes = {s: -1 for s in order if s != bidder}
    opener = loser if rules.next_opener == "loser" else winner
    return _end_round(
        state, "dudo", caller, bidder, bid, reveals, hidden, running, holds, changes, opener
    )


def resolve_calza(state: GameState, caller: int) -> tuple[GameState, tuple[Event, ...]]:
    """Calza: everyone reveals; exact gains the caller a die (capped), else loses one (P-51)."""
    rules = state.rules
    bid, bidder = state.bid, state.bidder
    assert bid is not None and bidder is not None
    full = _full_hands(state)
    order = reveal_order(state.dice_counts, caller)
    reveals = [
        Reveal(s, full[s], count_hand(rules, full[s], bid.face, state.palifico)) for s in order
    ]
    count = sum(r.count for r in reveals)
    holds = count == bid.quantity
    if holds:
        gain = 1 if state.dice_counts[caller] < rules.dice_per_player else 0
        changes = {caller: gain}
    else:
        changes = {caller: -1}
    return _end_round(
        state, "calza", caller, bidder, bid, reveals, (), count, holds, changes, caller
    )


def resolve_pass(state: GameState, caller: int) -> tuple[GameState, tuple[Event, ...]]:
    """Dudo on a pass (V-10): the passer shows their dice; all different = a true pass."""
    passer = state.passer
    assert passer is not None
    hand = _full_hands(state)[passer]
    distinct = len(set(hand))
    holds = distinct == len(hand)
    loser, winner = (caller, passer) if holds else (passer, caller)
    opener = loser if state.rules.next_opener == "loser" else winner
    hidden = tuple(s for s in reveal_order(state.dice_counts, caller) if s != passer)
    return _end_round(
        state,
        "pass",
        caller,
        passer,
        None,
        [Reveal(passer, hand, distinct)],
        hidden,
        distinct,
        holds,
        {loser: -1},
        opener,
    )


def resolve_concede(state: GameState, seat: int) -> tuple[GameState, tuple[Event, ...]]:
    """P-24: ``seat`` gives up the game. It loses all its dice; the round in play is void
    (nobody reveals: every hand dealt in it stays secret for good) and a new round is dealt,
    opened by the seat whose turn it was (or the round's opener between deals), or the next
    seat in when that is the one conceding. One seat left wins (P-23)."""
    dealt = tuple(s for s, hand in enumerate(state.hands) if hand or state.shown[s])
    opener = state.to_act if state.to_act is not None else state.opener
    return _end_round(
        state,
        "concede",
        seat,
        seat,
        state.bid,
        (),
        dealt,
        0,
        False,
        {seat: -state.dice_counts[seat]},
        opener,
    )


def _end_round(
    state: GameState,
    kind: ResolutionKind,
    caller: int,
    target: int,
    bid: Bid | None,
    reveals: Sequence[Reveal],
    hidden: Sequence[int],
    count: int,
    holds: bool,
    changes: Mapping[int, int],
    opener: int,
) -> tuple[GameState, tuple[Event, ...]]:
    rules = state.rules
    old = state.dice_counts
    counts = list(old)
    applied: list[tuple[int, int]] = []
    for seat in sorted(changes):
        after = max(0, min(rules.dice_per_player, counts[seat] + changes[seat]))
        applied.append((seat, after - counts[seat]))
        counts[seat] = after
    eliminated = tuple(s for s in range(len(counts)) if old[s] and not counts[s])
    alive = [s for s, c in enumerate(counts) if c]
    if kind == "concede":
        # P-24: the round is void; the concession is the result, not one of its actions.
        actions = state.actions
    else:
        action: PlayerAction = CALZA if kind == "calza" else DUDO
        actions = (*state.actions, (caller, action))
    winner = alive[0] if len(alive) == 1 else None
    if winner is None and counts[opener] == 0:
        opener = next_seat(counts, opener)
    result = RoundResolved(
        kind=kind,
        caller=caller,
        target=target,
        bid=bid,
        reveals=tuple(reveals),
        hidden=tuple(hidden),
        count=count,
        holds=holds,
        changes=tuple(applied),
        eliminated=eliminated,
        next_opener=None if winner is not None else opener,
        palifico=state.palifico,
    )
    record = RoundRecord(
        round=state.round,
        opener=state.opener,
        palifico=state.palifico,
        actions=actions,
        shown=state.shown,
        result=result,
    )
    n = len(counts)
    counts_t = tuple(counts)
    events: list[Event] = [result] if kind == "concede" else [ActionTaken(caller, action), result]
    base = state._replace(
        round=state.round + 1,
        to_act=None,
        dice_counts=counts_t,
        hands=((),) * n,
        shown=((),) * n,
        palifico=False,
        **NO_BID_YET,
        past=(*state.past, record),
    )
    if winner is not None:
        events.append(GameOver(winner))
        return base._replace(phase=Phase.GAME_OVER, opener=winner, winner=winner), tuple(events)
    phase, to_act, palifico, used = _next_round_kind(state, counts_t, opener, len(alive))
    new = base._replace(
        phase=phase, opener=opener, to_act=to_act, palifico=palifico, palifico_used=used
    )
    return new, tuple(events)


def _next_round_kind(
    state: GameState, counts: tuple[int, ...], opener: int, players_in: int
) -> tuple[Phase, int | None, bool, tuple[bool, ...]]:
    """Whether the next round is palifico (P-30), or waits for the P-34 choice (V-6)."""
    rules = state.rules
    used = state.palifico_used
    eligible = (
        rules.palifico != "off"
        and counts[opener] == 1
        and rules.dice_per_player > 1
        and not used[opener]
    )
    if not eligible:
        return Phase.DEAL, None, False, used
    if players_in == 2:
        if rules.palifico == "on":
            return Phase.CHOOSE_PALIFICO, opener, False, used
        return Phase.DEAL, None, False, used
    used = used[:opener] + (True,) + used[opener + 1 :]
    return Phase.DEAL, None, True, used
