"""Play now's matching, pure: who waits in a pool, and which of them sit down together now.

A pool is a variant (a preset), a table size (heads-up, 4 or 6 seats) and rated or not
(:class:`PoolKey`). An :class:`Entry` is one person (or, for the bot API, a bot account)
waiting in it. :func:`plan` takes every waiting entry and the time, and answers the groups to
seat now (:class:`Group`): a full table of entrants, or, once an entrant's chosen wait has run
out, the entrants who accept bots filled up with bots of the oldest one's level (unrated pools
only). It decides nothing else and touches nothing: the one process or the several
(:mod:`.pool`, :mod:`.redis`) run it under their own atomicity, the same function for both.

Where the pool is rated, a group's ratings (the displayed ones, :func:`perudo.ratings.display`)
lie within a gap that widens with waiting time, as lichess's pools do: every member accepts
the group's spread, each by how long they have waited (:func:`allowed_gap`).

>>> key = PoolKey("perudo", 2, rated=True)
>>> a = Entry("a" * 16, key, "Ana", 1, 1500, since=0.0, wait=60.0)
>>> b = Entry("b" * 16, key, "Bo", 2, 1900, since=0.0, wait=60.0)
>>> plan([a, b], now=1.0)
[]
>>> [g.tickets for g in plan([a, b], now=40.0)]
[('aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb')]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

__all__ = [
    "BASE_GAP",
    "GAP_PER_SECOND",
    "MAX_GAP",
    "MAX_WAIT",
    "MIN_WAIT",
    "SIZES",
    "Entry",
    "Group",
    "PoolKey",
    "allowed_gap",
    "fits",
    "plan",
]

SIZES = (2, 4, 6)
"""The table sizes Play now seats: heads-up, 4 and 6 seats."""
MIN_WAIT = 10.0
MAX_WAIT = 600.0
"""The wait an entrant may choose, in seconds."""
BASE_GAP = 100
"""Rating points apart two entrants of a rated pool may be as soon as they arrive."""
GAP_PER_SECOND = 10.0
"""How fast the allowed gap widens while one waits (lichess widens its range so too)."""
MAX_GAP = 800
"""The widest gap, reached after a minute's wait."""

State = Literal["waiting", "claimed", "matched", "failed"]


@dataclass(frozen=True, slots=True)
class PoolKey:
    """Which pool: the variant, the table size and whether its tables are rated."""

    preset: str
    seats: int
    rated: bool = False

    def text(self) -> str:
        """The key's name (a Redis key, a wire field): ``perudo:2:rated``."""
        return f"{self.preset}:{self.seats}:{'rated' if self.rated else 'casual'}"

    @classmethod
    def parse(cls, text: str) -> PoolKey:
        preset, seats, kind = text.rsplit(":", 2)
        return cls(preset, int(seats), kind == "rated")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entrant waiting in a pool, and what became of them.

    ``state``: ``waiting``; ``claimed`` by the process ``claimed_by`` at ``claimed_at`` (it
    is making their table; a claim older than a lease returns to waiting); ``matched``
    (``result``: their table, seat and seat token, for the process holding their socket to
    hand over); ``failed`` (``result["texts"]``: why, in each language).
    """

    ticket: str
    key: PoolKey
    name: str
    player_id: int | None
    """The signed-in entrant's account (``None``: a guest, shown as "guest")."""
    rating: int
    since: float
    """When they entered (wall clock, shared by every process)."""
    wait: float
    """Seconds they are willing to wait before bots fill the empty seats (or they are told)."""
    bots: str | None = None
    """The level of the bots that fill the empty seats once ``wait`` is over (unrated pools
    only); ``None``: no bots, keep waiting for people."""
    is_bot: bool = False
    """The entrant is a bot account (the bot API), not a person."""
    accepts_bots: bool = False
    """Whether this entrant may be seated with bot accounts (a person who fills with bots
    does)."""
    client: str = "local"
    """The entrant's address (the table is made under its limits, like a host's)."""
    node: str = ""
    """The process holding the entrant's socket."""
    until: float = 0.0
    """The entry's lease: that process renews it while the socket lives; a lapsed one is
    dropped (its person, gone with the process, is told when their page reconnects)."""
    state: State = "waiting"
    claimed_by: str = ""
    claimed_at: float = 0.0
    group: str = ""
    result: dict[str, Any] = field(default_factory=dict)

    def waited(self, now: float) -> float:
        return max(0.0, now - self.since)

    def overdue(self, now: float) -> bool:
        """Their chosen wait is over."""
        return self.waited(now) >= self.wait

    def to_json(self) -> str:
        data = asdict(self)
        data["key"] = self.key.text()
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        data = json.loads(text)
        data["key"] = PoolKey.parse(data["key"])
        return cls(**data)

    def but(self, **changes: Any) -> Entry:
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Group:
    """Entrants to seat at one new table, oldest first, and the level of the bots that fill
    its empty seats (``None``: the table is full of entrants)."""

    key: PoolKey
    tickets: tuple[str, ...]
    bots: str | None = None


