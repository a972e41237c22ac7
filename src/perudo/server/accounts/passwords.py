"""Passwords: argon2id (by default ``argon2-cffi``'s RFC 9106 low-memory profile: 3 passes
over 64 MiB, 4 lanes; ``PERUDO_ARGON2_MEMORY_KIB`` and ``PERUDO_ARGON2_TIME_COST`` for small
machines), hashed and checked on a worker thread, at most :data:`AT_ONCE` at a time, so the
event loop that plays the moves never waits for one and a crowd of sign-ins cannot take
more than ``AT_ONCE`` times that memory.

A sign-in under a name that has no password (no such player, or one with passkeys only) is
checked against a dummy hash (of a random password, made once per set of parameters): it
takes the time a real check takes, so the answer's timing does not tell whether the name
exists.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = [
    "AT_ONCE",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "check_password",
    "hash_password",
    "hasher",
    "refusal",
]

MIN_LENGTH: Final = 8
MAX_LENGTH: Final = 256
AT_ONCE: Final = 2
"""Argon2 computations running at once in a process (each holds 64 MiB while it runs)."""

_slots = threading.BoundedSemaphore(AT_ONCE)


@cache
def hasher(memory_kib: int = 65536, time_cost: int = 3) -> PasswordHasher:
    """The hasher for these parameters (new hashes are made with them; a stored hash is
    checked with the parameters it records)."""
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=4)


@cache
def _dummy(h: PasswordHasher) -> str:
    return h.hash(secrets.token_urlsafe(16))


def refusal(password: str, name: str) -> str | None:
    """Why ``password`` cannot be ``name``'s password (``account.password.<code>``)."""
    if len(password) < MIN_LENGTH:
        return "short"
    if len(password) > MAX_LENGTH:
        return "long"
    if password.casefold() == name.casefold():
        return "is_name"
    return None


def _hash(h: PasswordHasher, password: str) -> str:
    with _slots:
        return h.hash(password)


def _check(h: PasswordHasher, stored: str | None, password: str) -> bool:
    with _slots:
        try:
            return h.verify(stored or _dummy(h), password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False


async def hash_password(h: PasswordHasher, password: str) -> str:
    """The argon2id hash of ``password`` (salted; the password itself is never stored)."""
    return await asyncio.to_thread(_hash, h, password)


async def check_password(h: PasswordHasher, stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash; ``None`` (no password) checks
    against the dummy hash and answers ``False`` in the same time."""
    return await asyncio.to_thread(_check, h, stored, password)
