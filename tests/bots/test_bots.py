"""The bots: legal on every preset and switch (check_bot), views only (P-70), and strength."""

from __future__ import annotations

import random

import pytest

from perudo import PERUDO, PERUDO_CALZA, Bid, Dudo, GameState, PlayerAction, PlayerView
from perudo.bots import BalancedBot, Bot, PolicyBot, ProbBot, RandomBot, StrongBot
from perudo.bots.base import BotBase
from perudo.registry import BOTS, LEVELS, bot_names, make_bot, register_bot
from perudo.sim.match import play_game
from perudo.testing import CHECK_RULESETS, check_bot


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_is_legal_on_every_preset_and_switch(name: str) -> None:
    report = check_bot(BOTS[name], games=3, seed=11)
    assert report.games == 3 * len(CHECK_RULESETS)
    assert report.peeks_checked > 0


class Illegal(BotBase):
    name = "illegal"

    def act(self, view: PlayerView) -> PlayerAction:
        return Dudo() if view.bid is None else view.legal[0]


def test_check_bot_fails_on_an_illegal_action_naming_seat_and_view() -> None:
    with pytest.raises(AssertionError, match=r"bot 'illegal' at seat \d.*not legal.*"):
        check_bot(Illegal, PERUDO, games=1)


class Peeker(BotBase):
    """Finds the game state on the call stack and doubts exactly the false bids."""

    name = "peeker"

    def act(self, view: PlayerView) -> PlayerAction:
        import sys

        frame = sys._getframe(1)
        while frame is not None:
            state = frame.f_locals.get("state")
            if isinstance(state, GameState) and view.bid is not None:
                from perudo import count_bid

                count = count_bid(state.rules, state.hands, view.bid.face, state.palifico)
                if count < view.bid.quantity:
                    return Dudo()
                break
            frame = frame.f_back  # type: ignore[assignment]
        bids = [a for a in view.legal if isinstance(a, Bid)]
        return bids[0] if bids else Dudo()


def test_check_bot_catches_a_bot_that_peeks_P70() -> None:
    with pytest.raises(AssertionError, match=r"peeks at hidden dice \(P-70\)"):
        check_bot(Peeker, PERUDO, games=6, peek_every=1)


class Spy(BotBase):
    """Wraps a bot and records the type of everything it is given."""

    def __init__(self, inner: Bot, seen: list[type]) -> None:
        super().__init__(0)
        self.inner = inner
        self.name = inner.name
        self.seen = seen

    def act(self, view: PlayerView) -> PlayerAction:
        self.seen.append(type(view))
        return self.inner.act(view)

    def call_calza(self, view: PlayerView) -> bool:
        self.seen.append(type(view))
        return self.inner.call_calza(view)


@pytest.mark.parametrize("name", ["prob", "strong"])
def test_bots_are_only_ever_given_views_P70(name: str) -> None:
    seen: list[type] = []
    bots: list[Bot] = [Spy(make_bot(name, s), seen) for s in range(4)]
    play_game(PERUDO_CALZA, bots, random.Random(4))
    assert seen and set(seen) == {PlayerView}


@pytest.mark.parametrize("factory", [RandomBot, ProbBot, BalancedBot])
def test_policies_are_distributions_over_legal_actions(factory: type[BotBase]) -> None:
    bot = factory(1)
    states = 0

    def ask(state: GameState, seat: int, b: Bot, view: PlayerView) -> PlayerAction:
        nonlocal states
        if b is bot:
            assert isinstance(bot, PolicyBot)
            policy = bot.policy(view)
            assert policy and set(policy) <= set(view.legal)
            assert sum(policy.values()) == pytest.approx(1.0)
            assert all(p > 0 for p in policy.values())
            states += 1
        return b.act(view)

    for seed in range(3):
        bots: list[Bot] = [bot, RandomBot(seed), RandomBot(seed + 9)]
        play_game(PERUDO_CALZA, bots, random.Random(seed), ask=ask)
    assert states > 10


def test_strong_policy_is_its_choice() -> None:
    bot = StrongBot(3)
    game_rng = random.Random(8)
    from perudo import new_game, view

    state = new_game(PERUDO, 3, game_rng)
    v = view(state, state.to_act)
    assert bot.policy(v) == {bot.act(v): 1.0}


