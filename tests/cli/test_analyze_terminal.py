"""``perudo analyze`` in a real pseudo-terminal: each decision judged, in three languages, from
the chosen seat's view only (P-70), with clear words for bad input."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from perudo import PERUDO, Bid, GameRecord, apply
from perudo.analysis import every_hand
from perudo.core import count_bid
from perudo.i18n import load_catalog
from perudo.registry import make_bot
from perudo.sim.match import play_game


@pytest.fixture(scope="module")
def record() -> GameRecord:
    # A heads-up game of Perudo: its last rounds are in the shipped book.
    bots = [make_bot("medium", 1), make_bot("medium", 2)]
    return play_game(PERUDO, bots, random.Random(3)).record


@pytest.fixture
def saved(record: GameRecord, tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def _own_hands(record: GameRecord, seat: int) -> list[list[int]]:
    """The seat's hand at each of its decisions in turn (the record's trusted side)."""
    state = record.replay(0)
    out = []
    for s, action in record.moves:
        if s == seat and state.to_act == seat:
            out.append(sorted(state.hands[seat]))
        state, _ = apply(state, action, s)
    return out


def test_analyze_judges_every_decision_of_the_seat_in_english(terminal, english, saved, record):
    term = terminal(["analyze", str(saved), "--seat", "1", "--lang", "en", "--rollouts", "8"])
    assert term.finish() == 0
    text = term.text
    assert english.t("analysis.title", players=2) in text
    assert english.t("analysis.own", who="Seat 1") in text
    decisions = re.findall(r"^Seat 1: ", text, re.M)
    assert len(decisions) == len(_own_hands(record, 0))
    assert re.search(r"Accuracy of Seat 1: \d+", text)
    assert english.t("analysis.chart") in text
    assert english.t("analysis.moments") in text
    # An estimated decision's loss in the round and in the game, each with its interval.
    assert re.search(
        r"of the round \(95% interval [\d.]+% to [\d.]+%\), [\d.]+% of the game "
        r"\([\d.]+% to [\d.]+%\), 8 rollouts",
        text,
    )
    # Seat 2's decisions are not judged in seat 1's analysis.
    assert not re.search(r"^Seat 2: ", text, re.M)


@pytest.mark.parametrize("lang", ["ko", "it"])
def test_analyze_speaks_korean_and_italian(terminal, saved, lang):
    cat = load_catalog(lang)
    term = terminal(["analyze", str(saved), "--seat", "2", "--lang", lang, "--rollouts", "4"])
    assert term.finish() == 0
    assert cat.t("analysis.title", players=2) in term.text
    assert cat.t("analysis.chart") in term.text


def test_analyze_json_holds_only_the_seats_own_dice(terminal, saved, record):
    term = terminal(["analyze", str(saved), "--seat", "2", "--json", "--rollouts", "4"])
    assert term.finish() == 0
    data = json.loads(term.text[term.text.index("{") :])
    assert data["viewer"] == 1
    seen = [d["hand"] or [] for d in data["decisions"]]
    assert all(d["seat"] == 1 for d in data["decisions"])
    assert seen == _own_hands(record, 1)
    assert {d["label"] for d in data["decisions"]} <= {
        None,
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    }


def test_analyze_refuses_a_seat_the_game_does_not_have(terminal, english, saved):
    term = terminal(["analyze", str(saved), "--seat", "5", "--lang", "en"])
    assert term.finish() == 1
    assert english.t("analysis.bad_seat", n=5, players=2) in term.text
    assert "Traceback" not in term.text


def test_analyze_refuses_a_file_that_is_not_a_record(terminal, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    term = terminal(["analyze", str(bad), "--lang", "en"])
    assert term.finish() == 1
    assert "Cannot read" in term.text
    assert "Traceback" not in term.text


def test_analyze_every_hand_shows_what_each_call_met(terminal, english, saved, record):
    """``--every-hand`` on a finished game: each call with every seat's dice of its round and
    the true count, as the page shows a table that agreed to show every hand."""
    term = terminal(["analyze", str(saved), "--every-hand", "--lang", "en", "--rollouts", "0"])
    assert term.finish() == 0
    text = term.text
    hands = every_hand(record)
    final = record.replay()
    calls = [p for p in final.past if p.result.kind in ("dudo", "calza")]
    assert calls
    for past in calls:
        bid = past.result.bid
        assert isinstance(bid, Bid)
        round_hands = hands[past.round]
        count = count_bid(record.rules, round_hands, bid.face, past.palifico)
        assert english.t("analysis.true_count", count=count, q=bid.quantity) in text
        for s, h in enumerate(round_hands):
            if h:
                assert f"Seat {s + 1}: [{' '.join(map(str, h))}]" in text


def test_analyze_every_hand_refuses_a_game_not_over(terminal, record, tmp_path):
    lang = "ko"
    part = tmp_path / "part.json"
    part.write_text(dataclasses.replace(record, moves=record.moves[:20]).dumps(), "utf-8")
    term = terminal(["analyze", str(part), "--every-hand", "--lang", lang])
    assert term.finish() == 1
    assert load_catalog(lang).t("analysis.not_over") in term.text
    assert "Traceback" not in term.text
    # Without the flag the same file is analysed (its hands stay as the seats saw them).
    assert terminal(["analyze", str(part), "--lang", lang, "--rollouts", "0"]).finish() == 0
