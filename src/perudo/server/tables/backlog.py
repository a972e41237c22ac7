"""The table's backlog: its recent versioned items, for clients that reconnect.

Every event, chat line and table change gets the table's next version and is kept here (up to
``Settings.replay_buffer`` items); a client that comes back with the last version it saw gets
the items after it that its seat may see, or a fresh snapshot when the gap is older than what
is kept (:attr:`Backlog.floor`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from perudo.core.events import reaches

__all__ = ["Backlog"]


class Backlog:
    """Recent items ``(version, audience seat or None, kind, payload as JSON text)``.

    Payloads are kept as text: strings are invisible to the garbage collector, which matters
    with many tables.
    """

    def __init__(self, size: int) -> None:
        self.items: deque[tuple[int, int | None, str, str]] = deque(maxlen=size)
        self.floor = 0
        """Versions after this one are all kept (until the deque wraps)."""

    def remember(self, version: int, audience: int | None, kind: str, payload: str) -> None:
        """Keep a versioned item (the oldest falls out when full)."""
        if len(self.items) == self.items.maxlen:
            self.floor = self.items[0][0]
        self.items.append((version, audience, kind, payload))

    def reset(self, version: int) -> None:
        """Forget everything: only items after ``version`` will be kept (a new game)."""
        self.items.clear()
        self.floor = version

    def covers(self, last: int, now: int) -> bool:
        """Whether every item after version ``last`` (up to ``now``) is still kept."""
        return self.floor <= last <= now

    def after(self, last: int, seat: int | None) -> Iterator[tuple[str, str]]:
        """``(kind, payload)`` of the items after ``last`` that ``seat`` may see, in order."""
        for version, audience, kind, payload in self.items:
            if version > last and reaches(audience, seat):
                yield kind, payload
