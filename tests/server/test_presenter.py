"""The presenter's encoding of the messages sent on every move (``presenter.encode``) is the
model's own, byte for byte: building a view's list of legal actions once per distinct list in
the core (``perudo.core.legal_json``), validating it once per distinct list and reusing both
changes no byte of any message, in random games of every preset (memory mode's own list of
bids included), for the seat to act, the others and a spectator."""

from __future__ import annotations

import random

import pytest

from perudo.core import (
    PRESETS,
    RoundResolved,
    apply,
    chance_action,
    event_to_json,
    legal_json,
    round_to_json,
    view,
)
from perudo.server import protocol as p
from perudo.server.tables.presenter import encode, memory_legal


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_encoding_a_move_s_messages_is_the_model_s_own_byte_for_byte(preset: str) -> None:
    from perudo.core import action_to_json, new_game

    rules = PRESETS[preset]
    rng = random.Random(preset)
    players = min(max(rules.min_players, 4), rules.max_players)
    state = new_game(rules, players, rng)
    version = 0
    checked = 0
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
        tail = [round_to_json(r) for r in state.past[-resolved:]] if resolved else []
        for receiver in [None, *range(players)]:
            v = view(state, receiver)
            for memory in (False, True):
                data = v.to_json(past=False)
                # The core's list, built once per distinct list (legal_json), is the list
                # built afresh.
                assert data["legal"] == [str(a) for a in v.legal]
                assert data["legal_info"] == [action_to_json(a) for a in v.legal]
                if memory and v.legal:
                    legal = memory_legal(v)
                    data["legal"] = [str(a) for a in legal]
                    data["legal_info"] = [action_to_json(a) for a in legal]
                    assert legal_json(tuple(legal)) == (data["legal"], data["legal_info"])
                message = {
                    "version": version,
                    "events": [d for a, d in batch if a is None or a == receiver],
                    "view": data,
                    "hint": None,
                    "timer": None,
                    "past_tail": tail,
                }
                expected = p.Update.model_validate(message).model_dump_json()
                assert encode(p.Update, message) == expected
                assert encode(p.Update, message) == expected  # the list now from the cache
                checked += bool(data["legal_info"])
    assert checked > 10
