"""One client connection: its messages written now when its socket takes them, else an
outbound queue drained by its own task; and a rate limit.

A table never waits on a slow client. A message goes straight onto the socket
(``write_now``: the server's own WebSocket protocol writes its frame there and then,
:func:`perudo.server.transport.websocket_protocol`) when nothing is queued before it and the
socket's buffer is under its high-water mark; otherwise it is queued and the connection's
task sends it when the socket drains. A client whose queue overflows is disconnected (it
reconnects and gets what it missed or a fresh view): a slow reader holds at most the socket's
buffer and :attr:`Connection.QUEUE_LIMIT` messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable

__all__ = ["Connection", "TokenBucket"]

_ids = itertools.count(1)


class TokenBucket:
    """``rate`` messages per second sustained, ``burst`` at once (per connection)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    async def acquire(self) -> bool:
        """:meth:`take`, where a bucket shared by several processes needs to ask Redis
        (:class:`perudo.server.cluster.limits.SharedBucket`)."""
        return self.take()


class Connection:
    """A WebSocket client at a table: its seat (``None``: spectator) and its outbound queue."""

    QUEUE_LIMIT = 2000

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        *,
        rate: float,
        burst: int,
        write_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.id = next(_ids)
        self.seat: int | None = None
        self.greeted = False
        self.bot_account: int | None = None
        """The bot account whose token opened this socket (``Authorization: Bearer``,
        docs/bot-api.md); ``None``: a page's socket. Only such a socket holds a bot account's
        seat, and it holds no other."""
        self.bot_token: str | None = None
        """The hash of that token: revoking it closes the socket."""
        self.bucket = TokenBucket(rate, burst)
        self.patience = TokenBucket(rate / 2, burst * 5)
        """Refusals for going over a rate limit draw on it; a connection that empties it
        (flooding on after being told) is closed."""
        self.last_limit_error = 0.0
        self._send_text = send_text
        self._close = close
        self._write_now = write_now
        """Writes a message on the socket now and says so, or says it cannot (the socket's
        buffer is full, or the socket is closing): then the message is queued."""
        self._holding = False
        """Whether the task holds a message taken from the queue and not yet sent: what
        comes meanwhile goes behind it."""
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self._close_code = 1000
        self.account: int | None = None
        """The signed-in person whose page opened this socket (their session's cookie)."""
        self.hidden: frozenset[int] = frozenset()
        """Accounts this socket's person blocks: their chat lines and reactions are not sent
        here (:mod:`perudo.server.social.blocks`)."""

    def start(self) -> None:
        self._task = asyncio.create_task(self._drain(), name=f"perudo-conn-{self.id}")

    def send(self, text: str) -> None:
        """Send ``text`` to the client: now, when nothing waits before it and the socket
        takes it; else after what is queued (never blocks)."""
        if self.closed:
            return
        if self._write_now is not None and not self._holding and self._queue.empty():
            try:
                if self._write_now(text):
                    return
            except Exception:
                pass  # queued: the task's send meets the same trouble and ends the connection
        if self._queue.qsize() >= self.QUEUE_LIMIT:
            # A client this far behind gets disconnected; it will resync on reconnect.
            self.send_close(1013)
            return
        self._queue.put_nowait(text)

    def send_close(self, code: int = 1000) -> None:
        """Close the connection once what is queued has been sent."""
        self.closed = True
        self._close_code = code
        self._queue.put_nowait(None)

    async def close_after_sending(self, code: int, within: float = 5.0) -> None:
        """Close once what is queued has been sent (waiting at most ``within`` seconds for
        it), then stop: a refusal's last words reach the client before the close frame."""
        self.send_close(code)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wait_closed(), within)
        await self.stop()

    async def wait_closed(self) -> None:
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _drain(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self._close(self._close_code)
                    return
                self._holding = True
                await self._send_text(text)
                self._holding = False
        except asyncio.CancelledError:
            raise
        except Exception:
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
