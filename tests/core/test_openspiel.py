"""Cross-check with OpenSpiel: ``liars_dice_openspiel`` with one die each for two players is
exactly one round of OpenSpiel's ``liars_dice`` (docs/rules.md, presets; V-3 ``none``).

OpenSpiel's game has 13 actions: bid ``a`` in 0…11 is quantity ``a // 6 + 1`` of face
``a % 6 + 1``, and 12 is the challenge ("Liar"). Its ``reset-face`` bidding allows any bid of
higher rank (rank = the action id), the first player must bid, and 6 is wild when counting
while ranked as an ordinary face. The self-contained test enumerates every action sequence of
our game for all 36 deals and compares it with an independent enumeration of those rules; the
optional test walks ``pyspiel.load_game("liars_dice")`` itself, node by node.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
from collections.abc import Iterator

import pytest

from perudo.core import (
    LIARS_DICE_OPENSPIEL,
    Bid,
    Deal,
    Dudo,
    GameState,
    PlayerAction,
    apply,
    legal_actions,
    start_game,
)

ONE_DIE = dataclasses.replace(LIARS_DICE_OPENSPIEL, dice_per_player=1)
LIAR = 12
DEALS = list(itertools.product(range(1, 7), repeat=2))
# The deals walked node by node (17 of the 36: the tree is the same in every deal, only the
# winners differ): each first die against the same face, the wild six and another face.
WALKED = [(d0, d1) for d0, d1 in DEALS if d1 in (d0, 6, d0 % 5 + 1)]


def action_id(action: PlayerAction) -> int:
    if isinstance(action, Dudo):
        return LIAR
    assert isinstance(action, Bid), action
    return (action.quantity - 1) * 6 + (action.face - 1)


def id_action(a: int) -> PlayerAction:
    return Dudo() if a == LIAR else Bid(a // 6 + 1, a % 6 + 1)


def our_round(d0: int, d1: int) -> GameState:
    """A game of the preset with seat 0 opening (OpenSpiel's player 0 bids first)."""
    state = start_game(ONE_DIE, 2, [[6, 1]])  # the roll-off: seat 0 opens
    return apply(state, Deal(((d0,), (d1,))))[0]


# --- an independent statement of OpenSpiel's rules ----------------------------------------


def reference_legal(history: tuple[int, ...]) -> list[int]:
    """OpenSpiel liars_dice (2 players, 1 die, reset-face) after these actions."""
    if history and history[-1] == LIAR:
        return []
    if not history:
        return list(range(12))  # the first player must bid
    return [*range(history[-1] + 1, 12), LIAR]


def reference_winner(d0: int, d1: int, history: tuple[int, ...]) -> int:
    """The player who wins after a challenge: 6 is wild when counting."""
    bid = history[-2]
    bidder = (len(history) - 2) % 2
    quantity, face = bid // 6 + 1, bid % 6 + 1
    count = sum(1 for d in (d0, d1) if d == face or d == 6)
    return bidder if count >= quantity else 1 - bidder


def reference_histories() -> set[tuple[int, ...]]:
    out: set[tuple[int, ...]] = set()

    def walk(history: tuple[int, ...]) -> None:
        legal = reference_legal(history)
        if not legal:
            out.add(history)
        for a in legal:
            walk((*history, a))

    walk(())
    return out


# --- our game -----------------------------------------------------------------------------


def our_terminals(state: GameState) -> Iterator[tuple[tuple[int, ...], GameState]]:
    """Every (history, final state) below ``state``, checking each node against the
    reference as it goes."""
    stack: list[tuple[tuple[int, ...], GameState]] = [((), state)]
    while stack:
        history, node = stack.pop()
        if node.is_over:
            yield history, node
            continue
        legal = [action_id(a) for a in legal_actions(node)]
        assert legal == reference_legal(history), history  # same set, same order
        for a in legal:
            stack.append(((*history, a), apply(node, id_action(a))[0]))


@pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is not None,
    reason="walked with pyspiel beside it: test_pyspiel_liars_dice_matches_node_by_node",
)
def test_openspiel_preset_with_one_die_has_exactly_liars_dice_bid_sequences() -> None:
    reference = reference_histories()
    assert len(reference) == 2**12 - 1  # every increasing run of bids, then the challenge
    total = 0
    for d0, d1 in WALKED:
        seen = set()
        for history, final in our_terminals(our_round(d0, d1)):
            seen.add(history)
            assert final.winner == reference_winner(d0, d1, history), (d0, d1, history)
            assert final.round == 2  # one round: the loser of its only die is out
        assert seen == reference, (d0, d1)
        total += len(seen)
    assert total == len(WALKED) * 4095 == 17 * 4095


def test_openspiel_six_is_wild_but_ranked_as_an_ordinary_face() -> None:
    state = our_round(6, 2)
    assert [action_id(a) for a in legal_actions(state)] == list(range(12))
    final = apply(apply(state, Bid(2, 2))[0], Dudo())[0]  # the 6 counts as a 2
    assert final.winner == 0
    final = apply(apply(state, Bid(1, 6))[0], Bid(2, 5))[0]
    assert [action_id(a) for a in legal_actions(final)] == [11, LIAR]


# --- OpenSpiel itself (optional) ----------------------------------------------------------


def test_pyspiel_liars_dice_matches_node_by_node() -> None:
    """Our round, OpenSpiel's ``liars_dice`` and the reference above, walked together in
    every deal of :data:`WALKED`: every node's player, legal actions (same order) and action
    names, every terminal's returns and winner, the one round, and each deal's histories
    exactly the reference's (what
    ``test_openspiel_preset_with_one_die_has_exactly_liars_dice_bid_sequences`` checks
    without pyspiel, in one walk of our tree instead of two)."""
    pyspiel = pytest.importorskip("pyspiel")
    reference = reference_histories()
    assert len(reference) == 2**12 - 1
    game = pyspiel.load_game("liars_dice")
    params = game.get_parameters()
    assert params["players"] == 2 and params["numdice"] == 1
    assert params["bidding_rule"] == "reset-face" and params["dice_sides"] == 6
    assert game.num_distinct_actions() == 13
    terminals = 0
    root = game.new_initial_state()
    for o0, _ in root.chance_outcomes():
        dealt0 = root.child(o0)
        for o1, _ in dealt0.chance_outcomes():
            d0, d1 = o0 + 1, o1 + 1
            if (d0, d1) not in WALKED:
                continue
            spiel = dealt0.child(o1)
            stack: list[tuple[tuple[int, ...], object, GameState]] = [
                ((), spiel, our_round(d0, d1))
            ]
            seen = set()
            while stack:
                history, s, mine = stack.pop()
                if s.is_terminal():
                    assert mine.is_over
                    returns = s.returns()
                    assert returns[mine.winner] == 1.0 and returns[1 - mine.winner] == -1.0
                    assert mine.winner == reference_winner(d0, d1, history), (d0, d1, history)
                    assert mine.round == 2  # one round: the loser of its only die is out
                    seen.add(history)
                    terminals += 1
                    continue
                assert s.current_player() == mine.to_act
                legal = s.legal_actions()
                assert legal == [action_id(a) for a in legal_actions(mine)]
                assert legal == reference_legal(history), history
                for a in legal:
                    assert s.action_to_string(s.current_player(), a) == (
                        "Liar" if a == LIAR else f"{a // 6 + 1}-{a % 6 + 1}"
                    )
                    stack.append(((*history, a), s.child(a), apply(mine, id_action(a))[0]))
            assert seen == reference, (d0, d1)
    assert terminals == len(WALKED) * 4095 == 17 * 4095
