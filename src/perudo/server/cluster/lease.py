"""Table leases: which process drives a table, and the fencing token the database enforces.

A lease is one row of ``table_leases(table_id, owner, token, expires_at)`` in PostgreSQL. A
process *claims* a table whose lease has expired (or that has none): the row is taken in one
statement and its ``token`` goes up by one at every takeover. The owner renews all its leases in
one statement every third of the lease (:meth:`Leases.renew`); a lease it no longer finds under
its name was taken over, and the process lets the table go.

Timing alone cannot stop a process that was paused (a long stall, ``SIGSTOP``, a VM frozen)
and wakes believing its lease is still good. So the **database** refuses its writes: every row
a table's owner writes (an action appended to ``game_actions``, an update of ``tables``, a chat
line) carries the token it holds (the store's :attr:`~perudo.server.store.Store.fence_of`), and
the trigger :data:`FENCE_SQL` compares it, under a share lock of the lease row, with the lease's
token: a write carrying an old token (or none) for a leased table raises ``perudo_fenced``, and
the whole transaction is rolled back. A takeover updates the lease row, so it waits for the
writes in flight under the old token to commit, and every write after it sees the new one.
Times are the database's clock (``clock_timestamp()``), never a process's.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["FENCE_SQL", "LEASES_SQL", "ClusterRunning", "Leases", "leave_cluster_mode"]

NOW = "extract(epoch from clock_timestamp())"

LEASES_SQL = """
CREATE TABLE IF NOT EXISTS table_leases (
    table_id varchar(32) PRIMARY KEY,
    owner varchar(80) NOT NULL,
    token bigint NOT NULL,
    expires_at double precision NOT NULL
)
"""

INDEX_SQL = [
    # Each process renews its leases by owner; each scan looks for tables waiting or playing.
    "CREATE INDEX IF NOT EXISTS table_leases_owner ON table_leases (owner)",
    "CREATE INDEX IF NOT EXISTS tables_status ON tables (status)",
]

FENCE_SQL = [
    """
CREATE OR REPLACE FUNCTION perudo_fence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    tid text;
    held bigint;
BEGIN
    IF TG_TABLE_NAME = 'game_actions' THEN
        SELECT g.table_id INTO tid FROM games g WHERE g.id = NEW.game_id;
    ELSIF TG_TABLE_NAME = 'tables' THEN
        tid := NEW.id;
    ELSE
        tid := NEW.table_id;
    END IF;
    SELECT l.token INTO held FROM table_leases l WHERE l.table_id = tid FOR SHARE;
    IF FOUND AND held IS DISTINCT FROM NEW.fence THEN
        RAISE EXCEPTION 'perudo_fenced: table % is leased under fencing token %, '
            'this write carried %', tid, held, coalesce(NEW.fence::text, 'none');
    END IF;
    IF TG_TABLE_NAME = 'tables' THEN
        -- The token is spent by the write that carried it: an UPDATE that does not set
        -- fence itself carries none (not the last writer's) and is refused under a lease.
        NEW.fence := NULL;
    END IF;
    RETURN NEW;
END
$$
""",
    *(
        # Made once (a trigger made again would lock its table against every writer).
        f"""
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger
                   WHERE tgname = 'perudo_fence' AND tgrelid = '{table}'::regclass) THEN
        CREATE TRIGGER perudo_fence BEFORE {event} ON {table}
            FOR EACH ROW EXECUTE FUNCTION perudo_fence();
    END IF;
