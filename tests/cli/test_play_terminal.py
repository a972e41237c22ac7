"""``perudo play`` in a real pseudo-terminal: whole games, bad input, leaving, P-34.

Every test spawns the installed command with ``--delay 0`` and a seed, and reads the screen
the way a person would.
"""

from __future__ import annotations

import dataclasses
import json
import re

from perudo import PERUDO, Bid, Deal, Dudo, GameRecord, apply, start_game
from perudo.i18n import load_catalog

GAME = ["play", "--rules", "perudo", "--players", "3", "--level", "easy", "--seed", "5"]
GAME += ["--delay", "0"]


def test_scripted_human_plays_a_whole_game_to_the_winner_in_english(
    terminal, scripted, english, tmp_path
):
    save = tmp_path / "game.json"
    human = scripted(terminal([*GAME, "--lang", "en"]), english, save_to=save)
    text = human.play()
    assert len(human.moves) >= 5
    winner = re.search(r"(You win the game!|Bot \d wins the game!)", text)
    assert winner, text[-1500:]
    assert english.t("save.done", path=str(save)) in text
    record = GameRecord.loads(save.read_text(encoding="utf-8"))
    final = record.replay()
    assert final.is_over
    won_by_me = final.winner == 0
    assert (winner.group(1) == "You win the game!") == won_by_me
    # The table talk shows every round's challenge and its P-21 reveal.
    assert text.count("Checking ") == len(final.past)
    assert "count · running" in text


def test_scripted_human_plays_a_whole_game_to_the_winner_in_korean(terminal, scripted, korean):
    human = scripted(terminal([*GAME, "--lang", "ko"]), korean)
    text = human.play()
    assert re.search(r"승리했습니다!|승자: 봇 \d!", text), text[-1500:]
    # The games' own Korean words are on the screen and were typed.
    assert "두도" in text and "조커" in text
    assert "가능한 행동:" in text and "참일 확률:" in text
    assert any(move == "두도" for move in human.moves)


def test_the_same_seed_deals_the_same_dice(terminal, english):
    screens = []
    for _ in range(2):
        term = terminal([*GAME, "--lang", "en"])
        term.expect_text(english.t("prompt.turn"))
        screens.append(term.text)
        term.sendline("quit")
        term.expect_text(english.t("save.prompt_partial"))
        term.sendline("")
        assert term.finish() == 0
    assert screens[0] == screens[1]


def test_bad_input_names_the_rule_and_reprompts_with_the_state_unchanged(terminal, english):
    term = terminal([*GAME, "--lang", "en"])
    prompt = re.escape(english.t("prompt.turn"))
    term.expect([prompt])
    screen = term.before
    opening = english.t("bids.none") in screen.split(english.t("bids.title"))[-1].split("\n")[0]
    bad = [
        ("9x9", "Not allowed: There is no face 9 on a 6-faced die."),
        ("blah", "Not understood: “blah”"),
        ("0x5", "Not allowed: The number of dice must be 1 or more, not 0."),
        ("aside x", "write the faces to set aside"),
        ("deal 12345 - 11111", "Not understood"),
        ("palifico", "There is no palifico choice to make now."),
        ("calza", "Calza is not played with these rules."),
    ]
    if opening:
        bad.append(("dudo", "There is no bid to challenge yet: the opener bids first."))
    else:
        bad.append(("1x2", "does not raise"))
    for text, message in bad:
        term.sendline(text)
        term.expect([prompt])
        answer = term.before
        assert "Not allowed" in answer or "Not understood" in answer or message in answer
        assert message in answer.replace("\n", " "), answer
        # Nothing happened at the table: no move was made, the turn is still ours.
        assert "▸" not in answer.split(text, 1)[-1]
    term.sendline("help")
    term.expect([prompt])
    assert "How to play" in term.before
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_a_bid_out_of_turn_at_the_calza_prompt_names_the_rule(terminal, english, calza_pattern):
    term = terminal(
        [
            "play",
            "--rules",
            "perudo_calza",
            "--players",
            "4",
            "--level",
            "easy",
            "--seed",
            "3",
            "--delay",
            "0",
            "--lang",
            "en",
        ]
    )
    turn = re.escape(english.t("prompt.turn"))
    calza = calza_pattern(english)
    ended = re.escape(english.t("save.prompt"))
    while (index := term.expect([turn, calza, ended])) == 0:
        term.sendline(
            "dudo"
            if "Current bid" in term.before and "may: bid" not in term.before
            else _lowest(term.before)
        )
    assert index == 1, "the game ended without a calza prompt"
    assert "Chance it is exact:" in term.before
    term.sendline("5x5")
    term.expect([calza])
    assert re.search(r"Not allowed: It is Bot \d's turn, not yours\.", term.before), term.before
    term.sendline("blah")
    term.expect([calza])
    # what this prompt takes, not "type a bid such as 3x5" (no bid is asked here)
    assert english.t("calza.help", calza="calza") in term.before
    term.sendline("")  # Enter: no calza, play goes on
    term.expect([turn, calza])
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def _lowest(screen: str) -> str:
    options = screen[screen.rfind("You may:") :]
    raises = [(int(q), int(f)) for q, f in re.findall(r"\b(\d+)x(\d+)\b", options)]
    if not raises:
        return "dudo"
    q, f = min(raises)
    return f"{q}x{f}"


