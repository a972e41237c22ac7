"""The terminal as a new user tries it (issue 15): each point, in a real pseudo-terminal.

Records that do not replay, outputs that are not UTF-8, saving, the arena's files, Bluff's wild
six, who sat where, resuming, Bluff's loss by the difference, being knocked out, calza offers,
and the smaller points (ties, what can be typed, help, version, words in Korean and Italian).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from perudo import (
    BLUFF,
    PERUDO,
    Bid,
    GameRecord,
    RoundResolved,
    parse_action,
    roll_off,
    start_game,
    view,
)
from perudo.cli.main import app
from perudo.cli.tui.render import Painter
from perudo.core import Reveal
from perudo.i18n import load_catalog
from perudo.registry import make_bot
from perudo.sim.driver import run

QUICK = ["--level", "easy", "--delay", "0", "--seed", "5"]
GAME = ["play", "--rules", "perudo", "--players", "3", *QUICK]


def _flat(text: str) -> str:
    """Text out of rich's error panel: no borders, one space between words."""
    return " ".join(text.replace("│", " ").split())


def _quit_and_skip_saving(term, cat) -> int:
    term.sendline("quit")
    term.expect_text(cat.t("save.prompt_partial"))
    term.sendline("")
    return term.finish()


def _finished_record(seed: int = 11, players: int = 3) -> GameRecord:
    bots = [make_bot("easy", seed * 10 + s) for s in range(players)]
    rng = random.Random(seed)
    state = start_game(PERUDO, players, roll_off(PERUDO, players, rng))
    state = run(
        state,
        rng,
        lambda st, s: bots[s].act(view(st, s)),
        lambda st, s: bots[s].call_calza(view(st, s)),
    )
    return GameRecord.from_state(state)


# 1. A record with an illegal move, and any corrupt record ----------------------------------


def test_replay_of_a_record_with_an_illegal_move_says_which_move_and_exits_1(
    terminal, english, tmp_path
):
    record = _finished_record()
    moves = list(record.moves)
    k = next(i for i, (seat, a) in enumerate(moves) if seat is not None and i > 8)
    moves[k] = (moves[k][0], parse_action("9x9"))  # no face 9 on a six-faced die
    bad = GameRecord(record.rules, record.num_players, record.rolloff, tuple(moves))
    path = tmp_path / "bad.json"
    path.write_text(bad.dumps(), encoding="utf-8")
    term = terminal(["replay", str(path), "--all", "--lang", "en"])
    assert term.finish() == 1
    text = term.text
    assert f"Move {k + 1} (Seat {moves[k][0] + 1}: 9x9) is not legal: " in text, text[-800:]
    assert "There is no face 9 on a 6-faced die." in text
    assert "Traceback" not in text and "AssertionError" not in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "it is not JSON"),
        (b"[1, 2]", "A game record is a JSON object."),
        (b'{"format": "perudo-record", "version": 1}', "lacks the field"),
        (b'{"format": "chess"}', "its format is not perudo-record"),
        (b"\xff\xfe\x00garbage", "it is not a text file"),
    ],
)
def test_replay_of_any_corrupt_file_is_a_clear_message_and_exit_1(tmp_path, content, message):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    result = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"])
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.output.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_replay_of_a_record_with_broken_moves_or_seats_is_a_clear_message(tmp_path):
    data = json.loads(_finished_record().dumps())
    data["moves"][3] = {"seat": "two", "action": "dudo"}
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--lang", "it"])
    assert result.exit_code == 1
    assert "Mossa 4 della registrazione: il posto deve essere un intero o null." in " ".join(
        result.output.split()
    )
    for path_arg in (str(tmp_path), str(tmp_path / "missing.json")):
        result = CliRunner().invoke(app, ["replay", path_arg, "--lang", "en"])
        assert result.exit_code == 1 and "Cannot read" in result.output


# 2. Output that is not UTF-8, and --ascii -------------------------------------------------


