"""Play now's pool: who waits where (a :class:`PoolStore`: this process's memory, or Redis
shared by every process, :mod:`.redis`), and the loop that seats them (:class:`Pool`).

Every change to a pool is one atomic step of its store (:meth:`PoolStore.change`: a pure
function of the pool's entries, applied all or nothing), so that an entrant is claimed for
one table only, whichever process matches. Twice a second each process, for every pool:

1. renews the lease of the entries whose sockets it holds (:data:`POOL_GRACE`);
2. in one step, drops the entries whose lease lapsed (their process died and their page did
   not come back elsewhere within the grace), returns to waiting those claimed by a process
   that never made their table (:data:`CLAIM_FOR`), and claims the groups
   :func:`.match.plan` seats now;
3. makes each table it claimed through the lobby, the same path as a host's table
   (:class:`TableMaker`), and marks its entrants ``matched`` with their seats (or
   ``failed``, with why in words);
4. hands each of its sockets its seat (the entry then leaves the pool), or the pool as it
   stands: who waits and for how long.

A page whose process died reconnects to another and joins again with its ticket: it gets its
place back (its waiting time kept), or the table it was seated at meanwhile, or, once its
place lapsed, words saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .. import protocol as p
from ..tables import TableConfig, TableError
from ..tables.config import server_texts
from ..tables.text import name_key
from .match import Entry, PoolKey, plan

if TYPE_CHECKING:
    from ..lobby import Lobby

__all__ = [
    "CLAIM_FOR",
    "POOL_GRACE",
    "TICK",
    "MemoryPoolStore",
    "Pool",
    "PoolStore",
    "TableMaker",
]

log = logging.getLogger("perudo.server")

TICK = 0.5
"""Seconds between a process's passes over the pools."""
POOL_GRACE = 15.0
"""Seconds an entry lives on without the process that holds its socket (the page reconnects
to another process within it and keeps its place)."""
CLAIM_FOR = 20.0
"""Seconds a claimed group waits for its table before its entrants wait again (the process
making it died)."""
STATE_EVERY = 5.0
"""A socket is sent the pool at least this often while it waits (and at once on a change)."""

Changes = dict[str, Entry | None]
"""What one step of a pool changes: ticket → its new entry (``None``: gone)."""


class PoolStore(Protocol):
    """Where the pools live."""

    async def change(self, key: PoolKey, step: Callable[[dict[str, Entry]], Changes]) -> Changes:
        """Apply ``step`` (pure: the pool's entries by ticket → what changes) atomically;
        returns what changed."""
        ...

    async def entries(self, key: PoolKey) -> dict[str, Entry]: ...

    async def keys(self) -> set[PoolKey]:
        """The pools with anyone in them."""
        ...

    async def renew(self, key: PoolKey, tickets: Sequence[str], until: float) -> None:
        """Extend these entries' leases to ``until``."""
        ...


class MemoryPoolStore:
    """The pools of the only process, in its memory (each step runs with no await inside:
    atomic on the event loop)."""

    def __init__(self) -> None:
        self.pools: dict[PoolKey, dict[str, Entry]] = {}

    async def change(self, key: PoolKey, step: Callable[[dict[str, Entry]], Changes]) -> Changes:
        pool = self.pools.setdefault(key, {})
        changes = step(dict(pool))
        for ticket, entry in changes.items():
            if entry is None:
                pool.pop(ticket, None)
            else:
                pool[ticket] = entry
        if not pool:
            del self.pools[key]
        return changes

    async def entries(self, key: PoolKey) -> dict[str, Entry]:
        return dict(self.pools.get(key, {}))

    async def keys(self) -> set[PoolKey]:
        return set(self.pools)

    async def renew(self, key: PoolKey, tickets: Sequence[str], until: float) -> None:
        pool = self.pools.get(key, {})
        for t in tickets:
            if t in pool:
                pool[t] = pool[t].but(until=until)


Send = Callable[[str], None]
"""How a waiting socket is written to (one JSON message)."""


@dataclass(slots=True)
class Waiter:
    """A socket of this process waiting in a pool."""

    key: PoolKey
    send: Send
    last: str = ""
    """The last pool state sent (without the times), to send again only on a change."""
    sent_at: float = 0.0


class Maker(Protocol):
    async def __call__(
        self, key: PoolKey, members: Sequence[Entry], bots: str | None
    ) -> dict[str, dict[str, Any]]:
        """Make and start the members' table; each ticket → ``{table_id, seat, token}``.

        :raises TableError: the table could not be made (said in words to each member)."""
        ...


