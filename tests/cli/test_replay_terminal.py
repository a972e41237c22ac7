"""``perudo replay`` in a real pseudo-terminal: every round, every hand, revealed or hidden."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from perudo import (
    PERUDO_CALZA,
    GameRecord,
    GameState,
)
from perudo.registry import make_bot
from perudo.sim.match import play_game


def _bot_game(seed: int, players: int = 3) -> GameState:
    bots = [make_bot("easy", seed * 10 + s) for s in range(players)]
    return play_game(PERUDO_CALZA, bots, random.Random(seed)).record.replay()


@pytest.fixture(scope="module")
def finished() -> GameState:
    # A seed whose game has a challenge proven before everyone revealed (P-21).
    for seed in range(1, 50):
        state = _bot_game(seed)
        if any(r.result.hidden for r in state.past):
            return state
    raise AssertionError("no seed in 1..49 keeps a hand hidden")


@pytest.fixture
def saved(finished: GameState, tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text(GameRecord.from_state(finished).dumps(), encoding="utf-8")
    return path


def test_replay_all_prints_every_round_and_the_winner(terminal, english, saved, finished):
    term = terminal(["replay", str(saved), "--all", "--lang", "en"])
    assert term.finish() == 0
    text = term.text
    rounds = re.findall(r"─ Round (\d+)", text)
    assert [int(r) for r in rounds] == [r.round for r in finished.past]
    assert english.t("over.winner", who=f"Seat {finished.winner + 1}") in text  # from 1
    assert english.t("replay.end") in text


def test_replay_marks_hands_revealed_at_the_table_and_hands_kept_hidden(terminal, saved, finished):
    term = terminal(["replay", str(saved), "--all", "--lang", "en"])
    assert term.finish() == 0
    blocks = re.split(r"\n─+ Round \d+[^\n]*\n", term.text)[1:]
    assert len(blocks) == len(finished.past)
    for block, record in zip(blocks, finished.past, strict=True):
        order = {r.seat: k for k, r in enumerate(record.result.reveals, 1)}
        for seat in order:
            assert re.search(rf"Seat {seat + 1} .*revealed at the table \(#{order[seat]}\)", block)
        for seat in record.result.hidden:
            assert re.search(rf"Seat {seat + 1} .*never revealed at the table$", block, re.M)
            assert "Kept hidden, never shown: " in block


def test_replay_waits_for_enter_between_rounds_and_q_stops(terminal, english, saved):
    term = terminal(["replay", str(saved), "--lang", "en"])
    prompt = re.escape(english.t("replay.next"))
    term.expect([prompt])
    assert "Round 1" in term.before and "Round 2" not in term.before
    term.sendline("")
    term.expect([prompt])
    assert "Round 2" in term.before and "Round 3" not in term.before
    term.sendline("q")
    term.expect_text(english.t("bye"))
    assert term.finish() == 0


def test_replay_in_korean(terminal, saved):
    term = terminal(["replay", str(saved), "--all", "--lang", "ko"])
    assert term.finish() == 0
    assert "1라운드" in term.text and "테이블에서 공개됨" in term.text
    assert "승자: 0번 자리" in term.text or re.search(r"승자: \d번 자리", term.text)


def test_replay_of_a_file_that_is_not_a_record_fails_with_a_message(terminal, tmp_path):
    path = tmp_path / "nope.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    term = terminal(["replay", str(path), "--all", "--lang", "en"])
    assert term.finish() == 1
    assert "Cannot read" in term.text and "not a game record" in term.text
    term = terminal(["replay", str(tmp_path / "missing.json"), "--all"])
    assert term.finish() == 1
    assert "Cannot read" in term.text
