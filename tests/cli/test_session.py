"""The game loop in-process (perudo.cli.tui.session): every preset to the end, from the screen's
prompts alone, with stray input mixed in; what reaches the screen is the person's view (P-70).

The pseudo-terminal tests (test_play_terminal.py) cover the same loop through the real
command; these run many games quickly and reach V-9 (set aside), V-10 (pass) and calza.
"""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from rich.cells import cell_len
from rich.console import Console

from perudo import (
    PERUDO,
    PRESETS,
    Bid,
    Calza,
    DiceDealt,
    GameRecord,
    SetAside,
    view,
)
from perudo.cli.tui.session import PlayConfig, Session
from perudo.i18n import LANGS, load_catalog

NOISE = ["blah", "9x9", "", "help", "0x5", "aside 9", "palifico", "3 aces", "calza"]


class Scripted:
    """Answers the prompts from the session's own view of the person's seat."""

    def __init__(self, seed: int, lang: str) -> None:
        self.rng = random.Random(seed)
        self.cat = load_catalog(lang)
        self.session: Session | None = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert self.session is not None and self.session.state is not None
        if prompt.startswith(self.cat.t("save.prompt")[:8]):
            return ""
        if self.rng.random() < 0.15:
            return self.rng.choice(NOISE)
        v = view(self.session.state, self.session.me)
        if not v.my_turn:  # the calza prompt (P-50)
            return "calza" if Calza() in v.legal and self.rng.random() < 0.3 else ""
        asides = [a for a in v.legal if isinstance(a, SetAside)]
        # Set dice aside half the time it is allowed, so that every game reaches V-9.
        action = (
            self.rng.choice(asides)
            if asides and self.rng.random() < 0.5
            else self.rng.choice(v.legal)
        )
        if isinstance(action, Bid) and action.face == 1 and self.rng.random() < 0.5:
            return f"{action.quantity} {self.cat.t('word.aces')}"
        if isinstance(action, SetAside):
            return "aside " + "".join(map(str, action.dice))
        return str(action)


def _run(rules, players, seed, lang="en", *, memory=False, interactive=False):
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, force_terminal=False)
    reader = Scripted(seed, lang)
    config = PlayConfig(
        rules=rules, players=players, level="easy", seed=seed, delay=0, lang=lang, memory=memory
    )
    session = Session(config, console, read=reader, interactive=interactive, sleep=lambda s: None)
    reader.session = session
    assert session.run() == 0
    return session, out.getvalue(), reader


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_to_the_end_from_the_prompts(preset):
    rules = PRESETS[preset]
    players = 2 if rules.max_players == 2 else 4
    session, text, reader = _run(rules, players, seed=7)
    state = session.state
    assert state is not None and state.is_over
    assert "Traceback" not in text
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    assert len(reader.prompts) >= 1
    assert GameRecord.from_state(state).replay() == state
    if rules.set_aside:  # V-9: the person set dice aside, re-rolled, and saw the new dice
        assert "Your dice after the re-roll:" in text and "You ▸ aside:" in text


def test_house_rules_pass_and_straights_play_to_the_end():
    rules = dataclasses.replace(PERUDO, passing=True, straight_counts_nothing=True, calza="on")
    for seed in range(3):
        session, text, _ = _run(rules, 3, seed=seed)
        assert session.state is not None and session.state.is_over


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_game_in_each_language(lang):
    session, text, _ = _run(PRESETS["perudo_calza"], 3, seed=11, lang=lang)
    cat = load_catalog(lang)
    assert session.state is not None and session.state.is_over
    winner = session.state.winner
    key = "over.you_win" if winner == 0 else "over.winner"
    assert cat.t(key, who=session.names[winner]) in text


def test_bad_input_leaves_the_state_unchanged():
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    config = PlayConfig(rules=PERUDO, players=3, level="easy", seed=5, delay=0)
    states = []

    def read(prompt: str) -> str:
        assert session.state is not None
        states.append(session.state)
        if len(states) <= 4:
            return ["9x9", "blah", "16x2", ""][len(states) - 1]
        return "quit"

    session = Session(config, console, read=read)
    assert session.run() == 0
    assert all(s is states[0] for s in states)  # the very same state, re-asked each time
    text = out.getvalue()
    assert "Not allowed: There is no face 9 on a 6-faced die." in text
    assert "Not understood: “blah”" in text
    assert "Not allowed: 16 × 2 claims more dice than the 15 in play." in text
    assert "Goodbye!" in text


def test_the_screen_gets_only_the_persons_events_p70():
    out = io.StringIO()
    config = PlayConfig(rules=PERUDO, players=3, level="easy", seed=5, delay=0)
    session = Session(config, Console(file=out, width=80, color_system=None), read=lambda p: "")
    # Dice dealt to other seats are private events: nothing reaches the person's screen.
    session._show([DiceDealt(1, (6, 6, 6, 6, 6)), DiceDealt(2, (6, 6, 6, 6, 6))], None)  # type: ignore[arg-type]
    assert out.getvalue() == ""


def test_memory_mode_shows_no_count_of_other_seats_p40():
    session, text, _ = _run(PERUDO, 3, seed=4, memory=True)
    for line in text.splitlines():
        if line.startswith("  Bot ") and ("●" in line):
            pytest.fail(f"a bot's dice count is shown in memory mode: {line!r}")
        assert not (line.startswith("Bot ") and "left)" in line), line


def test_end_of_input_at_any_prompt_exits_zero_offering_to_save_when_interactive(tmp_path):
    out = io.StringIO()
    config = PlayConfig(rules=PERUDO, players=3, level="easy", seed=5, delay=0)
    answers = iter([None, str(tmp_path / "r.json")])

    def read(prompt: str) -> str:
        answer = next(answers)
        if answer is None:
            raise EOFError
        return answer

    session = Session(
        config, Console(file=out, width=80, color_system=None), read=read, interactive=True
    )
    assert session.run() == 0
    assert "Goodbye!" in out.getvalue()
    assert GameRecord.loads((tmp_path / "r.json").read_text()).replay() == session.state


def test_a_failed_save_is_reported_not_raised(tmp_path):
    out = io.StringIO()
    config = PlayConfig(
        rules=PERUDO, players=3, level="easy", seed=5, delay=0, save=tmp_path / "no" / "x.json"
    )
    session = Session(config, Console(file=out, width=80, color_system=None), read=lambda p: "quit")
    assert session.run() == 1  # reported, not raised; with nobody to ask again, exit status 1
    assert "Could not save to" in out.getvalue()


def test_ctrl_c_that_cuts_a_print_short_still_says_goodbye_and_saves(tmp_path):
    # A ^C can land between rich entering its output buffer and the `with` block that leaves
    # it (CPython checks signals between the two), so everything printed after would stay in
    # the buffer and never reach the screen: the goodbye and the save message included.
    out = io.StringIO()
    path = tmp_path / "cut.json"
    config = PlayConfig(rules=PERUDO, players=4, level="easy", seed=8, delay=1.0, save=path)
    console = Console(file=out, width=80, color_system=None)

    def sleep(seconds: float) -> None:
        console._enter_buffer()  # the state a print cut short between enter and exit leaves
        raise KeyboardInterrupt

    session = Session(config, console, read=lambda p: "", sleep=sleep)
    assert session.run() == 0
    text = out.getvalue()
    assert "Goodbye!" in text
    assert "Saved" in text or str(path) in text
    assert GameRecord.loads(path.read_text(encoding="utf-8")).replay() == session.state
