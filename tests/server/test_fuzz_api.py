"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis): whatever a client sends to
any route, valid or not, the server answers without a server error, and every refusal is JSON
that says what is wrong. Against a real server process; bounded (a few dozen cases a route)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from tests.server.harness import ServerProcess

from perudo.server import create_app
from perudo.server.settings import Settings


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(Path(tmp_path_factory.mktemp("fuzz"))).start()
    yield srv
    srv.stop()


schema = schemathesis.openapi.from_dict(
    create_app(Settings(database_url="sqlite+aiosqlite:///:memory:")).openapi()
)
"""The schema the server publishes at ``/openapi.json`` (built by the same ``create_app``)."""


@schemathesis.check
def refusals_say_what_is_wrong(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx answer is a JSON object naming the problem (``message``, or FastAPI's
    ``detail`` for a body that is not JSON at all)."""
    if 400 <= response.status_code < 500:
        body = json.loads(response.content)
        assert isinstance(body, dict), body
        text = body.get("message") or body.get("detail")
        assert text, f"a refusal without a message: {body}"
    return None


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_input_gets_a_server_error_and_every_refusal_says_why(
    case: Any, api_server: ServerProcess
) -> None:
    case.call_and_validate(
        base_url=api_server.url, checks=[not_a_server_error, refusals_say_what_is_wrong]
    )
