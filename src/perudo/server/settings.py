"""The web app's settings: environment variables ``PERUDO_…`` over embedded defaults.

With nothing set, the app listens on http://127.0.0.1:8000 and keeps its games in an SQLite
file under ``./data/`` (created when missing). ``PERUDO_DATABASE_URL`` may name any
SQLAlchemy async URL; ``sqlite+aiosqlite:///…`` and ``postgresql+asyncpg://…`` take the same
code path (:mod:`perudo.server.store`).

Behind a reverse proxy, ``PERUDO_TRUSTED_PROXIES`` names the proxies whose ``X-Forwarded-For``
and ``X-Forwarded-Proto`` headers are believed (:mod:`perudo.server.proxy`), and
``PERUDO_PUBLIC_URL`` is the address friends use, from which every absolute link the server
gives (invite links) is built.

>>> Settings(trusted_proxies=" 127.0.0.1, 10.0.0.0/8 ").trusted_proxy_list
['127.0.0.1', '10.0.0.0/8']
>>> Settings(public_url="https://dice.example.org/").public_url
'https://dice.example.org'
>>> Settings(public_url="https://dice.example.org").absolute("/t/abc")
'https://dice.example.org/t/abc'
"""

from __future__ import annotations

import ipaddress
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_DATABASE_URL", "Settings"]

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/perudo.db"


