"""A client's message is read in one pass of pydantic's JSON parser when it is good, and step by
step (the JSON, its type, its fields) when it is not, to say what is wrong: both readings agree
on every text, good or bad (the same message, or the same refusal in the same words)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from perudo.server import protocol as p

_FIELDS = [
    "action",
    "version",
    "on",
    "text",
    "level",
    "seat",
    "last",
    "token",
    "name",
    "options",
    "emote",
    "x",
]

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["3x5", "dudo", "calza", "1x1", "easy"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)

_messages = st.fixed_dictionaries(
    {"type": st.sampled_from([*p._TYPES, "fly", 3])},
    optional={name: _json_values for name in _FIELDS},
)


_GOOD: list[dict[str, Any]] = [
    {"type": "hello"},
    {"type": "hello", "token": "abc", "last_version": 3},
    {"type": "hello", "transfer": "xyz"},
    {"type": "act", "action": "3x5", "version": 7},
    {"type": "act", "action": "dudo", "version": 0},
    {"type": "act", "action": "calza", "version": 9, "on": [2, "1x5"]},
    {"type": "act", "action": "1x5", "version": 9, "on": [1, None]},
    {"type": "chat", "text": "hola"},
    {"type": "add_bot", "level": "easy", "seat": 2},
    {"type": "add_bot"},
    {"type": "fill_bots", "level": "hard"},
    {"type": "remove_seat", "seat": 1},
    {"type": "leave"},
    {"type": "transfer_seat"},
    {"type": "make_host", "seat": 0},
    {"type": "set_options", "odds": "on", "turn_seconds": 30, "vacated": "bot", "memory": True},
    {"type": "set_options", "turn_seconds": 12.5},
    {"type": "start"},
    {"type": "rematch"},
    {"type": "sync", "last_version": 4},
    {"type": "ping"},
    {"type": "back"},
]


@st.composite
def _near_good(draw: st.DrawFn) -> dict[str, Any]:
    """A good message as it is, with one field's value changed, or with a field added."""
    message = dict(draw(st.sampled_from(_GOOD)))
    how = draw(st.sampled_from(["as_is", "changed", "added"]))
    fields = [k for k in message if k != "type"]
    if how == "changed" and fields:
        message[draw(st.sampled_from(fields))] = draw(_json_values)
    elif how == "added":
        message[draw(st.sampled_from(_FIELDS))] = draw(_json_values)
    return message


def test_every_good_message_is_read_by_both() -> None:
    for message in _GOOD:
        text = json.dumps(message)
        assert p.parse_client_message(text) == p._parse_checked(text)
        assert p.parse_client_message(text).type == message["type"]  # type: ignore[union-attr]


def _reading(read: Any, text: str | bytes) -> object:
    try:
        return read(text)
    except p.ProtocolError as err:
        return (err.code, str(err))


@given(
    st.one_of(
        _near_good().map(json.dumps),
        _messages.map(json.dumps),
        _json_values.map(json.dumps),
        st.text(max_size=30),
    )
)
def test_the_one_pass_reading_and_the_step_by_step_one_agree(text: str) -> None:
    assert _reading(p.parse_client_message, text) == _reading(p._parse_checked, text)
    raw = text.encode()
    assert _reading(p.parse_client_message, raw) == _reading(p._parse_checked, raw)


def test_a_good_move_is_read_and_a_bad_one_refused_in_words() -> None:
    assert p.parse_client_message('{"type": "act", "action": "3x5", "version": 7}') == p.Act(
        type="act", action="3x5", version=7
    )
    assert _reading(p.parse_client_message, '{"type": "act", "action": 3}') == (
        "bad_message",
        "bad act message: action: Input should be a valid string; version: Field required",
    )
    assert _reading(p.parse_client_message, "[" * 100_000)[0] == "bad_json"  # type: ignore[index]
