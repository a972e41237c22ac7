"""The arena on Ray: the same seeded results, byte for byte, as on this machine's processes.

The cluster is a real one (``ray start --head``, the ``ray_address`` fixture of
tests/conftest.py), reached the way a user reaches it: ``perudo arena --backend ray
--ray-address …`` (or ``RAY_ADDRESS``) in a process of its own; so is the local start
(``perudo arena --backend ray`` with no address: ``ray.init`` on this machine).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.ray_cluster import processes_naming, ray_env
from typer.testing import CliRunner

from perudo import PERUDO_CALZA
from perudo.arena import run_arena
from perudo.cli.main import app
from perudo.registry import BOTS, make_bot, register_bot

pytest.importorskip("ray")

ARENA = ["arena", "--rules", "perudo_calza", "--players", "3", "--bots", "prob,random"]
ARENA += ["--games", "12", "--seed", "5", "--dice", "2"]


def _figures(output: str) -> str:
    """The printed report without its last lines (time taken, where, the file written)."""
    return output.split("lineup:")[0]


def _perudo(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``perudo …`` in a process of its own, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "perudo", *args],
        env={**env, "COLUMNS": "120"},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.fixture(scope="module")
def on_processes(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, str]:
    """The arena on two local processes: its JSON file and its printed report."""
    out = tmp_path_factory.mktemp("arena") / "process.json"
    done = CliRunner().invoke(app, [*ARENA, "--jobs", "2", "--out", str(out)], env=ray_env())
    assert done.exit_code == 0, done.output
    return out.read_bytes(), _figures(done.output)


def test_arena_on_a_ray_cluster_matches_the_process_backend_byte_for_byte(
    ray_address: str, on_processes: tuple[bytes, str], tmp_path: Path
) -> None:
    # The user's command with the address `ray start --head` printed.
    by_option = tmp_path / "ray.json"
    ray = _perudo(
        *ARENA, "--backend", "ray", "--ray-address", ray_address, "--out", str(by_option),
        env=ray_env(),
    )  # fmt: skip
    assert ray.returncode == 0, ray.stderr
    assert f"on the Ray cluster at {ray_address}" in ray.stdout
    assert by_option.read_bytes() == on_processes[0]
    assert _figures(ray.stdout) == on_processes[1]
    data = json.loads(by_option.read_text())
    assert [g["game"] for g in data["game_results"]] == list(range(12))
    assert data["seed"] == 5 and sum(r["wins"] for r in data["results"]) == 12
    # The address from RAY_ADDRESS (as `ray start` suggests exporting it).
    by_env = tmp_path / "ray-env.json"
    env = {**ray_env(), "RAY_ADDRESS": ray_address}
    from_env = CliRunner().invoke(app, [*ARENA, "--backend", "ray", "--out", str(by_env)], env=env)
    assert from_env.exit_code == 0, from_env.output
    assert f"on the Ray cluster at {ray_address}" in from_env.output
    assert by_env.read_bytes() == on_processes[0]


def test_ray_started_on_this_machine_gives_the_same_results(
    on_processes: tuple[bytes, str], tmp_path: Path
) -> None:
    # No address: `perudo arena` starts Ray here (ray.init) for the run and stops it after.
    # RAY_TMPDIR gives that Ray a directory of its own, to see that nothing of it is left;
    # as a user runs it (no RAY_AUTH_… set) in a home of its own, where Ray left the token it
    # made, ~/.ray/auth_token.
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    home = tmp_path / "home"
    home.mkdir()
    try:
        out = tmp_path / "local-ray.json"
        user = {k: v for k, v in ray_env().items() if not k.startswith("RAY_AUTH_")}
        ray = _perudo(
            *ARENA, "--backend", "ray", "--jobs", "2", "--out", str(out),
            env={**user, "RAY_TMPDIR": temp, "HOME": str(home)},
        )  # fmt: skip
        assert ray.returncode == 0, ray.stderr
        assert "on Ray on this machine, 2 games at a time" in ray.stdout
        assert out.read_bytes() == on_processes[0]
        assert _figures(ray.stdout) == on_processes[1]
        assert processes_naming(temp) == []
        assert not (home / ".ray").exists(), list((home / ".ray").iterdir())
    finally:
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def raising_bot() -> Iterator[str]:
    """A bot registered in this process whose workers make it from its module:Name
    (tests.arena.raising_bot) and which raises there, mid-game."""
    from tests.arena.raising_bot import RaisingBot

    register_bot("raising", RaisingBot)
    yield "raising"
    del BOTS["raising"]


def _raised(**backend: object) -> BaseException:
    with pytest.raises(ValueError) as info:
        run_arena(PERUDO_CALZA, 3, ["random", "raising"], 6, seed=2, jobs=2, **backend)  # type: ignore[arg-type]
    return info.value


def test_an_error_in_a_ray_worker_is_raised_as_on_local_processes(
    ray_connected: str, raising_bot: str
) -> None:
    local = _raised(backend="process")
    remote = _raised(backend="ray", ray_address=ray_connected)
    assert type(remote) is type(local) is ValueError
    assert str(remote) == str(local)
    assert "this bot raises on purpose" in str(remote)
    # Which game to replay (the first to fail: any of them), on both backends; the worker's
    # traceback is the cause.
    for err in (local, remote):
        assert err.__notes__[0].startswith("in arena game "), err.__notes__
        assert "of seed 2 (seats: " in err.__notes__[0]
        assert 'raising_bot.py", line' in str(err.__cause__)  # where the bot raised


def test_a_bot_registered_with_a_lambda_is_refused_before_any_game_on_either_backend() -> None:
    # Workers cannot import a lambda: told up front, with what to do instead (issue 30, 6).
    register_bot("driver-only", lambda seed: make_bot("random", seed))
    try:
        for backend in ("process", "ray"):
            with pytest.raises(ValueError, match="cannot import .*package.module:Name"):
                run_arena(PERUDO_CALZA, 3, ["random", "driver-only"], 6, jobs=2, backend=backend)
        # One job plays in this process, where the lambda is known.
        assert run_arena(PERUDO_CALZA, 3, ["random", "driver-only"], 3, jobs=1).games == 3
    finally:
        del BOTS["driver-only"]


def test_ray_options_are_refused_where_they_do_not_apply() -> None:
    with pytest.raises(ValueError, match="--ray-address is for --backend ray"):
        run_arena(PERUDO_CALZA, 3, ["random"], 4, jobs=2, ray_address="127.0.0.1:6379")
    with pytest.raises(ValueError, match="unknown backend 'spark'; known: process, ray"):
        run_arena(PERUDO_CALZA, 3, ["random"], 4, jobs=2, backend="spark")
    result = CliRunner().invoke(app, [*ARENA, "--backend", "spark"])
    assert result.exit_code == 2
    assert "'spark': choose process or ray" in result.output


def test_an_address_where_no_cluster_listens_is_refused_at_once() -> None:
    # A free port: nothing listens there (Ray itself would retry for minutes).
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(
        app, [*ARENA, "--backend", "ray", "--ray-address", f"127.0.0.1:{port}"]
    )
    assert result.exit_code == 2, result.output
    assert "--ray-address" in result.output and "no Ray cluster answers at" in result.output
    assert "ray start --head" in result.output
