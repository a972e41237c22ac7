"""Reading what the person types (perudo.cli.tui.words): bids, words in three languages."""

from __future__ import annotations

import pytest

from perudo import Bid, Calza, ChoosePalifico, Dudo, Pass, SetAside
from perudo.cli.tui.words import Command, InputError, read_input


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("3x5", Bid(3, 5)),
        ("3 5", Bid(3, 5)),
        (" 3X5 ", Bid(3, 5)),
        ("3×5", Bid(3, 5)),
        ("12x6", Bid(12, 6)),
        ("3 aces", Bid(3, 1)),
        ("3 Aces", Bid(3, 1)),
        ("3x aces", Bid(3, 1)),
        ("3 조커", Bid(3, 1)),
        ("조커 3개", Bid(3, 1)),
        ("3개 조커", Bid(3, 1)),
        ("3 teste d'Azteco", Bid(3, 1)),
        ("3 teste d’Azteco", Bid(3, 1)),
        ("2 teste", Bid(2, 1)),
        ("dudo", Dudo()),
        ("DUDO", Dudo()),
        ("두도", Dudo()),
        ("dubito", Dudo()),
        ("calza", Calza()),
        ("칼자", Calza()),
        ("palifico", ChoosePalifico(True)),
        ("팔라피코", ChoosePalifico(True)),
        ("normal", ChoosePalifico(False)),
        ("normale", ChoosePalifico(False)),
        ("일반", ChoosePalifico(False)),
        ("pass", Pass()),
        ("패스", Pass()),
        ("aside 55", SetAside((5, 5))),
        ("aside 5 3", SetAside((3, 5))),
        ("내려놓기 2", SetAside((2,))),
        ("scopri 66", SetAside((6, 6))),
    ],
)
def test_actions_in_every_language(text, action):
    assert read_input(text) == action


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("", "skip"),
        ("   ", "skip"),
        ("n", "skip"),
        ("help", "help"),
        ("?", "help"),
        ("도움말", "help"),
        ("aiuto", "help"),
        ("quit", "quit"),
        ("q", "quit"),
        ("종료", "quit"),
        ("esci", "quit"),
    ],
)
def test_commands(text, kind):
    assert read_input(text) == Command(kind)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("blah", "err.unknown"),
        ("0x5", "err.unknown"),
        ("3x0", "err.unknown"),
        ("3x", "err.unknown"),
        ("0 aces", "err.unknown"),
        ("deal 12345 11111", "err.unknown"),
        ("reroll 12", "err.unknown"),
        ("aside x", "err.aside"),
        ("aside 50", "err.aside"),
        ("dudo now", "err.unknown"),
    ],
)
def test_anything_else_is_an_input_error_naming_the_message(text, key):
    with pytest.raises(InputError) as err:
        read_input(text)
    assert err.value.key == key
    assert err.value.text == text


def test_legality_is_not_decided_here():
    # 9x9 reads as a bid; the core says there is no face 9 (V-12) when it is checked.
    assert read_input("9x9") == Bid(9, 9)
