"""Reading a line from the person at a terminal, where a Ctrl-C is never lost.

The builtin :func:`input` has a gap: a Ctrl-C that lands after Python last checked for
signals and before the terminal read starts (the prompt just drawn) only marks the signal as
pending; the read then blocks, and the person's Ctrl-C does nothing until they press Enter.
A tester hit it: Ctrl-C typed as "Your move>" appeared, and the save question never came.

:func:`read_line` closes the gap with the standard library's own device for it: while it waits,
the signal handler also writes a byte to a pipe (:func:`signal.set_wakeup_fd`), and the wait
watches that pipe beside the terminal, so a Ctrl-C from any moment wakes it and raises
:class:`KeyboardInterrupt` there. The line itself is read as :func:`input` reads it where the
``readline`` module is not loaded (the game never loads it): the terminal's own line editing
(erase, kill the line), the input's encoding and error handler, the newline dropped,
:class:`EOFError` at Ctrl-D on an empty line or when the terminal hangs up. The prompt goes to
standard output (``input()`` writes it to standard error at a terminal).
"""

from __future__ import annotations

import errno
import os
import select
import signal
import sys
import threading

_pipe: tuple[int, int] | None = None


def _wakeup_pipe() -> tuple[int, int]:
    """One non-blocking pipe for the whole process, made on first use."""
    global _pipe
    if _pipe is None:
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)
        os.set_blocking(write_end, False)
        _pipe = (read_end, write_end)
    return _pipe


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def read_line(prompt: str = "") -> str:
    """Like :func:`input`, but a Ctrl-C pressed at any moment interrupts the wait.

    Where the input is not a terminal (a pipe, a file), or off the main thread, or off POSIX,
    this is :func:`input` itself: nobody types a Ctrl-C into a pipe.
    """
    stdin = sys.stdin
    if (
        os.name != "posix"
        or stdin is None
        or not stdin.isatty()
        or threading.current_thread() is not threading.main_thread()
    ):
        return input(prompt)
    fd = stdin.fileno()
    wake_read, wake_write = _wakeup_pipe()
    _drain(wake_read)
    # Signals wait while the wakeup fd is swapped: a Ctrl-C raised between the swap and the
    # saving of ``previous`` would leave the pipe installed for good. Let through in the try.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    previous = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = bytearray()
        while True:
            # A signal that came before this call left a byte in the pipe: no wait at all.
            # Its Python handler runs at the next instruction (KeyboardInterrupt for Ctrl-C);
            # any other signal's handler returns, and the wait goes on.
            ready, _, _ = select.select([fd, wake_read], [], [])
            if wake_read in ready:
                _drain(wake_read)
            if fd not in ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError as err:
                if err.errno != errno.EIO:
                    raise
                chunk = b""  # the terminal hung up: no more input, as at Ctrl-D
            if not chunk:  # Ctrl-D: the end of input, as input() says it on an empty line
                if not line:
                    raise EOFError
                break
            line += chunk
            if line.endswith(b"\n"):
                del line[-1:]
                break
    finally:
        signal.set_wakeup_fd(previous, warn_on_full_buffer=False)
    return line.decode(stdin.encoding or "utf-8", stdin.errors or "strict")