def test_an_ascii_output_gets_ascii_drawing_and_never_crashes(terminal, english):
    term = terminal([*GAME, "--lang", "en"], env={"PYTHONIOENCODING": "ascii", "LANG": "C"})
    term.expect_text(english.t("prompt.turn"))
    screen = term.before
    assert "+-----+" in screen and "Roll-off: You " in screen
    assert all(ord(c) < 128 for c in screen), sorted({c for c in screen if ord(c) >= 128})
    term.sendline("9x9")
    term.expect_text(english.t("prompt.turn"))
    assert "Not allowed: There is no face 9" in term.before
    assert _quit_and_skip_saving(term, english) == 0
    assert "Traceback" not in term.text and "UnicodeEncodeError" not in term.text


def test_ascii_draws_no_stars_crosses_or_dots_in_a_whole_bluff_game(terminal, scripted, english):
    args = ["play", "--rules", "bluff", "--players", "2", "--dice", "2", *QUICK, "--ascii"]
    human = scripted(terminal([*args, "--lang", "en"]), english)
    text = human.play()
    assert "wins the game!" in text
    assert not {"★", "×", "·", "●", "▸", "◀", "─"} & set(text), text[-1000:]


# 3. Saving -------------------------------------------------------------------------------


def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(terminal, tmp_path):
    term = terminal([*GAME, "--save", str(tmp_path / "no" / "such" / "game.json")])
    assert term.finish() == 2
    assert "does not exist" in _flat(term.text) and "Roll-off" not in term.text
    existing = tmp_path / "game.json"
    existing.write_text("{}", encoding="utf-8")
    term = terminal([*GAME, "--save", str(existing)])
    assert term.finish() == 2
    assert "already exists" in _flat(term.text) and "Roll-off" not in term.text
    assert existing.read_text(encoding="utf-8") == "{}"  # never overwritten silently