class Pool:
    """This process's side of Play now: its waiting sockets and the loop that seats them."""

    def __init__(
        self,
        store: PoolStore,
        maker: Maker,
        node: str = "local",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.maker = maker
        self.node = node
        self.clock = clock
        self.waiters: dict[str, Waiter] = {}
        self._wake = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._making: set[asyncio.Task[None]] = set()

    # -- life ---------------------------------------------------------------------------

    def start(self) -> None:
        self._loop = asyncio.create_task(self._run(), name="perudo-play-now")

    async def close(self) -> None:
        tasks = [t for t in (self._loop, *self._making) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TICK):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self.tick()
            except Exception as err:  # the loop lives on; the next pass tries again
                log.warning("play now: a pass over the pools failed (will retry): %s", err)

    # -- a socket's requests ----------------------------------------------------------------

    async def join(self, entry: Entry, send: Send) -> None:
        """Put ``entry`` in its pool for the socket ``send`` writes to. A ticket already
        there (the page reconnected, perhaps to another process) keeps its place, or gets
        the table it was seated at meanwhile.

        :raises TableError: ``pool_other`` when the ticket waits in another pool.
        """
        now = self.clock()
        entry = entry.but(node=self.node, until=now + POOL_GRACE)

        def put(pool: dict[str, Entry]) -> Changes:
            had = pool.get(entry.ticket)
            if had is None:
                return {entry.ticket: entry}
            return {entry.ticket: had.but(node=self.node, until=entry.until)}

        for key in await self.store.keys():
            if key != entry.key and entry.ticket in await self.store.entries(key):
                raise TableError("pool_other", "this ticket waits in another pool: leave it first")
        await self.store.change(entry.key, put)
        self.waiters[entry.ticket] = Waiter(entry.key, send)
        self._wake.set()

    async def leave(self, ticket: str) -> Literal["left", "seating", "gone"]:
        """Take the socket's entry out of its pool: ``left``; ``seating`` when its table is
        being made or made (it stays: its seat comes); ``gone`` when it is no longer there
        (its place lapsed: the socket is told so in words)."""
        waiter = self.waiters.get(ticket)
        if waiter is None:
            return "gone"

        def out(pool: dict[str, Entry]) -> Changes:
            e = pool.get(ticket)
            return {ticket: None} if e is not None and e.state == "waiting" else {}

        if ticket in await self.store.change(waiter.key, out):
            self.waiters.pop(ticket, None)
            self._wake.set()
            return "left"
        if ticket in await self.store.entries(waiter.key):
            return "seating"
        self.waiters.pop(ticket, None)
        waiter.send(_refusal("pool_gone"))
        return "gone"

    def forget(self, ticket: str) -> None:
        """The socket closed: its entry lives on until its lease lapses (the page may come
        back, here or at another process), unless it leaves first."""
        self.waiters.pop(ticket, None)

    # -- the pass -----------------------------------------------------------------------

    async def tick(self) -> None:
        """One pass over every pool (the module's steps 1 to 4)."""
        now = self.clock()
        keys = await self.store.keys() | {w.key for w in self.waiters.values()}
        for key in keys:
            mine = [t for t, w in self.waiters.items() if w.key == key]
            if mine:
                await self.store.renew(key, mine, now + POOL_GRACE)
            claimed = await self.store.change(key, lambda pool: self._claim(pool, now))
            groups: dict[str, list[Entry]] = {}
            for e in claimed.values():
                if (
                    e is not None
                    and e.state == "claimed"
                    and e.claimed_at == now
                    and e.claimed_by == self.node
                ):
                    groups.setdefault(e.group, []).append(e)
            for gid, members in groups.items():
                task = asyncio.create_task(self._make(key, gid, members), name="perudo-pool-make")
                self._making.add(task)
                task.add_done_callback(self._making.discard)
            if mine:
                await self._deliver(key, mine, now)

    def _claim(self, pool: dict[str, Entry], now: float) -> Changes:
        """The pool's step: lapsed entries out, stale claims back to waiting, groups claimed."""
        out: Changes = {}
        for t, e in pool.items():
            if e.until < now:
                out[t] = None
            elif e.state == "claimed" and now - e.claimed_at > CLAIM_FOR:
                out[t] = e.but(state="waiting", claimed_by="", group="")
        live = [out.get(t, e) for t, e in pool.items()]
        for g in plan([e for e in live if e is not None], now):
            gid = secrets.token_hex(8)
            for t in g.tickets:
                out[t] = pool[t].but(
                    state="claimed",
                    claimed_by=self.node,
                    claimed_at=now,
                    group=gid,
                    result={"bots": g.bots},
                )
        return out

    async def _make(self, key: PoolKey, gid: str, members: list[Entry]) -> None:
        """Make a claimed group's table, then tell the pool each member's seat."""
        members.sort(key=lambda e: (e.since, e.ticket))
        bots = members[0].result.get("bots")
        results: dict[str, dict[str, Any]]
        state = "matched"
        try:
            results = await self.maker(key, members, bots)
        except TableError as err:
            log.warning("play now: a table of %s was not made: %s", key.text(), err.message)
            state = "failed"
            texts = err.texts or server_texts(err.code) or server_texts("pool_failed")
            results = {e.ticket: {"code": err.code, "texts": texts} for e in members}

        def settle(pool: dict[str, Entry]) -> Changes:
            return {
                t: pool[t].but(state=state, result=results[t])
                for t in results
                if t in pool and pool[t].group == gid and pool[t].state == "claimed"
            }

        await self.store.change(key, settle)
        self._wake.set()

    async def _deliver(self, key: PoolKey, mine: list[str], now: float) -> None:
        """Hand this process's sockets of ``key`` their seats, or the pool as it stands."""
        pool = await self.store.entries(key)
        done: list[str] = []
        for t in mine:
            waiter = self.waiters[t]
            e = pool.get(t)
            if e is None:
                waiter.send(_refusal("pool_gone"))
                self.waiters.pop(t, None)
            elif e.state == "matched":
                waiter.send(
                    p.PlayMatched(
                        table_id=e.result["table_id"],
                        seat=e.result["seat"],
                        token=e.result["token"],
                        invite=f"/t/{e.result['table_id']}",
                    ).model_dump_json()
                )
                done.append(t)
            elif e.state == "failed":
                waiter.send(
                    p.ErrorMessage(
                        code=str(e.result.get("code", "pool_failed")),
                        message="no table could be made for this pool; try again",
                        texts=dict(e.result.get("texts", {})),
                    ).model_dump_json()
                )
                done.append(t)
        if done:
            gone = set(done)
            await self.store.change(key, lambda pool: {t: None for t in gone if t in pool})
            for t in done:
                self.waiters.pop(t, None)
        people = waiting_of(pool)
        for t in mine:
            still = self.waiters.get(t)
            e = pool.get(t)
            if still is None or e is None:
                continue
            state = pool_state(key, e, people, now)
            shape = state.model_dump_json(exclude={"waiting", "waited"})
            shape += "|".join(f"{w.name}{w.you}" for w in state.waiting)
            if shape != still.last or now - still.sent_at >= STATE_EVERY:
                still.last, still.sent_at = shape, now
                still.send(state.model_dump_json())


def pool_state(key: PoolKey, you: Entry, people: Sequence[Entry], now: float) -> p.PoolState:
    """The pool as one entrant is shown it: who waits and for how long (signed-in people by
    name, guests as guests), and whether their own wait is over with no table yet."""
    return p.PoolState(
        ticket=you.ticket,
        preset=key.preset,
        seats=key.seats,
        rated=key.rated,
        waited=round(you.waited(now), 1),
        wait=you.wait,
        bots=you.bots,
        overdue=you.overdue(now) and you.state == "waiting",
        waiting=[
            p.PoolWaiting(
                name=e.name if e.player_id is not None else None,
                waited=round(e.waited(now), 1),
                bot=e.is_bot,
                you=e.ticket == you.ticket,
            )
            for e in people
        ],
    )


def _refusal(code: str) -> str:
    texts = server_texts(code)
    return p.ErrorMessage(code=code, message=texts.get("en", code), texts=texts).model_dump_json()


class TableMaker:
    """Makes a group's table the way a host's is made (:meth:`perudo.server.lobby.Lobby.create`
    for the oldest, :meth:`~perudo.server.lobby.Lobby.join` for the others), seats the bots
    that fill the empty seats, and starts the game."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def __call__(
        self, key: PoolKey, members: Sequence[Entry], bots: str | None
    ) -> dict[str, dict[str, Any]]:
        settings = self.lobby.settings
        try:
            config = TableConfig.build(
                preset=key.preset,
                seats=key.seats,
                turn_seconds=settings.turn_seconds or 60.0,
                min_turn_seconds=settings.min_turn_seconds,
                rated=key.rated,
            )
        except ValueError as err:
            raise TableError("bad_rules", str(err)) from None
        names = _distinct([m.name for m in members])
        first = members[0]
        table, seat, token = await self.lobby.create(
            name=server_texts("pool_table_name", name=names[0]).get("en", names[0])[:60],
            player=names[0],
            config=config,
            private=True,
            client=first.client,
            player_id=first.player_id,
            bot_account=first.is_bot,
        )
        out = {first.ticket: {"table_id": table.id, "seat": seat, "token": token}}
        for m, name in zip(members[1:], names[1:], strict=True):
            s, tok = await self.lobby.join(table.id, name, None, m.player_id, m.is_bot)
            out[m.ticket] = {"table_id": table.id, "seat": s, "token": tok}
        if bots is not None and any(s is None for s in table.seats):
            await table.fill_bots(None, bots)
        await table.start(None)
        return out


def _distinct(names: Sequence[str]) -> list[str]:
    """The members' names, made distinct at one table (a guest's name another member has
    gets a number)."""
    taken: set[str] = set()
    out: list[str] = []
    for name in names:
        candidate, n = name, 1
        while name_key(candidate) in taken:
            n += 1
            suffix = f" {n}"
            candidate = name[: 24 - len(suffix)] + suffix
        taken.add(name_key(candidate))
        out.append(candidate)
    return out


def waiting_of(pool: Mapping[str, Entry]) -> list[Entry]:
    """The entries still waiting (or being seated), oldest first."""
    return sorted(
        (e for e in pool.values() if e.state in ("waiting", "claimed")),
        key=lambda e: (e.since, e.ticket),
    )
