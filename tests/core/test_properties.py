"""Property tests of the rules core over games reached by legal play from ``new_game``.

Each property runs for every preset and for random rule sets (``dataclasses.replace`` of a
preset with every switch redrawn). A drawn game is a whole game played by
``tests.strategies.random_play`` from a seed; the expensive checks look at a sample of its
states that always includes the special situations (P-34 choice, V-9 re-roll and forced
raise, V-10 pending pass, palifico round, calza callers, game over).

The number of examples comes from the hypothesis profile (``tests/conftest.py``).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.strategies import (
    Playthrough,
    bids_around,
    interesting_indices,
    playthroughs,
    random_rulesets,
    rerolled_others,
)

from perudo.core import (
    PRESETS,
    Bid,
    Calza,
    ChoosePalifico,
    DiceDealt,
    DiceRerolled,
    Dudo,
    GameOver,
    GameRecord,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    RoundResolved,
    RoundStarted,
    SetAside,
    apply,
    calza_callers,
    is_legal,
    legal_actions,
    raise_error,
    view,
    visible_to,
)
from perudo.core.events import event_to_json
from perudo.core.views import event_seen, legal_texts, view_from_json, views_json

PRESET_NAMES = sorted(PRESETS)


def _sample(play: Playthrough, k: int = 10) -> list[GameState]:
    states = play.states()
    return [states[i] for i in interesting_indices(play, random.Random(play.seed), k)]


# --- legal_actions, is_legal, raise_error -------------------------------------------------


def _check_legality(state: GameState) -> None:
    n = state.num_players
    for seat in range(n):
        legal = legal_actions(state, seat)
        listed = list(legal)
        assert len(legal) == len(listed)
        for i, action in enumerate(listed):
            assert legal[i] == action
            assert is_legal(state, action, seat), (state, seat, action)
            assert action in legal
        if seat != state.to_act:
            # Out of turn a seat may only call calza (P-50), never bid or challenge (P-11).
            assert set(listed) <= {Calza()}, (state, seat, listed)
        assert len(set(listed)) == len(listed), "legal actions are listed once each"
        probes: list[object] = [
            Dudo(),
            Calza(),
            Pass(),
            ChoosePalifico(True),
            ChoosePalifico(False),
            SetAside((1,)),
            SetAside((state.rules.faces,)),
            SetAside((1, 2)),
            Bid(1, 2),
            Bid(state.total_dice, state.rules.faces),
        ]
        hand = state.hands[seat]
        if hand:
            # Own dice: one, all but one (legal in V-9 when a raise exists), all (never).
            probes += [SetAside(hand[:1]), SetAside(hand)]
            if len(hand) > 1:
                probes.append(SetAside(hand[:-1]))
        for action in probes:
            legal_now = is_legal(state, action, seat)  # type: ignore[arg-type]
            assert legal_now == (action in listed), (state, seat, action)
            assert (action in legal) == (action in listed), (state, seat, action)
    # Calza for every seat (P-50, P-53): calza_callers lists exactly the seats that may call,
    # left of the bidder first.
    callers = [s for s in range(n) if is_legal(state, Calza(), s)]
    order = calza_callers(state)
    assert sorted(order) == callers
    if order:
        assert state.bidder is not None
        distance = [(s - state.bidder) % n for s in order]
        assert distance == sorted(distance)
    # Nobody acts out of range.
    assert not is_legal(state, Dudo(), n)
    assert not is_legal(state, Calza(), -1)


def _check_raises(state: GameState) -> None:
    """Every legal bid, and only those, passes raise_error (P-12…P-16, P-32, P-33, V-1…V-3)."""
    seat = state.to_act
    if seat is None or state.phase is not Phase.BIDDING:
        assert list(legal_actions(state)) == [] or state.phase is Phase.CHOOSE_PALIFICO
        return
    legal = legal_actions(state)
    legal_bids = set(legal.bids)
    assert all(isinstance(b, Bid) for b in legal.bids)
    rules = state.rules
    total = state.total_dice
    for bid in bids_around(state):
        err = raise_error(
            rules,
            state.bid,
            bid,
            total,
            palifico=state.palifico,
            one_die=state.dice_counts[seat] == 1,
        )
        assert (err is None) == (bid in legal_bids), (state, bid, err)
        assert is_legal(state, bid) == (bid in legal_bids), (state, bid)
        if err is not None:
            assert "P-" in err or "V-" in err, err
    if rules.raise_order == "perudo" and (not state.palifico or state.dice_counts[seat] == 1):
        # With the perudo order the legal raises are ordered lowest first and each later
        # bid is a legal raise over each earlier one.
        bids = list(legal.bids)
        for a, b in itertools.pairwise(bids):
            assert raise_error(rules, a, b, total, palifico=state.palifico, one_die=True) is None, (
                a,
                b,
            )


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(data=st.data())
def test_legal_actions_agree_with_is_legal(preset: str, data: st.DataObject) -> None:
    """legal_actions ⇔ is_legal for every seat, legal and sampled illegal actions (P-11, P-50)."""
    play = data.draw(playthroughs(PRESETS[preset]))
    for state in _sample(play):
        _check_legality(state)


@given(play=playthroughs(random_rulesets()))
def test_legal_actions_agree_with_is_legal_random_rules(play: Playthrough) -> None:
    for state in _sample(play):
        _check_legality(state)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(data=st.data())
def test_legal_bids_are_exactly_the_raises(preset: str, data: st.DataObject) -> None:
    """raise_error(...) is None for all and only the legal bids (P-12…P-16, V-1…V-3)."""
    play = data.draw(playthroughs(PRESETS[preset]))
    for state in _sample(play):
        _check_raises(state)


@given(play=playthroughs(random_rulesets()))
def test_legal_bids_are_exactly_the_raises_random_rules(play: Playthrough) -> None:
    for state in _sample(play):
        _check_raises(state)


# --- dice conservation, the end of the game -----------------------------------------------


def _check_dice(play: Playthrough) -> None:
    rules = play.rules
    dpp = rules.dice_per_player
    assert play.start.dice_counts == (dpp,) * play.players
    for step in play.steps:
        before, after = step.before, step.after
        resolved = [e for e in step.events if isinstance(e, RoundResolved)]
        if resolved:
            (result,) = resolved
            changes = dict(result.changes)
            expected = tuple(c + changes.get(s, 0) for s, c in enumerate(before.dice_counts))
            assert after.dice_counts == expected, (step, result)
            assert result.eliminated == tuple(
                s for s in range(play.players) if before.dice_counts[s] and not expected[s]
            )
            # Calza (P-51) gains at most one die; every other change is a loss (P-20, V-4).
            for seat, change in result.changes:
                assert change <= (1 if result.kind == "calza" else 0)
                assert before.dice_counts[seat] > 0
        else:
            assert after.dice_counts == before.dice_counts, step
        for s, count in enumerate(after.dice_counts):
            assert 0 <= count <= dpp
            if after.phase in (Phase.BIDDING, Phase.REROLL):
                # Hidden and shown dice together are the seat's dice (P-3, V-9).
                assert len(after.hands[s]) + len(after.shown[s]) == count
                if count and after.phase is Phase.BIDDING:
                    assert after.hands[s], "at least one die stays hidden (V-9)"
            else:
                assert after.hands[s] == () and after.shown[s] == ()
            assert all(1 <= d <= rules.faces for d in after.hands[s] + after.shown[s])


def _check_end(play: Playthrough) -> None:
    final = play.final
    assert final.is_over and final.phase is Phase.GAME_OVER
    alive = [s for s, c in enumerate(final.dice_counts) if c]
    assert alive == [final.winner], "exactly one seat has dice at the end (P-23)"
    overs = [e for step in play.steps for e in step.events if isinstance(e, GameOver)]
    assert overs == [GameOver(final.winner)]
    assert play.steps[-1].events[-1] == GameOver(final.winner)
    # A generous bound: every round ends with a challenge and removes a die, except a
    # calza that gains one (P-51).
    assert final.round <= 400
    for seat in range(play.players):
        assert list(legal_actions(final, seat)) == []
        with pytest.raises(IllegalActionError, match="P-23"):
            apply(final, Dudo(), seat)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(data=st.data())
def test_dice_are_conserved_and_every_game_has_one_winner(preset: str, data: st.DataObject) -> None:
    """Counts change only at resolution, by RoundResolved.changes (P-20, P-51, V-4); P-23."""
    play = data.draw(playthroughs(PRESETS[preset]))
    _check_dice(play)
    _check_end(play)


@given(play=playthroughs(random_rulesets()))
def test_dice_are_conserved_and_every_game_has_one_winner_random_rules(
    play: Playthrough,
) -> None:
    _check_dice(play)
    _check_end(play)


# --- records ------------------------------------------------------------------------------


def _check_record(play: Playthrough) -> None:
    states = play.states()
    rng = random.Random(play.seed)
    for state in [play.final, *rng.sample(states, min(3, len(states)))]:
        record = GameRecord.from_state(state)
        assert record.replay() == state
        text = record.dumps()
        again = GameRecord.loads(text)
        assert again == record
        assert again.replay() == state
        assert json.loads(again.dumps()) == json.loads(text)
    record = GameRecord.from_state(play.final)
    # The record holds the roll-off (P-2) and every move, chance included.
    assert record.rolloff == play.start.rolloff
    assert len(record.moves) == len(play.steps) + 1  # + the first deal, made by new_game
    assert record.replay(1) == play.start
    # Its steps (what every replay walks) go from the start to the end, one move at a time.
    steps = list(record.steps())
    assert [s.n for s in steps] == list(range(1, len(record.moves) + 1))
    assert steps[0].before == record.start() and steps[-1].after == record.replay()
    assert all(a.after == b.before for a, b in itertools.pairwise(steps))
    assert [(s.seat, s.action) for s in steps] == list(record.moves)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(data=st.data())
def test_a_record_replays_to_the_identical_state(preset: str, data: st.DataObject) -> None:
    """GameRecord: from_state → JSON → loads → replay gives the same state (P-2, P-3)."""
    _check_record(data.draw(playthroughs(PRESETS[preset])))


@given(play=playthroughs(random_rulesets()))
def test_a_record_replays_to_the_identical_state_random_rules(play: Playthrough) -> None:
    _check_record(play)


# --- hidden information (P-70) ------------------------------------------------------------


def _view_json(state: GameState, seat: int | None, *, memory: bool = False) -> str:
    return json.dumps(view(state, seat, memory=memory).to_json(), sort_keys=True)


def recounted_others(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """``state`` with every other seat still in (and showing no dice, V-9) holding another
    number of dice, from 1 to the starting number, freshly rolled: what memory mode (P-40)
    must not tell apart."""
    counts, hands = list(state.dice_counts), list(state.hands)
    for s, count in enumerate(counts):
        if s == seat or count == 0 or state.shown[s]:
            continue
        counts[s] = rng.randint(1, state.rules.dice_per_player)
        if hands[s]:
            faces = range(1, state.rules.faces + 1)
            hands[s] = tuple(sorted(rng.choices(faces, k=counts[s])))
    return state._replace(dice_counts=tuple(counts), hands=tuple(hands))


def _check_memory_views(state: GameState, seat: int | None, rng: random.Random) -> None:
    """P-40 through the core's view (the one door every display draws from): a memory-mode
    view's JSON tells no other seat's count and nothing that gives the total of dice in play
    (no total, bids offered to the dice at the start, no story of every round), and is
    byte-identical whatever the other seats hold: their dice (P-70) or how many dice they
    have."""
    plain = view(state, seat)
    memory = view(state, seat, memory=True)
    data = memory.to_json()
    assert data["dice_counts"] == [
        c if s == seat or c == 0 else None for s, c in enumerate(state.dice_counts)
    ]
    assert memory.total_seen is None and plain.total_seen == state.total_dice
    assert list(memory.counts_seen) == data["dice_counts"]
    # The same seat, dice and actions but for the bids: those run to the dice at the start
    # (and the dice it may set aside before raising, V-9, are offered as if those were there).
    assert memory.hand == plain.hand
    bids = [a for a in memory.legal if isinstance(a, Bid)]
    assert [a for a in memory.legal if not isinstance(a, (Bid, SetAside))] == [
        a for a in plain.legal if not isinstance(a, (Bid, SetAside))
    ]
    asides = {a for a in plain.legal if isinstance(a, SetAside)}
    assert asides <= {a for a in memory.legal if isinstance(a, SetAside)}
    start_total = state.rules.dice_per_player * state.num_players
    assert all(b.quantity <= start_total for b in bids)
    assert {b for b in bids if b.quantity <= state.total_dice} == {
        a for a in plain.legal if isinstance(a, Bid)
    }
    text = _view_json(state, seat, memory=True)
    # Nor does it tell the story of the rounds before the latest (each die lost, each round's
    # opener: P-22, the loser), from which every count follows without remembering.
    assert len(memory.past) == min(1, len(state.past))
    assert _view_json(state._replace(past=state.past[-1:]), seat, memory=True) == text
    for _ in range(2):
        assert _view_json(rerolled_others(state, seat, rng), seat, memory=True) == text
        assert _view_json(recounted_others(state, seat, rng), seat, memory=True) == text


def _check_views(play: Playthrough) -> None:
    rng = random.Random(play.seed ^ 0x5EED)
    for state in _sample(play, 8):
        for seat in [None, *range(play.players)]:
            before = view(state, seat)
            text = _view_json(state, seat)
            for _ in range(2):
                other = rerolled_others(state, seat, rng)
                assert view(other, seat) == before
                assert _view_json(other, seat) == text
            # The view never reads the record of past deals either.
            assert view(state._replace(log=None), seat) == before
            # What the seat may do travels compactly: one run of quantities per face (in every
            # rule set), the other actions each once; it lists exactly the legal actions.
            for v in (before, view(state, seat, memory=True)):
                legal = v.to_json()["legal"]
                assert sorted(legal_texts(legal)) == sorted(str(a) for a in v.legal)
                faces = [face for face, _, _ in legal["bids"]]
                assert faces == sorted(set(faces))
            # A client at the far end of a socket rebuilds the very view from its JSON (a bot
            # there sees what it sees in the arena), its legal actions in the wire's order.
            again = view_from_json(json.loads(text))
            assert again == dataclasses.replace(before, legal=again.legal)
            assert sorted(map(str, again.legal)) == sorted(map(str, before.legal))
            if seat is not None:
                assert before.hand == state.hands[seat]
                assert set(before.legal) == set(legal_actions(state, seat))
            else:
                assert before.hand == () and before.legal == ()
            _check_memory_views(state, seat, rng)
        # Every seat's view drawn at once (the server's updates) is each seat's own view:
        # the seats with nothing to do share the spectators' parts, never another's hand.
        seats = [None, *range(play.players), 0]
        for past, memory in itertools.product((True, False), (False, True)):
            assert views_json(state, seats, past=past, memory=memory) == [
                view(state, seat, memory=memory).to_json(past=past) for seat in seats
            ]


def _check_events(play: Playthrough) -> None:
    n = play.players
    for step in play.steps:
        for event in step.events:
            data = event_to_json(event)
            json.dumps(data)
            for seat in [None, *range(n)]:
                # P-40: a memory-mode display is told no other seat's count by an event.
                seen = event_seen(data, seat, memory=True)
                if isinstance(event, RoundStarted):
                    assert seen["dice_counts"] == [
                        c if s == seat or c == 0 else None for s, c in enumerate(event.dice_counts)
                    ]
                    assert {k: v for k, v in seen.items() if k != "dice_counts"} == {
                        k: v for k, v in data.items() if k != "dice_counts"
                    }
                else:
                    assert seen == data
                assert event_seen(data, seat, memory=False) == data
            audience = event.audience
            if audience is None:
                assert all(visible_to(event, s) for s in [None, *range(n)])
                continue
            assert isinstance(event, (DiceDealt, DiceRerolled))
            assert visible_to(event, audience)
            for other in [None, *range(n)]:
                if other != audience:
                    assert not visible_to(event, other), (event, other)
            # A private event tells its seat exactly its own hidden dice.
            dice = event.hand if isinstance(event, DiceDealt) else event.dice
            assert dice == step.after.hands[audience]
            assert view(step.after, audience).hand == dice


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(data=st.data())
def test_views_do_not_leak_other_seats_dice(preset: str, data: st.DataObject) -> None:
    """Re-rolling the other seats' hidden dice leaves a seat's view byte-identical (P-70)."""
    play = data.draw(playthroughs(PRESETS[preset]))
    _check_views(play)
    _check_events(play)


@given(play=playthroughs(random_rulesets()))
def test_views_do_not_leak_other_seats_dice_random_rules(play: Playthrough) -> None:
    _check_views(play)
    _check_events(play)
