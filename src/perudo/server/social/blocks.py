"""What a block does at a table (docs/security.md#blocks): the person who blocks is never
sent the blocked account's chat lines or reactions, and the blocked account cannot take a seat
at a table where they sit (:meth:`perudo.server.tables.LiveTable.join`, refused with
``blocked``).

Who a socket speaks for is known two ways: the session's cookie its page opened it with
(:attr:`Connection.account`, this process's sockets), and the seat its hello's token names
(the seat's account, on whichever process drives the table). At each hello the socket's
:attr:`Connection.hidden` becomes every account those block; a block made later updates the
open sockets of its maker (:meth:`.hub.Social.update_hidden`).
"""

from __future__ import annotations

import logging

from .. import protocol as p
from ..connection import Connection
from ..store import StoreError
from ..tables import LiveTable

__all__ = ["before_hello"]

log = logging.getLogger("perudo.server")


async def before_hello(table: LiveTable, conn: Connection, msg: p.Hello) -> None:
    """Set what ``conn`` hides before its hello attaches it (no read for a socket that
    speaks for no account: a crowd of guests costs nothing here)."""
    accounts: set[int] = set()
    if conn.account is not None:
        accounts.add(conn.account)
    if msg.token:
        seat = table.seat_of_token(msg.token)
        held = table.seats[seat] if seat is not None else None
        if held is not None and held.player_id is not None:
            accounts.add(held.player_id)
    if not accounts:
        return
    try:
        conn.hidden = await table.store.blocked_by(accounts)
    except StoreError as err:
        log.warning("table %s: a socket's blocks not read: %s", table.id, err)
