"""Several interchangeable ``perudo serve`` processes on one PostgreSQL and one Redis.

Switched on by ``PERUDO_REDIS_URL`` with a PostgreSQL ``PERUDO_DATABASE_URL``; without it
nothing here runs (one process, SQLite or PostgreSQL). Its parts:

* :mod:`.lease`: each table is driven by one process at a time under a lease whose fencing
  token PostgreSQL checks on every write of the table (a stale owner can never append);
* :mod:`.bus`: Redis pub/sub between the processes, their liveness, the shared lobby;
* :mod:`.remote`: sockets held by one process for a table driven by another;
* :mod:`.limits`: the per-client limits counted in Redis, over every process;
* :mod:`.node`: this process among the others (claiming, renewing, taking tables over).
"""

from .node import Node

__all__ = ["Node"]
