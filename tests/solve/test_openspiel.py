"""Against OpenSpiel's own ``liars_dice`` (one die each): same value, same information states.

Skipped where ``pyspiel`` (pip package ``open_spiel``) is not installed.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402

from perudo import LIARS_DICE_OPENSPIEL  # noqa: E402
from perudo.solve import RoundGame, solve_round  # noqa: E402


@pytest.fixture(scope="module")
def solved():
    return solve_round(RoundGame(LIARS_DICE_OPENSPIEL, (1, 1)), method="lp")


@pytest.fixture(scope="module")
def liars_dice():
    """OpenSpiel's ``liars_dice`` and a tabular policy over it (its 24,576 information states,
    about 4 s to build: made once for the module)."""
    game = pyspiel.load_game("liars_dice")
    return game, os_policy.TabularPolicy(game)


def _to_openspiel(sol, tab):
    """Our strategy written into an OpenSpiel tabular policy: a bid's OpenSpiel action id is
    its rank (quantity-major, face-minor, like the core's table for these rules); 'Liar' is
    dudo. Every row is overwritten."""
    ours = sol.game
    dudo_id = ours.num_bids
    for index, state in enumerate(tab.states):
        history = state.history()
        player = state.current_player()
        die = history[player] + 1
        ranks = history[2:]
        p, node = ours.node_of(ranks)
        assert p == player
        hand = ours.hands[p].index[(die,)]
        row = tab.action_probability_array[index]
        row[:] = 0.0
        for action in state.legal_actions():
            if action == dudo_id:
                row[action] = sol.profile.dudo[p][node, hand]
            else:
                row[action] = sol.profile.raises[p][ours.edge_of(node, action), hand]
        row /= row.sum()
    return tab


def test_information_state_counts_agree(liars_dice):
    _, tab = liars_dice
    assert len(tab.state_lookup) == RoundGame(LIARS_DICE_OPENSPIEL, (1, 1)).num_infostates()
    assert len(tab.state_lookup) == 24_576


def test_our_strategy_has_the_same_value_and_no_exploitability_in_openspiel(solved, liars_dice):
    game, tab = liars_dice
    tab = _to_openspiel(solved, tab)
    joint = os_policy.python_policy_to_pyspiel_policy(tab)
    returns = pyspiel.expected_returns(game.new_initial_state(), joint, -1, True)
    assert returns[0] == pytest.approx(solved.value, abs=1e-9)
    assert returns[0] == pytest.approx(-7 / 258, abs=1e-9)
    assert pyspiel.exploitability(game, joint) < 1e-9


def test_openspiel_cfr_plus_agrees_within_its_exploitability(solved):
    game = pyspiel.load_game("liars_dice")
    cfr = pyspiel.CFRPlusSolver(game)
    for _ in range(10):
        cfr.evaluate_and_update_policy()
    avg = cfr.average_policy()
    expl = pyspiel.exploitability(game, avg)
    value = pyspiel.expected_returns(game.new_initial_state(), avg, -1, True)[0]
    assert abs(value - solved.value) <= 2 * expl + 1e-9
