"""The web app's settings: environment variables ``PERUDO_…`` over embedded defaults.

With nothing set, the app listens on http://127.0.0.1:8000 and keeps its games in an SQLite
file under ``./data/`` (created when missing). ``PERUDO_DATABASE_URL`` may name any
SQLAlchemy async URL; ``sqlite+aiosqlite:///…`` and ``postgresql+asyncpg://…`` take the same
code path (:mod:`perudo.server.store`).
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_DATABASE_URL", "Settings"]

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/perudo.db"


class Settings(BaseSettings):
    """Every knob of the server; each field reads ``PERUDO_<NAME>`` from the environment."""

    model_config = SettingsConfigDict(env_prefix="PERUDO_", extra="ignore", frozen=True)

    database_url: str = DEFAULT_DATABASE_URL
    """Where games are kept (SQLAlchemy async URL)."""
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    turn_seconds: float = Field(default=60.0, ge=0)
    """Default turn timer for new tables; 0 = no timer. A table may choose its own."""
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
    """Tables waiting for players or playing, at most; creating more is refused."""
    log_level: str = "info"
