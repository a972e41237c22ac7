"""The hosting files agree with the code: every ``PERUDO_…`` name in the Dockerfile, the
compose file, the nginx example and the docs is a real setting; the files the Dockerfile copies
exist; the nginx upstream is the app's default address. (The image itself is not built here:
no Docker daemon; docs/hosting.md says so.)"""

from __future__ import annotations

import re

import pytest
from tests.server.harness import ROOT

from perudo.server.settings import Settings

FILES = [
    "Dockerfile",
    "compose.yaml",
    "deploy/nginx/perudo.conf",
    "docs/hosting.md",
    "docs/server.md",
    "README.md",
]
SETTINGS = {f"PERUDO_{name.upper()}" for name in Settings.model_fields}


@pytest.mark.parametrize("name", FILES)
def test_every_perudo_variable_named_is_a_setting(name: str) -> None:
    # (window.PERUDO_… names are the page's test hooks, not settings.)
    text = (ROOT / name).read_text()
    named = set(re.findall(r"(?<!window\.)\bPERUDO_[A-Z_]+[A-Z]\b", text))
    assert named - SETTINGS == set(), f"{name} names settings that do not exist"


def test_the_dockerfile_copies_files_that_exist_and_installs_only_the_server() -> None:
    text = (ROOT / "Dockerfile").read_text()
    for line in re.findall(r"^COPY (.+)$", text, flags=re.M):
        *sources, _dest = line.split()
        for src in sources:
            assert (ROOT / src).exists(), f"Dockerfile copies {src}, which is not in the repo"
    assert "pip install --no-cache-dir '.[server]'" in text


def test_the_nginx_upstream_and_the_compose_port_are_the_default_port() -> None:
    port = Settings.model_fields["port"].default
    assert f"server 127.0.0.1:{port};" in (ROOT / "deploy/nginx/perudo.conf").read_text()
    assert f":{port}:{port}" in (ROOT / "compose.yaml").read_text()
