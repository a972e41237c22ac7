"""A second new user's afternoon with the terminal: the rough edges found, each in a real
pseudo-terminal where it is about the screen.

Korean particles after 비드, Bluff's and OpenSpiel's wild six in the help and the legend, what
the calza and knocked-out prompts say to a line they do not understand, the arena's table and
help at 80 columns, ``perudo play --help`` at 80 columns, a replay's rules and bot levels in the
viewer's language, Italian that does not guess a player's gender.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import perudo.server
from perudo import PERUDO_CALZA, Bid, GameRecord, roll_off, start_game, view
from perudo.cli.tui.words import read_input
from perudo.core import SeatInfo
from perudo.i18n import load_catalog
from perudo.registry import make_bot
from perudo.sim.driver import run

QUICK = ["--level", "easy", "--delay", "0", "--seed", "5"]


def _lines_from(text: str, start: str) -> list[str]:
    """The screen's lines from the last ``start`` on (to the prompt the text stops before)."""
    return text[text.rindex(start) :].splitlines()


# Korean: 비드 ends in a vowel, so 비드가 / 비드를 / 비드나
# (the catalog had 비드이, 비드을, 비드이나).


def test_korean_particles_after_bid_agree_with_its_vowel_ending():
    ko = load_catalog("ko")
    wrong = re.compile(r"비드(?:이|을|은|과|으로)(?![가-힣])|비드이나")
    bad = {k: v for k, v in ko.messages.items() if isinstance(v, str) and wrong.search(v)}
    assert not bad, bad


# Bluff's wild face is 6: the help, the error's example and the legend say so -------------