def play_duel(a: str, b: str, games: int) -> int:
    """Games won by ``a`` against ``b`` heads-up, seats alternating."""
    wins = 0
    for g in range(games):
        bots = [make_bot(a, g), make_bot(b, 1000 + g)]
        if g % 2:
            bots.reverse()
        result = play_game(PERUDO, bots, random.Random(g))
        wins += bots[result.winner].name == make_bot(a).name
    return wins


def test_prob_beats_random_clearly() -> None:
    assert play_duel("prob", "random", 30) >= 25


def test_strong_beats_prob() -> None:
    assert play_duel("strong", "prob", 30) >= 17


def test_same_seed_same_decisions() -> None:
    for name in ("prob", "strong", "random"):
        a = play_game(PERUDO_CALZA, [make_bot(name, s) for s in range(4)], random.Random(2))
        b = play_game(PERUDO_CALZA, [make_bot(name, s) for s in range(4)], random.Random(2))
        assert a.record == b.record, name


def test_levels_and_registry() -> None:
    assert {"easy", "medium", "hard"} <= set(LEVELS)
    assert make_bot("hard", 1).name == "anchored"
    assert make_bot("Medium", 1).name == "prob"
    assert make_bot("easy", 1).name == "noisy"
    assert {"random", "prob", "strong"} <= set(bot_names())
    with pytest.raises(ValueError, match="unknown bot 'nobody'; known: easy"):
        make_bot("nobody")
    register_bot("test-cautious", lambda seed: ProbBot(seed, name="test-cautious"), level="test")
    try:
        assert make_bot("test", 2).name == "test-cautious"
        with pytest.raises(ValueError, match="is empty or a level"):
            register_bot("hard", RandomBot)
    finally:
        BOTS.pop("test-cautious")
        LEVELS.pop("test")


def _choice_due() -> GameState:
    """Two players; seat 0 drops to one die for the first time and opens next (P-34)."""
    from perudo import apply, start_round

    state = start_round(PERUDO, [[2, 3], [4, 5, 6]], opener=0)
    state, _ = apply(state, Bid(4, 6))
    state, _ = apply(state, Dudo())
    return state


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_makes_the_two_player_palifico_choice_P34(name: str) -> None:
    from perudo import ChoosePalifico, Phase, view

    state = _choice_due()
    assert state.phase is Phase.CHOOSE_PALIFICO
    v = view(state, 0)
    action = make_bot(name, 1).act(v)
    assert isinstance(action, ChoosePalifico) and action in v.legal


def test_prob_calls_calza_out_of_turn_when_exact_is_likely_enough_P50() -> None:
    from perudo import apply, start_round, view

    # Seat 2 holds four dice that count toward 3s; the two dice it cannot see must both miss
    # for 4x3 to be exact: (2/3)² = 4/9.
    state = start_round(PERUDO_CALZA, [[2], [4], [1, 3, 3, 3]], opener=0)
    state, _ = apply(state, Bid(4, 3))
    v = view(state, 2)
    assert ProbBot(0).calza_chance(v) == pytest.approx(4 / 9)
    assert ProbBot(0, calza_threshold=0.4).call_calza(v) is True
    assert ProbBot(0, calza_threshold=0.5).call_calza(v) is False
    assert ProbBot(0).call_calza(view(state, 1)) is False  # seat 1 is to act: not out of turn
    assert isinstance(StrongBot(0).call_calza(v), bool)


def test_a_reused_strong_bot_reads_each_game_afresh() -> None:
    # One instance across games: its beliefs must not carry over from a game whose first
    # round looked alike (same round number, same dice counts).
    bot = StrongBot(5)
    fresh_choices = []
    reused_choices = []

    def ask_reused(state: GameState, seat: int, b: Bot, view: PlayerView) -> PlayerAction:
        if b is bot:
            fresh = StrongBot(5)
            fresh_choices.append(fresh.act(view))
            reused_choices.append(bot.act(view))
            return reused_choices[-1]
        return b.act(view)

    for seed in range(3):
        play_game(PERUDO, [bot, ProbBot(seed)], random.Random(seed), ask=ask_reused)
    assert fresh_choices == reused_choices
