"""A live table: its seats, its game, its connections, and the one worker that changes them.

Everything that changes a table happens under its :attr:`LiveTable.lock`, one change at a
time: a person's action, a bot's, a chance roll (a new round's ``Deal``, a V-9 ``Reroll``),
a seat taken, a chat line. The server decides no rule: an action goes through
:func:`perudo.core.apply`, which refuses an illegal one with the rule it breaks, and the state
it returns is kept only after the move is durable in the store (write, then broadcast).

Every event gets the table's next *version*; each client receives only the events
:func:`perudo.core.visible_to` lets its seat see (P-70) and its seat's
``view(state, seat).to_json()``. A reconnecting client sends the last version it saw and gets
the events it missed, filtered for its seat, or a fresh snapshot.

Drivers: a bot seat is played server-side by a :class:`perudo.bots.Bot` through the seat's
view, with a pacing delay; bots are offered out-of-turn calza in the order of
:func:`perudo.sim.driver.pending`'s calza windows (P-53), first yes wins. A person who runs out
of turn time or whose connection drops (after a grace period) is *away*: a stand-in bot plays
the seat until they come back.

The parts, one file each:

* :mod:`.config`: :class:`TableConfig`, :class:`Seat`, :func:`hash_token`, :class:`TableError`;
* :mod:`.live`: :class:`LiveTable`: its state, connections and catching up, seats before the
  game, and the game's one action path (:meth:`LiveTable.apply_move`);
* :mod:`.presenter`: what each client is sent, drawn per seat (snapshots, updates, the
  table, chat lines, catching up);
* :mod:`.schedule`: the table's :class:`~.schedule.Scheduler`: what moves without a person
  asking (chance, bots and stand-ins, the turn timer and the drop timer), decided in one
  place (:meth:`~.schedule.Scheduler.decide`);
* :mod:`.chat`: the table's :class:`~.chat.TableChat`;
* :mod:`.backlog`: the recent versioned items kept for reconnecting clients.
"""

from __future__ import annotations

from .config import STANDIN_LEVEL as STANDIN_LEVEL
from .config import Seat, TableConfig, TableError, hash_token
from .live import LiveTable

__all__ = ["LiveTable", "Seat", "TableConfig", "TableError", "hash_token"]
