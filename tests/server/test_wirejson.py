"""The messages sent on every move, written without pydantic (:mod:`perudo.server.wirejson`),
are the models' own encoding byte for byte: each seat's ``update`` of random games of every
preset (memory mode's own list of bids and hidden counts included), for the seat to act, the
others and a spectator, written together as the server writes a move's messages and alone;
the odds' floats and the timer's as pydantic writes floats. The core's list of legal
actions, built once per distinct list (``perudo.core.views.legal_json``), is the list built afresh.

Real servers' messages are checked too: the test suite runs with ``PERUDO_CHECK_WIRE=1``
(tests/conftest.py), so every message a server writes in any test is compared with its
model's encoding, and tests/server/test_wire.py checks them against the published schema."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from perudo.core import PRESETS, Bid, Dudo, RoundResolved, apply, chance_action, new_game, view
from perudo.core.actions import action_to_json
from perudo.core.events import event_to_json
from perudo.core.views import event_seen, legal_json, legal_texts, round_to_json, views_json
from perudo.server import protocol as p
from perudo.server import wirejson
from perudo.server.hint import bid_hint
from perudo.server.wirejson import float_json, write, write_each


def _model_json(data: dict[str, Any]) -> str:
    return p.Update.model_validate(data).model_dump_json()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_move_s_updates_written_together_are_the_model_s_own_byte_for_byte(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wirejson, "CHECK", False)  # compared here, not by the check
    rules = PRESETS[preset]
    rng = random.Random(preset)
    players = min(max(rules.min_players, 4), rules.max_players)
    state = new_game(rules, players, rng)
    version = 0
    bidders = hints = 0
    while not state.is_over and version < 400:
        seat = state.to_act
        action = (
            chance_action(state, rng) if seat is None else rng.choice(list(view(state, seat).legal))
        )
        state, events = apply(state, action, seat)
        batch = []
        for e in events:
            version += 1
            batch.append((e.audience, {**event_to_json(e), "version": version}))
        resolved = sum(isinstance(e, RoundResolved) for e in events)
        tail = [
            {
                k: v
                for k, v in round_to_json(r).items()
                if k not in ("result", "actions", "actions_info")
            }
            for r in state.past[-resolved:]
        ]
        timer = rng.choice([None, rng.uniform(0, 60), 1e-7, 30])
        for memory in (False, True):
            messages = []
            for receiver in [None, *range(players)]:
                v = view(state, receiver, memory=memory)
                data = v.to_json(past=False)
                assert sorted(legal_texts(data["legal"])) == sorted(str(a) for a in v.legal)
                assert data["legal"]["actions"] == [
                    action_to_json(a) for a in v.legal if not isinstance(a, Bid)
                ]
                assert legal_json(v.legal) == data["legal"]
                events_seen = [
                    event_seen(d, receiver, memory=memory)
                    for a, d in batch
                    if a is None or a == receiver
                ]
                hint = bid_hint(view(state, receiver))
                messages.append(
                    {
                        "version": version,
                        "events": events_seen,
                        "view": data,
                        "hint": hint,
                        "timer": timer,
                        "past_tail": tail,
                    }
                )
                bidders += bool(data["legal"]["bids"])
                hints += hint is not None
            expected = [_model_json(m) for m in messages]
            assert write_each(p.Update, messages) == expected
            # As the server draws them: every view at once, the idle seats' dicts sharing
            # the spectators' lists (and every seat the same event dicts).
            drawn = views_json(state, [None, *range(players)], past=False, memory=memory)
            shared = [{**m, "view": d} for m, d in zip(messages, drawn, strict=True)]
            assert write_each(p.Update, shared) == expected
            assert write_each(p.Update, messages) == expected  # now from the caches
            assert [write(p.Update, m) for m in reversed(messages)] == expected[::-1]
    assert bidders > 10
    assert hints > 0 or preset == "liars_dice"


@pytest.mark.parametrize("memory", [False, True])
def test_a_seat_s_message_on_its_turn_costs_a_few_bytes_more_than_the_others(memory: bool) -> None:
    """What a seat may do travels compactly (the bids as runs of quantities per face, the
    other actions once): over whole six-seat ``perudo_calza`` games, the update of a move to
    the seat to act is at most 200 bytes longer than the same update to a seat with nothing
    to do (it was 10 KB and more, every legal bid twice), and its ``legal`` at most 160."""
    rules = PRESETS["perudo_calza"]
    extra, bidders = [], 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(rules, 6, rng)
        while not state.is_over:
            seat = state.to_act
            if seat is None:
                state, _ = apply(state, chance_action(state, rng), None)
                continue
            legal = view(state, seat).legal
            action = Dudo() if Dudo() in legal and rng.random() < 0.3 else rng.choice(legal[:3])
            state, events = apply(state, action, seat)
            if state.to_act is None:
                continue
            batch = [{**event_to_json(e), "version": 1} for e in events if e.audience is None]
            idle = next(s for s in range(6) if s != state.to_act)
            drawn = views_json(state, [state.to_act, idle], past=False, memory=memory)
            turn, other = write_each(
                p.Update,
                [
                    {"version": 1, "events": batch, "view": d, "hint": None, "timer": None}
                    for d in drawn
                ],
            )
            sent = json.dumps(drawn[0]["legal"], separators=(",", ":"))
            assert len(sent) <= 160, sent
            extra.append(len(turn.encode()) - len(other.encode()))
            bidders += bool(drawn[0]["legal"]["bids"])
    assert bidders > 50
    assert max(extra) <= 200, max(extra)


def test_what_one_call_s_messages_share_is_encoded_once_and_forgotten_after() -> None:
    """An event or a list of actions that several messages of one ``write_each`` share is
    encoded once for all of them (found by identity), and only during that call: changed
    afterwards, the next call writes it as it is then."""
    state = new_game(PRESETS["perudo"], 3, random.Random(4))
    data = view(state, None).to_json(past=False)
    bid = view(state, state.to_act).legal[0]
    shared_event = {"type": "action", "seat": 0, "action": str(bid), "version": 1}
    shared_event["action_info"] = action_to_json(bid)
    messages = [
        {"version": 1, "events": [shared_event], "view": data, "hint": None, "timer": None}
        for _ in range(3)
    ]
    first = write_each(p.Update, messages)
    assert first == [_model_json(m) for m in messages]
    assert wirejson._seen == {}
    shared_event["seat"] = 2
    data["actions_info"] = [action_to_json(a) for a in view(state, 0).legal[:2]]
    again = write_each(p.Update, messages)
    assert again == [_model_json(m) for m in messages] and again != first
    assert '"seat":2' in again[0]


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_a_float_is_written_as_pydantic_writes_it(x: float) -> None:
    assert float_json(x) == TypeAdapter(float).dump_json(x).decode()


@given(
    st.lists(
        st.tuples(
            st.sampled_from([None, "3x5", "dudo"]),
            st.floats(0, 1),
            st.text(max_size=8),
            st.sampled_from([None, 0, 1]),
            st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**53), 2**53)),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_messages_with_any_text_or_float_are_each_their_model_s_encoding(
    rows: list[tuple[str | None, float, str, int | None, float]],
) -> None:
    """Chat lines and hints (user text in any script, floats of any size, infinities, NaN, an
    int given for a float): each
    message is its own model's encoding (orjson writes ``1e16`` where pydantic writes
    ``1e+16``, and ``1`` for an int where pydantic writes ``1.0``)."""
    chats = [
        {"version": i, "entry": {"seat": seat, "name": name, "text": name, "at": f, "version": i}}
        for i, (_, f, name, seat, _) in enumerate(rows)
    ]
    assert write_each(p.ChatMessage, chats) == [
        p.ChatMessage.model_validate(c).model_dump_json() for c in chats
    ]
    updates = [
        {
            "version": 1,
            "events": [],
            "view": None,
            "hint": None if bid is None else {"bid": bid, "holds": f, "exact": f / 2},
            "timer": f,
        }
        for bid, f, _, _, _ in rows
    ] + [{"version": 2, "events": [], "view": None, "hint": None, "timer": t} for *_, t in rows]
    assert write_each(p.Update, updates) == [_model_json(u) for u in updates]


def test_with_the_check_on_a_field_off_the_model_fails_loudly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wirejson, "CHECK", True)
    good = {"version": 1, "events": [], "view": None, "hint": None}
    assert write(p.Update, good) == _model_json(good)
    with pytest.raises(ValidationError):
        write(p.Update, {**good, "rogue": 1})
    with pytest.raises(ValidationError):
        write(p.Update, {**good, "version": "one"})


def test_a_model_it_cannot_write_exactly_is_refused_when_its_writer_is_built() -> None:
    """A field of untyped values (orjson would write its floats otherwise than pydantic), an
    alias, an excluded field, a computed field or a serializer: a ``TypeError`` naming it when
    the writer is built, never a message that differs from the model's. The server's own
    messages are all writable (a refusal would stop the first move)."""
    from pydantic import BaseModel, Field, computed_field, field_serializer

    class Untyped(BaseModel):
        params: dict[str, Any] = {}

    class Aliased(BaseModel):
        name: str = Field(serialization_alias="n")

    class Excluded(BaseModel):
        secret: str = Field(exclude=True)

    class Computed(BaseModel):
        a: int

        @computed_field  # type: ignore[prop-decorator]
        @property
        def b(self) -> int:
            return self.a + 1

    class Serialized(BaseModel):
        a: int

        @field_serializer("a")
        def _a(self, a: int) -> int:
            return a * 2

    for model, what in (
        (Untyped, "dict"),
        (Aliased, "alias"),
        (Excluded, "exclusion"),
        (Computed, "computed"),
        (Serialized, "serializer"),
    ):
        with pytest.raises(TypeError, match=what):
            write(model, {"params": {}, "name": "x", "secret": "s", "a": 1})
    for model in (p.Update, p.Snapshot, p.ChatMessage):
        assert callable(wirejson._normalizer(model))
