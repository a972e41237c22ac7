"""Passwords: argon2id (by default ``argon2-cffi``'s RFC 9106 low-memory profile: 3 passes
over 64 MiB, 4 lanes; ``PERUDO_ARGON2_MEMORY_KIB`` and ``PERUDO_ARGON2_TIME_COST`` for small
machines), hashed and checked on one worker thread of their own, so that the event loop that
plays the moves never waits for one, and a crowd of sign-ins cannot take the machine from it:

* one computation at a time in a process (64 MiB while it runs), its four lanes computed in
  turn by that one thread (libargon2 would start a thread per lane, one core each: the
  result is the same, :func:`_raw`);
* the thread runs at the lowest CPU priority (:data:`NICE`, Linux), so the event loop's
  thread, and the server's other work, always win a core from it;
* it is not the event loop's default executor (which other work shares: a queue of checks
  there would hold that work up);
* beyond :data:`WAITING` computations waiting for the thread, one more is refused at once
  (:class:`Busy`, answered 429 ``busy``, "try again in a moment", before anything changed).

A sign-in under a name that has no password (no such player, or one with passkeys only) is
checked against a dummy hash (of a random password, made once per set of parameters): it
takes the time a real check takes, so the answer's timing does not tell whether the name
exists.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import concurrent.futures
import contextlib
import hmac
import os
import secrets
import sys
import threading
from collections.abc import Callable
from functools import cache
from typing import Any, Final, TypeVar

from argon2 import Parameters, PasswordHasher, extract_parameters, low_level
from argon2.exceptions import HashingError, InvalidHashError

__all__ = [
    "MAX_LENGTH",
    "MIN_LENGTH",
    "NICE",
    "WAITING",
    "Busy",
    "busy",
    "check_password",
    "hash_password",
    "hasher",
    "refusal",
]

MIN_LENGTH: Final = 8
MAX_LENGTH: Final = 256
WAITING: Final = 8
"""Password computations that may wait for the argon2 thread (besides the one it runs); one
more is refused at once (:class:`Busy`). At about a second each on a busy small machine, the
last of them waits some seconds."""
NICE: Final = 19
"""The argon2 thread's CPU priority (Linux's nice value: 19 is the lowest)."""


class Busy(Exception):
    """More than :data:`WAITING` password computations wait: this one is refused before it
    started (the route answers 429 ``busy``; nothing was hashed, checked or counted)."""


@cache
def hasher(memory_kib: int = 65536, time_cost: int = 3) -> PasswordHasher:
    """The hasher for these parameters (new hashes are made with them; a stored hash is
    checked with the parameters it records)."""
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=4)


def refusal(password: str, name: str) -> str | None:
    """Why ``password`` cannot be ``name``'s password (``account.password.<code>``)."""
    if len(password) < MIN_LENGTH:
        return "short"
    if len(password) > MAX_LENGTH:
        return "long"
    if password.casefold() == name.casefold():
        return "is_name"
    return None


_OK: Final = 0
"""libargon2's ``ARGON2_OK``."""
_DEFAULT_FLAGS: Final = 0
"""libargon2's ``ARGON2_DEFAULT_FLAGS`` (as ``argon2_hash`` sets them)."""


