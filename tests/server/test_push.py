"""Web Push (perudo.server.social.push, docs/server.md#web-push) through a real server to a
push endpoint served by this test on the loopback: a device subscribes per kind; "you are
invited" is sent only while none of the person's pages on that device is in front; "your table
is starting" and "your turn" follow; each notice is decrypted here with the device's own
private key (RFC 8291, ``http_ece``) and carries a kind, a table's id, names and words in the
device's language, never a hand (P-70); an endpoint off the allowed push services is refused.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from tests.server.harness import Client, ServerProcess, choose, free_port, run
from tests.server.test_friends import Person

Received = tuple[str, dict[str, str], bytes]


class PushService:
    """A push service on the loopback: every POST it receives, in order."""

    def __init__(self) -> None:
        self.port = free_port()
        self.got: queue.Queue[Received] = queue.Queue()
        got = self.got

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                got.put((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def next(self) -> Received:
        return self.got.get(timeout=20)


class Device:
    """A browser's push subscription: its key pair and auth secret (as PushManager makes)."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.auth = os.urandom(16)
        self.json = {
            "endpoint": endpoint,
            "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth)
        out: dict[str, Any] = json.loads(plain)
        return out


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.httpd.shutdown()


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory, service: PushService) -> Iterator[ServerProcess]:
    server = ServerProcess(
        tmp_path_factory.mktemp("push"),
        PERUDO_ARGON2_MEMORY_KIB="8192",
        PERUDO_ARGON2_TIME_COST="1",
        PERUDO_PUSH_SERVICES=f"fcm.googleapis.com,{service.url}",
        PERUDO_DROP_GRACE="30",
    ).start()
    yield server
    server.stop()


def _no_hand(payload: dict[str, Any], table: str) -> None:
    assert set(payload) == {"kind", "table", "url", "names", "title", "body"}
    assert payload["table"] == table and payload["url"] == f"/t/{table}"
    text = json.dumps(payload)
    for hidden in ("dice", "hand", "view", "legal", "token"):
        assert hidden not in text


def test_a_push_reaches_the_devices_endpoint_only_when_not_in_front_and_carries_no_hand(
    srv: ServerProcess, service: PushService
) -> None:
    ann, bo = Person(srv, "ann"), Person(srv, "bo")
    phone = Device(f"{service.url}/send/ann-phone")
    state = ann.http.get("/api/push", params={"device": "ann-phone-1"}).json()
    key = base64.urlsafe_b64decode(state["key"] + "==")
    assert len(key) == 65 and key[0] == 4 and state["subscribed"] == []
    assert state["kinds"] == ["turn", "invite", "start"]
    body = {"device": "ann-phone-1", "lang": "it", "kinds": ["turn", "invite", "start"]}
    # Only the allowed push services: never an address a page chose.
    for endpoint in ("https://evil.example/send/x", "http://127.0.0.1:9/send/x"):
        out = ann.call(
            "POST", "/api/push", {**body, "subscription": {**phone.json, "endpoint": endpoint}}
        )
        assert out.status_code == 400 and out.json()["error"] == "push_service", out.text
    assert (
        ann.call(
            "POST", "/api/push", {**body, "kinds": ["dice"], "subscription": phone.json}
        ).status_code
        == 400
    )
    assert ann.http.post("/api/push", json={**body, "subscription": phone.json}).status_code == 403
    assert ann.call("POST", "/api/push", {**body, "subscription": phone.json}).status_code == 204
    state = ann.http.get("/api/push", params={"device": "ann-phone-1"}).json()
    assert state["subscribed"] == ["invite", "start", "turn"]

    async def go() -> None:
        t = bo.table(seats=2)
        tid = t["table_id"]
        notices = await ann.notices()
        # Ann's page is in front on that phone: the invitation is shown there, not pushed.
        await notices.ws.send(
            json.dumps({"type": "visible", "visible": True, "device": "ann-phone-1"})
        )
        await notices.ping()
        assert (await notices.next())["type"] == "pong"
        other = bo.table(seats=2, name="Saturday")["table_id"]
        first = bo.call("POST", "/api/invitations", {"name": ann.name, "table": other}).json()
        assert (await notices.next())["invitation"]["id"] == first["id"]
        # The page goes to the background: the next invitation is pushed.
        await notices.ws.send(
            json.dumps({"type": "visible", "visible": False, "device": "ann-phone-1"})
        )
        await notices.ping()
        assert (await notices.next())["type"] == "pong"
        second = bo.call("POST", "/api/invitations", {"name": ann.name, "table": tid}).json()
        path, headers, raw = service.next()
        assert path == "/send/ann-phone"
        assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == "600"
        assert headers["authorization"].startswith("vapid t=")
        pushed = phone.read(raw)
        _no_hand(pushed, tid)
        assert pushed["kind"] == "invite" and pushed["names"] == {
            "from": bo.name,
            "table": "Friday",
        }
        assert pushed["body"] == f"{bo.name} ti invita a Friday."
        seat = ann.call("POST", f"/api/invitations/{second['id']}/accept").json()
        # The game starts, then Ann's turn comes: both pushed (no page of hers in front).
        a = await Client(srv, tid, seat["token"]).connect()
        b = await Client(srv, tid, t["token"]).connect()
        await b.send({"type": "start"})
        await a.until(lambda: a.view is not None and a.view["phase"] == "bidding")
        await b.until(lambda: b.view is not None and b.view["phase"] == "bidding")
        if b.my_turn():
            await b.act(choose(b.view or {}, random.Random(1)))
        # Two notices, each sent on its own (either may reach the service first).
        got = {}
        for _ in range(2):
            notice = phone.read(service.next()[2])
            _no_hand(notice, tid)
            got[notice["kind"]] = notice
        assert set(got) == {"start", "turn"}
        assert got["turn"]["body"] == "Tocca a te a Friday."
        await a.until(lambda: a.my_turn())
        for c in (a, b):
            await c.close()
        await notices.close()

    run(go())
    # Opting out of every kind forgets the device's subscription.
    assert (
        ann.call("POST", "/api/push", {**body, "kinds": [], "subscription": phone.json}).status_code
        == 204
    )
    assert ann.http.get("/api/push", params={"device": "ann-phone-1"}).json()["subscribed"] == []


