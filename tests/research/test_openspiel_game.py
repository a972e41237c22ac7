"""The OpenSpiel game ``python_perudo``: random_sim_test, and CFR against OpenSpiel's liars_dice."""

from __future__ import annotations

import dataclasses

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (open_spiel) is not installed")

from perudo.core import PERUDO_CALZA, Bid  # noqa: E402
from perudo.core.encoding import encoding  # noqa: E402
from perudo.research import openspiel_game as og  # noqa: E402

CONFIGS = [
    "python_perudo(preset=liars_dice_openspiel,dice=1)",
    "python_perudo(preset=liars_dice_openspiel,dice=3)",
    "python_perudo(preset=perudo,players=2,dice=2)",
    "python_perudo(preset=perudo,players=3,dice=2,opener=2)",
    "python_perudo(preset=perudo_calza,players=4,dice=2)",
    "python_perudo(preset=liars_dice,players=3,dice=2)",
    "python_perudo(preset=bluff,players=3,dice=3)",
]


@pytest.mark.parametrize("spec", CONFIGS)
def test_random_sim_test_passes(spec: str) -> None:
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_chance_rolls_one_die_per_node_like_liars_dice() -> None:
    game = og.load("perudo", 2, 2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(f, pytest.approx(1 / 6)) for f in range(6)]
    for face in (3, 1, 5, 5):  # seat 0: 4, 2; seat 1: 6, 6
        state.apply_action(face)
    assert not state.is_chance_node() and state.current_player() == 0
    table = state.table
    assert table is not None
    assert table.state.hands == ((2, 4), (6, 6))


def test_information_state_hides_the_other_hand_p70() -> None:
    game = og.load("perudo", 2, 2)
    a, b = game.new_initial_state(), game.new_initial_state()
    for face in (3, 1, 5, 5):
        a.apply_action(face)
    for face in (3, 1, 0, 2):
        b.apply_action(face)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_reveals_are_in_the_information_state_p21() -> None:
    game = og.load("perudo", 2, 2)
    state = game.new_initial_state()
    for face in (3, 1, 5, 5):
        state.apply_action(face)
    enc = state.table.enc
    state.apply_action(enc.action_to_id(Bid(3, 6)))
    state.apply_action(enc.dudo)
    # Seat 1 calls; P-21: seat 0 reveals first (no 6, no ace), then seat 1 (two 6s): 2 < 3,
    # seat 0 loses a die (P-20) and, down to one, makes the two-player choice (P-34).
    assert state.information_state_string(0) == "p0 |r1 h24 0:3x6 1:dudo =2[0:24,1:66]"
    assert state.current_player() == 0
    assert state.legal_actions() == [enc.palifico, enc.normal]


def test_action_strings_are_the_notation() -> None:
    game = og.load("perudo_calza", 3, 2)
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "roll 1"
    enc = encoding(dataclasses.replace(PERUDO_CALZA, dice_per_player=2), 3)
    assert state.action_to_string(0, enc.dudo) == "dudo"
    assert state.action_to_string(0, enc.num_actions) == "no calza"


def test_bad_parameters_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="P-1"):
        pyspiel.load_game("python_perudo(preset=liars_dice_openspiel,players=3)")
    with pytest.raises(ValueError, match="V-2"):
        pyspiel.load_game("python_perudo(preset=liars_dice_openspiel,faces=4)")


def _cfr(game: object, iterations: int) -> tuple[float, int]:
    """OpenSpiel's C++ CFR: player 0's value of the average policy, and the information
    states the solver holds."""
    solver = pyspiel.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.tabular_average_policy()
    root = game.new_initial_state()  # type: ignore[attr-defined]
    value = float(pyspiel.expected_returns(root, average, -1, True)[0])
    return value, len(average.policy_table())


@pytest.mark.parametrize("faces", [3, 4, 5])
def test_our_liars_dice_is_openspiels_and_cfr_iterates_match_exactly(faces: int) -> None:
    """``liars_dice_openspiel`` with one die each, exported through the ``pyspiel`` API, is
    OpenSpiel's ``liars_dice`` with as many sides: the same information states and the same
    CFR iterates (the average's value equal after 20 iterations).

    Up to five faces (25,575 terminal histories): the six-face tree (147,420) took 38 s to
    export and adds no code path (faces and the wild face are parameters of the same game);
    at six faces the core's round is walked node by node against ``pyspiel``'s own
    ``liars_dice`` in ``tests/core/test_openspiel.py``."""
    ours = og.load("liars_dice_openspiel", 2, 1, faces=faces, wild=faces)
    efg, infosets = og.export_efg(ours)
    assert infosets == [faces * (2 ** (2 * faces)) // 2] * 2
    value, count = _cfr(pyspiel.load_efg_game(efg), 20)
    ref_value, ref_count = _cfr(pyspiel.load_game("liars_dice", {"dice_sides": faces}), 20)
    assert sum(infosets) == count == ref_count
    assert value == pytest.approx(ref_value, abs=1e-9)


def test_information_state_tensor_remembers_own_unrevealed_dice_p21_p70() -> None:
    """Seat 0 calls dudo and seat 1's dice prove the bid, so seat 0's hand is never shown
    (P-21): seat 0 still remembers it (perfect recall), seat 1 cannot tell the two deals apart."""
    game = og.load("perudo", 2, 2)
    worlds = []
    for own in ((1, 3), (2, 4)):  # seat 0 holds 2 and 4, or 3 and 5 (no 6, no ace)
        state = game.new_initial_state()
        for face in (*own, 5, 5):  # seat 1 holds two 6s
            state.apply_action(face)
        enc = state.table.enc
        state.apply_action(enc.action_to_id(Bid(1, 2)))
        state.apply_action(enc.action_to_id(Bid(2, 6)))
        state.apply_action(enc.dudo)
        result = state.table.state.past[-1].result
        assert [r.seat for r in result.reveals] == [1] and result.hidden == (0,)
        worlds.append(state)
    a, b = worlds
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)
    assert a.information_state_string(0) != b.information_state_string(0)