def test_bluff_help_names_the_wild_six_lists_only_its_moves_and_fits_80_columns(terminal, english):
    term = terminal(["play", "--rules", "bluff", "--players", "3", *QUICK, "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    assert "★ = 6: wild" in term.before and "★ = 6★" not in term.before
    term.sendline("help")
    term.expect_text(english.t("prompt.turn"))
    help_lines = _lines_from(term.before, english.t("help.title"))
    text = "\n".join(help_lines)
    assert "aces" not in text and "3x1" not in text  # face 1 is a plain face in Bluff
    assert "6★" in text and "3x6" in text and "aside 55" in text
    assert "calza" not in text and "palifico" not in text  # Bluff has neither
    assert all(len(line) <= 80 for line in help_lines)
    row = next(line for line in help_lines if line.strip().startswith("dudo"))
    assert "challenge the last bid" in row  # example and meaning on one line
    term.sendline("blah")
    term.expect_text(english.t("prompt.turn"))
    assert "“3 6★”" in " ".join(term.before.split()) and "3 aces" not in term.before
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_perudo_help_in_korean_has_aces_calza_and_palifico(terminal, korean):
    term = terminal(["play", "--rules", "perudo_calza", "--players", "3", *QUICK, "--lang", "ko"])
    term.expect_text(korean.t("prompt.turn"))
    term.sendline("도움말")
    term.expect_text(korean.t("prompt.turn"))
    text = "\n".join(_lines_from(term.before, korean.t("help.title")))
    assert "3 조커" in text and "칼자" in text and "팔라피코, 일반" in text
    assert "마지막 비드가 정확히 맞음" in text
    term.sendline("종료")
    term.expect_text(korean.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_openspiel_shows_the_legend_of_its_starred_six(terminal, english):
    args = ["play", "--rules", "liars_dice_openspiel", "--players", "2", *QUICK, "--lang", "en"]
    term = terminal(args)
    term.expect_text(english.t("prompt.turn"))
    if "6★" in term.before:  # a starred die on screen is explained
        assert "★ = 6: wild, they count as any face" in term.before
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_a_bluff_bid_can_be_typed_as_the_screen_writes_it():
    assert read_input("3 × 6★") == Bid(3, 6)
    assert read_input("3x6★") == Bid(3, 6)
    assert read_input("4 6★") == Bid(4, 6)


# Prompts that do not ask for a bid do not answer "type a bid" ------------------------------


def test_the_knocked_out_prompt_explains_itself_to_a_line_it_does_not_understand(terminal, english):
    args = ["play", "--players", "4", "--dice", "1", *QUICK, "--lang", "en"]
    term = terminal(args)
    out = re.escape(english.t("prompt.out"))
    while term.expect([re.escape(english.t("prompt.turn")), out]) == 0:
        term.sendline("4x6")  # all but surely fails: the quickest way out
    term.sendline("blah")
    term.expect([out])
    assert english.t("out.help") in term.before and "Type a bid" not in term.before
    term.sendline("end")
    term.expect_text(english.t("save.prompt"))
    term.sendline("")
    assert term.finish() == 0


def test_the_calza_prompt_explains_itself_to_a_line_it_does_not_understand(
    terminal, english, calza_pattern
):
    args = ["play", "--rules", "perudo_calza", "--players", "4", *QUICK, "--lang", "en"]
    term = terminal([*args, "--calza-ask", "always"])
    turn = re.escape(english.t("prompt.turn"))
    while term.expect([turn, calza_pattern(english)]) == 0:
        term.sendline("dudo" if "Current bid" in term.before else "1x2")
    term.sendline("blah")
    term.expect([calza_pattern(english)])
    said = " ".join(term.before.split())
    assert "Type calza if the bid is exactly right, or press Enter to go on." in said
    assert "Type a bid" not in said
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


# The other commands at 80 columns ---------------------------------------------------------


def test_the_arena_table_fits_80_columns_with_names_and_intervals_whole(terminal):
    args = ["arena", "--games", "4", "--players", "3", "--jobs", "1", "--bots", "easy,medium"]
    term = terminal(args)
    assert term.finish() == 0
    text = term.text
    assert "…" not in text, text
    rows = [line for line in text.splitlines() if line.startswith(("easy", "medium"))]
    assert len(rows) == 2 and all(re.search(r"\d+\.\d%–\d+\.\d%", row) for row in rows), text
    assert "OpenSkill" in text and "on 1 process;" not in text and "1 processes" not in text


def test_the_arena_help_paragraph_is_not_cut_at_its_source_line_breaks(terminal):
    term = terminal(["arena", "--help"])
    assert term.finish() == 0
    intro = term.text[: term.text.index("╭")].splitlines()
    words = [line.strip() for line in intro if line.strip() and "Usage:" not in line]
    # a line is short only where a paragraph ends (before: "mean" alone on a line)
    assert all(len(line) > 60 or line.endswith(".") for line in words), words


def test_play_help_fits_80_columns_without_cutting_an_option(terminal):
    term = terminal(["play", "--help"])
    assert term.finish() == 0
    assert not re.search(r"--[\w,-]*…", term.text)  # before: "--resume,--from-re…"
    assert "--no-memory" not in term.text  # its second column pushed the help aside
    assert "--resume" in term.text and "--memory" in term.text


# A replay speaks the viewer's language ---------------------------------------------------


def test_a_replay_names_its_rules_and_bot_levels_in_italian(terminal, tmp_path):
    rules = PERUDO_CALZA.__class__(calza="on", dice_per_player=2)
    rng = random.Random(3)
    bots = [make_bot("easy", 30 + s) for s in range(3)]
    state = start_game(rules, 3, roll_off(rules, 3, rng))
    state = run(
        state,
        rng,
        lambda st, s: bots[s].act(view(st, s)),
        lambda st, s: bots[s].call_calza(view(st, s)),
    )
    seats = (
        SeatInfo("Lucia", "human", None),
        SeatInfo("Bot 1", "bot", "medium"),
        SeatInfo("Bot 2", "bot", "expert"),
    )
    path = tmp_path / "partita.json"
    path.write_text(GameRecord.from_state(state, seats=seats).dumps(), encoding="utf-8")
    term = terminal(["replay", str(path), "--all", "--lang", "it"])
    assert term.finish() == 0
    text = " ".join(term.text.split())
    assert "Replay: perudo_calza con 2 dadi a testa, 3 giocatori" in text
    assert "Bot 1 (bot, medio)" in text and "Bot 2 (bot, esperto)" in text
    assert "custom" not in text and "medium" not in text


@pytest.mark.parametrize("who", ["Lucia", "Marco"])
def test_italian_palifico_and_knock_out_words_do_not_guess_a_gender(who):
    it = load_catalog("it")
    announce = it.t("palifico.announce", who=who)
    assert who in announce and "rimasto" not in announce and "rimasta" not in announce
    assert "eliminato" not in it.t("elim.you")
    assert "si rilancia tutti" not in it.t("rolloff.tie", face=6, who=who)


def test_italian_words_for_a_player_out_of_the_game_do_not_guess_a_gender():
    """The terminal's and the page's catalogs: "fuori gioco", never "eliminato"/"eliminata"."""
    page = Path(perudo.server.__file__).parent / "static" / "i18n.js"
    it = load_catalog("it")
    for text in [page.read_text(encoding="utf-8"), *map(str, it.messages.values())]:
        assert "eliminat" not in text


# The hint never rounds to a certainty it is not ----------------------------------------


def test_the_hint_says_more_than_99_9_not_100_for_a_bid_that_may_still_fail():
    from perudo import PERUDO
    from perudo.cli.tui.hint import Chance
    from perudo.cli.tui.render import Painter

    painter = Painter(load_catalog("en"), PERUDO, ["You", "Bot 1"], me=0)
    almost = painter.hint(Chance(0.99996, 0.00004, 7.7, 1, 20)).plain
    assert "Chance it is true: >99.9%" in almost and "100.0%" not in almost
    sure = painter.hint(Chance(1.0, 0.0, 9.0, 9, 0)).plain
    assert "Chance it is true: 100.0%" in sure
    calza = painter.hint(Chance(0.9, 0.0003, 3.0, 1, 9), calza=True).plain
    assert calza == "Chance it is exact: <0.1%"


# Usage errors a player reads: words, not rule ids --------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "1"], "1 player: these rules take 2–10"),
        (["play", "--players", "11"], "11 players: these rules take 2–10"),
        (["play", "--delay", "-1"], "-1.0 is below 0"),
        (["play", "--from-record", "/no/such/game.json"], "cannot read /no/such/game.json"),
    ],
)
def test_play_usage_errors_are_plain_words(args, message):
    from typer.testing import CliRunner

    from perudo.cli.main import app

    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    flat = " ".join(result.output.replace("│", " ").split())
    assert message in flat and "(P-" not in flat and "Traceback" not in flat
