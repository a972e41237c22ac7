"""The solver's saved files: one compressed ``.npz`` with a JSON ``meta`` and named arrays.

A full solution (:class:`~perudo.solve.solution.Solution`), a packed round of the shipped book
(:class:`~perudo.solve.packed.PackedRound`) and an abstract strategy
(:class:`~perudo.solve.abstract.AbstractStrategy`) are all written by :func:`write_npz` and
read by :func:`read_npz`, which checks, in this order, the file's SHA-256 (when the book or
index gives one), that ``meta`` is a JSON object, its ``format`` (and any other field the
reader pins) and that every array the reader needs is there. Whatever the file, a wrong one is
a :class:`ValueError` naming the file and what is wrong; what is read is then checked against
the round by each reader (digest, fingerprint, shapes).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["read_json", "read_npz", "sha256_of", "write_npz"]


def sha256_of(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_npz(
    path: str | os.PathLike[str], meta: Mapping[str, Any], arrays: Mapping[str, npt.ArrayLike]
) -> Path:
    """Write ``arrays`` and ``meta`` (as JSON) to a compressed ``.npz`` at ``path`` (its
    folder made if need be); returns the path written."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    payload: dict[str, Any] = {"meta": np.array(json.dumps(meta, sort_keys=True)), **arrays}
    with out.open("wb") as fh:
        np.savez_compressed(fh, **payload)
    return out


def _check_meta(
    path: str | os.PathLike[str], what: str, meta: Any, expect: Mapping[str, Any]
) -> None:
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: not {what} (its meta is not an object)")
    for key, want in expect.items():
        if meta.get(key) != want:
            raise ValueError(f"{path}: {key} {meta.get(key)!r}, expected {want!r}")


def read_json(path: str | os.PathLike[str], what: str, expect: Mapping[str, Any]) -> dict[str, Any]:
    """A manifest or index (a JSON object) with every field of ``expect`` equal to it.

    :raises ValueError: if the file is not a JSON object or a field of ``expect`` differs.
    """
    try:
        meta = json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError:
        raise ValueError(f"{path}: not {what} (not JSON)") from None
    _check_meta(path, what, meta, expect)
    out: dict[str, Any] = meta
    return out


def read_npz(
    path: str | os.PathLike[str],
    what: str,
    expect: Mapping[str, Any],
    arrays: Iterable[str],
    *,
    sha256: str | None = None,
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """``(meta, arrays)`` of a file written by :func:`write_npz`: ``meta`` with every field of
    ``expect`` (``format`` at least) equal to it, and the arrays named.

    :param what: what the file should be, for the messages ("a saved perudo round").
    :param sha256: the hash the file must have (from a book's or index's entry).
    :raises ValueError: if the hash differs, there is no ``meta`` object, a field of ``expect``
        differs or an array is missing.
    """
    if sha256 is not None:
        got = sha256_of(path)
        if got != sha256:
            raise ValueError(f"{path}: SHA-256 {got}, expected {sha256}")
    with np.load(Path(path), allow_pickle=False) as data:
        if "meta" not in data.files:
            raise ValueError(f"{path}: not {what} (no meta)")
        try:
            meta = json.loads(str(data["meta"]))
        except ValueError:
            raise ValueError(f"{path}: not {what} (its meta is not JSON)") from None
        _check_meta(path, what, meta, expect)
        out: dict[str, npt.NDArray[Any]] = {}
        for name in arrays:
            if name not in data.files:
                raise ValueError(f"{path}: not {what} (no array {name!r})")
            out[name] = data[name]
    return meta, out
