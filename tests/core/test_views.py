"""What a seat may know (P-70) and memory mode (P-40): views and event audiences."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from tests.core.script import play, play_events, resolved

from perudo.core import (
    BLUFF,
    PERUDO,
    PERUDO_CALZA,
    ActionTaken,
    Bid,
    Calza,
    DiceDealt,
    DiceRerolled,
    Dudo,
    GameOver,
    PalificoChosen,
    Reroll,
    RoundStarted,
    RuleSet,
    apply,
    chance_action,
    legal_actions,
    new_game,
    start_round,
    view,
    visible_to,
)
from perudo.core.views import legal_texts, views_json

HANDS = [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]


def hands_in(data: object) -> list[list[int]]:
    """Every list stored under a 'hand' key anywhere in a JSON value."""
    found: list[list[int]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "hand":
                found.append(value)
            found.extend(hands_in(value))
    elif isinstance(data, list):
        for item in data:
            found.extend(hands_in(item))
    return found


def test_p70_a_seat_sees_its_own_dice_and_no_one_elses() -> None:
    state = play(start_round(PERUDO, HANDS), "2x4")
    for seat in range(3):
        mine = view(state, seat)
        assert mine.seat == seat and mine.hand == tuple(HANDS[seat])
        data = mine.to_json()
        assert hands_in(data) == [HANDS[seat]]
        text = json.dumps(data)
        for other in range(3):
            if other != seat:
                assert json.dumps(HANDS[other]) not in text


def test_p70_a_spectator_sees_no_hidden_dice_and_has_no_actions() -> None:
    state = play(start_round(PERUDO, HANDS), "2x4")
    spectator = view(state, None)
    assert spectator.hand == () and spectator.legal == ()
    assert hands_in(spectator.to_json()) == [[]]
    assert not spectator.my_turn


def test_p70_public_actions_counts_and_the_seats_legal_actions() -> None:
    state = play(start_round(PERUDO_CALZA, HANDS), "2x4", "3x4")
    mine = view(state, 0)
    assert mine.actions == ((0, Bid(2, 4)), (1, Bid(3, 4)))
    assert mine.bid == Bid(3, 4) and mine.bidder == 1 and mine.to_act == 2
    assert mine.dice_counts == (5, 5, 5) and mine.total_dice == 15 and mine.num_players == 3
    assert mine.legal == (Calza(),)  # out of turn: calza (P-50)
    assert not mine.my_turn
    to_act = view(state, 2)
    assert to_act.my_turn and to_act.legal == tuple(legal_actions(state, 2))
    assert to_act.legal[-1] == Dudo()
    assert mine.to_json()["legal"] == {"bids": [], "actions": [{"kind": "calza", "text": "calza"}]}
    assert mine.to_json()["actions"] == [[0, "2x4"], [1, "3x4"]]


def test_p70_revealed_hands_are_public_and_the_others_stay_secret() -> None:
    """P-21: after the dudo, only the hands that were lifted appear in any view."""
    hands = [[4, 4, 2, 2, 2], [1, 5, 5, 6, 6], [4, 1, 3, 3, 3]]
    state = play(start_round(PERUDO, hands), "3x4")
    after, events = apply(state, Dudo())  # seat 1 doubts: seat 2 then seat 0 reveal
    result = resolved(events)
    assert [r.seat for r in result.reveals] == [2, 0] and result.hidden == (1,)
    for seat in (None, 0, 1, 2):
        data = view(after, seat).to_json()
        past = data["past"][-1]["result"]
        assert [r["seat"] for r in past["reveals"]] == [2, 0]
        assert past["hidden"] == [1]
        assert [1, 5, 5, 6, 6] not in hands_in(data)
        assert sorted(hands[2]) in hands_in(data) and sorted(hands[0]) in hands_in(data)


def test_p70_dice_set_aside_are_public() -> None:
    state = play(start_round(BLUFF, HANDS), "2x4", "aside 22", "reroll 456")
    for seat in (None, 0, 2):
        assert view(state, seat).shown == ((), (2, 2), ())
        assert view(state, seat).to_json()["shown"] == [[], [2, 2], []]
    assert view(state, 1).hand == (4, 5, 6)
    assert view(state, 0).hand == (1, 1, 1, 1, 1)
    assert view(state, 1).must_raise and view(state, 0).must_raise


def test_p70_private_events_reach_only_their_seat() -> None:
    state = play(start_round(BLUFF, HANDS), "2x4", "aside 22")
    _, events = apply(state, Reroll((4, 5, 6)))
    (rerolled,) = events
    assert isinstance(rerolled, DiceRerolled)
    assert visible_to(rerolled, 1)
    assert not visible_to(rerolled, 0) and not visible_to(rerolled, 2)
    assert not visible_to(rerolled, None)
    dealt = DiceDealt(2, (3, 3))
    assert [visible_to(dealt, s) for s in (None, 0, 1, 2)] == [False, False, False, True]
    public = [
        RoundStarted(1, 0, False, (5, 5)),
        ActionTaken(0, Bid(1, 2)),
        PalificoChosen(0, True),
        GameOver(1),
        resolved(play_events(start_round(PERUDO, HANDS), "2x4", "dudo")[1]),
    ]
    for event in public:
        assert event.audience is None
        assert all(visible_to(event, s) for s in (None, 0, 1, 2))


def test_p70_a_new_game_deals_each_seat_a_private_event() -> None:
    rng = random.Random(3)
    state = new_game(PERUDO, 4, rng)
    # new_game deals already; look at the events of the next deal instead.
    state = play(state, "1x2", "dudo")
    state, events = apply(state, chance_action(state, rng))
    dealt = [e for e in events if isinstance(e, DiceDealt)]
    assert [e.seat for e in dealt] == [s for s in range(4) if state.dice_counts[s]]
    for e in dealt:
        assert e.hand == state.hands[e.seat]
        assert [visible_to(e, s) for s in range(4)] == [s == e.seat for s in range(4)]


@pytest.mark.parametrize("seat", [3, -1, True, "0", 1.0])
def test_p70_a_view_for_a_seat_not_at_the_table_is_refused(seat: object) -> None:
    state = start_round(PERUDO, HANDS)
    with pytest.raises(ValueError, match="no seat"):
        view(state, seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no seat"):
        views_json(state, [0, seat])  # type: ignore[list-item]


def test_p70_views_drawn_at_once_give_each_seat_its_own_hand_and_actions() -> None:
    """``views_json``: the seat to act gets its legal actions, the others the spectators'
    view with their own seat and dice (never the spectators' empty hand, never another's)."""
    state = start_round(PERUDO, HANDS)
    spectators, first, second, third = views_json(state, [None, 0, 1, 2], past=False)
    assert spectators["hand"] == [] and spectators["seat"] is None
    assert [first["hand"], second["hand"], third["hand"]] == HANDS
    assert [first["seat"], second["seat"], third["seat"]] == [0, 1, 2]
    nothing = {"bids": [], "actions": []}
    assert first["legal"]["bids"] == [[f, 1, 15] for f in range(2, 7)]  # no opening on aces
    assert second["legal"] == third["legal"] == spectators["legal"] == nothing
    # A stream of views sends once what only grows or never changes in a game.
    assert not {"past", "rules", "rolloff"} & (set(first) | set(second))
    assert {"past", "rules", "rolloff"} <= set(views_json(state, [0])[0])
    assert [d["hand"] for d in views_json(state, [2, 1])] == [HANDS[2], HANDS[1]]


def test_p40_memory_mode_is_display_only_counts_stay_in_every_view() -> None:
    """P-40 hides counts from the display; the rules never depend on it, so the rule set has
    no display field and every view carries the counts for the display to hide."""
    names = {f.name for f in dataclasses.fields(RuleSet)}
    assert not any(word in n for n in names for word in ("memory", "hide", "display"))
    state = play(start_round(PERUDO, [[2, 3], [4], [5, 5, 6]]), "1x2")
    for seat in (None, 0, 1, 2):
        assert view(state, seat).to_json()["dice_counts"] == [2, 1, 3]


def test_the_view_names_this_rounds_wild_face_and_gives_each_action_structured() -> None:
    """P-15 / V-2 / P-31: the view says which face is wild this round (aces in Perudo, 6 in
    Bluff, none in a palifico round), and each legal and past action comes structured beside
    its notation, so a display decides no rule and parses no notation."""
    perudo = play(start_round(PERUDO, HANDS), "2x4")
    data = view(perudo, 1).to_json()
    assert data["wild"] == 1
    assert data["bid_info"] == {"kind": "bid", "text": "2x4", "quantity": 2, "face": 4}
    assert data["actions_info"] == [data["bid_info"]]
    # What the seat may do: the bids as runs per face (two numbers a face), then the others.
    assert data["legal"]["actions"] == [{"kind": "dudo", "text": "dudo"}]
    runs = [[1, 1, 15], [2, 3, 15], [3, 3, 15], [4, 3, 15], [5, 2, 15], [6, 2, 15]]
    assert data["legal"]["bids"] == runs  # after 2 × 4: aces from 1, 3 of lower faces, 2 of higher
    bids = sorted(view(perudo, 1).legal[:-1], key=lambda b: (b.face, b.quantity))  # type: ignore[union-attr]
    assert legal_texts(data["legal"]) == [*map(str, bids), "dudo"]
    assert view(start_round(BLUFF, HANDS), 0).to_json()["wild"] == 6
    palifico = start_round(PERUDO, [[3], [1, 3, 3], [1, 1, 4]], palifico=True)
    assert view(palifico, 0).to_json()["wild"] is None


@pytest.mark.parametrize("rules", [PERUDO, PERUDO_CALZA, BLUFF], ids=str)
def test_a_views_legal_list_is_the_core_s_list_kept_as_one_tuple(rules: RuleSet) -> None:
    """``view`` lists a seat's legal actions through ``LegalActions.as_tuple`` (one tuple per
    distinct list, so that its JSON is found by identity): the same actions, in the same
    order, as the lazy list; the same tuple object for the same list; and the JSON of the
    list is built afresh the same (``legal_json``)."""
    from perudo.core.actions import action_to_json
    from perudo.core.views import legal_json, legal_texts

    rng = random.Random(str(rules))
    state = new_game(rules, 4, rng)
    seen = 0
    while not state.is_over and seen < 300:
        for seat in range(4):
            if state.dice_counts[seat] == 0:
                continue
            legal = legal_actions(state, seat)
            listed = legal.as_tuple()
            assert listed == tuple(legal)
            assert legal_actions(state, seat).as_tuple() is listed
            assert view(state, seat).legal is listed
            data = legal_json(listed)
            assert sorted(legal_texts(data)) == sorted(str(a) for a in legal)
            assert data["actions"] == [action_to_json(a) for a in legal if not isinstance(a, Bid)]
            assert legal_json(tuple(legal)) == data  # built afresh the same
            seen += 1
        seat = state.to_act
        choices = list(legal_actions(state)) if seat is not None else []
        action = chance_action(state, rng) if seat is None else rng.choice(choices)
        state, _ = apply(state, action, seat)
    assert seen > 50


def test_a_views_json_of_the_parts_every_seat_shares_is_built_afresh_the_same() -> None:
    """``to_json`` keeps the JSON of the parts every seat's view of a state has alike (the
    rules, counts, this round's actions…, found by the identity of the state's fields) and
    of each rule set: every seat's view of every state of random games gives what a fresh
    build gives, and mutating one view's lists changes no other's."""
    from perudo.core.actions import action_to_json

    rng = random.Random(7)
    state = new_game(PERUDO_CALZA, 4, rng)
    while not state.is_over:
        for seat in (None, 0, 1, 2, 3):
            v = view(state, seat)
            data = v.to_json()
            assert data["actions"] == [[s, str(a)] for s, a in v.actions]
            assert data["actions_info"] == [action_to_json(a) for _, a in v.actions]
            assert data["rules"] == {
                f.name: getattr(v.rules, f.name) for f in dataclasses.fields(v.rules) if f.compare
            }
            assert data["dice_counts"] == list(state.dice_counts)
            assert data["hand"] == ([] if seat is None else list(state.hands[seat]))
            assert data["shown"] == [list(s) for s in state.shown]
            assert data["palifico_used"] == list(state.palifico_used)
            assert data["bid"] == (None if state.bid is None else str(state.bid))
            assert data["bid_info"] == (None if state.bid is None else action_to_json(state.bid))
            assert data["rolloff"] == [list(t) for t in state.rolloff]
            assert (data["phase"], data["round"], data["to_act"]) == (
                state.phase.value,
                state.round,
                state.to_act,
            )
            for key in ("actions", "actions_info", "dice_counts", "hand", "shown"):
                data[key].append("mine")
            for key in ("palifico_used", "rolloff"):
                data[key].append("mine")
            for key in ("bids", "actions"):
                data["legal"][key].append("mine")
            data["rules"]["faces"] = 0
        shared = view(state, 0).to_json()
        assert shared["actions"] == [[s, str(a)] for s, a in state.actions]
        assert shared["dice_counts"] == list(state.dice_counts)
        assert shared["shown"] == [list(s) for s in state.shown]
        legal = shared["legal"]["bids"] + shared["legal"]["actions"]
        assert "mine" not in shared["palifico_used"] + shared["rolloff"] + legal
        assert view(state, 0).rules.to_dict()["faces"] == 6
        seat = state.to_act
        choices = list(legal_actions(state)) if seat is not None else []
        action = chance_action(state, rng) if seat is None else rng.choice(choices)
        state, _ = apply(state, action, seat)


def test_a_views_shared_parts_are_found_by_identity_not_equality() -> None:
    """Two states whose fields are equal but not the same objects (``3 == 3.0``) each get
    their own parts: the rules of the second are its own, not the first's."""
    a = new_game(dataclasses.replace(PERUDO_CALZA, calza_min_players=3), 4, random.Random(1))
    b = new_game(
        dataclasses.replace(PERUDO_CALZA, calza_min_players=3.0),  # type: ignore[arg-type]
        4,
        random.Random(1),
    )
    assert a.rules == b.rules
    assert type(view(a, 0).to_json()["rules"]["calza_min_players"]) is int
    assert type(view(b, 0).to_json()["rules"]["calza_min_players"]) is float
