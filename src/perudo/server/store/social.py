"""The store's rows of friends and notifications (:mod:`perudo.server.social`): follows,
blocks, invitations, Web Push subscriptions and the server's kept keys (revisions 0009 and
0010). Reads take a pooled connection; writes go through the store's one writer, so SQLite's
single writer is never contended."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .rows import PlayerRow
from .schema import (
    blocks_t,
    follows_t,
    invitations_t,
    players_t,
    push_subscriptions_t,
    server_keys_t,
)

__all__ = ["INVITATION_SECONDS", "Invitation", "SocialStore", "Subscription"]

INVITATION_SECONDS = 1800.0
"""How long an invitation stays open (then it is no longer shown nor accepted)."""


@dataclass(frozen=True, slots=True)
class Invitation:
    id: str
    from_id: int
    from_name: str
    to_id: int
    table_id: str
    table_name: str
    state: str
    at: float

    def json(self) -> dict[str, Any]:
        """As the page gets it: names, never account ids."""
        return {
            "id": self.id,
            "from": self.from_name,
            "table": self.table_id,
            "table_name": self.table_name,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    player_id: int
    device: str
    p256dh: str
    auth: str
    kinds: frozenset[str]
    lang: str = "en"


class SocialStore(StoreBase):
    """Follows, blocks, invitations, Web Push subscriptions and the server's kept keys."""

    async def _social_read(self, query: Any) -> list[Any]:
        async with self._reading() as conn:
            return list((await conn.execute(query)).all())

    async def _insert_once(self, table: Any, values: dict[str, Any]) -> bool:
        """Insert a row unless its primary key is there already; whether it was inserted."""

        async def op(conn: AsyncConnection) -> bool:
            try:
                async with conn.begin_nested():
                    await conn.execute(insert(table).values(**values))
            except IntegrityError:
                return False
            return True

        done: bool = await self._write(op)
        return done

    async def _social_delete(self, where: Any) -> int:
        async def op(conn: AsyncConnection) -> int:
            return int((await conn.execute(delete(where.table).where(where.clause))).rowcount)

        done: int = await self._write(op)
        return done

    # -- follows --------------------------------------------------------------------------

    async def follow(self, who: int, whom: int) -> None:
        await self._insert_once(
            follows_t, {"player_id": who, "followed_id": whom, "at": time.time()}
        )

    async def unfollow(self, who: int, whom: int) -> None:
        await self._social_delete(
            _Where(follows_t, and_(follows_t.c.player_id == who, follows_t.c.followed_id == whom))
        )

    async def following(self, who: int) -> list[PlayerRow]:
        """The live players ``who`` follows, by name."""
        return await self._social_players(follows_t, follows_t.c.followed_id, who)

    async def _social_players(self, table: Any, other: Any, who: int) -> list[PlayerRow]:
        rows = await self._social_read(
            select(players_t.c.id, players_t.c.name, players_t.c.created_at)
            .join(table, other == players_t.c.id)
            .where(table.c.player_id == who, players_t.c.deleted_at.is_(None))
            .order_by(players_t.c.name)
        )
        return [PlayerRow(r.id, r.name, None, r.created_at) for r in rows]

    # -- blocks ---------------------------------------------------------------------------

    async def block(self, who: int, whom: int) -> None:
        """``who`` blocks ``whom``: neither follows the other any more, and ``whom``'s
        pending invitations to ``who`` are withdrawn."""
        now = time.time()

        async def op(conn: AsyncConnection) -> None:
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(blocks_t).values(player_id=who, blocked_id=whom, at=now)
                    )
            except IntegrityError:
                pass
            await conn.execute(
                delete(follows_t).where(
                    or_(
                        and_(follows_t.c.player_id == who, follows_t.c.followed_id == whom),
                        and_(follows_t.c.player_id == whom, follows_t.c.followed_id == who),
                    )
                )
            )
            await conn.execute(
                update(invitations_t)
                .where(
                    invitations_t.c.from_id == whom,
                    invitations_t.c.to_id == who,
                    invitations_t.c.state == "pending",
                )
                .values(state="withdrawn")
            )

        await self._write(op)

    async def unblock(self, who: int, whom: int) -> None:
        await self._social_delete(
            _Where(blocks_t, and_(blocks_t.c.player_id == who, blocks_t.c.blocked_id == whom))
        )

    async def blocked(self, who: int) -> list[PlayerRow]:
        """The live players ``who`` blocks, by name."""
        return await self._social_players(blocks_t, blocks_t.c.blocked_id, who)

    async def blocked_by(self, accounts: Collection[int]) -> frozenset[int]:
        """Every account that one of ``accounts`` blocks."""
        if not accounts:
            return frozenset()
        rows = await self._social_read(
            select(blocks_t.c.blocked_id).where(blocks_t.c.player_id.in_(list(accounts)))
        )
        return frozenset(int(r.blocked_id) for r in rows)

    async def blockers_of(self, whom: int) -> frozenset[int]:
        """Every account that blocks ``whom``."""
        rows = await self._social_read(
            select(blocks_t.c.player_id).where(blocks_t.c.blocked_id == whom)
        )
        return frozenset(int(r.player_id) for r in rows)

    async def forget_social(self, player_id: int) -> None:
        """A deleted account: its follows and blocks (either way) and its devices'
        subscriptions go, its pending invitations (either way) are withdrawn."""

        async def op(conn: AsyncConnection) -> None:
            for table, other in ((follows_t, "followed_id"), (blocks_t, "blocked_id")):
                await conn.execute(
                    delete(table).where(
                        or_(table.c.player_id == player_id, table.c[other] == player_id)
                    )
                )
            await conn.execute(
                delete(push_subscriptions_t).where(push_subscriptions_t.c.player_id == player_id)
            )
            await conn.execute(
                update(invitations_t)
                .where(
                    or_(invitations_t.c.from_id == player_id, invitations_t.c.to_id == player_id),
                    invitations_t.c.state == "pending",
                )
                .values(state="withdrawn")
            )

        await self._write(op)

    # -- invitations ----------------------------------------------------------------------

    async def add_invitation(self, invitation: Invitation) -> None:
        await self._insert_once(
            invitations_t,
            {
                "id": invitation.id,
                "from_id": invitation.from_id,
                "to_id": invitation.to_id,
                "table_id": invitation.table_id,
                "table_name": invitation.table_name,
                "state": invitation.state,
                "at": invitation.at,
            },
        )

    def _invitations_query(self) -> Any:
        i = invitations_t
        return select(
            i.c.id,
            i.c.from_id,
            players_t.c.name.label("from_name"),
            i.c.to_id,
            i.c.table_id,
            i.c.table_name,
            i.c.state,
            i.c.at,
        ).join(players_t, players_t.c.id == i.c.from_id)

    async def invitation(self, invitation_id: str) -> Invitation | None:
        rows = await self._social_read(
            self._invitations_query().where(invitations_t.c.id == invitation_id)
        )
        return _invitation(rows[0]) if rows else None

    async def invitations_for(self, to_id: int, now: float) -> list[Invitation]:
        """``to_id``'s open invitations, newest first."""
        rows = await self._social_read(
            self._invitations_query()
            .where(
                invitations_t.c.to_id == to_id,
                invitations_t.c.state == "pending",
                invitations_t.c.at > now - INVITATION_SECONDS,
            )
            .order_by(invitations_t.c.at.desc())
        )
        return [_invitation(r) for r in rows]

    async def settle_invitation(self, invitation_id: str, to_id: int, state: str) -> bool:
        """Mark ``to_id``'s pending invitation ``state`` (``accepted``, ``declined``); whether
        it was pending (once only: a second accept finds it settled)."""

        async def op(conn: AsyncConnection) -> bool:
            done = await conn.execute(
                update(invitations_t)
                .where(
                    invitations_t.c.id == invitation_id,
                    invitations_t.c.to_id == to_id,
                    invitations_t.c.state == "pending",
                )
                .values(state=state)
            )
            return int(done.rowcount) == 1

        settled: bool = await self._write(op)
        return settled

    # -- Web Push -------------------------------------------------------------------------

    async def add_push_subscription(self, sub: Subscription) -> None:
        """Keep ``sub`` (a device's subscription, replacing what its endpoint had)."""
        s = push_subscriptions_t

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(delete(s).where(s.c.endpoint == sub.endpoint))
            # One subscription a device: a new endpoint of the same device replaces the old.
            await conn.execute(
                delete(s).where(s.c.player_id == sub.player_id, s.c.device == sub.device)
            )
            await conn.execute(
                insert(s).values(
                    endpoint=sub.endpoint,
                    player_id=sub.player_id,
                    device=sub.device,
                    p256dh=sub.p256dh,
                    auth=sub.auth,
                    kinds=",".join(sorted(sub.kinds)),
                    lang=sub.lang,
                    at=time.time(),
                )
            )

        await self._write(op)

    async def remove_push_subscription(self, player_id: int, device: str) -> int:
        s = push_subscriptions_t
        return await self._social_delete(
            _Where(s, and_(s.c.player_id == player_id, s.c.device == device))
        )

    async def forget_push_endpoint(self, endpoint: str) -> None:
        """The push service says the subscription is gone (404, 410)."""
        await self._social_delete(
            _Where(push_subscriptions_t, push_subscriptions_t.c.endpoint == endpoint)
        )

    async def push_subscriptions(self, player_id: int) -> list[Subscription]:
        s = push_subscriptions_t
        rows = await self._social_read(select(s).where(s.c.player_id == player_id))
        return [
            Subscription(
                r.endpoint,
                r.player_id,
                r.device,
                r.p256dh,
                r.auth,
                frozenset(k for k in r.kinds.split(",") if k),
                r.lang,
            )
            for r in rows
        ]

    async def kept_key(self, name: str, make: Callable[[], str]) -> str:
        """The server's key ``name``, made by ``make`` and kept the first time it is asked
        for (several processes starting at once keep the first one written)."""
        rows = await self._social_read(
            select(server_keys_t.c.value).where(server_keys_t.c.name == name)
        )
        if rows:
            return str(rows[0].value)
        await self._insert_once(server_keys_t, {"name": name, "value": make(), "at": time.time()})
        rows = await self._social_read(
            select(server_keys_t.c.value).where(server_keys_t.c.name == name)
        )
        return str(rows[0].value)


@dataclass(frozen=True, slots=True)
class _Where:
    table: Any
    clause: Any


def _invitation(r: Any) -> Invitation:
    return Invitation(
        r.id, r.from_id, r.from_name, r.to_id, r.table_id, r.table_name, r.state, r.at
    )
