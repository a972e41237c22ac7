"""A real SMTP server for the tests of mail (aiosmtpd on loopback): every mail it receives
lands in :class:`Inbox`. ``with smtp_server() as (inbox, port)``."""

from __future__ import annotations

import contextlib
import email
import queue
import re
import socket
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest

pytest.importorskip("aiosmtpd")

from aiosmtpd.controller import Controller  # noqa: E402

WAIT = 30.0
"""Seconds a test waits at most for a mail (it comes at once; this only ends a broken run)."""


class Inbox:
    """aiosmtpd's handler: every mail received, in order, its envelope's recipients in
    ``X-Envelope-To``."""

    def __init__(self) -> None:
        self.mails: queue.Queue[Message] = queue.Queue()

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        message["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
        self.mails.put(message)
        return "250 OK"

    def next(self) -> Message:
        return self.mails.get(timeout=WAIT)

    def empty(self) -> bool:
        return self.mails.empty()


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


def link(message: Message, purpose: str) -> tuple[str, str]:
    """The mailed link (``…/account#<purpose>=<token>``) and its token."""
    found = re.search(rf"(https?://\S+/account)#{purpose}=([A-Za-z0-9_-]+)", body(message))
    assert found is not None, body(message)
    return f"{found.group(1)}#{purpose}={found.group(2)}", found.group(2)


@contextlib.contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    # server_hostname: no lookup of this machine's name (seconds without reverse DNS).
    controller = Controller(inbox, hostname="127.0.0.1", port=port, server_hostname="localhost")
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
