"""Play now: a lobby button that puts a person in a pool by variant and table size (rated or
not), seats them with whoever else waits there (close in rating where the pool is rated), and
starts their table when it is full, or after the wait they chose with bots in the empty seats
(docs/server.md, "Play now").

* :mod:`.match`: the pure matching (who sits down together now);
* :mod:`.pool`: the pool's store (memory) and the loop that seats people, one per process;
* :mod:`.redis`: the pool's store in Redis, shared by every process (multi-process mode).

The pool socket is ``/ws/play`` (:mod:`perudo.server.routes.play`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .match import Entry, PoolKey, plan
from .pool import MemoryPoolStore, Pool, PoolStore, TableMaker

if TYPE_CHECKING:
    from ..lobby import Lobby

__all__ = ["Entry", "Pool", "PoolKey", "open_pool", "plan"]


def open_pool(lobby: Lobby) -> Pool:
    """This process's pool, started: in memory, or in Redis with the other processes."""
    store: PoolStore
    if lobby.node is None:
        store = MemoryPoolStore()
        node = "local"
    else:
        from .redis import RedisPoolStore

        store = RedisPoolStore(lobby.node.bus.redis)
        node = lobby.node.id
    pool = Pool(store, TableMaker(lobby), node)
    pool.start()
    return pool
