"""Mixed play from three seats up (perudo.bots.mixing): the shipped fit is hash-checked, the
mixture is a distribution over legal actions around strong's choice, heads-up stays pure, and the
opening bluff is the weakest-face opening (P-12 openings, P-70 views)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo.bots.deviations import weakest_face_opening
from perudo.bots.mixing import (
    BLUFF_FLOOR,
    MIXED_PATH,
    MixedPlay,
    doubt_chance,
    load_mixed_play,
    mixed_policy,
    save_mixed_play,
)
from perudo.bots.strong_bot import StrongBot, StrongSettings
from perudo.core import PERUDO, Bid, Dudo, apply, start_round, view
from perudo.solve.expert import mixed_expert, robust_strong
from perudo.testing import check_bot

FOUR = [[2, 2, 2, 5, 6], [1, 3, 4, 4, 6], [2, 3, 3, 5, 5], [1, 1, 4, 6, 6]]
PLAY = MixedPlay(
    opening_bluff=0.4, call_temperature=0.1, call_shift=0.02, call_window=0.25, reading_prior=0.1
)


def test_the_shipped_fit_loads_and_a_changed_file_is_refused(tmp_path: Path) -> None:
    load_mixed_play()  # hash-checked against its manifest
    copy = tmp_path / MIXED_PATH.name
    shutil.copy(MIXED_PATH, copy)
    shutil.copy(MIXED_PATH.with_name("mixed-play.manifest.json"), tmp_path)
    assert load_mixed_play(copy) == load_mixed_play()
    data = json.loads(copy.read_text())
    data["opening_bluff"] = 1.0
    copy.write_text(json.dumps(data, indent=2) + "\n")
    with pytest.raises(ValueError, match="SHA-256"):
        load_mixed_play(copy)


def test_a_saved_fit_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "fit.json"
    save_mixed_play(PLAY, path, {"command": "test"})
    assert load_mixed_play(path) == PLAY


@pytest.mark.parametrize(
    "bad",
    [
        {"opening_bluff": 1.5},
        {"call_temperature": -0.1},
        {"reading_prior": 1.0},
        {"call_shift": 2.0},
        {"call_window": -0.1},
        {"min_seats": 2},
    ],
)
def test_numbers_out_of_range_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        MixedPlay(**bad)  # type: ignore[arg-type]


@given(
    st.floats(-2.0, 2.0),
    st.floats(-2.0, 2.0),
    st.floats(0.0, 1.0),
    st.floats(-0.5, 0.5),
)
def test_the_doubt_chance_is_a_chance_and_grows_with_the_dudos_value(a, b, tau, shift):
    play = MixedPlay(call_temperature=tau, call_shift=shift, call_window=0.3)
    pa, pb = doubt_chance(a, play), doubt_chance(b, play)
    assert 0.0 <= pa <= 1.0
    if a <= b:
        assert pa <= pb
    if abs(a - shift) >= 0.3:  # outside the window: strong's step at c
        assert pa == (1.0 if a > shift else 0.0)


def test_the_opening_mixes_the_chosen_bid_with_the_weakest_face() -> None:
    state = start_round(
        PERUDO, [[2, 2, 2, 5, 6], [1, 3, 4, 4, 6], [2, 3, 3, 5, 5], [1, 1, 4, 6, 6]]
    )
    v = view(state, 0)
    bot = StrongBot(1, settings=StrongSettings(mixing=PLAY))
    values = bot.values(v)
    best = bot.best_action(v, values)
    policy = mixed_policy(v, values, best, PLAY)
    bluff = weakest_face_opening(v, best, BLUFF_FLOOR)
    assert bluff != best
    assert policy == {a: p for a, p in policy.items() if a in v.legal}
    assert policy[best] == pytest.approx(1 - PLAY.opening_bluff)
    assert policy[bluff] == pytest.approx(PLAY.opening_bluff)
    assert sum(policy.values()) == pytest.approx(1.0)


def test_a_call_mixes_dudo_with_the_best_raise() -> None:
    state = start_round(
        PERUDO, [[2, 2, 2, 5, 6], [1, 3, 4, 4, 6], [2, 3, 3, 5, 5], [1, 1, 4, 6, 6]]
    )
    state, _ = apply(state, Bid(6, 3))
    v = view(state, 1)
    mixing = MixedPlay(call_temperature=5.0, call_window=0.99)
    bot = StrongBot(1, settings=StrongSettings(mixing=mixing))
    policy = bot.policy(v)
    assert Dudo() in policy and len(policy) == 2
    assert sum(policy.values()) == pytest.approx(1.0)
    assert all(isinstance(a, Bid) or a == Dudo() for a in policy)


def test_heads_up_and_without_mixing_the_choice_stays_strongs() -> None:
    heads_up = start_round(PERUDO, [[2, 2, 2, 5, 6], [1, 3, 4, 4, 6]])
    mixed = StrongBot(3, settings=StrongSettings(mixing=MixedPlay(1.0, 5.0, 0.0, 0.99)))
    plain = StrongBot(3)
    assert mixed.policy(view(heads_up, 0)) == plain.policy(view(heads_up, 0))
    four = start_round(PERUDO, FOUR)
    expert_fallback = robust_strong(3)  # expert's: no mixing unless asked
    assert expert_fallback.settings.mixing is None
    assert expert_fallback.policy(view(four, 0)) == plain.policy(view(four, 0))
    assert mixed_expert(3).fallback.settings.mixing == load_mixed_play()  # type: ignore[attr-defined]


def test_the_mixed_expert_fallback_conforms_and_replays() -> None:
    check_bot(lambda s: robust_strong(s, mixing=PLAY), PERUDO, games=1, seed=5)
    first = [robust_strong(7, mixing=PLAY).act(view(s, 0)) for s in _openings()]
    again = [robust_strong(7, mixing=PLAY).act(view(s, 0)) for s in _openings()]
    assert first == again


def _openings() -> list:  # type: ignore[type-arg]
    rng = random.Random(4)
    return [
        start_round(PERUDO, [[rng.randint(1, 6) for _ in range(5)] for _ in range(4)])
        for _ in range(6)
    ]
