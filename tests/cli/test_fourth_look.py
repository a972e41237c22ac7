"""The terminal after the fourth look (issue "The fourth look"): each point, in a real
pseudo-terminal where it is the terminal's behaviour.

Input the terminal's encoding cannot read, the person spoken of as "you" (verb agreement,
Korean and Italian pronouns), Bluff's loss capped at the dice a player had (V-4), replays and
resumes that name players, memory mode kept in the record, the files a command writes.
"""

from __future__ import annotations

import random

from perudo import PERUDO
from perudo.registry import make_bot
from perudo.sim.match import play_game

QUICK = ["--level", "easy", "--delay", "0", "--seed", "5"]
GAME = ["play", "--rules", "perudo", "--players", "3", *QUICK]
ASCII = {"PYTHONIOENCODING": "ascii", "LANG": "C"}


def _flat(text: str) -> str:
    return " ".join(text.split())


# Input that is not in the terminal's encoding -------------------------------------------------


def test_a_line_the_input_encoding_cannot_read_is_told_and_the_game_goes_on(terminal, english):
    term = terminal([*GAME, "--lang", "en"], env=ASCII)
    term.expect_text(english.t("prompt.turn"))
    for line in ("3×5", "두도"):
        term.sendline(line)
        term.expect_text(english.t("prompt.turn"))
        assert "That line cannot be read: this terminal's input is ascii." in _flat(term.before)
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("×")  # the save question too
    term.expect_text(english.t("save.prompt_partial"))
    assert "cannot be read" in term.before
    term.sendline("")
    assert term.finish() == 0
    assert "Traceback" not in term.text and "UnicodeDecodeError" not in term.text


def test_a_replay_read_the_input_encoding_cannot_read_is_told(terminal, english, tmp_path):
    bots = [make_bot("easy", s) for s in range(3)]
    save = tmp_path / "game.json"
    save.write_text(play_game(PERUDO, bots, random.Random(1)).record.dumps(), encoding="utf-8")
    term = terminal(["replay", str(save), "--lang", "en"], env=ASCII)
    prompt = "Enter: next round . q: quit> "  # input() writes its prompt, "?" for "·"
    term.expect([prompt])
    term.sendline("×")
    term.expect([prompt])
    assert "cannot be read" in term.before
    term.sendline("q")
    term.finish()
    assert "Traceback" not in term.text