END $$
"""
        for table, event in (
            ("game_actions", "INSERT"),
            ("tables", "UPDATE"),
            ("chat_messages", "INSERT"),
        )
    ),
]
"""The fencing trigger on every table a table's owner writes to (``seats`` and ``games`` are
written only in transactions that also update ``tables``, so they are covered too)."""

INSTALL_LOCK = 0x70657275646F + 1
"""Advisory lock held while a process installs the lease table and the trigger."""


class ClusterRunning(RuntimeError):
    """A single process was started on a database that processes in multi-process mode
    hold leases on right now."""


async def leave_cluster_mode(engine: AsyncEngine) -> None:
    """One process on a PostgreSQL database that several used before: the fencing trigger
    goes (this process writes without tokens) and the leases with it.

    :raises ClusterRunning: a lease is live (processes in multi-process mode run on this
        database now); nothing was changed.
    """
    async with engine.begin() as conn:
        found = (
            await conn.exec_driver_sql("SELECT to_regclass('table_leases') IS NOT NULL")
        ).scalar()
        if not found:
            return
        await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({INSTALL_LOCK})")
        live = (
            await conn.exec_driver_sql(
                f"SELECT count(*) FROM table_leases WHERE expires_at > {NOW}"
            )
        ).scalar()
        if live:
            raise ClusterRunning(
                f"this database is in use by processes in multi-process mode ({live} live "
                "table leases): start this process with PERUDO_REDIS_URL to join them, or "
                "stop them first"
            )
        for table in ("game_actions", "tables", "chat_messages"):
            await conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS perudo_fence ON {table}")
        await conn.exec_driver_sql("DROP TABLE IF EXISTS table_leases")


class Leases:
    """This process's side of the lease table (``owner``: its unique id)."""

    def __init__(self, engine: AsyncEngine, owner: str, seconds: float) -> None:
        self.engine = engine
        self.owner = owner
        self.seconds = seconds

    async def install(self) -> None:
        """Make the lease table and the fencing trigger (idempotent; one process at a time)."""
        async with self.engine.begin() as conn:
            await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({INSTALL_LOCK})")
            await conn.exec_driver_sql(LEASES_SQL)
            for sql in [*INDEX_SQL, *FENCE_SQL]:
                await conn.exec_driver_sql(sql)

    async def claim(self, table_id: str) -> int | None:
        """Take ``table_id`` if its lease has expired or it has none; its new fencing token,
        or ``None`` when another process (or this one) holds it."""
        async with self.engine.begin() as conn:
            # A lease row locked by a writer that hangs (a paused process inside its
            # transaction) must not hang the claim: it fails and is tried at the next scan.
            await conn.exec_driver_sql("SET LOCAL lock_timeout = '2s'")
            row = (
                await conn.execute(
                    text(
                        "INSERT INTO table_leases (table_id, owner, token, expires_at) "
                        f"VALUES (:t, :me, 1, {NOW} + :d) "
                        "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
                        "token = table_leases.token + 1, expires_at = EXCLUDED.expires_at "
                        f"WHERE table_leases.expires_at < {NOW} RETURNING token"
                    ),
                    {"t": table_id, "me": self.owner, "d": self.seconds},
                )
            ).first()
        return None if row is None else int(row[0])

    async def renew(self) -> dict[str, int]:
        """Renew every lease held under this process's name; the tables still held, with their
        tokens (a table missing from the answer was taken over)."""
        async with self.engine.begin() as conn:
            rows = (
                await conn.execute(
                    text(
                        f"UPDATE table_leases SET expires_at = {NOW} + :d "
                        "WHERE owner = :me RETURNING table_id, token"
                    ),
                    {"me": self.owner, "d": self.seconds},
                )
            ).all()
        return {str(r[0]): int(r[1]) for r in rows}

    async def release(self, table_ids: Iterable[str] | None = None) -> None:
        """Let leases go now (all of this process's when ``table_ids`` is ``None``): another
        process may claim them at once (a graceful shutdown, a table no longer driven)."""
        sql = f"UPDATE table_leases SET expires_at = {NOW} - 1 WHERE owner = :me"
        params: dict[str, object] = {"me": self.owner}
        if table_ids is not None:
            sql += " AND table_id = ANY(:ids)"
            params["ids"] = list(table_ids)
        async with self.engine.begin() as conn:
            await conn.execute(text(sql), params)

    async def forget(self, table_id: str) -> None:
        """``table_id`` is closed for good: its lease row goes."""
        async with self.engine.begin() as conn:
            await conn.execute(
                text("DELETE FROM table_leases WHERE table_id = :t AND owner = :me"),
                {"t": table_id, "me": self.owner},
            )

    async def mark_broken(self, table_id: str, token: int) -> None:
        """``table_id`` could not be restored from the store: its status becomes ``broken``
        (under the lease this process holds, ``token``), so no process claims it again; its
        lease goes."""
        async with self.engine.begin() as conn:
            await conn.execute(
                text("UPDATE tables SET status = 'broken', fence = :f WHERE id = :t"),
                {"t": table_id, "f": token},
            )
            await conn.execute(
                text("DELETE FROM table_leases WHERE table_id = :t AND owner = :me"),
                {"t": table_id, "me": self.owner},
            )

    async def exists(self, table_id: str) -> bool:
        """Whether ``table_id`` is a table of the store (not closed, not broken)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text(
                        "SELECT 1 FROM tables WHERE id = :t "
                        "AND status NOT IN ('closed', 'broken')"
                    ),
                    {"t": table_id},
                )
            ).first()
        return row is not None

    async def owners(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """Who holds each table's lease now (``None``: nobody, it expired or never existed)."""
        ids = list(table_ids)
        if not ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    text(
                        "SELECT table_id, owner FROM table_leases "
                        f"WHERE table_id = ANY(:ids) AND expires_at >= {NOW}"
                    ),
                    {"ids": ids},
                )
            ).all()
        found = {str(r[0]): str(r[1]) for r in rows}
        return {t: found.get(t) for t in ids}

    async def orphans(self, limit: int) -> list[str]:
        """Tables waiting or playing whose lease has expired (their owner died or let go),
        or that never had one: they are to be claimed."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    text(
                        "SELECT t.id FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id "
                        "WHERE t.status IN ('open', 'playing') "
                        f"AND (l.table_id IS NULL OR l.expires_at < {NOW}) "
                        "ORDER BY random() LIMIT :n"
                    ),
                    {"n": limit},
                )
            ).all()
        return [str(r[0]) for r in rows]
