"""Debian's PostgreSQL (15 here) and Redis as real servers for the tests, on loopback.

Each server is a child process of the test run on a free loopback port, with its data, its
unix socket and its log in a temporary folder of its own; no system service is touched, and
everything is stopped and removed after. PostgreSQL refuses to run as root, so when the tests
run as root (CI, this machine) it runs as ``nobody`` (its folder is handed to that user).
Tuned for tests, not for safety: ``fsync=off`` on PostgreSQL and no persistence on Redis (a
restart loses only what a real deployment would rebuild: Redis holds no game state).

Use them through the fixtures of ``tests/server/conftest.py``: ``postgres_url`` (a fresh
database per test on one server per session), ``redis_url`` (the session's Redis, emptied per
test), ``pg_server`` / ``redis_server`` (the session's server objects, for tests that restart
them), or build a private one with :class:`PostgresServer` / :class:`RedisServer` and
``.start()``. Without the binaries the tests skip and say why (``make test`` installs them).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from tests.server.harness import free_port


def _pg_bin() -> Path:
    """Debian's newest installed PostgreSQL (15 on bookworm): ``/usr/lib/postgresql/N/bin``."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
REDIS_SERVER = Path("/usr/bin/redis-server")
NO_POSTGRES = (
    f"Debian's PostgreSQL is not installed ({PG_BIN}/postgres is missing; `make test` "
    "installs the postgresql package with apt; it could not be installed here)"
)
NO_REDIS = (
    f"Debian's Redis is not installed ({REDIS_SERVER} is missing; `make test` installs the "
    "redis-server package with apt; it could not be installed here)"
)
PG_USER = "perudo"
"""The database's superuser (the cluster trusts loopback: no password)."""


def postgres_available() -> bool:
    return (PG_BIN / "postgres").exists() and (PG_BIN / "initdb").exists()


def redis_available() -> bool:
    return REDIS_SERVER.exists()


def require_postgres() -> None:
    if not postgres_available():
        pytest.skip(NO_POSTGRES)


def require_redis() -> None:
    if not redis_available():
        pytest.skip(NO_REDIS)


def _unprivileged() -> dict[str, Any]:
    """``Popen`` arguments that run a child as ``nobody`` when the tests run as root."""
    if os.geteuid() != 0:
        return {}
    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def _own_folder(prefix: str) -> Path:
    """A fresh folder under the system's temporary folder (pytest's own is private to root),
    owned by the user the server will run as."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
    folder.chmod(0o700)
    return folder


def _wait(what: str, ready: Any, proc: subprocess.Popen[bytes], log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited ({proc.returncode}): {_tail(log)}")
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not become ready in {seconds} s: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-2000:]
    except OSError:
        return "(no log)"


def _stop(proc: subprocess.Popen[bytes] | None, sig: int) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class PostgresServer:
    """A PostgreSQL cluster of its own: ``initdb`` once, then ``postgres`` in the foreground
    on ``127.0.0.1:port`` (the same port across restarts, so URLs stay valid)."""

    def __init__(self, durable: bool = False) -> None:
        require_postgres()
        self.durable = durable
        """``True``: PostgreSQL's own defaults (every commit flushed to disk), for figures;
        ``False``: no flushes at all, for quick tests."""
        self.dir = _own_folder("perudo-pg-")
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self._initdb()

    def _initdb(self) -> None:
        out = subprocess.run(
            [
                str(PG_BIN / "initdb"), "-D", str(self.data), "-U", PG_USER, "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync",
            ],
            capture_output=True,
            text=True,
            cwd=self.dir,
            **_unprivileged(),
        )  # fmt: skip
        if out.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{out.stdout}\n{out.stderr}")

    @property
    def url(self) -> str:
        """The app's URL (SQLAlchemy with asyncpg) of the server's ``perudo`` database."""
        return self.database_url("perudo")

    def database_url(self, database: str) -> str:
        """The app's URL of ``database`` on this server."""
        return f"postgresql+asyncpg://{PG_USER}@127.0.0.1:{self.port}/{database}"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> PostgresServer:
        assert not self.running, "PostgreSQL is already running"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port),
                    "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.dir}",
                    "-c", "max_connections=200", *self._speed,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.dir,
                **_unprivileged(),
            )  # fmt: skip
        _wait("postgres", self._ready, self.proc, self.log, 30)
        if not self.sql("SELECT 1 FROM pg_database WHERE datname = 'perudo'"):
            self.sql("CREATE DATABASE perudo")
        return self

    @property
    def _speed(self) -> list[str]:
        if self.durable:
            return []
        return ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]

    def _ready(self) -> bool:
        out = subprocess.run(
            [str(PG_BIN / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
            capture_output=True,
        )
        return out.returncode == 0

    def stop(self) -> None:
        """A fast shutdown (SIGINT): open connections are cut, as on a real restart."""
        import signal

        _stop(self.proc, signal.SIGINT)

    def kill(self) -> None:
        """SIGKILL to the postmaster (its backends see it gone and quit): a crash."""
        import signal

        _stop(self.proc, signal.SIGKILL)

    def restart(self) -> PostgresServer:
        self.stop()
        return self.start()

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one statement with ``psql`` and return its unaligned output."""
        out = subprocess.run(
            [
                str(PG_BIN / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", "127.0.0.1", "-p", str(self.port), "-U", PG_USER, "-d", database,
                "-c", statement,
            ],
            capture_output=True,
            text=True,
        )  # fmt: skip
        if out.returncode != 0:
            raise RuntimeError(f"psql {statement!r} failed: {out.stderr}")
        return out.stdout.strip()

    def create_database(self) -> str:
        """A fresh, empty database; returns its name."""
        name = "t_" + uuid.uuid4().hex[:16]
        self.sql(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        if self.running:
            self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def close(self) -> None:
        """Stop the server and remove its folder."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class RedisServer:
    """``redis-server`` on ``127.0.0.1:port`` with a unix socket, no persistence."""

    def __init__(self) -> None:
        require_redis()
        self.dir = _own_folder("perudo-redis-")
        self.log = self.dir / "redis.log"
        self.port = free_port()
        self.socket = self.dir / "redis.sock"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> RedisServer:
        assert not self.running, "Redis is already running"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1",
                    "--unixsocket", str(self.socket), "--unixsocketperm", "700",
                    "--dir", str(self.dir), "--save", "", "--appendonly", "no",
                    "--daemonize", "no", "--protected-mode", "yes", "--loglevel", "warning",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.dir,
                **_unprivileged(),
            )  # fmt: skip
        _wait("redis-server", lambda: self.command("PING") == "+PONG", self.proc, self.log, 15)
        return self

    def command(self, *words: str) -> str:
        """Send one command (RESP) over TCP and return the first line of the reply ("" when
        the server does not answer)."""
        request = f"*{len(words)}\r\n" + "".join(f"${len(w.encode())}\r\n{w}\r\n" for w in words)
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                s.sendall(request.encode())
                reply = b""
                while not reply.endswith(b"\r\n"):
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    reply += chunk
        except OSError:
            return ""
        return reply.decode(errors="replace").split("\r\n", 1)[0]

    def flush(self) -> None:
        assert self.command("FLUSHALL") == "+OK"

    def stop(self) -> None:
        import signal

        _stop(self.proc, signal.SIGTERM)

    def kill(self) -> None:
        import signal

        _stop(self.proc, signal.SIGKILL)

    def restart(self) -> RedisServer:
        self.stop()
        return self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