def test_end_of_input_says_goodbye_and_exits_zero(terminal, english):
    term = terminal([*GAME, "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    term.child.sendeof()
    term.expect_text(english.t("save.prompt_partial"))  # a terminal is offered to save
    term.child.sendeof()
    term.expect_text(english.t("bye"))  # and told goodbye after the question
    assert term.finish() == 0
    assert "Traceback" not in term.text


def test_ctrl_c_says_goodbye_and_exits_zero(terminal, english, tmp_path):
    term = terminal([*GAME, "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    term.child.sendintr()
    term.expect_text(english.t("save.prompt_partial"))
    path = tmp_path / "so-far.json"
    term.sendline(str(path))
    term.expect_text(english.t("save.done", path=str(path)))
    term.expect_text(english.t("bye"))
    assert term.finish() == 0
    assert "Traceback" not in term.text and "KeyboardInterrupt" not in term.text
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    assert not record.replay().is_over  # the game so far, which replays


def test_yes_at_the_save_question_saves_a_dated_file_and_no_saves_nothing(
    terminal, english, tmp_path
):
    # A tester answered "y" to "Save the game so far? File name" and got a file named "y".
    for answer, saved in (("y", True), ("yes", True), ("n", False), ("no", False)):
        folder = tmp_path / answer
        folder.mkdir()
        (folder / "earlier.txt").write_text("", encoding="utf-8")
        term = terminal([*GAME, "--lang", "en"], cwd=folder)
        term.expect_text(english.t("prompt.turn"))
        term.child.sendintr()
        term.expect_text(english.t("save.prompt_partial"))
        term.sendline(answer)
        term.expect_text(english.t("bye"))
        assert term.finish() == 0
        files = sorted(p.name for p in folder.iterdir() if p.name != "earlier.txt")
        if not saved:
            assert files == [] and "saved" not in term.text
            continue
        assert len(files) == 1
        assert re.fullmatch(r"perudo-\d{4}-\d\d-\d\d-\d{4}\.json", files[0])
        assert english.t("save.done", path=files[0]) in term.text
        record = GameRecord.loads((folder / files[0]).read_text(encoding="utf-8"))
        assert not record.replay().is_over


def test_ctrl_c_while_the_bots_think_exits_zero_and_saves_to_the_save_option(
    terminal, english, tmp_path
):
    path = tmp_path / "saved.json"
    args = ["play", "--players", "4", "--seed", "8", "--delay", "5", "--lang", "en"]
    term = terminal([*args, "--save", str(path)])
    term.expect(
        [re.escape(english.t("rolloff.throw", dice="")), re.escape(english.t("prompt.turn"))]
    )
    term.child.sendintr()
    term.expect_text(english.t("save.done", path=str(path)))
    term.expect_text(english.t("bye"))
    assert term.finish() == 0
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "perudo-record"


def test_two_player_palifico_choice_is_asked_of_the_person(terminal, english, tmp_path):
    # P-34: two players, two dice each; the person loses round 1, holds one die and opens.
    rules = dataclasses.replace(PERUDO, dice_per_player=2)
    state = start_game(rules, 2, [(1, 6)])
    state, _ = apply(state, Deal(((2, 3), (5, 5))))
    state, _ = apply(state, Bid(1, 5))
    state, _ = apply(state, Dudo())
    assert state.to_act == 0 and state.phase.value == "choose_palifico"
    path = tmp_path / "p34.json"
    path.write_text(GameRecord.from_state(state).dumps(), encoding="utf-8")
    term = terminal(
        [
            "play",
            "--from-record",
            str(path),
            "--players",
            "2",
            "--dice",
            "2",
            "--seed",
            "1",
            "--level",
            "easy",
            "--delay",
            "0",
            "--lang",
            "en",
        ]
    )
    prompt = re.escape(english.t("prompt.turn"))
    term.expect([prompt])
    screen = " ".join(term.before.split())
    assert "choose a palifico round" in screen and "(P-34)" not in screen
    assert "You may: palifico · normal" in screen
    term.sendline("3x5")
    term.expect([prompt])
    assert "First choose a palifico round or a normal round." in " ".join(term.before.split())
    term.sendline("palifico")
    term.expect([prompt])
    after = " ".join(term.before.split())
    assert "You: a palifico round." in after
    assert "Palifico round for you, down to one die" in after
    assert "aces are not wild this round" in after
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_play_with_no_options_starts_the_default_game(terminal):
    # `make serve` runs `perudo play`: perudo, 4 players, medium bots, the locale's language.
    ko = load_catalog("ko")
    term = terminal(["play", "--delay", "0"], env={"LANG": "ko_KR.UTF-8"})
    term.expect_text(ko.t("prompt.turn"))
    screen = term.before
    assert "라운드 · 주사위 20개" in screen
    assert all(f"봇 {n}" in screen for n in (1, 2, 3))
    term.sendline("종료")
    term.expect_text(ko.t("save.prompt_partial"))
    term.sendline("")
    term.expect_text(ko.t("bye"))
    assert term.finish() == 0


def test_memory_mode_hides_the_other_seats_dice_counts(terminal, english):
    term = terminal([*GAME, "--lang", "en", "--memory"])
    term.expect_text(english.t("prompt.turn"))
    screen = term.before
    assert "memory mode" in screen and "(P-40)" not in screen
    seat_lines = [line for line in screen.splitlines() if re.match(r"\s+Bot \d\s", line)]
    assert seat_lines and all("?" in line and "●" not in line for line in seat_lines)
    # Nor the total (15 dice: with two players left it tells the other's count), nor the odds
    # computed from it; a bid above the dice in play is refused without saying how many.
    assert "in play" not in screen and "Chance it is" not in screen
    term.sendline("16x2")
    term.expect_text("claims more dice than there are in play")
    assert "15" not in term.before.splitlines()[-1]
    term.expect_text(english.t("prompt.turn"))
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_bad_options_are_refused_before_the_game(terminal):
    term = terminal(["play", "--rules", "nope"])
    assert term.finish() != 0
    assert "unknown rule set 'nope'" in term.text
    term = terminal(["play", "--lang", "fr"])
    assert term.finish() != 0
    assert "known: en, ko, it" in term.text


def test_no_color_output_has_no_colours(terminal, english):
    term = terminal([*GAME, "--lang", "en"], env={"NO_COLOR": "1"})
    term.child.expect(re.escape(english.t("prompt.turn")))
    raw = term.child.before
    assert not re.search(r"\x1b\[[0-9;]*3[0-9](;|m)", raw)  # no foreground colours
    term.sendline("quit")
    term.child.expect(re.escape(english.t("save.prompt_partial")))
    term.sendline("")
    assert term.finish() == 0


def test_every_line_fits_80_columns(terminal, scripted, english):
    human = scripted(terminal([*GAME, "--lang", "en"]), english)
    text = human.play()
    from rich.cells import cell_len

    assert max(cell_len(line) for line in text.splitlines()) <= 80
