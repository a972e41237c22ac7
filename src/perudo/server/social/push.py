"""Web Push (RFC 8030, VAPID RFC 8292, through ``pywebpush``): the server's signing key and
the sender of the three notices a device may opt into (:data:`KINDS`).

The key is ``PERUDO_VAPID_PRIVATE_KEY`` (PEM) when set; else one made on the first start and
kept in the database (``server_keys``), so every process and every restart signs with it and
devices stay subscribed. A notice is sent to each of the person's devices that opted into its
kind and has no page of theirs in front (:class:`.presence.Presence`); it carries a kind, a
table's id and names, and the words to show in the device's language: never dice, a hand or
anything else of a game's view (P-70). A subscription whose push service answers 404 or 410
(the browser dropped it) is forgotten. Endpoints are taken only on the push services named by
``PERUDO_PUSH_SERVICES`` (docs/security.md): the server never posts to an address a page
chose.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import time
from collections.abc import Iterator, Mapping
from typing import Any, Final
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from perudo.i18n import LANGS, load_catalog

from ..settings import Settings
from ..store import Store
from ..store.social import Subscription
from .presence import Presence
from .shared import SharedPresence

__all__ = ["KINDS", "Pusher", "endpoint_allowed"]

log = logging.getLogger("perudo.server")

KINDS: Final = ("turn", "invite", "start")
""""your turn", "you are invited", "your table is starting"."""

TTL: Final = 600
"""Seconds a push service keeps a notice for a device that is off (then it is stale)."""
SUBSCRIPTIONS_FRESH: Final = 30.0
"""Seconds an account's subscriptions, as read, serve its notices (a change made through this
process is seen at once; one made through another process within this time)."""
SUBSCRIPTIONS_KEPT: Final = 10_000
"""Accounts whose subscriptions are kept so (the least lately read go first)."""


def endpoint_allowed(endpoint: str, services: list[str]) -> bool:
    """Whether a subscription's ``endpoint`` is on one of the allowed push ``services``:
    ``https://`` on a host that is one of them or under one (``fcm.googleapis.com``,
    ``mozilla.com``…); an entry written ``http://host:port`` allows that one address over
    plain HTTP (a push service on the loopback, in tests).

    >>> endpoint_allowed("https://fcm.googleapis.com/fcm/send/x", ["fcm.googleapis.com"])
    True
    >>> endpoint_allowed("https://evil.example/fcm.googleapis.com", ["fcm.googleapis.com"])
    False
    >>> endpoint_allowed("http://127.0.0.1:9/p", ["http://127.0.0.1:9"])
    True
    >>> endpoint_allowed("http://10.0.0.1/admin", ["http://127.0.0.1:9"])
    False
    """
    try:
        url = urlsplit(endpoint)
        host = (url.hostname or "").lower()
        port = url.port
    except ValueError:
        return False
    for service in services:
        if service.startswith("http://"):
            allowed = urlsplit(service)
            if url.scheme == "http" and host == allowed.hostname and port == allowed.port:
                return True
        elif url.scheme == "https" and (host == service or host.endswith("." + service)):
            return True
    return False


def _public_key(vapid: Vapid02) -> str:
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _new_key() -> str:
    vapid = Vapid02()
    vapid.generate_keys()
    pem: bytes = vapid.private_pem()
    return pem.decode()


class Pusher:
    """Sends the notices of one server; ``await open()`` loads (or makes) its key."""

    def __init__(
        self,
        store: Store,
        presence: Presence,
        settings: Settings,
        shared: SharedPresence | None = None,
    ) -> None:
        self.store = store
        self.presence = presence
        self.settings = settings
        self.shared = shared
        self.vapid: Vapid02 | None = None
        self.public_key = ""
        """The key a page subscribes with (``applicationServerKey``, base64url)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._subs: dict[int, tuple[float, list[Subscription]]] = {}
        """Each account's subscriptions as read lately (:data:`SUBSCRIPTIONS_FRESH`): a turn
        notice of a person with none reads nothing."""
        self._changes = 0
        """Subscription changes made through this process: a read that one overtook is not
        kept."""

    def forget(self) -> None:
        """A subscription changed here (made, dropped, moved from one account to another on a
        shared browser, an account deleted): read every account's again at its next notice."""
        self._changes += 1
        self._subs.clear()

    @contextlib.contextmanager
    def changing(self) -> Iterator[None]:
        """Around a write of subscriptions: what is kept is dropped before it and after it (a
        read under way meanwhile is not kept either)."""
        self.forget()
        try:
            yield
        finally:
            self.forget()

    async def _subscriptions(self, account: int) -> list[Subscription]:
        now = time.monotonic()
        held = self._subs.get(account)
        if held is not None and now - held[0] < SUBSCRIPTIONS_FRESH:
            return held[1]
        changes = self._changes
        subs = await self.store.push_subscriptions(account)
        if changes != self._changes:  # a change came while it was read: not kept
            return subs
        self._subs.pop(account, None)
        self._subs[account] = (now, subs)
        while len(self._subs) > SUBSCRIPTIONS_KEPT:
            del self._subs[next(iter(self._subs))]
        return subs

    async def open(self) -> None:
        pem = self.settings.vapid_private_key
        if pem is None:
            pem = await self.store.kept_key("vapid", _new_key)
        self.vapid = Vapid02.from_pem(pem.encode())
        self.public_key = _public_key(self.vapid)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            # Cancelled, or failed: a failure is logged by the task itself.
            with contextlib.suppress(BaseException):
                await task

    def notify(self, account: int, kind: str, table: str, names: Mapping[str, str]) -> None:
        """Send ``kind`` to ``account``'s devices (in the background)."""
        if self.vapid is None:
            return
        # Which devices have a page in front is taken now, when the notice happens.
        front = self.presence.in_front(account)
        task = asyncio.ensure_future(self._notify(account, kind, table, dict(names), front))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify(
        self, account: int, kind: str, table: str, names: dict[str, str], front: set[str]
    ) -> None:
        try:
            subs = await self._subscriptions(account)
        except Exception as err:
            log.warning("push: subscriptions not read: %s", err)
            return
        if self.shared is not None:
            for entry in (await self.shared.others(account)).values():
                front |= {str(d) for d in entry.get("front", [])}
        for sub in subs:
            if kind in sub.kinds and sub.device not in front:
                await self.send(sub, payload(kind, table, names, sub.lang))

    async def send(self, sub: Subscription, data: dict[str, Any]) -> bool:
        """Post one notice to ``sub``'s push service; whether it took it."""
        assert self.vapid is not None
        if not endpoint_allowed(sub.endpoint, self.settings.push_service_list):
            return False
        info: dict[str, Any] = {
            "endpoint": sub.endpoint,
            "keys": {"p256dh": sub.p256dh, "auth": sub.auth},
        }
        # Imported here: pywebpush brings aiohttp and requests (a third of a second), which a
        # server without push subscribers never needs at start.
        from pywebpush import WebPushException, webpush_async

        try:
            await webpush_async(
                info,
                json.dumps(data),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.settings.vapid_subject},
                ttl=TTL,
                timeout=10,
            )
        except WebPushException as err:
            status = getattr(err.response, "status", None) or getattr(
                err.response, "status_code", None
            )
            if status in (404, 410):
                with self.changing():
                    await self.store.forget_push_endpoint(sub.endpoint)
            log.info("push to a device refused (%s): %s", status, err)
            return False
        except Exception as err:  # the push service unreachable: the notice is lost
            log.info("push to a device failed: %s", err)
            return False
        return True


def payload(kind: str, table: str, names: Mapping[str, str], lang: str) -> dict[str, Any]:
    """What a notice carries: its kind, the table's id and path, names, and its words in
    ``lang``; nothing of any game's view.

    >>> payload("turn", "t1", {"table": "Friday"}, "en")["body"]
    'Your turn at Friday.'
    >>> sorted(payload("invite", "t1", {"table": "Friday", "from": "Ann"}, "it"))
    ['body', 'kind', 'names', 'table', 'title', 'url']
    """
    catalog = load_catalog(lang if lang in LANGS else "en")
    return {
        "kind": kind,
        "table": table,
        "url": f"/t/{table}",
        "names": dict(names),
        "title": catalog.t("push.title"),
        "body": catalog.t(f"push.{kind}", **names),
    }