def _raw(p: Parameters, salt: bytes, password: bytes) -> bytes:
    """argon2's raw hash of ``password`` under ``p``, every lane computed by the calling
    thread (``threads`` 1: libargon2 fills the lanes in turn; the hash depends on the lanes,
    never on the threads)."""
    ffi = low_level.ffi
    out = ffi.new("uint8_t[]", p.hash_len)
    pwd = ffi.new("uint8_t[]", password)
    salted = ffi.new("uint8_t[]", salt)
    context = ffi.new(
        "argon2_context *",
        {
            "out": out,
            "outlen": p.hash_len,
            "pwd": pwd,
            "pwdlen": len(password),
            "salt": salted,
            "saltlen": len(salt),
            "secret": ffi.NULL,
            "secretlen": 0,
            "ad": ffi.NULL,
            "adlen": 0,
            "t_cost": p.time_cost,
            "m_cost": p.memory_cost,
            "lanes": p.parallelism,
            "threads": 1,
            "version": p.version,
            "allocate_cbk": ffi.NULL,
            "free_cbk": ffi.NULL,
            "flags": _DEFAULT_FLAGS,
        },
    )
    done = low_level.core(context, p.type.value)
    if done != _OK:
        raise HashingError(low_level.error_to_str(done))
    return bytes(ffi.buffer(out, p.hash_len))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _hash_now(h: PasswordHasher, password: str) -> str:
    """The encoded hash (PHC string, as ``h.hash`` writes it) of ``password`` with a new salt."""
    p = Parameters(
        type=h.type,
        version=low_level.ARGON2_VERSION,
        salt_len=h.salt_len,
        hash_len=h.hash_len,
        time_cost=h.time_cost,
        memory_cost=h.memory_cost,
        parallelism=h.parallelism,
    )
    salt = secrets.token_bytes(p.salt_len)
    raw = _raw(p, salt, password.encode())
    return (
        f"$argon2{p.type.name.lower()}$v={p.version}"
        f"$m={p.memory_cost},t={p.time_cost},p={p.parallelism}${_b64(salt)}${_b64(raw)}"
    )


def _verify_now(stored: str, password: str) -> bool:
    """Whether ``password`` matches the encoded hash ``stored`` (with the parameters it
    records), in constant time; a malformed hash matches nothing."""
    try:
        p = extract_parameters(stored)
        parts = stored.split("$")
        salt, expected = _unb64(parts[-2]), _unb64(parts[-1])
        return hmac.compare_digest(_raw(p, salt, password.encode()), expected)
    except (InvalidHashError, HashingError, binascii.Error, ValueError):
        return False


@cache
def _dummy(h: PasswordHasher) -> str:
    return _hash_now(h, secrets.token_urlsafe(16))


def _hash(h: PasswordHasher, password: str) -> str:
    return _hash_now(h, password)


def _check(h: PasswordHasher, stored: str | None, password: str) -> bool:
    return _verify_now(stored or _dummy(h), password) and stored is not None


def _lower_priority() -> None:
    """The argon2 thread's first act: its own CPU priority down to :data:`NICE` (on Linux a
    thread's nice value is its own, and a thread it starts inherits it). Where the system
    refuses, the thread runs at its process's priority rather than not at all (a failed
    initializer would break every sign-in)."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


_T = TypeVar("_T")

_executor: Final = concurrent.futures.ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="argon2", initializer=_lower_priority
)
_lock = threading.Lock()
_pending = 0
"""Computations submitted and not finished (the one running and those waiting)."""


def busy() -> bool:
    """Whether a password computation asked now would be refused (:class:`Busy`): a route
    that always runs one asks first, and refuses before any other work."""
    with _lock:
        return _pending > WAITING


def _finished(_future: concurrent.futures.Future[Any]) -> None:
    global _pending
    with _lock:
        _pending -= 1


def _submit(work: Callable[..., _T], *args: object) -> concurrent.futures.Future[_T]:
    """``work(*args)`` queued for the argon2 thread, or :class:`Busy` at once where
    :data:`WAITING` wait already."""
    global _pending
    with _lock:
        if _pending > WAITING:
            raise Busy
        _pending += 1
    future = _executor.submit(work, *args)
    future.add_done_callback(_finished)
    return future


async def hash_password(h: PasswordHasher, password: str) -> str:
    """The argon2id hash of ``password`` (salted; the password itself is never stored);
    :class:`Busy` when too many wait."""
    return await asyncio.wrap_future(_submit(_hash, h, password))


async def check_password(h: PasswordHasher, stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash; ``None`` (no password) checks
    against the dummy hash and answers ``False`` in the same time; :class:`Busy` when too
    many wait."""
    return await asyncio.wrap_future(_submit(_check, h, stored, password))
