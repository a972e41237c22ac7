"""The solver's saved files: one reader (:mod:`perudo.solve.saved`) refuses a wrong file the
same way for a solution, a packed round and an abstract strategy (``.npz``), and for a match,
a book and an index of abstract tables (JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from perudo.solve import Solution, abstract, packed, shipped, solution
from perudo.solve.abstract import AbstractStrategy
from perudo.solve.abstract_book import read_index
from perudo.solve.match import MatchSolution
from perudo.solve.packed import PackedRound
from perudo.solve.saved import read_npz, sha256_of, write_npz
from perudo.solve.shipped import read_book

LOADERS = [
    pytest.param(Solution.load, solution.FORMAT, "saved perudo round", id="solution"),
    pytest.param(PackedRound.load, packed.FORMAT, "packed perudo round", id="packed"),
    pytest.param(AbstractStrategy.load, abstract.FORMAT, "saved abstract strategy", id="abstract"),
]


def _meta_only(path: Path, meta: object) -> Path:
    np.savez(path, meta=np.array(json.dumps(meta)))
    return path


@pytest.mark.parametrize(("load", "fmt", "what"), LOADERS)
def test_every_saved_file_is_refused_by_name_when_it_is_not_one(tmp_path, load, fmt, what):
    no_meta = tmp_path / "no-meta.npz"
    np.savez(no_meta, something=np.zeros(3))
    with pytest.raises(ValueError, match=f"not a {what} \\(no meta\\)"):
        load(no_meta)
    bad_json = tmp_path / "bad-json.npz"
    np.savez(bad_json, meta=np.array("{not json"))
    with pytest.raises(ValueError, match="meta is not JSON"):
        load(bad_json)
    with pytest.raises(ValueError, match="meta is not an object"):
        load(_meta_only(tmp_path / "list.npz", [fmt]))
    with pytest.raises(ValueError, match="format 'other/9'"):
        load(_meta_only(tmp_path / "other.npz", {"format": "other/9", "levels": packed.LEVELS}))
    # The right format but no arrays: named, not a KeyError.
    right = {"format": fmt, "levels": packed.LEVELS}
    with pytest.raises(ValueError, match="no array"):
        load(_meta_only(tmp_path / "empty.npz", right))
    # A hash given is checked before anything is read.
    with pytest.raises(ValueError, match="SHA-256"):
        load(_meta_only(tmp_path / "hashed.npz", right), sha256="0" * 64)


def test_write_then_read_round_trips_meta_and_arrays_and_checks_the_hash(tmp_path):
    path = write_npz(tmp_path / "sub" / "x.npz", {"format": "f/1", "n": 2}, {"a": np.arange(4)})
    meta, arrays = read_npz(path, "x", {"format": "f/1"}, ["a"], sha256=sha256_of(path))
    assert meta == {"format": "f/1", "n": 2}
    np.testing.assert_array_equal(arrays["a"], np.arange(4))
    with pytest.raises(ValueError, match="n 2, expected 3"):
        read_npz(path, "x", {"format": "f/1", "n": 3}, ["a"])


def test_every_manifest_is_refused_by_name_when_it_is_not_one(tmp_path):
    (tmp_path / "match.json").write_text("{not json")
    with pytest.raises(ValueError, match="match.json: not a solved match \\(not JSON\\)"):
        MatchSolution.load(tmp_path)
    (tmp_path / "book.json").write_text(json.dumps({"format": shipped.BOOK_FORMAT, "levels": 9}))
    with pytest.raises(ValueError, match="book.json: levels 9, expected 65535"):
        read_book(tmp_path)
    (tmp_path / "index.json").write_text("[]")
    with pytest.raises(ValueError, match="index.json: not an index of abstract tables"):
        read_index(tmp_path)