def test_the_save_question_asks_again_after_a_failure_and_before_replacing_a_file(
    terminal, english, tmp_path
):
    term = terminal([*GAME, "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    term.sendline("quit")
    term.expect_text(english.t("save.prompt_partial"))
    assert english.t("bye") not in term.before  # goodbye comes after the save question
    term.sendline(str(tmp_path / "missing" / "game.json"))
    term.expect_text(english.t("save.again"))
    assert "Could not save to " in term.before
    existing = tmp_path / "game.json"
    existing.write_text("keep me", encoding="utf-8")
    term.sendline(str(existing))
    term.expect_text(english.t("save.exists", path=str(existing)))
    term.sendline("n")
    term.expect_text(english.t("save.again"))
    assert existing.read_text(encoding="utf-8") == "keep me"
    term.sendline(str(existing))
    term.expect_text(english.t("save.exists", path=str(existing)))
    term.sendline("y")
    term.expect_text(english.t("bye"))
    assert term.finish() == 0
    assert GameRecord.loads(existing.read_text(encoding="utf-8")).moves


# 4. The arena's files, checked before playing ----------------------------------------------


def test_arena_checks_its_files_before_playing_and_shows_no_traceback(terminal, tmp_path):
    for option in ("--plot", "--out"):
        target = tmp_path / "missing" / ("chart.png" if option == "--plot" else "f.json")
        term = terminal(["arena", "--games", "2000", "--jobs", "1", option, str(target)])
        assert term.finish() == 2
        assert "does not exist" in _flat(term.text) and "Traceback" not in term.text
        assert "games on" not in term.text  # nothing was played


# 5. Bluff's wild face is 6 --------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ko", "it"])
def test_bluff_names_its_wild_six_and_leaves_face_one_alone(lang):
    painter = Painter(load_catalog(lang), BLUFF, ["A", "B"], me=0)
    assert painter.bid(Bid(3, 1)) == "3 × 1"
    assert painter.bid(Bid(3, 6)) == "3 × 6★"
    assert painter.face_word(1) == "1"


def test_a_bluff_game_in_korean_never_calls_face_one_jokers(terminal, scripted, korean):
    args = ["play", "--rules", "bluff", "--players", "2", "--dice", "2", *QUICK, "--lang", "ko"]
    text = scripted(terminal(args), korean).play()
    assert "조커" not in text and "6★" in text


# 6, 7. Who sat where, seats from 1, resuming ------------------------------------------------


def test_a_record_keeps_who_sat_where_and_resumes_with_the_same_table(terminal, english, tmp_path):
    save = tmp_path / "game.json"
    term = terminal([*GAME, "--lang", "en", "--name", "Ana", "--seat", "2", "--save", str(save)])
    term.expect_text(english.t("prompt.turn"))
    term.sendline("quit")
    term.expect_text(english.t("bye"))
    assert term.finish() == 0
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["seats"] == [
        {"name": "Bot 1", "kind": "bot", "level": "easy"},
        {"name": "Ana", "kind": "human", "level": None},
        {"name": "Bot 2", "kind": "bot", "level": "easy"},
    ]
    assert data["software"].startswith("perudo ")
    term = terminal(["replay", str(save), "--all", "--lang", "en"])
    assert term.finish() == 0
    assert "Players: Bot 1 (bot, easy) · Ana (person) · Bot 2 (bot, easy)" in term.text
    term = terminal(["play", "--resume", str(save), "--delay", "0", "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    assert "Continuing a recorded game at round 1." in term.text
    assert "Ana (you)" in term.text and "Bot 2" in term.text
    assert _quit_and_skip_saving(term, english) == 0


def test_a_record_without_names_is_replayed_with_seats_from_one(terminal, tmp_path):
    path = tmp_path / "old.json"
    path.write_text(_finished_record(players=3).dumps(), encoding="utf-8")
    term = terminal(["replay", str(path), "--all", "--lang", "en"])
    assert term.finish() == 0
    assert "Seat 1" in term.text and "Seat 3" in term.text and "Seat 0" not in term.text


def test_resume_is_documented_in_the_help(terminal):
    term = terminal(["play", "--help"], env={"COLUMNS": "100"})
    assert term.finish() == 0
    text = " ".join(term.text.split())
    # --from-record, the older name, still works (test_play_terminal) but is out of the help
    assert "--resume" in text
    assert "expert" in text  # --level lists every level
    assert "<bool>" not in text  # flags are shown as flags


# 8. Bluff's loss by the difference says why ------------------------------------------------


def _result(**fields) -> RoundResolved:
    base = dict(
        kind="dudo",
        caller=1,
        target=0,
        bid=Bid(5, 3),
        reveals=(Reveal(0, (3, 3), 2), Reveal(1, (6, 2), 1)),
        hidden=(),
        count=3,
        holds=False,
        changes=((0, -2),),
        eliminated=(),
        next_opener=1,
        palifico=False,
    )
    base.update(fields)
    return RoundResolved(**base)  # type: ignore[arg-type]


def test_bluff_says_why_dice_were_lost_by_the_difference():
    painter = Painter(load_catalog("en"), BLUFF, ["Ana", "Bot 1"], me=0)
    lines = [str(x) for x in painter.resolution(_result(), (3, 5))]
    assert "The bid was 2 too high, so Ana loses 2 dice (loss by the difference)." in lines
    lines = [str(x) for x in painter.resolution(_result(count=6, holds=True), (5, 2))]
    assert any("There were 1 more than the bid, so Bot 1 loses 1 die" in x for x in lines)
    it = Painter(load_catalog("it"), BLUFF, ["Ana", "Bot 1"], me=0)
    lines = [str(x) for x in it.resolution(_result(count=5, holds=True), (5, 4))]
    assert "La puntata era esatta: tutti tranne Ana perdono un dado." in lines


# 9. Knocked out --------------------------------------------------------------------------


def test_no_bots_play_on_when_nobody_is_left_to_play():
    painter = Painter(load_catalog("en"), PERUDO, ["You", "Bot 1"], me=0)
    last = _result(changes=((0, -1),), eliminated=(0,), next_opener=None, count=1, holds=False)
    text = "\n".join(str(x) for x in painter.resolution(last, (0, 1)))
    assert "You are out of the game." in text and "play on" not in text
    three = Painter(load_catalog("en"), PERUDO, ["You", "Bot 1", "Bot 2"], me=0)
    text = "\n".join(str(x) for x in three.resolution(last, (0, 1, 2)))
    assert "The bots play on" in text


def test_once_knocked_out_the_person_can_skip_to_the_result(terminal, english):
    args = ["play", "--players", "4", "--dice", "1", *QUICK, "--lang", "en"]
    term = terminal(args)
    out = re.escape(english.t("prompt.out"))
    turn = re.escape(english.t("prompt.turn"))
    while term.expect([turn, out]) == 0:
        term.sendline("4x6")  # a bid that all but surely fails: the quickest way out
    term.sendline("end")
    term.expect_text(english.t("out.skipping"))
    term.expect_text(english.t("save.prompt"))
    assert "wins the game!" in term.before
    term.sendline("")
    assert term.finish() == 0


# 10. Calza without stopping the game -----------------------------------------------------


def test_calza_is_offered_only_when_likely_by_default(terminal, english, calza_pattern):
    args = ["play", "--rules", "perudo_calza", "--players", "6", *QUICK, "--lang", "en"]
    term = terminal(args)
    patterns = [
        re.escape(english.t("prompt.turn")),
        calza_pattern(english),
        re.escape(english.t("prompt.out")),
        re.escape(english.t("save.prompt")),
    ]
    offered: list[float] = []
    bot_bids = 0
    while (index := term.expect(patterns)) < 2:
        bot_bids += len(re.findall(r"Bot \d ▸ \d+ ", term.before))
        if index == 1:
            offered.append(float(re.findall(r"Chance it is exact: (\d+\.\d)%", term.before)[-1]))
            term.sendline("")
        else:
            term.sendline("dudo" if "Current bid" in term.before else "1x2")
    assert all(p >= 25.0 for p in offered), offered
    assert bot_bids > 10 and len(offered) < bot_bids / 2  # not after every bot's bid
    if index == 2:  # knocked out: skip to the result
        term.sendline("end")
        term.expect_text(english.t("save.prompt"))
    term.sendline("")
    assert term.finish() == 0


def _quit_and_skip_saving_anywhere(term, cat) -> int:
    term.sendline("quit")
    term.expect([re.escape(cat.t("save.prompt_partial")), re.escape(cat.t("save.prompt"))])
    term.sendline("")
    return term.finish()


# 11. The smaller points -------------------------------------------------------------------


def test_a_roll_off_tie_is_announced(terminal, english):
    term = terminal(["play", "--players", "3", *QUICK[:-1], "2", "--lang", "en"])  # seed 2
    term.expect_text(english.t("prompt.turn"))
    assert "A tie for the highest die (6: You, Bot 1): everyone rolls again." in term.text
    assert _quit_and_skip_saving(term, english) == 0


def test_dudo_with_a_bang_and_4_3s_are_understood_and_0x3_says_why(terminal, english):
    term = terminal([*GAME, "--lang", "en"])
    prompt = english.t("prompt.turn")
    term.expect_text(prompt)
    term.sendline("0x3")
    term.expect_text(prompt)
    assert "The number of dice must be 1 or more, not 0." in term.before
    term.sendline("Dudo!")
    term.expect_text(prompt)
    said = term.before
    if "no bid to challenge yet" in said:  # we open: the bid 4 3s is taken
        term.sendline("4 3s")
        term.expect([re.escape(prompt), re.escape(english.t("save.prompt"))])
        assert "You ▸ 4 × 3" in term.before
    else:
        assert "You ▸ dudo!" in said
    assert _quit_and_skip_saving_anywhere(term, english) == 0


def test_the_expert_is_seen_thinking(terminal, english):
    args = ["play", "--players", "2", "--level", "medium", "--delay", "0", "--seed", "4"]
    term = terminal([*args, "--lang", "en"])
    term.expect_text(english.t("prompt.turn"))
    term.sendline("1x2")
    term.expect_text(english.t("prompt.turn"))
    assert "Bot 1 is thinking…" in term.text
    assert _quit_and_skip_saving(term, english) == 0


def test_version_and_the_whole_arena_line_in_the_help(terminal):
    term = terminal(["--version"])
    assert term.finish() == 0
    from perudo import __version__

    assert f"perudo {__version__}" in term.text
    term = terminal(["--help"])
    assert term.finish() == 0
    help_text = _flat(term.text)
    assert "Pit bots against each other and print win rates, places and ratings." in help_text
    assert "<bool>" not in help_text


def test_solve_suggests_a_valid_dice_pair_and_shows_the_win_chance():
    result = CliRunner().invoke(app, ["solve", "--rules", "perudo", "--dice", "2"])
    assert result.exit_code == 2
    assert "like 2,1" in result.output and "like 1,0" not in result.output
    result = CliRunner().invoke(app, ["solve", "--rules", "perudo", "--dice", "1,1", "--quiet"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "-0.055555" in text and "wins 47.22% of rounds" in text


def test_solve_book_names_what_is_missing_before_solving_anything(tmp_path):
    """``perudo solve --book`` rebuilds the shipped book: without --out, or with more dice
    than the solver takes, it says so and solves nothing."""
    result = CliRunner().invoke(app, ["solve", "--book", "--max-dice", "3"])
    assert result.exit_code == 2
    assert "--book writes a book directory" in " ".join(result.output.split())
    out = tmp_path / "book"
    result = CliRunner().invoke(app, ["solve", "--book", "--max-dice", "9", "--out", str(out)])
    assert result.exit_code == 2
    assert "9 dice in play" in " ".join(result.output.split())
    assert not (out / "book.json").exists()


def test_exploit_says_whose_values_the_columns_are():
    result = CliRunner().invoke(
        app, ["exploit", "--bot", "prob", "--rules", "perudo", "--dice", "1,1", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Every value is the responder's" in text
    assert "(−v against the opener, +v against the other player)" in text
    assert "the opener wins 47.22% of rounds" in text


def test_korean_says_bid_as_the_seeds_do_and_particles_agree():
    ko = load_catalog("ko")
    assert not any("입찰" in str(v) for v in ko.messages.values())
    painter = Painter(ko, PERUDO, ["나", "봇 1"], me=0)
    wrong = _result(kind="calza", bid=Bid(6, 6), count=5, holds=False)
    assert "5개 — 정확히 6 × 6이 아님: 칼자 실패." in [
        str(x) for x in painter.resolution(wrong, (4, 5))
    ]
    wrong5 = _result(kind="calza", bid=Bid(6, 5), count=4, holds=False)
    assert "4개 — 정확히 6 × 5가 아님: 칼자 실패." in [
        str(x) for x in painter.resolution(wrong5, (4, 5))
    ]


def test_italian_singular_and_plural():
    it = load_catalog("it")
    painter = Painter(it, PERUDO, ["Tu", "Bot 1"], me=0)
    one = _result(
        bid=Bid(1, 3),
        reveals=(Reveal(0, (3,), 1), Reveal(1, (2,), 0)),
        count=1,
        holds=True,
        caller=1,
        target=0,
        changes=((1, -1),),
    )
    text = "\n".join(str(x) for x in painter.resolution(one, (1, 1)))
    assert "1 valido" in text and "1 trovato" in text and "(1 dado rimasto)" in text
    assert "1 validi" not in text and "1 trovati" not in text and "ne restano 1" not in text


def test_a_die_gained_says_how_many_now_not_left():
    painter = Painter(load_catalog("en"), PERUDO, ["You", "Bot 1"], me=0)
    calza = _result(kind="calza", bid=Bid(2, 3), count=2, holds=True, caller=0, changes=((0, 1),))
    text = "\n".join(str(x) for x in painter.resolution(calza, (5, 3)))
    assert "You: +1 die (now 5)" in text and "(5 left)" not in text


def test_the_terminal_docs_say_what_make_serve_does():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "terminal.md").read_text("utf-8")
    assert "make serve` runs `perudo play" not in docs
    assert "--resume" in docs and "--calza-ask" in docs


# Refusals in the player's language, naming players by name --------------------------------


def test_refusals_in_korean_are_korean_without_rule_ids(terminal, korean):
    term = terminal([*GAME, "--lang", "ko"])
    prompt = korean.t("prompt.turn")
    term.expect_text(prompt)
    for typed, said in [
        ("9x9", "허용되지 않음: 6면 주사위에는 9 눈이 없습니다."),
        ("calza", "허용되지 않음: 이 규칙에는 칼자가 없습니다."),
        ("0x3", "허용되지 않음: 개수는 1 이상이어야 합니다 (0이 아님)."),
    ]:
        term.sendline(typed)
        term.expect_text(prompt)
        assert said in term.before, term.before
        assert not re.search(r"\([PV]-\d+", term.before)
    term.sendline("종료")
    term.expect_text(korean.t("save.prompt_partial"))
    term.sendline("")
    assert term.finish() == 0


def test_refusals_in_italian_name_the_player_whose_turn_it_is(terminal, calza_pattern):
    it = load_catalog("it")
    args = ["play", "--rules", "perudo_calza", "--players", "4", *QUICK, "--lang", "it"]
    term = terminal([*args, "--calza-ask", "always", "--name", "Ana"])
    turn = re.escape(it.t("prompt.turn"))
    calza = calza_pattern(it)
    while term.expect([turn, calza]) == 0:
        term.sendline("dubito" if "Puntata attuale" in term.before else "1x2")
    term.sendline("9x6")  # a bid, out of turn
    term.expect([calza])
    assert re.search(r"Non consentito: Tocca a Bot \d, non a te\.", term.before), term.before
    assert "seat" not in term.before and "(P-" not in term.before
    term.sendline("esci")
    term.expect([re.escape(it.t("save.prompt_partial"))])
    term.sendline("")
    assert term.finish() == 0


def test_a_replay_of_a_game_with_a_concession_tells_it(tmp_path):
    from perudo.core import Concede, apply

    state = new_game_with_moves()
    state, _ = apply(state, Concede(), 2)  # P-24: seat 3 gives up mid-round
    path = tmp_path / "conceded.json"
    path.write_text(GameRecord.from_state(state).dumps(), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--all", "--lang", "en"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Seat 3 concedes the game: the round is void, nobody reveals." in text
    assert "Seat 3 is out of the game." in text


def new_game_with_moves():
    from perudo import new_game

    state = new_game(PERUDO, 3, random.Random(4))
    return apply_bid(state)


def apply_bid(state):
    from perudo.core import apply, legal_actions

    state, _ = apply(state, next(a for a in legal_actions(state) if isinstance(a, Bid)))
    return state


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench-bots", "--bots", "nope"], "unknown bot 'nope'"),
        (["bench-bots", "--rules", "nope"], "unknown rule set"),
        (["bench", "--seconds", "-1"], "--seconds"),
        (["arena", "--plot", "chart.svg", "--games", "1"], "the chart is a PNG"),
        (["play", "--dice", "0"], "0: each player starts with 1 to 10 dice"),
        (["play", "--dice", "11"], "11: each player starts with 1 to 10 dice"),
    ],
)
def test_a_user_s_mistake_is_a_usage_error_never_a_traceback(args, message):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in _flat(result.output)
    assert not re.search(r"\b[PV]-\d+", result.output), result.output  # words, not rule ids
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_korean_on_an_ascii_output_says_so_and_plays_in_english(terminal, english):
    env = {"PYTHONIOENCODING": "ascii", "LANG": "C"}
    term = terminal([*GAME, "--lang", "ko"], env=env)
    term.expect_text(english.t("prompt.turn"))
    assert "Korean cannot be shown in this output's encoding (ascii)" in term.text
    assert _quit_and_skip_saving(term, english) == 0
