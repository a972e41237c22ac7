"""Real pseudo-terminals for the terminal client's tests (``pexpect``).

Each test spawns the installed ``perudo`` command (``.venv/bin/perudo``) in a pseudo-terminal
of 80 columns and 40 lines, with ``TERM=xterm``, reads the screen as a person would (escape
codes stripped) and types. :class:`ScriptedHuman` plays a whole game from what the screen
offers: the lowest raise listed under "You may", or the game's word for dudo when the hint
says the standing bid is unlikely.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pexpect
import pytest

from perudo.i18n import Catalog, load_catalog

PERUDO = Path(sys.executable).with_name("perudo")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
TIMEOUT = 30  # generous: the machine is shared; a test never asserts a duration


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def _as_a_terminal_job() -> None:
    """In the child, before ``perudo`` starts: Ctrl-C as a shell gives it to the job in the
    foreground of a terminal (the default action, not blocked). A suite started in the
    background without job control (``cmd &`` in a script, as CI may) ignores SIGINT, and
    the command would inherit that and never see the Ctrl-C the tests type."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Terminal:
    """One ``perudo`` command running in a real pseudo-terminal."""

    def __init__(
        self, args: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> None:
        full_env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "NO_COLOR"))}
        full_env.update(TERM="xterm", COLUMNS="80", LINES="40", LANG="C.UTF-8", PYTHONUTF8="1")
        full_env.update(env or {})
        self.child = pexpect.spawn(
            str(PERUDO),
            list(args),
            env=full_env,
            encoding="utf-8",
            dimensions=(40, 80),
            timeout=TIMEOUT,
            preexec_fn=_as_a_terminal_job,
            cwd=None if cwd is None else str(cwd),
        )
        self.transcript: list[str] = []

    def expect(self, patterns: Sequence[str | type[pexpect.EOF]]) -> int:
        """Wait for the first of ``patterns`` (regexes, or ``pexpect.EOF``); its index."""
        index = self.child.expect(list(patterns))
        self.transcript.append(self.before)
        if isinstance(self.child.after, str):
            self.transcript.append(strip_ansi(self.child.after))
        return int(index)

    def expect_text(self, text: str) -> None:
        self.expect([re.escape(text)])

    @property
    def before(self) -> str:
        """What the screen showed before the last match, without escape codes."""
        before = self.child.before
        return strip_ansi(before) if isinstance(before, str) else ""

    def sendline(self, line: str) -> None:
        self.child.sendline(line)

    def finish(self) -> int:
        """Wait for the command to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.transcript.append(self.before)
        self.child.close()
        assert self.child.exitstatus is not None, f"killed by signal {self.child.signalstatus}"
        return int(self.child.exitstatus)

    @property
    def text(self) -> str:
        return "".join(self.transcript)


def calza_prompt(cat: Catalog) -> str:
    """A regex for the out-of-turn calza prompt (P-50)."""
    marker = cat.t("prompt.calza", calza="\0", bid="\1")
    return re.escape(marker).replace("\0", ".+?").replace("\1", ".+?")


class ScriptedHuman:
    """Plays from the screen alone: the lowest raise offered, or dudo on an unlikely bid."""

    def __init__(self, term: Terminal, cat: Catalog, *, save_to: Path | None = None) -> None:
        self.term = term
        self.cat = cat
        self.save_to = save_to
        self.moves: list[str] = []
        self.calza_prompts = 0
        self.palifico_choices = 0

    def decide(self, screen: str) -> str:
        cat = self.cat
        may = screen.rfind(cat.t("may.title"))
        assert may >= 0, f"no options shown before the prompt:\n{screen}"
        options = screen[may:]
        raises = [(int(q), int(f)) for q, f in re.findall(r"\b(\d+)x(\d+)\b", options)]
        dudo = cat.t("word.dudo")
        if not raises and dudo not in options:
            self.palifico_choices += 1
            return cat.t("word.palifico")  # the P-34 choice is the only one offered
        hint = screen.rfind(cat.t("bid.current_label"))
        odds = re.findall(r"(\d+\.\d)%", screen[hint:]) if hint >= 0 else []
        if not raises or (odds and float(odds[0]) < 50.0):
            return dudo
        quantity, face = min(raises)
        return f"{quantity}x{face}"

    def play(self) -> str:
        """Play until the game ends and the program exits; the whole screen text."""
        cat = self.cat
        patterns = [
            re.escape(cat.t("prompt.turn")),
            calza_prompt(cat),
            re.escape(cat.t("save.prompt")),
            pexpect.EOF,
        ]
        while True:
            index = self.term.expect(patterns)
            if index == 0:
                move = self.decide(self.term.before)
                self.moves.append(move)
                self.term.sendline(move)
            elif index == 1:
                self.calza_prompts += 1
                self.term.sendline("")
            elif index == 2:
                self.term.sendline(str(self.save_to) if self.save_to else "")
            else:
                break
        self.term.child.close()
        assert self.term.child.exitstatus == 0, self.term.text[-2000:]
        return self.term.text


@pytest.fixture
def terminal() -> Iterator[type[Terminal]]:
    """Spawn ``perudo`` commands; any still running at the end of the test are killed."""
    spawned: list[Terminal] = []

    class _Tracked(Terminal):
        def __init__(
            self,
            args: Sequence[str],
            *,
            env: dict[str, str] | None = None,
            cwd: Path | None = None,
        ) -> None:
            super().__init__(args, env=env, cwd=cwd)
            spawned.append(self)

    yield _Tracked
    for term in spawned:
        if term.child.isalive():
            term.child.terminate(force=True)


@pytest.fixture
def english() -> Catalog:
    return load_catalog("en")


@pytest.fixture
def korean() -> Catalog:
    return load_catalog("ko")


@pytest.fixture
def scripted() -> type[ScriptedHuman]:
    return ScriptedHuman


@pytest.fixture
def calza_pattern() -> Callable[[Catalog], str]:
    """``calza_pattern(cat)``: the regex of the calza prompt (a fixture for test modules)."""
    return calza_prompt
