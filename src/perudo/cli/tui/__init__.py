"""The terminal client: a person plays against bots (``perudo play``) or replays a record.

It is a client like any other (ARCHITECTURE.md): the session holds the game state on the
trusted side, as a server's table worker does, but everything it shows the person comes from
:func:`perudo.core.view` for the person's seat and from events that
:func:`perudo.core.visible_to` lets through (P-70). Rules are decided by the core only.

Modules: :mod:`.hint` (the exact chance of a bid), :mod:`.words` (reading what the person
types), :mod:`.render` (drawing dice, the table and the reveal with ``rich``), :mod:`.session`
(the interactive loop), :mod:`.replay` (showing a saved record round by round).
"""
