"""The terminal after the fourth look (issue "The fourth look"): each point, in a real
pseudo-terminal where it is the terminal's behaviour.

Input the terminal's encoding cannot read, the person spoken of as "you" (verb agreement,
Korean and Italian pronouns), Bluff's loss capped at the dice a player had (V-4), replays and
resumes that name players, memory mode kept in the record, the files a command writes.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from perudo import BLUFF, PERUDO, Bid, RoundResolved
from perudo.cli.main import app
from perudo.cli.tui.render import Painter
from perudo.core import Reveal
from perudo.i18n import load_catalog
from perudo.registry import make_bot
from perudo.sim.match import play_game

QUICK = ["--level", "easy", "--delay", "0", "--seed", "5"]
GAME = ["play", "--rules", "perudo", "--players", "3", *QUICK]
ASCII = {"PYTHONIOENCODING": "ascii", "LANG": "C"}
ROOT = Path(__file__).resolve().parents[2]


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


# The person spoken to: one sentence for them and for everyone else --------------------------


def _bluff_loss(target: int, quantity: int, count: int, lost: int) -> RoundResolved:
    return RoundResolved(
        kind="dudo",
        caller=1 - target,
        target=target,
        bid=Bid(quantity, 3),
        reveals=(Reveal(0, (3,), 1), Reveal(1, (2,), 0)),
        hidden=(),
        count=count,
        holds=False,
        changes=((target, -lost),),
        eliminated=(),
        next_opener=1 - target,
        palifico=False,
    )


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "The bid was 2 too high, so you lose 2 dice (loss by the difference)."),
        ("ko", "비드가 2개 많았으므로 내가 주사위 2개를 잃습니다 (차이만큼 잃기)."),
        (
            "it",
            "La puntata superava di 2 i dadi trovati: tu perdi 2 dadi (perdita per differenza).",
        ),
    ],
)
def test_a_sentence_about_the_person_agrees_with_you_v4(lang, sentence):
    cat = load_catalog(lang)
    painter = Painter(cat, BLUFF, [cat.you(), cat.t("seat.bot", n=1)], me=0)
    lines = [str(x) for x in painter.resolution(_bluff_loss(0, 3, 1, 2), (3, 5))]
    assert sentence in lines, lines


@pytest.mark.parametrize(
    ("lang", "announce"),
    [
        ("en", "Palifico round for you, down to one die"),
        ("ko", "팔라피코 라운드! 내 주사위가 하나 남았습니다"),
        ("it", "Giro palifico: tu hai un solo dado."),
    ],
)
def test_the_palifico_announcement_about_the_person_p30(lang, announce):
    cat = load_catalog(lang)
    assert cat.t("palifico.announce", who=cat.you()).startswith(announce)
    other = cat.t("palifico.announce", who="Ana")
    assert "Ana" in other and "you" not in other


def test_winning_and_losing_agree_with_you_and_with_a_name():
    en, it = load_catalog("en"), load_catalog("it")
    assert en.t("over.winner", who=en.you()) == "You win the game!"
    assert en.t("over.winner", who="Bot 2") == "Bot 2 wins the game!"
    assert it.t("over.winner", who=it.you()) == "Tu vinci la partita!"
    assert it.t("loss.exact", who=it.you()).endswith("tutti tranne te perdono un dado.")
    assert en.t("loss.exact", who=en.you()).endswith("everyone but you loses one die.")
    ko = load_catalog("ko")
    assert ko.t("reveal.concede", who=ko.you()).startswith("내가 기권했습니다")
    assert ko.t("reveal.concede", who="봇 2").startswith("봇 2가 기권했습니다")


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        (
            "en",
            "The bid was 4 too high: the loss by the difference is 4 dice, but Bot 1 has "
            "only 1 die to lose.",
        ),
        (
            "ko",
            "비드가 4개 많았으므로 차이만큼 주사위 4개를 잃어야 하지만, 봇 1에게 남은 "
            "주사위는 1개뿐입니다.",
        ),
        (
            "it",
            "La puntata superava di 4 i dadi trovati: la perdita per differenza è di 4 "
            "dadi, ma Bot 1 ha solo 1 dado da perdere.",
        ),
    ],
)
def test_a_loss_by_the_difference_takes_only_the_dice_the_player_had_v4(lang, sentence):
    cat = load_catalog(lang)
    painter = Painter(cat, BLUFF, [cat.you(), cat.t("seat.bot", n=1)], me=0)
    lines = [str(x) for x in painter.resolution(_bluff_loss(1, 5, 1, 1), (3, 0))]
    assert sentence in lines, lines
    assert not any("4 dice (loss" in x or "4개를 잃습니다" in x for x in lines)


def test_a_whole_game_never_says_you_loses_or_you_wins(terminal, scripted, english):
    args = ["play", "--rules", "bluff", "--players", "2", "--dice", "3", *QUICK]
    text = scripted(terminal([*args, "--lang", "en"]), english).play()
    assert "wins the game!" in text or "You win the game!" in text
    assert not re.search(r"\bYou (loses|wins|has|concedes)\b", text), text[-1500:]
    assert not re.search(r"so You\b", text)


# Replays and resumes name the record's players -------------------------------------------------

SEATS = [
    {"name": "You", "kind": "human", "level": None},
    {"name": "Bot 1", "kind": "bot", "level": "easy"},
    {"name": "Bot 2", "kind": "bot", "level": "easy"},
]


def _record(tmp_path: Path, tamper: Callable[[list[dict[str, object]]], None]) -> Path:
    """A finished 3-player game with the seats above, its moves changed by ``tamper``."""
    bots = [make_bot("easy", s) for s in range(3)]
    data = json.loads(play_game(PERUDO, bots, random.Random(1)).record.dumps())
    data["seats"] = SEATS
    tamper(data["moves"])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _bad_deal(moves: list[dict[str, object]]) -> None:
    hands = str(moves[0]["action"]).split()
    hands[2] = "7" + hands[2][1:]  # Bot 1's first die: no face 7 on a six-faced die
    moves[0]["action"] = " ".join(hands)


def _bot_out_of_turn(moves: list[dict[str, object]]) -> None:
    k = next(i for i, m in enumerate(moves) if m["seat"] is not None and i > 1)
    moves[k]["seat"] = 2 if moves[k]["seat"] != 2 else 1


def test_a_replay_of_a_tampered_deal_names_the_hand_with_the_bad_die(terminal, tmp_path):
    path = _record(tmp_path, _bad_deal)
    term = terminal(["replay", str(path), "--all", "--lang", "en"])
    assert term.finish() == 1
    assert "Move 1 (chance: deal " in term.text
    assert "is not legal: Bot 1 rolls 5 dice of 1–6, not 7 " in _flat(term.text)


def test_a_replay_speaks_of_the_player_who_moved_out_of_turn_not_to_the_reader(terminal, tmp_path):
    path = _record(tmp_path, _bot_out_of_turn)
    term = terminal(["replay", str(path), "--all", "--lang", "en"])
    assert term.finish() == 1
    text = _flat(term.text)
    assert re.search(r"It is (You|Bot \d)'s turn: Bot \d is not to move\.", text), text[-600:]
    assert "not yours" not in text


def test_resume_errors_name_the_player_as_replay_does(terminal, tmp_path):
    path = _record(tmp_path, _bot_out_of_turn)
    term = terminal(["play", "--resume", str(path)])
    assert term.finish() == 2
    text = _flat(term.text.replace("│", " "))
    assert re.search(r"Move \d+ \(Bot \d: [^)]+\) is not legal: It is", text), text
    assert "seat " not in text and "not yours" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "4"],
            "the recorded game has its own table (perudo, 3 players); leave " "--players out",
        ),
        (
            ["--rules", "bluff"],
            "the recorded game is played with its own rules (perudo, 3 "
            "players); leave --rules out",
        ),
        (["--dice", "3"], "the recorded game started with 5 dice each; leave --dice out"),
        (["--level", "hard"], "the recorded bots keep their levels (easy); leave --level out"),
    ],
)
def test_resume_refuses_options_that_ask_for_another_table(terminal, tmp_path, args, message):
    path = _record(tmp_path, lambda moves: moves.__delitem__(slice(6, None)))
    term = terminal(["play", "--resume", str(path), *args])
    assert term.finish() == 2
    assert message in _flat(term.text.replace("│", " "))
    assert "Roll-off" not in term.text and "Continuing" not in term.text


def test_resume_with_the_record_s_own_values_is_fine(terminal, english, tmp_path):
    path = _record(tmp_path, lambda moves: moves.__delitem__(slice(6, None)))
    args = ["--players", "3", "--rules", "perudo", "--delay", "0"]
    term = terminal(["play", "--resume", str(path), *args, "--lang", "en"])
    term.expect([re.escape(english.t("prompt.turn")), re.escape(english.t("prompt.out"))])
    assert "Continuing a recorded game" in term.text


def test_a_game_saved_in_memory_mode_resumes_in_memory_mode_p40(terminal, english, tmp_path):
    save = tmp_path / "game.json"
    term = terminal([*GAME, "--memory", "--lang", "en", "--save", str(save)])
    term.expect_text(english.t("prompt.turn"))
    assert "memory mode" in term.text
    term.sendline("quit")
    assert term.finish() == 0
    assert json.loads(save.read_text(encoding="utf-8"))["memory"] is True
    term = terminal(["play", "--resume", str(save), "--delay", "0", "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    assert "memory mode" in term.text and " dice in play" not in term.text


# The files a command writes -----------------------------------------------------------------


def test_arena_out_refuses_an_existing_file_unless_overwrite_as_play_save_does(terminal, tmp_path):
    out = tmp_path / "figures.json"
    out.write_text("{}", encoding="utf-8")
    arena = ["arena", "--rules", "perudo", "--players", "2", "--bots", "random", "--games", "2"]
    arena += ["--jobs", "1", "--out", str(out)]
    term = terminal(arena)
    assert term.finish() == 2
    assert "already exists; choose another name, or add --overwrite" in _flat(term.text)
    assert "games on" not in term.text and out.read_text(encoding="utf-8") == "{}"
    term = terminal([*arena, "--overwrite"])
    assert term.finish() == 0
    assert json.loads(out.read_text(encoding="utf-8"))["games"] == 2


def test_a_save_where_the_system_refuses_writing_is_refused_before_the_game(terminal):
    # /proc's folder looks writable to root's permission bits; the system refuses the file.
    term = terminal([*GAME, "--save", "/proc/perudo-game.json"])
    assert term.finish() == 2
    text = _flat(term.text.replace("│", " "))
    # (as root the permission bits say yes and only the system says no; else both say no)
    assert re.search(r"perudo-game.json cannot be written|nothing can be written in /proc", text)
    assert "Roll-off" not in term.text


# solve and exploit ---------------------------------------------------------------------------


def test_solve_gives_the_best_responses_as_exploit_does_the_responder_s_value():
    args = ["--rules", "perudo", "--dice", "1,1", "--quiet"]
    solved = " ".join(CliRunner().invoke(app, ["solve", *args]).output.replace("│", " ").split())
    # v = -1/18 for the opener: the other seat's best response to the opener wins +1/18.
    assert "best response to the opener +0.055555556 (the other seat's value;" in solved, solved
    assert "best response to the other -0.055555556 (the opener's value;" in solved
    exploited = CliRunner().invoke(app, ["exploit", "--bot", "prob", *args]).output
    rows = [line.replace("│", " ").split() for line in exploited.splitlines()]
    solver = {row[1]: row[2] for row in rows if row[:1] == ["solver"]}
    assert solver == {"opener": "+0.055556", "other": "-0.055556"}, exploited


def test_solve_match_keeps_the_palifico_flags_of_each_position(terminal):
    term = terminal(["solve", "--rules", "perudo", "--match", "--max-dice", "2", "--quiet"])
    assert term.finish() == 0
    assert "1v1 normal [u-]" in term.text and "1v1 palifico [uu]" in term.text, term.text


# Charts are an extra ---------------------------------------------------------------------------


def test_serving_and_playing_install_no_charting_library():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    for needs in (project["dependencies"], extras["server"]):
        assert not [d for d in needs if d.startswith("matplotlib")], needs
    for extra in ("plot", "train", "test"):
        assert any(d.startswith("matplotlib") for d in extras[extra]), extra


def test_arena_plot_without_matplotlib_names_the_plot_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as when it is not installed
    args = ["arena", "--games", "1", "--plot", str(tmp_path / "chart.png")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "pip install 'perudo[plot]'" in _flat(result.output.replace("│", " "))
    assert not (tmp_path / "chart.png").exists()


def test_abstract_says_how_long_it_will_run_before_and_while_it_runs(tmp_path):
    args = ["abstract", "--rules", "perudo", "--dice", "1,1", "--memory", "1"]
    result = CliRunner().invoke(app, [*args, "--iterations", "20", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "  dcfr for 20 iterations (--iterations, --minutes)", lines
    assert lines[2].startswith("  then measured exactly in the full game: two arrays of ")
    assert re.match(r"  10 iterations in \d+ s: about \d+ s for the solve$", lines[3]), lines


# The docs' commands run anywhere ----------------------------------------------------------------


def test_the_docs_run_the_benchmarks_with_the_venv_s_python_and_name_no_machine_paths():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"(?<![/\w])python3? benchmarks/", text), doc.name
        assert not re.search(r"/work/|/home/\w|<a checkout of", text), doc.name
