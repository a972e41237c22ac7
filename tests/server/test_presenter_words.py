"""What the presenter says to players: bot seats named in each reader's language, and in
memory mode (P-40) nothing that tells the dice in play. The presenter is called on a table
stand-in (it reads only the seats, the version and the config), with the core's real refusals."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import pytest

from perudo.core import PERUDO, Bid, IllegalActionError, check_action, start_round
from perudo.i18n import bot_name, said_name
from perudo.server.tables.config import Seat, TableError
from perudo.server.tables.presenter import refused


def _table(memory: bool = False) -> Any:
    seats = [Seat("human", "Ann"), Seat("bot", bot_name("easy", 1), level="easy")]
    return SimpleNamespace(seats=seats, version=7, config=SimpleNamespace(memory=memory))


def _refusal(state: Any, action: Any, seat: int) -> TableError:
    with pytest.raises(IllegalActionError) as info:
        check_action(state, action, seat)
    return TableError("illegal", str(info.value), info.value)


def test_a_refusal_names_a_bot_seat_in_each_readers_language() -> None:
    # Seat 1 (a bot) is to act; Ann bids out of turn (P-11).
    state = start_round(PERUDO, [[2, 3, 4], [5, 6, 2]], opener=1)
    sent = json.loads(refused(_table(), _refusal(state, Bid(1, 3), 0)))
    assert "Easy bot 1" in sent["texts"]["en"]
    assert "쉬운 봇 1" in sent["texts"]["ko"] and "Easy" not in sent["texts"]["ko"]
    assert "Bot facile 1" in sent["texts"]["it"] and "Easy" not in sent["texts"]["it"]


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_bot_names_are_stored_in_one_form_and_said_in_every_language(level: str) -> None:
    stored = bot_name(level, 12)
    assert said_name("en", stored) == stored
    for lang in ("ko", "it"):
        said = said_name(lang, stored)
        assert said == bot_name(level, 12, lang) and said != stored and "12" in said
    assert said_name("ko", "Easy bot") == "Easy bot"  # a person's name stays as it is


def test_p40_a_bid_above_the_dice_in_play_is_refused_without_the_count_in_memory_mode() -> None:
    # Five dice in play; Ann opens with 6 × 3 (P-16).
    state = start_round(PERUDO, [[2, 3, 4], [5, 6]], opener=0)
    err = _refusal(state, Bid(6, 3), 0)
    plain = json.loads(refused(_table(memory=False), err))
    assert plain["params"]["total"] == 5 and "5" in plain["texts"]["en"]
    hidden = json.loads(refused(_table(memory=True), err))
    assert hidden["refusal"] == "bid.too_many" and "total" not in hidden["params"]
    assert "5" not in hidden["message"] and "P-16" in hidden["message"]
    for lang, text in hidden["texts"].items():
        assert set(re.findall(r"\d+", text)) <= {"6", "3"}, (lang, text)
        assert text != plain["texts"][lang]
