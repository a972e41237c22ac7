"""``learned``: the shipped weights (hash, version, features), the encoding, regret matching,
and legal, unpeeking play on every preset (P-70)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo import PERUDO, PERUDO_CALZA, Bid, apply, start_round, view
from perudo.bots.learned_bot import (
    FEATURES,
    WEIGHTS_DIR,
    LearnedBot,
    Network,
    encode,
    load_weights,
    regret_matching,
)
from perudo.testing import check_bot


def test_shipped_weights_load_and_match_their_hash() -> None:
    manifest = json.loads((WEIGHTS_DIR / "learned.json").read_text())
    net = load_weights()
    assert net.version == manifest["version"]
    assert net.parameters == manifest["parameters"]
    assert net.layers[0][0].shape[0] == len(FEATURES)
    assert (WEIGHTS_DIR / "learned.npz").stat().st_size < 4_000_000  # ships in the package


def test_weights_with_a_wrong_hash_are_refused(tmp_path: Path) -> None:
    for suffix in (".npz", ".json"):
        shutil.copyfile(WEIGHTS_DIR / f"learned{suffix}", tmp_path / f"learned{suffix}")
    manifest = json.loads((tmp_path / "learned.json").read_text())
    manifest["sha256"] = "0" * 64
    (tmp_path / "learned.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="SHA-256"):
        load_weights(tmp_path / "learned.npz")


def test_a_saved_network_loads_back_identically(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    f = len(FEATURES)
    net = Network(
        (
            (rng.normal(size=(f, 8)), rng.normal(size=8)),
            (rng.normal(size=(8, 1)), rng.normal(size=1)),
        ),
        "t",
    )
    net.save(tmp_path / "n.npz")
    back = load_weights(tmp_path / "n.npz")
    x = rng.normal(size=(5, f))
    assert back(x) == pytest.approx(net(x), rel=1e-5, abs=1e-5)  # stored as float32


@given(
    st.lists(st.floats(-2, 2), min_size=1, max_size=12),
    st.floats(-2, 2),
)
def test_regret_matching_is_a_distribution_on_positive_regrets(q: list[float], v: float) -> None:
    pi = regret_matching(np.array(q), v)
    assert pi.sum() == pytest.approx(1.0)
    assert (pi >= 0).all()
    if max(q) - v > 1e-6:
        # only actions better than the state's value get weight, in proportion to the regret
        for qi, p in zip(q, pi, strict=True):
            if qi <= v:
                assert p == 0.0


def test_encoding_has_one_row_per_candidate_and_the_state_row_last() -> None:
    state = start_round(PERUDO, [[2, 2, 5], [3, 1], [6, 6]], opener=0)
    state, _ = apply(state, Bid(2, 2))
    v = view(state, 1)
    candidates, x = encode(LearnedBot(0), v)
    assert x.shape == (len(candidates) + 1, len(FEATURES))
    assert set(candidates) <= set(v.legal)
    none = FEATURES.index("kind_none")
    assert x[-1, none] == 1.0 and (x[:-1, none] == 0.0).all()
    # the state's features are the same on every row
    assert (x[:, :15] == x[-1, :15]).all()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_policy_is_a_distribution_over_legal_actions(seed: int) -> None:
    import random

    rng = random.Random(seed)
    n = rng.randint(2, 6)
    hands = [[rng.randint(1, 6) for _ in range(rng.randint(1, 5))] for _ in range(n)]
    state = start_round(PERUDO_CALZA, hands, opener=rng.randrange(n))
    bot = LearnedBot(seed)
    for _ in range(rng.randint(0, 4)):
        v = view(state, state.to_act)
        state, _ = apply(state, bot.act(v))
        if state.to_act is None or state.round != 1:
            return
    pol = bot.policy(view(state, state.to_act))
    assert sum(pol.values()) == pytest.approx(1.0)
    assert set(pol) <= set(view(state, state.to_act).legal)


def test_learned_bot_plays_every_preset_legally_without_peeking() -> None:
    check_bot(LearnedBot, games=1, seed=5)
