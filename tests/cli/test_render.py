"""Drawing the game (perudo.cli.tui.render): options, dice, the table, the P-21 reveal."""

from __future__ import annotations

import dataclasses
import io

import pytest
from rich.cells import cell_len
from rich.console import Console, Group

from perudo import (
    BLUFF,
    PERUDO,
    PERUDO_CALZA,
    Bid,
    Deal,
    Dudo,
    RoundResolved,
    apply,
    start_game,
    start_round,
    view,
)
from perudo.cli.tui.hint import chance
from perudo.cli.tui.render import Painter, die_lines
from perudo.i18n import LANGS, load_catalog

EN = load_catalog("en")


def _painter(rules=PERUDO, n=3, *, lang="en", me=0):
    cat = load_catalog(lang)
    names = [cat.t("seat.bot", n=s) for s in range(n)]
    names[0] = cat.t("seat.you")
    return Painter(cat, rules, names, me=me)


def _resolved(events) -> RoundResolved:
    return next(e for e in events if isinstance(e, RoundResolved))


def _text(renderable, width=80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def test_opening_options_list_the_lowest_bid_per_face_and_no_aces_p10():
    state = start_round(PERUDO, [[1, 2, 3], [4, 5], [6, 6]])
    text = _text(_painter().options(view(state, 0)))
    assert "You may: bid 1x2 1x3 1x4 1x5 1x6 or higher" in text
    assert "aces" not in text and "dudo" not in text


def test_options_after_a_bid_show_the_minimum_raise_per_face_aces_and_dudo_p12_p13():
    state = start_round(PERUDO, [[1, 2, 3, 4, 5], [4, 5, 6, 6, 6], [2, 2, 3, 3, 3]], opener=2)
    state, _ = apply(state, Bid(3, 5))
    text = _text(_painter().options(view(state, 0)))
    assert "bid 4x2 4x3 4x4 4x5 3x6 or higher · aces 2x1 or higher · dudo" in text


def test_options_after_aces_need_twice_plus_one_p14():
    state = start_round(PERUDO, [[1, 2, 3, 4, 5], [4, 5, 6, 6, 6], [2, 2, 3, 3, 3]], opener=1)
    state, _ = apply(state, Bid(8, 3))
    state, _ = apply(state, Bid(4, 1))
    text = _text(_painter().options(view(state, 0)))
    assert "bid 9x2 9x3 9x4 9x5 9x6 or higher · aces 5x1 or higher · dudo" in text


def test_options_when_no_higher_bid_exists_p16():
    state = start_round(PERUDO, [[1], [2]], opener=1)
    state, _ = apply(state, Bid(2, 6))
    state, _ = apply(state, Bid(2, 1))
    text = _text(_painter(n=2).options(view(state, 1)))
    assert "no higher bid exists · dudo" in text


def test_palifico_options_keep_the_face_unless_one_die_p32_p33():
    hands = [[2, 3], [5], [4, 4]]
    state = start_round(PERUDO, hands, opener=1, palifico=True)
    state, _ = apply(state, Bid(1, 5))  # seat 1 (one die) opens on 5s
    state, _ = apply(state, Bid(2, 5))  # seat 2
    locked = _painter().status(view(state, 0), None)
    text = " ".join(_text(locked).split())
    assert "bid 3x5 or higher · dudo" in text
    assert "Palifico: the face stays 5" in text
    assert "Palifico: aces are not wild this round" in text
    one_die = start_round(PERUDO, [[2], [5, 5], [4, 4]], opener=1, palifico=False)
    one_die = start_round(PERUDO, [[2], [5], [4, 4]], opener=1, palifico=True)
    one_die, _ = apply(one_die, Bid(1, 5))
    one_die, _ = apply(one_die, Bid(2, 5))
    text = _text(_painter().options(view(one_die, 0)))
    assert "bid 3x1 3x2 3x3 3x4 3x5 2x6 or higher · dudo" in text


def test_calza_and_set_aside_and_pass_are_offered_where_the_rules_have_them():
    to_act = dataclasses.replace(PERUDO_CALZA, calza="to_act", passing=True)
    state = start_round(to_act, [[1, 2, 3, 4, 5], [6, 6], [2, 2]], opener=1)
    state, _ = apply(state, Bid(2, 6))
    text = _text(_painter(to_act).options(view(state, 2)))
    assert "· dudo · calza · pass" in " ".join(text.split())
    raised, _ = apply(state, Bid(3, 6))
    text = _text(_painter(to_act).options(view(raised, 0)))
    assert "dudo · calza · pass" in " ".join(text.split())
    bluff = start_round(BLUFF, [[1, 2, 3], [6, 6]], opener=1)
    bluff, _ = apply(bluff, Bid(2, 6))
    text = _text(_painter(BLUFF, 2).options(view(bluff, 0)))
    text = " ".join(text.split())
    assert "bid 4x1 4x2 4x3 4x4 4x5 or higher · 6★ 3x6 or higher · dudo" in text
    assert "aside + dice to show, e.g. aside 55" in text


def test_the_two_player_choice_is_offered_p34():
    rules = dataclasses.replace(PERUDO, dice_per_player=2)
    state = start_game(rules, 2, [(1, 6)])
    state, _ = apply(state, Deal(((2, 3), (5, 5))))
    state, _ = apply(state, Bid(1, 5))
    state, _ = apply(state, Dudo())
    text = _text(_painter(rules, 2).options(view(state, 0)))
    assert "You may: palifico · normal" in text


@pytest.mark.parametrize("face", range(1, 10))
def test_every_face_is_a_seven_by_five_die(face):
    for ascii_only in (False, True):
        lines = die_lines(face, ascii_only=ascii_only)
        assert len(lines) == 5 and all(cell_len(line) == 7 for line in lines)
        pip = "o" if ascii_only else "●"
        assert sum(line.count(pip) for line in lines) == face


def test_a_hand_marks_wild_aces_and_fits_80_columns_even_with_ten_dice():
    rules = dataclasses.replace(PERUDO, dice_per_player=10)
    painter = Painter(EN, rules, ["You", "Bot 1"], me=0)
    text = _text(painter.hand([1, 1, 2, 3, 4, 5, 6, 6, 6, 6], palifico=False))
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    assert text.count("1★") == 2 and "★ = aces: wild" in text
    text = _text(painter.hand([1, 2], palifico=True))
    assert "★" not in text and "aces are not wild this round" in text


def test_memory_mode_hides_other_seats_dice_counts_p40():
    state = start_round(PERUDO, [[1, 2, 3], [4, 5], [6]])
    shown = _text(_painter().seats(view(state, 0)))
    hidden = _text(_painter().seats(view(state, 0, memory=True)))
    assert "●●● 3" in shown and "●● 2" in shown and "● 1" in shown
    assert "●●● 3" in hidden and "●● 2" not in hidden and "● 1" not in hidden
    assert hidden.count("?") == 2


def test_the_reveal_lists_who_revealed_in_order_and_who_kept_dice_hidden_p21():
    # Seat 2 calls dudo on seat 1's 2x5; the reveal starts at seat 0 (left of 2): 5 5 proves it.
    state = start_round(PERUDO, [[5, 5, 2], [3, 4], [6, 6]], opener=1)
    state, _ = apply(state, Bid(2, 5))
    state, events = apply(state, Dudo())
    result = _resolved(events)
    text = _text(Group(*_painter().resolution(result, state.dice_counts)))
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert lines[0] == "Checking 2 × 5 (bid: Bot 1 · dudo: Bot 2)"
    assert lines[1] == "You 2 5* 5* 2 count · running 2"
    assert "Kept hidden, never shown: Bot 1, Bot 2" in lines
    assert "2 found: the bid 2 × 5 holds." in lines
    assert "Bot 2: −1 die (1 left)" in lines
    assert "Next round's opener: Bot 2." in lines


def test_an_elimination_and_memory_mode_in_the_reveal_p23():
    state = start_round(PERUDO, [[2, 2], [3]], opener=0)
    state, _ = apply(state, Bid(3, 2))
    state, events = apply(state, Dudo())
    seen = view(state, 0, memory=True).counts_seen
    text = _text(Group(*_painter(n=2).resolution(_resolved(events), seen)))
    assert "You: −1 die (1 left)" in text
    state = start_round(PERUDO, [[2, 2], [3]], opener=1)
    state, _ = apply(state, Bid(2, 3))
    state, events = apply(state, Dudo())
    seen = view(state, 0, memory=True).counts_seen
    text = _text(Group(*_painter(n=2).resolution(_resolved(events), seen)))
    assert "Bot 1 is out of the game." in text
    # Memory mode: no count left for another seat still in (P-40).
    state = start_round(PERUDO, [[2, 2], [3, 3], [4]], opener=1)
    state, _ = apply(state, Bid(3, 3))
    state, events = apply(state, Dudo())
    seen = view(state, 0, memory=True).counts_seen
    text = _text(Group(*_painter().resolution(_resolved(events), seen)))
    assert "Bot 1: −1 die\n" in text
    plain = _text(Group(*_painter().resolution(_resolved(events), state.dice_counts)))
    assert "Bot 1: −1 die (1 left)" in plain


def test_the_hint_is_the_exact_chance_from_the_persons_view():
    state = start_round(PERUDO, [[1, 5, 2], [3, 4], [6, 6]], opener=1)
    state, _ = apply(state, Bid(3, 5))
    v = view(state, 2)
    odds = chance(v, Bid(3, 5))
    # Seat 2 sees no 5s; 5 unseen dice, each a 5 or an ace with chance 1/3.
    from math import comb

    exact = sum(comb(5, k) * (1 / 3) ** k * (2 / 3) ** (5 - k) for k in range(3, 6))
    assert odds.at_least == pytest.approx(exact)
    assert odds.expected == pytest.approx(5 / 3)
    assert (odds.mine, odds.unseen) == (0, 5)
    text = _text(_painter().hint(odds))
    assert f"Chance it is true: {100 * exact:.1f}%" in text


@pytest.mark.parametrize("lang", LANGS)
def test_bids_and_actions_in_each_language(lang):
    painter = _painter(lang=lang)
    aces = {"en": "3 aces", "ko": "조커 3개", "it": "3 teste d'Azteco"}[lang]
    assert painter.bid(Bid(3, 1)) == aces
    assert painter.bid(Bid(4, 6)) == "4 × 6"
    dudo = {"en": "dudo!", "ko": "두도!", "it": "dubito!"}[lang]
    assert painter.action(Dudo()) == dudo
