"""The store's analyses of finished games (``analyses``, revision 0006): one row a game and a
viewer, which every process of the multi-process mode reads, owned by the process whose insert
made it (:mod:`perudo.server.analysis` runs it and writes its progress and result)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import StoreBase
from .schema import analyses_t

__all__ = ["AnalysisRow", "AnalysisStore"]


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    status: str
    """``running``, ``done`` or ``failed``."""
    done: int
    total: int
    result: str | None
    """The analysis (JSON) when done, the error's words when failed."""
    owner: str
    updated_at: float


class AnalysisStore(StoreBase):
    """Analyses' rows."""

    async def analysis_row(self, game_key: str, viewer: int) -> AnalysisRow | None:
        async with self._reading() as conn:
            r = (
                await conn.execute(
                    select(analyses_t).where(
                        analyses_t.c.game_key == game_key, analyses_t.c.viewer == viewer
                    )
                )
            ).first()
        if r is None:
            return None
        return AnalysisRow(r.status, r.done, r.total, r.result, r.owner, r.updated_at)

    async def claim_analysis(
        self, game_key: str, viewer: int, owner: str, now: float, stale: AnalysisRow | None
    ) -> bool:
        """Make ``owner`` the analysis's owner, running from nothing: insert its row, or take
        over ``stale`` (a running row whose owner stopped beating) if nobody else did first.
        Whether it did."""
        values = {
            "game_key": game_key,
            "viewer": viewer,
            "status": "running",
            "done": 0,
            "total": 0,
            "result": None,
            "owner": owner,
            "updated_at": now,
        }

        async def op(conn: AsyncConnection) -> bool:
            if stale is None:
                made = (
                    pg_insert(analyses_t)
                    if conn.dialect.name == "postgresql"
                    else sqlite_insert(analyses_t)
                    if conn.dialect.name == "sqlite"
                    else None
                )
                if made is None:  # another database: a plain insert, a conflict refused
                    result = await conn.execute(insert(analyses_t).values(**values))
                else:
                    result = await conn.execute(made.values(**values).on_conflict_do_nothing())
            else:
                result = await conn.execute(
                    update(analyses_t)
                    .where(
                        analyses_t.c.game_key == game_key,
                        analyses_t.c.viewer == viewer,
                        analyses_t.c.owner == stale.owner,
                        analyses_t.c.updated_at == stale.updated_at,
                    )
                    .values(**values)
                )
            return bool(result.rowcount == 1)

        claimed: bool = await self._write(op)
        return claimed

    async def update_analysis(self, game_key: str, viewer: int, owner: str, **values: Any) -> None:
        """Write ``owner``'s row (only while it owns it: a row taken over is the new
        owner's)."""

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                update(analyses_t)
                .where(
                    analyses_t.c.game_key == game_key,
                    analyses_t.c.viewer == viewer,
                    analyses_t.c.owner == owner,
                )
                .values(**values)
            )

        await self._write(op)
