"""Sending mail through the operator's SMTP server (``PERUDO_SMTP_*``, docs/accounts.md#recovery).

Python's :mod:`smtplib` on a worker thread, so the event loop never waits on a mail server:
STARTTLS (the default, port 587), implicit TLS (``tls``, port 465) or none (a local relay),
signed in with ``PERUDO_SMTP_USERNAME`` and ``PERUDO_SMTP_PASSWORD`` when set. A mail that
cannot be sent is logged (its recipient's domain and the error, never the link it carried)
and dropped: whoever asked is told the same either way.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import make_msgid

from ..settings import Settings

__all__ = ["send"]

log = logging.getLogger("perudo.server")

TIMEOUT = 20.0
"""Seconds a mail server has to answer each step."""


def _domain(settings: Settings) -> str:
    return (settings.smtp_from or "@localhost").rpartition("@")[2] or "localhost"


def _send(settings: Settings, message: EmailMessage) -> None:
    host = settings.smtp_host
    assert host is not None, "no PERUDO_SMTP_HOST: mail is off"
    # The greeting names the sender's domain (no lookup of this machine's name, which takes
    # seconds where reverse DNS does not answer).
    me = _domain(settings)
    smtp: smtplib.SMTP
    if settings.smtp_security == "tls":
        smtp = smtplib.SMTP_SSL(
            host,
            settings.smtp_port,
            local_hostname=me,
            timeout=TIMEOUT,
            context=ssl.create_default_context(),
        )
    else:
        smtp = smtplib.SMTP(host, settings.smtp_port, local_hostname=me, timeout=TIMEOUT)
    with smtp:
        if settings.smtp_security == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if settings.smtp_username is not None:
            smtp.login(settings.smtp_username, settings.smtp_password or "")
        smtp.send_message(message)


async def send(settings: Settings, to: str, subject: str, body: str) -> bool:
    """Send a plain-text mail to ``to``; whether the mail server took it."""
    message = EmailMessage()
    message["From"] = settings.smtp_from or ""
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=_domain(settings))
    message.set_content(body)
    try:
        await asyncio.to_thread(_send, settings, message)
    except (OSError, smtplib.SMTPException) as err:
        log.warning("mail to a %s address not sent: %s", to.rpartition("@")[2], type(err).__name__)
        return False
    return True