def allowed_gap(waited: float) -> float:
    """Rating points an entrant of a rated pool accepts after waiting ``waited`` seconds."""
    return min(float(MAX_GAP), BASE_GAP + GAP_PER_SECOND * waited)


def fits(members: Sequence[Entry], now: float) -> bool:
    """Whether ``members`` may sit at one table: one pool, no account twice; in a rated one,
    every member
    accepts the group's rating spread; at least one is a person; with a bot account among
    them, every person accepts bots."""
    if not members:
        return False
    key = members[0].key
    if any(m.key != key for m in members):
        return False
    accounts = [m.player_id for m in members if m.player_id is not None]
    if len(set(accounts)) != len(accounts):
        return False  # one account waiting twice (two tabs) never takes two seats
    if key.rated:
        spread = max(m.rating for m in members) - min(m.rating for m in members)
        if spread > min(allowed_gap(m.waited(now)) for m in members):
            return False
    people = [m for m in members if not m.is_bot]
    if not people:
        return False
    return len(people) == len(members) or all(m.accepts_bots for m in people)


def plan(entries: Iterable[Entry], now: float) -> list[Group]:
    """The groups to seat now among the ``waiting`` entries (each entrant in one group at
    most): oldest first, each takes the nearest in rating that keep the group fitting; a full
    table sits down; an entrant whose wait is over and who chose bots sits down with the
    others who chose bots, bots filling the empty seats (never in a rated pool)."""
    pools: dict[PoolKey, list[Entry]] = {}
    for e in entries:
        if e.state == "waiting":
            pools.setdefault(e.key, []).append(e)
    groups: list[Group] = []
    for key, waiting in pools.items():
        waiting.sort(key=lambda e: (e.since, e.ticket))
        used: set[str] = set()
        for anchor in waiting:
            if anchor.ticket in used:
                continue
            others = [e for e in waiting if e.ticket not in used and e.ticket != anchor.ticket]
            full = _gather(anchor, others, key.seats, now)
            if len(full) == key.seats:
                groups.append(Group(key, tuple(e.ticket for e in full)))
                used.update(e.ticket for e in full)
            elif anchor.bots is not None and not key.rated and anchor.overdue(now):
                willing = [e for e in others if e.bots is not None]
                some = _gather(anchor, willing, key.seats, now)
                if some:
                    groups.append(Group(key, tuple(e.ticket for e in some), anchor.bots))
                    used.update(e.ticket for e in some)
    return groups


def _gather(anchor: Entry, others: Sequence[Entry], seats: int, now: float) -> list[Entry]:
    """``anchor`` and, nearest in rating first, those of ``others`` that keep it fitting."""
    group = [anchor]
    if not fits(group, now):
        return []
    for e in sorted(others, key=lambda e: (abs(e.rating - anchor.rating), e.since, e.ticket)):
        if len(group) == seats:
            break
        if fits([*group, e], now):
            group.append(e)
    return group
