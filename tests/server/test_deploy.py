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
    "compose.cluster.yaml",
    "deploy/nginx/perudo.conf",
    "deploy/nginx/cluster.conf",
    "docs/hosting.md",
    "docs/scaling.md",
    "docs/server.md",
    "README.md",
]
SETTINGS = {f"PERUDO_{name.upper()}" for name in Settings.model_fields}
CHECKS = {"PERUDO_CHECK_WIRE": "src/perudo/server/wirejson.py"}
"""Variables the tests set to turn a check on, not settings: each and the file reading it."""


@pytest.mark.parametrize("name", FILES)
def test_every_perudo_variable_named_is_a_setting(name: str) -> None:
    # (window.PERUDO_… names are the page's test hooks, not settings.)
    text = (ROOT / name).read_text()
    named = set(re.findall(r"(?<!window\.)\bPERUDO_[A-Z_]+[A-Z]\b", text))
    assert named - SETTINGS - set(CHECKS) == set(), f"{name} names settings that do not exist"
    for check, reader in CHECKS.items():
        assert f'"{check}"' in (ROOT / reader).read_text()


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


# What serving imports, run the way the image's CMD runs it: the app built and a request
# answered, then every third-party distribution loaded must be one the image installs (the
# base dependencies and the server extra, with what they require). No container runtime can
# run here (no Docker daemon, and no registry to pull the base image from), so this stands in
# for `docker build`'s RUN and CMD steps.
_SERVE_IMPORTS = """
import json, sys
from importlib.metadata import packages_distributions
from fastapi.testclient import TestClient
from perudo.server.app import create_app
from perudo.server.settings import Settings
app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
with TestClient(app) as client:
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 200
dists = packages_distributions()
tops = {m.split(".")[0] for m in sys.modules}
print(json.dumps(sorted({d for t in tops for d in dists.get(t, [])})))
"""


def _requirement_name(req: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _closure(reqs: list[str]) -> set[str]:
    """The distributions ``reqs`` name and every one they require, with the extras asked for
    (``sqlalchemy[asyncio]`` brings greenlet)."""
    from importlib.metadata import PackageNotFoundError, requires

    seen: set[tuple[str, str]] = set()
    todo = [(_requirement_name(r), e) for r in reqs for e in ["", *_extras(r)]]
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        try:
            found = requires(name) or []
        except PackageNotFoundError:
            continue
        for r in found:
            marker = re.search(r"extra\s*==\s*['\"]([\w-]+)['\"]", r)
            if (marker.group(1) if marker else "") == extra:
                todo += [(_requirement_name(r), e) for e in ["", *_extras(r)]]
    return {name for name, _ in seen}


def _extras(req: str) -> list[str]:
    m = re.match(r"[^\[;]*\[([^\]]+)\]", req)
    return [e.strip() for e in m.group(1).split(",")] if m else []


def test_serving_needs_only_what_the_image_installs() -> None:
    import json
    import subprocess
    import sys
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    allowed = _closure(project["dependencies"] + project["optional-dependencies"]["server"])
    # The image's Python comes with pip and setuptools; the test client is the test's own.
    allowed |= {"perudo", "pip", "setuptools", "httpx", "httpcore", "certifi"}
    out = subprocess.run(
        [sys.executable, "-c", _SERVE_IMPORTS], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    loaded = {_requirement_name(d) for d in json.loads(out.stdout.strip().splitlines()[-1])}
    assert loaded - allowed == set(), "serving imports packages the image does not install"


def test_the_images_command_and_healthcheck_exist() -> None:
    text = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r'^CMD \["perudo", "serve"\]$', text, flags=re.M)
    assert cmd, "the image runs `perudo serve`"
    from typer.testing import CliRunner

    from perudo.cli.main import app as cli

    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "--public" in result.output
    assert "/healthz" in text
    ignored = (ROOT / ".dockerignore").read_text().split()
    for line in re.findall(r"^COPY (.+)$", text, flags=re.M):
        *sources, _dest = line.split()
        assert not set(sources) & set(ignored), "the Dockerfile copies what .dockerignore drops"