class Settings(BaseSettings):
    """Every knob of the server; each field reads ``PERUDO_<NAME>`` from the environment."""

    model_config = SettingsConfigDict(env_prefix="PERUDO_", extra="ignore", frozen=True)

    database_url: str = DEFAULT_DATABASE_URL
    """Where games are kept (SQLAlchemy async URL)."""
    redis_url: str | None = None
    """``redis://host:6379/0``: run as one of N interchangeable processes sharing this Redis
    and a PostgreSQL ``database_url`` (:mod:`perudo.server.cluster`). Unset: one process."""
    lease_seconds: float = Field(default=3.0, ge=0.3, le=60)
    """Multi-process mode: how long a process's lease on a table lasts without renewal (it is
    renewed every third of it); a dead owner's tables are taken over after about this long."""
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    turn_seconds: float = Field(default=60.0, ge=0)
    """Default turn timer for new tables; 0 = no timer. A table may choose its own."""
    min_turn_seconds: float = Field(default=5.0, ge=0.1, le=600)
    """The shortest turn timer a table may choose (other than 0, no timer)."""
    bot_delay: float = Field(default=1.2, ge=0)
    """Seconds a bot (or a stand-in for an absent player) waits before acting: pacing for
    humans watching; 0 in tests and benchmarks."""
    round_pause: float = Field(default=4.0, ge=0)
    """Seconds between a round's reveal and the next deal, so people can read the reveal."""
    drop_grace: float = Field(default=8.0, ge=0)
    """Seconds a seat whose last connection dropped stays its owner's before a bot stands in."""
    max_message_bytes: int = Field(default=4096, ge=256)
    """Largest client message the app reads; a larger one gets an error and is ignored."""
    ws_max_bytes: int = Field(default=1 << 20, ge=4096)
    """Largest frame the WebSocket layer accepts at all (beyond it the connection closes)."""
    ws_compression: bool = False
    """permessage-deflate on WebSockets: saves bandwidth on slow links, costs CPU per message
    (off by default: messages are small)."""
    rate_per_second: float = Field(default=10.0, gt=0)
    """Sustained client messages per second per connection (token bucket)."""
    rate_burst: int = Field(default=30, ge=1)
    """Messages a connection may send at once before the rate limit applies."""
    replay_buffer: int = Field(default=1024, ge=16)
    """Recent events kept per table for reconnecting clients; older gaps get a fresh view."""
    chat_history: int = Field(default=50, ge=0)
    """Chat lines sent to a client when it (re)connects."""
    max_open_tables: int = Field(default=1000, ge=1)
    """Tables waiting for players or playing, at most; creating more is refused. With several
    processes, the site's tables (counted in the shared database), not each process's."""
    transfer_seconds: float = Field(default=600.0, ge=1, le=86400)
    """How long a seat's transfer link (moving the seat to another device) stays valid."""
    # -- limits per client (its address, or the forwarded one from a trusted proxy) --------
    tables_per_client: int = Field(default=5, ge=1)
    """Tables one client may have waiting for players at once (docs/security.md); with several
    processes, over all of them (counted in Redis)."""
    creates_per_minute: float = Field(default=10.0, gt=0)
    """Tables one client may create per minute (sustained; bursts of ``tables_per_client``)."""
    connections_per_client: int = Field(default=200, ge=1)
    """Open WebSocket connections from one client (and half-open HTTP connections from one
    peer that is not a trusted proxy): sized for an address many people share (a household,
    a school, phones behind a carrier's NAT)."""
    joins_per_minute: float = Field(default=20.0, gt=0)
    """Seats one client may take a minute (``POST /api/tables/{id}/join``; bursts of
    ``joins_burst``)."""
    joins_burst: int = Field(default=10, ge=1)
    invites_per_minute: float = Field(default=60.0, gt=0)
    """Invite QR codes (``GET /api/tables/{id}/invite.svg``) one client may fetch a minute
    (bursts of ``invites_burst``)."""
    invites_burst: int = Field(default=20, ge=1)
    bot_tables: int = Field(default=10, ge=1)
    """Seats one bot account (docs/bot-api.md) may hold at once at tables waiting or playing,
    over every process (counted in the database)."""
    client_rate_per_second: float = Field(default=60.0, gt=0)
    """Messages per second from one client's sockets that speak for no seat (spectators), over
    all of them (bursts of 3 s' worth); sized for an address many people share. A seated
    person's messages draw on ``person_rate_per_second`` instead."""
    person_rate_per_second: float = Field(default=20.0, gt=0)
    """Messages per second from one person (the seat a socket speaks for,
    :func:`perudo.server.guard.person_key`) over all their connections (bursts of 3 s'
    worth): nobody else's traffic draws on it, from the same address or not."""
    chat_per_second: float = Field(default=1.0, gt=0)
    """Chat lines per second from one person, and from one client's sockets that speak for no
    seat (bursts of 5 each)."""
    table_chat_per_second: float = Field(default=4.0, gt=0)
    """Chat lines per second at one table, from everyone (bursts of 10)."""
    table_spectator_rate: float = Field(default=30.0, gt=0)
    """Messages per second from all of a table's spectators together (pings excepted): a
    crowd of spectators cannot starve the players, whose messages never wait on it."""
    chat_stored_per_table: int = Field(default=500, ge=10)
    """Chat lines kept in the store per table (older ones are deleted)."""
    # -- lifetimes and timeouts ---------------------------------------------------------------
    waiting_table_seconds: float = Field(default=1800.0, gt=0)
    """A table waiting for players with no one connected for this long is closed: it leaves
    the lobby and is not restored after a restart."""
    header_timeout: float = Field(default=10.0, gt=0)
    """Seconds a client has to send a request's headers; a slower one is cut off."""
    ws_idle_seconds: float = Field(default=120.0, gt=0)
    """A WebSocket that sends nothing (not even a ping; the page pings every 10 s) for this
    long is closed."""
    presence_delay: float = Field(default=0.5, ge=0)
    """Seconds a table waits to tell its clients who connected or left, so that a crowd
    arriving costs one table message per client, not one per client per arrival."""
    spectator_count_delay: float = Field(default=5.0, ge=0)
    """Seconds a table waits at most to tell its clients how many spectators it has (a
    seat's presence goes with ``presence_delay``)."""
    spectator_delay: float = Field(default=0.5, ge=0)
    """Seconds a table gathers the moves for its spectators: they get one update carrying
    every move made meanwhile (drawn once for them all), so a crowd costs a few messages a
    second whatever the pace of the game; the players' updates never wait."""
    connections_per_turn: int = Field(default=2, ge=1)
    """New connections whose first request is handled (parsed, a WebSocket handshake set
    up) in one turn of the event loop; more arriving together wait, unread, for the next
    turns (:class:`perudo.server.transport.Pacer`), so that a crowd's handshakes are spread
    between the players' moves instead of holding the loop in one go."""
    connections_per_second: float = Field(default=200.0, gt=0)
    """New connections let in a second, at most (the waiting take turns by client): a
    crowd arriving at once is set up at this pace, leaving the loop time for the players'
    moves, instead of saturating it."""
    arrivals_at_once: int = Field(default=8, ge=1)
    """WebSockets let in at once (handshake, then the wait for the first message); more
    arriving together wait their turn, so a crowd cannot hold up the tables in play."""
    spectators_per_table: int = Field(default=1000, ge=0)
    """Spectators one table holds at once; more are refused (``too_many_spectators``)."""
    max_body_bytes: int = Field(default=65536, ge=1024)
    """Largest HTTP request body; a larger one is refused with 413."""
    http_protocol: Literal["auto", "httptools", "h11"] = "auto"
    """uvicorn's HTTP implementation (``auto``: httptools when installed, else h11); the
    header timeout and the per-peer cap hold with either (:mod:`perudo.server.transport`)."""
    analysis_workers: int = Field(default=1, ge=0, le=64)
    """Worker processes that analyse finished games (``GET /api/games/{id}/analysis``), outside
    the event loop; 0: analyses are refused (``unavailable``)."""
    analysis_cache: int = Field(default=64, ge=1)
    """Analyses kept in memory, per game and seat (the oldest are dropped)."""
    log_level: str = "info"
    trusted_proxies: str = ""
    """Comma-separated addresses or networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``) of the
    reverse proxies in front of the app. Only a request whose peer is one of them has its
    client address and scheme taken from ``X-Forwarded-For`` / ``X-Forwarded-Proto``; from
    anyone else those headers are ignored. Empty (the default): no proxy is trusted."""
    argon2_memory_kib: int = Field(default=65536, ge=8192, le=1048576)
    """Accounts: the memory argon2id takes per password hashed or checked (KiB; RFC 9106's
    low-memory profile, 64 MiB, by default). Stored hashes keep their own parameters."""
    argon2_time_cost: int = Field(default=3, ge=1, le=10)
    """Accounts: argon2id's passes over that memory."""
    smtp_host: str | None = None
    """Accounts: the mail server through which e-mail addresses are confirmed and passwords
    reset by mail (docs/accounts.md#recovery). Unset (the default): no mail is sent, the
    page offers no reset and no address."""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_security: Literal["starttls", "tls", "none"] = "starttls"
    """``starttls`` (port 587), ``tls`` (implicit TLS, port 465) or ``none`` (a local relay)."""
    smtp_username: str | None = None
    """Sign in to the mail server with this name and ``smtp_password`` (unset: no sign-in)."""
    smtp_password: str | None = None
    smtp_from: str | None = None
    """The mail's ``From`` address (needed when ``smtp_host`` is set)."""
    public_url: str | None = None
    """The address friends open, e.g. ``https://dice.example.org`` or
    ``http://192.168.1.20:8000``: invite links are built on it. Unset: links are built from
    the address the request came to (``perudo serve --public`` sets it to the machine's
    first network address)."""

    # -- Web Push (perudo.server.social.push) -------------------------------------------------
    vapid_private_key: str | None = None
    """The server's Web Push signing key (VAPID, an elliptic-curve private key on the
    prime256v1 curve, in PEM). Unset: one is made on the first start and kept in the database,
    so every process and restart signs with it."""
    vapid_subject: str = "mailto:perudo@localhost"
    """Who runs the server, for the push services (a ``mailto:`` or ``https:`` address in
    every notice's VAPID claims)."""
    push_services: str = (
        "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com"
    )
    """Comma-separated host names of the push services a device's subscription may point at
    (a host or one under it, over HTTPS; ``http://host:port`` allows that one address over
    plain HTTP). The server posts notices only there, never to an address a page chose."""

    @property
    def push_service_list(self) -> list[str]:
        """:attr:`push_services` as a list."""
        return [s.lower() for s in _split(self.push_services)]

    @field_validator("trusted_proxies")
    @classmethod
    def _check_proxies(cls, value: str) -> str:
        for item in _split(value):
            try:
                if "/" in item:
                    ipaddress.ip_network(item, strict=False)
                else:
                    ipaddress.ip_address(item)
            except ValueError:
                raise ValueError(
                    f"{item!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8, ::1)"
                ) from None
        return value

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        scheme = urlsplit(value.strip()).scheme
        if scheme not in ("redis", "rediss", "unix"):
            raise ValueError(f"{value!r} is not a redis:// (or rediss://, unix://) address")
        return value.strip()

    @model_validator(mode="after")
    def _cluster_needs_postgresql(self) -> Settings:
        if self.redis_url is not None and not self.database_url.startswith("postgresql"):
            raise ValueError(
                "PERUDO_REDIS_URL (several processes) needs a PostgreSQL PERUDO_DATABASE_URL "
                "(postgresql+asyncpg://user:password@host/db): SQLite is one process's store"
            )
        return self

    @model_validator(mode="after")
    def _mail_needs_a_sender(self) -> Settings:
        if self.smtp_host is not None and not self.smtp_from:
            raise ValueError(
                "PERUDO_SMTP_HOST (mail) needs PERUDO_SMTP_FROM, the mail's From address "
                "(e.g. dice@example.org)"
            )
        return self

    @field_validator("smtp_host", "smtp_username", "smtp_password", "smtp_from")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return None if value is None or not value.strip() else value.strip()

    @property
    def mail(self) -> bool:
        """Whether mail is configured (``smtp_host``): addresses and resets by mail."""
        return self.smtp_host is not None

    @property
    def cluster(self) -> bool:
        """Whether this process is one of several (``redis_url`` set)."""
        return self.redis_url is not None

    @field_validator("public_url")
    @classmethod
    def _check_public_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        url = urlsplit(value.strip())
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"{value!r} is not an http:// or https:// address with a host name")
        if url.path.strip("/") or url.query or url.fragment:
            raise ValueError(
                f"{value!r}: serve Perudo at the root of its host name "
                "(a path, query or fragment is not supported)"
            )
        try:
            url.port  # noqa: B018 (validates the port)
        except ValueError as err:
            raise ValueError(f"{value!r}: {err}") from None
        return f"{url.scheme}://{url.netloc}"

    @property
    def trusted_proxy_list(self) -> list[str]:
        """:attr:`trusted_proxies` as a list (empty when none is trusted)."""
        return _split(self.trusted_proxies)

    def absolute(self, path: str, base: str | None = None) -> str:
        """``path`` (``/t/…``) as an absolute link: on :attr:`public_url` when set, else on
        ``base`` (the address a request came to, e.g. ``http://host:8000``)."""
        root = self.public_url or (base or "").rstrip("/")
        return root + path


def _split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]
