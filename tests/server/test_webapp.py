"""The service worker's version (perudo.server.routes.webapp): a digest of the page's files,
so that a deploy that changes, adds or removes one gets a new worker and a new cache."""

from __future__ import annotations

import shutil
from pathlib import Path

from perudo.server.routes.pages import STATIC_DIR
from perudo.server.routes.webapp import page_files, version


def test_the_version_changes_with_any_file_of_the_page_and_only_then(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC_DIR, copy)
    first = version(copy, "words")
    assert version(copy, "words") == first
    assert version(copy, "other words") != first
    (copy / "app.css").write_text((copy / "app.css").read_text() + "\n/* deploy */\n")
    changed = version(copy, "words")
    assert changed != first
    (copy / "components" / "new.js").write_text("export {};\n")
    assert "/static/components/new.js" in page_files(copy)
    assert version(copy, "words") != changed
    # The worker's own template is not one of the files it caches.
    (copy / "sw.js").write_text("// another worker\n")
    assert "/static/sw.js" not in page_files(copy)
