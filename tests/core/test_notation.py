"""Notation and records: ``str``/``parse`` round trips, eval-able ``repr``, events as JSON,
and game records that replay (ARCHITECTURE.md, Notation)."""

from __future__ import annotations

import json
import random

import pytest
from tests.core.script import play, play_events, resolved

from perudo import core as perudo_core
from perudo.core import (
    BLUFF,
    PRESETS,
    ActionTaken,
    Bid,
    Calza,
    ChoosePalifico,
    Deal,
    DiceDealt,
    DiceRerolled,
    Dudo,
    GameOver,
    GameRecord,
    PalificoChosen,
    Pass,
    Reroll,
    RoundStarted,
    RuleSet,
    SetAside,
    new_game,
    parse_action,
    start_round,
)
from perudo.core.actions import action_to_json
from perudo.core.events import event_to_json


@pytest.mark.parametrize(
    ("text", "bid"),
    [
        ("3x5", Bid(3, 5)),
        ("3X5", Bid(3, 5)),
        (" 3 x 5 ", Bid(3, 5)),
        ("3 5", Bid(3, 5)),
        ("3×5", Bid(3, 5)),
        ("3*5", Bid(3, 5)),
        ("12x1", Bid(12, 1)),
    ],
)
def test_bid_parse_reads_the_usual_spellings(text: str, bid: Bid) -> None:
    assert Bid.parse(text) == bid
    assert parse_action(text) == bid


ACTIONS = [
    Bid(3, 5),
    Dudo(),
    Calza(),
    Pass(),
    ChoosePalifico(True),
    ChoosePalifico(False),
    SetAside((5, 5)),
    SetAside((1, 2, 6)),
    Deal(((1, 3, 4, 5), (), (2, 6))),
    Reroll((1, 1, 4)),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_every_action_round_trips_through_its_notation_and_repr(action: object) -> None:
    assert parse_action(str(action)) == action
    assert parse_action(str(action).upper()) == action
    assert eval(repr(action), vars(perudo_core)) == action


def test_notation_of_each_action() -> None:
    assert [str(a) for a in ACTIONS] == [
        "3x5",
        "dudo",
        "calza",
        "pass",
        "palifico",
        "normal",
        "aside 55",
        "aside 126",
        "deal 1345 - 26",
        "reroll 114",
    ]
    assert SetAside((6, 1, 2)) == SetAside((1, 2, 6))  # kept sorted


def test_every_action_comes_structured_with_its_notation_for_a_display() -> None:
    """A display (the web page) reads the kind and numbers and parses no notation."""
    assert [action_to_json(a) for a in ACTIONS] == [
        {"kind": "bid", "text": "3x5", "quantity": 3, "face": 5},
        {"kind": "dudo", "text": "dudo"},
        {"kind": "calza", "text": "calza"},
        {"kind": "pass", "text": "pass"},
        {"kind": "palifico", "text": "palifico"},
        {"kind": "normal", "text": "normal"},
        {"kind": "aside", "text": "aside 55", "dice": [5, 5]},
        {"kind": "aside", "text": "aside 126", "dice": [1, 2, 6]},
        {"kind": "deal", "text": "deal 1345 - 26", "hands": [[1, 3, 4, 5], [], [2, 6]]},
        {"kind": "reroll", "text": "reroll 114", "dice": [1, 1, 4]},
    ]
    for a in ACTIONS:
        assert parse_action(str(action_to_json(a)["text"])) == a


def test_events_as_json() -> None:
    state = play(start_round(BLUFF, [[1, 2, 3, 4, 5], [2, 2, 6, 6, 6]]), "2x2")
    _, events = play_events(state, "aside 66", "reroll 123", "4x2", "dudo")
    result = resolved(events)
    assert event_to_json(result) == {
        "type": "round_resolved",
        "kind": "dudo",
        "caller": 0,
        "target": 1,
        "bid": "4x2",
        "bid_info": {"kind": "bid", "text": "4x2", "quantity": 4, "face": 2},
        "reveals": [
            {"seat": 1, "hand": [1, 2, 3, 6, 6], "count": 3},
            {"seat": 0, "hand": [1, 2, 3, 4, 5], "count": 1},
        ],
        "hidden": [],
        "count": 4,
        "holds": True,
        "changes": [[0, -1]],
        "eliminated": [],
        "next_opener": 1,
        "palifico": False,
    }
    samples = {
        "round_started": RoundStarted(2, 1, True, (1, 3)),
        "dice_dealt": DiceDealt(1, (2, 3)),
        "dice_rerolled": DiceRerolled(0, (6,)),
        "action": ActionTaken(1, SetAside((6, 6))),
        "palifico_chosen": PalificoChosen(0, False),
        "game_over": GameOver(1),
    }
    for kind, event in samples.items():
        data = event_to_json(event)
        assert data["type"] == kind
        assert json.loads(json.dumps(data)) == data
    assert event_to_json(samples["action"]) == {
        "type": "action",
        "seat": 1,
        "action": "aside 66",
        "action_info": {"kind": "aside", "text": "aside 66", "dice": [6, 6]},
    }
    assert event_to_json(samples["round_started"])["dice_counts"] == [1, 3]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_record_round_trips_and_replays(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(8)
    state = new_game(rules, rules.min_players + 1 if rules.max_players > 2 else 2, rng)
    state = play(state, "1x2", "dudo")
    record = GameRecord.from_state(state)
    data = record.to_json()
    assert data["format"] == "perudo-record" and data["version"] == 1
    assert data["preset"] == name and data["rules"] == rules.to_dict()
    assert data["players"] == state.num_players
    assert [m["action"] for m in data["moves"]][1:] == ["1x2", "dudo"]
    assert data["moves"][0]["seat"] is None and data["moves"][0]["action"].startswith("deal ")
    assert GameRecord.loads(record.dumps()) == record
    assert GameRecord.from_json(data) == record
    assert GameRecord.from_json(json.dumps(data).encode()) == record
    assert record.replay() == state
    assert record.replay(2).bid == Bid(1, 2)


def test_a_custom_rule_set_record_has_no_preset_name() -> None:
    rules = RuleSet(faces=5, calza="on")
    state = new_game(rules, 3, random.Random(2))
    data = GameRecord.from_state(state).to_json()
    assert data["preset"] is None
    assert GameRecord.from_json(data).replay() == state
