"""Play now's pool as a state machine (hypothesis): people join and leave pools through two
processes sharing one store, time passes, processes pass over the pools, die (``kill -9``:
their sockets gone, their entries left to lapse) and come back, and pages reconnect with their
tickets. Whatever happens: nobody is seated twice (nor one account in two seats, from two
tabs); nobody is seated across variants, sizes or
rated and unrated; a rated table's spread of ratings is one every member accepted when they
were claimed; bots fill only unrated tables of people who chose them; bot accounts sit only
with people who accept bots; and in the end everyone is seated, or told in words (their
place lost, or their wait over with nobody to play)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from perudo.server.play.match import MAX_WAIT, Entry, PoolKey, allowed_gap
from perudo.server.play.pool import CLAIM_FOR, POOL_GRACE, TICK, MemoryPoolStore, Pool
from perudo.server.tables import TableError

KEYS = [PoolKey("perudo", 2), PoolKey("perudo", 4), PoolKey("perudo", 2, rated=True)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Tables:
    """A stand-in for the lobby's table making: what was made, and for whom."""

    def __init__(self) -> None:
        self.made: list[tuple[PoolKey, list[Entry], str | None]] = []
        self.fail_next = False

    async def __call__(
        self, key: PoolKey, members: Sequence[Entry], bots: str | None
    ) -> dict[str, dict[str, Any]]:
        if self.fail_next:
            self.fail_next = False
            raise TableError("too_many_tables", "the server holds too many tables")
        n = len(self.made)
        self.made.append((key, list(members), bots))
        return {
            m.ticket: {"table_id": f"t{n}", "seat": i, "token": "x"} for i, m in enumerate(members)
        }


async def settle(pool: Pool) -> None:
    """Let the tables a process is making be made."""
    await asyncio.gather(*pool._making)


class PoolMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.clock = Clock()
        self.store = MemoryPoolStore()
        self.tables = Tables()
        self.generation = 0
        self.pools = [self._process(i) for i in range(2)]
        self.inbox: dict[str, list[dict[str, Any]]] = {}
        self.where: dict[str, int | None] = {}
        """Each page's process (``None``: its process died; it has not reconnected)."""
        self.asked: dict[str, Entry] = {}
        self.left: set[str] = set()

    def _process(self, i: int) -> Pool:
        self.generation += 1
        return Pool(self.store, self.tables, f"p{i}-{self.generation}", self.clock)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def sender(self, ticket: str) -> Any:
        return lambda text: self.inbox[ticket].append(json.loads(text))

    def kinds(self, ticket: str) -> list[str]:
        return [m["type"] for m in self.inbox.get(ticket, [])]

    def done(self, ticket: str) -> bool:
        """Seated, or told their place is gone or their table failed."""
        return any(k in ("play_matched", "error") for k in self.kinds(ticket))

    def teardown(self) -> None:
        try:
            self._finally_everyone_seated_or_told()
        finally:
            self.loop.close()

    # -- rules ----------------------------------------------------------------------------

    @rule(
        at=st.integers(0, 1),
        key=st.sampled_from(KEYS),
        rating=st.integers(1000, 2200),
        wait=st.sampled_from([10.0, 30.0, 120.0]),
        bots=st.sampled_from([None, "easy"]),
        is_bot=st.booleans(),
        account=st.sampled_from([None, 1, 2]),
    )
    def join(
        self,
        at: int,
        key: PoolKey,
        rating: int,
        wait: float,
        bots: str | None,
        is_bot: bool,
        account: int | None,
    ) -> None:
        ticket = f"ticket-{len(self.asked):04d}-xxxxxxxx"
        bots = None if key.rated else bots
        entry = Entry(
            ticket,
            key,
            f"p{len(self.asked)}",
            account,
            rating,
            self.clock.now,
            wait,
            bots=bots,
            is_bot=is_bot,
            accepts_bots=bots is not None,
        )
        self.asked[ticket] = entry
        self.inbox[ticket] = []
        self.where[ticket] = at
        self.run(self.pools[at].join(entry, self.sender(ticket)))

    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        here = [t for t, at in self.where.items() if at is not None and not self.done(t)]
        if not here:
            return
        ticket = data.draw(st.sampled_from(sorted(here)))
        at = self.where[ticket]
        assert at is not None
        how = self.run(self.pools[at].leave(ticket))
        if how == "left":
            self.left.add(ticket)
        if how != "seating":
            self.where[ticket] = None

    @rule(seconds=st.sampled_from([TICK, 3.0, 11.0, 40.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.now += seconds

    @rule(at=st.integers(0, 1))
    def tick(self, at: int) -> None:
        pool = self.pools[at]
        self.run(pool.tick())
        self.run(settle(pool))
        self.run(pool.tick())

    @rule(at=st.integers(0, 1))
    def kill(self, at: int) -> None:
        """kill -9: the process's sockets and its tables in the making are gone."""
        for task in self.pools[at]._making:
            task.cancel()
        self.pools[at] = self._process(at)
        for t, where in self.where.items():
            if where == at:
                self.where[t] = None

    @rule(data=st.data(), to=st.integers(0, 1))
    def reconnect(self, data: st.DataObject, to: int) -> None:
        """A page whose process died comes back at a process with its ticket."""
        lost = [t for t, at in self.where.items() if at is None and t not in self.left]
        lost = [t for t in lost if not self.done(t)]
        if not lost:
            return
        ticket = data.draw(st.sampled_from(sorted(lost)))
        self.where[ticket] = to
        self.run(self.pools[to].join(self.asked[ticket], self.sender(ticket)))

    @precondition(lambda self: not self.tables.fail_next)
    @rule()
    def next_table_fails(self) -> None:
        self.tables.fail_next = True

    # -- what always holds ------------------------------------------------------------------

    @invariant()
    def nobody_seated_twice_nor_across_pools(self) -> None:
        seated: set[str] = set()
        for key, members, bots in self.tables.made:
            tickets = [m.ticket for m in members]
            assert not seated & set(tickets), f"seated twice: {seated & set(tickets)}"
            seated.update(tickets)
            assert all(m.key == key for m in members), "seated across pools"
            accounts = [m.player_id for m in members if m.player_id is not None]
            assert len(accounts) == len(set(accounts)), "one account in two seats"
            assert 1 <= len(members) <= key.seats
            if bots is None:
                assert len(members) == key.seats, "a table started short without bots"
            else:
                assert not key.rated, "bots at a rated table"
                assert all(m.bots is not None for m in members), "bots for one who chose none"
            if key.rated:
                spread = max(m.rating for m in members) - min(m.rating for m in members)
                for m in members:
                    assert spread <= allowed_gap(m.claimed_at - m.since), "rating gap"
            if any(m.is_bot for m in members):
                assert all(m.accepts_bots for m in members if not m.is_bot)
                assert not all(m.is_bot for m in members), "a table of bot accounts alone"
            assert not set(tickets) & self.left, "seated after leaving"
        for t in self.asked:
            assert self.kinds(t).count("play_matched") <= 1

    def _finally_everyone_seated_or_told(self) -> None:
        """Every page comes back (at process 0), the waits all run out, the processes pass
        over the pools: each is seated, told in words, or waits told that its wait is over
        (it chose no bots, or is a bot account) and free to leave."""
        for t, at in self.where.items():
            if at is None and t not in self.left and not self.done(t):
                self.where[t] = 0
                self.run(self.pools[0].join(self.asked[t], self.sender(t)))
        self.tables.fail_next = False
        self.clock.now += MAX_WAIT + CLAIM_FOR + POOL_GRACE
        for _ in range(3):
            for pool in self.pools:
                self.run(pool.tick())
                self.run(settle(pool))
        for t, entry in self.asked.items():
            if t in self.left or self.done(t):
                continue
            last = [m for m in self.inbox[t] if m["type"] == "pool"][-1]
            assert last["overdue"], f"{t} waits untold: {last}"
            # Bots fill a table of people only: a bot account alone keeps waiting for one.
            assert entry.bots is None or entry.is_bot, f"{t} chose bots but waits: {last}"
        for t in self.asked:
            if "play_matched" in self.kinds(t):
                assert any(t in [m.ticket for m in ms] for _, ms, _ in self.tables.made)


PoolMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_play_now_pool = PoolMachine.TestCase