def test_a_turn_notice_reads_an_accounts_subscriptions_once_in_a_while_not_every_turn() -> None:
    """A signed-in person's every turn asks for a push; their subscriptions are read from the
    store once and kept for ``SUBSCRIPTIONS_FRESH`` (a bench-load of signed-in people read them
    10,558 times where nobody had any), read again at once after a change made here."""
    import asyncio

    from perudo.server.settings import Settings
    from perudo.server.social.presence import Presence
    from perudo.server.social.push import Pusher

    reads: list[int] = []

    class Store:
        async def push_subscriptions(self, account: int) -> list[Any]:
            reads.append(account)
            return []

    pusher = Pusher(Store(), Presence(), Settings())  # type: ignore[arg-type]

    async def go() -> None:
        for _ in range(5):
            await pusher._notify(7, "turn", "t1", {}, set())
        assert reads == [7]
        pusher.forget()  # a subscription made or dropped through this process
        await pusher._notify(7, "turn", "t1", {}, set())
        await pusher._notify(8, "turn", "t1", {}, set())
        assert reads == [7, 7, 8]

    asyncio.run(go())


def test_a_subscription_read_that_a_change_overtook_is_not_kept() -> None:
    """A turn notice reading an account's subscriptions while a change is made through this
    process (a device moved to another account on a shared browser, a deletion) does not keep
    what it read: the next notice reads again."""
    import asyncio

    from perudo.server.settings import Settings
    from perudo.server.social.presence import Presence
    from perudo.server.social.push import Pusher

    reads: list[int] = []
    pusher: Any = None

    class Store:
        async def push_subscriptions(self, account: int) -> list[Any]:
            reads.append(account)
            if len(reads) == 1:
                pusher.forget()  # the change lands while this read is under way
            return []

    pusher = Pusher(Store(), Presence(), Settings())  # type: ignore[arg-type]

    async def go() -> None:
        await pusher._notify(7, "turn", "t1", {}, set())
        await pusher._notify(7, "turn", "t1", {}, set())
        await pusher._notify(7, "turn", "t1", {}, set())
        assert reads == [7, 7]

    asyncio.run(go())
