"""P-70 for the analysis: no analysis ever carries a die its viewer could not see."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import Playthrough, playthroughs

from perudo.analysis import analyze, decision_views, every_hand
from perudo.analysis.game import default_book
from perudo.core import PRESETS, Bid, GameRecord, apply, count_hand, view

BOOK = default_book()


def _visible(play: Playthrough, viewer: int | None) -> set[tuple[int, int, tuple[int, ...]]]:
    """(round, seat, hand) of every hand ``viewer`` saw: its own hands, and hands lifted at
    the table (P-21)."""
    seen = set()
    for step in play.steps:
        state = step.before
        if viewer is not None and state.hands and state.hands[viewer]:
            seen.add((state.round, viewer, tuple(sorted(state.hands[viewer]))))
    final = play.steps[-1].after
    for past in final.past:
        for reveal in past.result.reveals:
            seen.add((past.round, reveal.seat, tuple(sorted(reveal.hand))))
    return seen


@settings(deadline=None, max_examples=12)
@given(playthroughs(st.sampled_from(list(PRESETS.values()))), st.data())
def test_p70_no_analysis_carries_a_die_its_viewer_could_not_see(
    play: Playthrough, data: st.DataObject
) -> None:
    final = play.steps[-1].after
    record = GameRecord.from_state(final)
    viewer = data.draw(st.sampled_from([None, *range(record.num_players)]))
    analysis = analyze(record, viewer, rollouts=0, chart_games=0, book=BOOK).to_json()
    seen = _visible(play, viewer)
    for d in analysis["decisions"]:
        if d["hand"] is not None:
            assert (d["round"], d["seat"], tuple(d["hand"])) in seen, (viewer, d)
    # The only dice anywhere in the analysis are the decisions' hands: nothing else names one.
    allowed = {"hand"}
    for d in analysis["decisions"]:
        assert set(d) >= allowed
    text = json.dumps({k: v for k, v in analysis.items() if k != "decisions"})
    assert '"hand"' not in text and '"hands"' not in text


@settings(deadline=None, max_examples=8)
@given(playthroughs(st.sampled_from(list(PRESETS.values()))), st.data())
def test_p70_own_decisions_are_judged_from_the_cores_view(
    play: Playthrough, data: st.DataObject
) -> None:
    record = GameRecord.from_state(play.steps[-1].after)
    seat = data.draw(st.integers(0, record.num_players - 1))
    states = [record.replay(0)]
    for seat_moved, action in record.moves:
        states.append(apply(states[-1], action, seat_moved)[0])
    for dv in decision_views(record, seat):
        if dv.seat == seat:
            assert dv.view == view(states[dv.move], seat)
        else:
            public = view(states[dv.move], seat)
            assert dv.view.actions == public.actions
            assert dv.view.dice_counts == public.dice_counts


def _hands_at_round_ends(play: Playthrough) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Every seat's dice (hidden and set aside, V-9) just before each round resolved."""
    out = {}
    for step in play.steps:
        if len(step.after.past) != len(step.before.past):
            b = step.before
            out[b.round] = tuple(
                tuple(sorted(h + s)) for h, s in zip(b.hands, b.shown, strict=True)
            )
    return out


@settings(deadline=None, max_examples=12)
@given(playthroughs(st.sampled_from(list(PRESETS.values()))), st.data())
def test_p21_show_every_hand_at_the_end_shows_them_only_once_the_game_is_over(
    play: Playthrough, data: st.DataObject
) -> None:
    """The table agreement "show every hand at the end" (outside the rules, docs/analysis.md):
    once the game is over, every call carries every hand of its round and the true count; the
    analysis of a game not over (the record of any moment during play) refuses to show them,
    and without the agreement nothing but the viewer's hands appears (the test above)."""
    record = GameRecord.from_state(play.final)
    viewer = data.draw(st.sampled_from([None, *range(record.num_players)]))
    analysis = analyze(record, viewer, rollouts=0, chart_games=0, book=BOOK, show_hands=True)
    out = analysis.to_json()
    assert out["show_hands"] is True
    truth = _hands_at_round_ends(play)
    assert every_hand(record) == truth
    for call in out["calls"]:
        hands = truth[call["round"]]
        assert call["hands"] == [list(h) for h in hands]
        palifico = next(p.palifico for p in play.final.past if p.round == call["round"])
        bid = Bid(call["bid_info"]["quantity"], call["bid_info"]["face"])
        assert call["true_count"] == sum(
            count_hand(record.rules, h, bid.face, palifico) for h in hands
        )
        # The challenge's outcome agrees with every die known (P-20): a dudo's bid held iff
        # the true count reaches it; a calza worked iff it is exact (P-50).
        if call["kind"] == "dudo":
            assert call["worked"] == (call["true_count"] < bid.quantity)
        else:
            assert call["worked"] == (call["true_count"] == bid.quantity)
    # During play, at any moment: refused, whoever asks.
    cut = data.draw(st.integers(0, len(play.steps) - 1))
    during = GameRecord.from_state(play.steps[cut].before)
    with pytest.raises(ValueError, match="once the game is over"):
        every_hand(during)
    with pytest.raises(ValueError, match="once the game is over"):
        analyze(during, viewer, rollouts=0, chart_games=0, book=BOOK, show_hands=True)
