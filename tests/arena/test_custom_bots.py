"""Your own bot everywhere a bot is named (issue 30, point 6): ``package.module:Name``, an
installed package's entry point (group ``perudo.bots``), or :func:`register_bot` — in this
process and in the arena's worker processes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from perudo import PERUDO
from perudo.arena import run_arena
from perudo.registry import BOTS, bot_names, make_bot, register_bot, sendable_name

REPO = Path(__file__).resolve().parents[2]
PERUDO_CMD = Path(sys.executable).with_name("perudo")


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The repository's folder on the path, as the arena's command puts the current folder."""
    monkeypatch.syspath_prepend(str(REPO))


def test_a_bot_named_module_colon_class_is_made_from_its_module(on_path: None) -> None:
    bot = make_bot("examples.mybot:MyBot", seed=3)
    assert bot.name == "cautious"
    assert type(bot).__module__ == "examples.mybot"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("examples.mybot:NoSuchBot", "cannot be loaded"),
        ("no_such_package.bots:Bot", "cannot be loaded: No module named 'no_such_package'"),
        ("examples.mybot:", "write it as package.module:Name"),
        ("exa mples:Bot", "write it as package.module:Name"),
        ("perudo.core:PERUDO", "not a class or function"),
        ("perudo.core:Dudo", "cannot be made from a seed"),
        ("builtins:str", "made '0', which is not a bot"),
    ],
)
def test_a_bad_module_colon_name_is_refused_in_words(on_path: None, name: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_bot(name, 0)


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on_path: None) -> str:
    """A package installed with an entry point ``mine = examples.mybot:MyBot`` in the group
    ``perudo.bots`` (a dist-info folder on the path, as pip leaves one)."""
    dist = tmp_path / "mine-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mine\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[perudo.bots]\nmine = examples.mybot:MyBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "mine"


def test_an_installed_entry_point_is_a_bot_name(installed: str) -> None:
    assert installed in bot_names()
    assert make_bot("Mine", 1).name == "cautious"
    assert sendable_name(installed) == installed  # a fresh worker finds it the same way


@pytest.fixture
def registered(on_path: None) -> Iterator[str]:
    from examples.mybot import MyBot

    register_bot("mine-registered", MyBot)
    yield "mine-registered"
    del BOTS["mine-registered"]


def test_a_registered_class_plays_in_worker_processes_as_in_this_one(registered: str) -> None:
    # A fresh worker process does not know a bot registered here: it makes it from its
    # module:Name, and the games come out the same as played here.
    assert sendable_name(registered) == "examples.mybot:MyBot"
    here = run_arena(PERUDO, 3, [registered, "prob"], 6, seed=4, jobs=1)
    workers = run_arena(PERUDO, 3, [registered, "prob"], 6, seed=4, jobs=2)
    assert workers.to_json() == here.to_json()
    assert workers.bots == (registered, "prob")


def test_a_level_or_built_in_bot_is_sent_by_its_own_name() -> None:
    assert sendable_name("expert") == "expert"
    assert sendable_name("prob") == "prob"


def test_perudo_arena_plays_your_bot_with_two_jobs_from_the_command_line(tmp_path: Path) -> None:
    # The command as docs/bots.md gives it, from the folder that holds examples/.
    args = ["arena", "--rules", "perudo", "--players", "4", "--games", "8", "--seed", "2"]
    args += ["--bots", "examples.mybot:MyBot,prob"]
    runs = []
    for jobs in ("2", "1"):
        out = tmp_path / f"jobs{jobs}.json"
        done = subprocess.run(
            [str(PERUDO_CMD), *args, "--jobs", jobs, "--out", str(out)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, done.stderr
        assert "examples.mybot:MyBot" in done.stdout
        runs.append(json.loads(out.read_text()))
    assert runs[0] == runs[1]
    assert runs[0]["bots"] == ["examples.mybot:MyBot", "prob"]


def test_perudo_arena_refuses_a_bot_it_cannot_import_in_words() -> None:
    done = subprocess.run(
        [str(PERUDO_CMD), "arena", "--bots", "examples.nothing:Bot,prob", "--games", "2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "cannot be loaded" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr + done.stdout
