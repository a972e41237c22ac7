"""docs/server.md's settings table names every setting the server reads (``PERUDO_…``), with
its default: a setting added to :class:`perudo.server.settings.Settings` without a row fails
here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pydantic_settings")

from perudo.server.settings import Settings  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def _table() -> dict[str, str]:
    """Each ``PERUDO_…`` variable of the settings table, with its row's default cell."""
    rows: dict[str, str] = {}
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("| variable | default | what |")
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        names_cell, default_cell = line.split("|")[1:3]
        names = re.findall(r"`(PERUDO_[A-Z0-9_]+)`", names_cell)
        defaults = [d.strip().strip("`") for d in default_cell.split(" / ")]
        for k, name in enumerate(names):
            rows[name] = defaults[k] if k < len(defaults) else default_cell.strip()
    return rows


def test_every_setting_has_a_row_in_the_docs_table():
    table = _table()
    missing = [
        f"PERUDO_{n.upper()}" for n in Settings.model_fields if f"PERUDO_{n.upper()}" not in table
    ]
    assert not missing, f"docs/server.md's settings table lacks {missing}"
    extra = sorted(set(table) - {f"PERUDO_{n.upper()}" for n in Settings.model_fields})
    assert not extra, f"docs/server.md's settings table names settings that do not exist: {extra}"


def test_the_table_s_defaults_are_the_settings_defaults():
    table = _table()
    for name, field in Settings.model_fields.items():
        doc = table[f"PERUDO_{name.upper()}"]
        default = field.default
        if default is None:
            assert doc == "unset", name
        elif isinstance(default, bool):
            assert doc == str(default).lower(), name
        elif isinstance(default, (int, float)):
            assert float(doc) == float(default), (name, doc, default)
        elif default == "":
            assert doc == "empty", name
        else:
            assert doc == default, (name, doc, default)
