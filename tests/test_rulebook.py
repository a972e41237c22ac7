"""The project's rule book (docs/rules.md, .ko.md, .it.md) is the one the code cites: every rule
id named anywhere in the repository is an anchor of each language's book, each book has the same
anchors in the same order, the package carries the books (the /rules page renders them), and
nothing in the repository points outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOKS = {"en": "docs/rules.md", "ko": "docs/rules.ko.md", "it": "docs/rules.it.md"}
RULE_ID = re.compile(r"\b[PV]-\d+\b")
ANCHOR = re.compile(r'<a id="([PV]-\d+)"></a>')


def _tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [ROOT / line for line in out.stdout.splitlines() if (ROOT / line).is_file()]


def _anchors(lang: str) -> list[str]:
    return ANCHOR.findall((ROOT / BOOKS[lang]).read_text())


def test_every_rule_id_cited_in_the_repository_is_in_the_rule_book() -> None:
    cited: dict[str, str] = {}
    for path in _tracked("src", "tests", "docs", "benchmarks", "examples", "README.md"):
        if path.suffix not in (".py", ".md", ".js", ".c", ".h"):
            continue
        for rule in RULE_ID.findall(path.read_text(errors="replace")):
            cited.setdefault(rule, str(path.relative_to(ROOT)))
    missing = {rule: where for rule, where in cited.items() if rule not in set(_anchors("en"))}
    assert missing == {}, "rule ids cited but not in docs/rules.md (id: first file citing it)"
    assert len(cited) >= 30


@pytest.mark.parametrize("lang", ["ko", "it"])
def test_each_translation_has_every_rule_in_the_same_order(lang: str) -> None:
    en = _anchors("en")
    assert len(en) == len(set(en))
    assert _anchors(lang) == en


def test_the_package_carries_each_book_itself() -> None:
    """The package's rule texts are the books (links), not copies that could drift."""
    for lang, book in BOOKS.items():
        packaged = ROOT / "src/perudo/server/rules" / f"{lang}.md"
        assert packaged.is_symlink() and packaged.resolve() == (ROOT / book).resolve()


def test_nothing_in_the_repository_points_outside_it() -> None:
    for path in _tracked("*.md", "src"):
        if path.suffix in (".md", ".py", ".js", ".html", ".css"):
            text = path.read_text(errors="replace")
            assert "../shared" not in text and "/work/shared" not in text, path
