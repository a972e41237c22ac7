"""``learned``: regret matching over a learned action-value network (``expert``'s play where
no solved equilibrium applies).

The network is trained by ``perudo train`` (:mod:`perudo.train`): self-play of single rounds
of every preset at 2–10 seats and every dice count, where each decision's chosen action and
the state itself are scored by the round's outcome (advantage-based regret minimization, a
member of the CFR family for sampled play: Jin, Keutzer & Levine 2018). At play time it runs
in numpy; PyTorch is needed only to train.

**Encoding.** A decision is a set of *candidates* — per face the smallest legal raise and one
above it (as ``balanced`` considers them), dudo, calza, and every other legal action (pass,
set aside, the P-34 choice) — each a row of :data:`FEATURES`: the state's features (seats,
dice in play, own dice, palifico, wilds, the standing bid's exact chances from this seat's
view) and the candidate's (its kind, its exact chance of being true from the seat's own dice,
with the other seats' latest bids leaning their counts, and as a stranger with every die
unseen, how far it jumps, how many of its dice the seat holds). Every feature is a chance or a
ratio, so every rule set and table size maps onto the same inputs: the wild rules, palifico
(P-31), shown dice (V-9) and straights (V-11) enter through
:func:`~perudo.bots.probability.count_distribution`, which knows them all. One extra row with
every candidate feature zero (kind *none*) asks the network for the state's own value.

**Policy.** ``Q`` for every candidate and ``V`` for the state in one forward pass; the policy
is regret matching, ``π(a) ∝ max(Q(a) − V, 0)``; where no candidate beats ``V`` it is a
softmax of ``Q`` (temperature :data:`TEMPERATURE`). Actions under ``floor`` are dropped.
Out-of-turn calza (P-50) is ``balanced``'s rule. Only the seat's view is read (P-70).

**Weights** ship as ``weights/learned.npz`` beside this module with a manifest
(``weights/learned.json``: version, feature count, SHA-256 of the ``.npz``), checked on load:
:func:`load_weights` refuses a file whose hash or feature count does not match.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from perudo.core import Bid, Calza, Dudo, PlayerAction, PlayerView

from .balanced_bot import BalancedBot
from .prob_bot import softmax
from .probability import binomial_tail, count_distribution, match_chance, tail_of

__all__ = [
    "FEATURES",
    "WEIGHTS_DIR",
    "LearnedBot",
    "Network",
    "encode",
    "load_weights",
    "regret_matching",
]

Array = npt.NDArray[np.float64]

FEATURES: tuple[str, ...] = (
    # the state
    "seats_alive/10",
    "dice_in_play/30",
    "own_dice/5",
    "own_share",
    "bids_this_round/10",
    "palifico",
    "wilds_active",
    "heads_up",
    "bid_standing",
    "standing_true_own",
    "standing_true_leaned",
    "standing_exact_leaned",
    "standing_quantity/dice",
    "calza_allowed",
    "pass_standing",
    # the candidate
    "kind_none",
    "kind_bid",
    "kind_dudo",
    "kind_calza",
    "kind_other",
    "true_own",
    "true_leaned",
    "true_stranger",
    "jump/2",
    "quantity/dice",
    "own_fit_share",
    "same_face",
    "wild_face_bid",
    "exact_leaned",
    "utility",
)
"""The network's inputs, in order (the manifest records their number)."""

_STATE = 15
TEMPERATURE = 0.05
"""Softmax temperature where no candidate's value beats the state's."""

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
"""Where the shipped weights lie (``learned.npz`` and its manifest ``learned.json``)."""


@dataclass(frozen=True)
class Network:
    """A multilayer perceptron in numpy: ReLU hidden layers, one linear output."""

    layers: tuple[tuple[Array, Array], ...]
    """``(W, b)`` per layer, ``W`` of shape ``(inputs, outputs)``."""
    version: str = "untrained"

    def __call__(self, x: Array) -> Array:
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h[:, 0]

    @property
    def parameters(self) -> int:
        return sum(w.size + b.size for w, b in self.layers)

    def save(self, path: Path) -> str:
        """Write the ``.npz`` and its manifest (``.json`` beside it); returns the SHA-256."""
        arrays: dict[str, Array] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        manifest = {
            "version": self.version,
            "features": len(FEATURES),
            "layers": len(self.layers),
            "parameters": self.parameters,
            "sha256": digest,
        }
        path.with_suffix(".json").write_text(json.dumps(manifest, indent=2) + "\n")
        return digest


def load_weights(path: Path | None = None) -> Network:
    """The network in ``path`` (default: the shipped weights), checked against its manifest.

    :raises ValueError: if the file's SHA-256 or feature count differs from the manifest's.
    """
    npz = path if path is not None else WEIGHTS_DIR / "learned.npz"
    manifest = json.loads(npz.with_suffix(".json").read_text())
    digest = hashlib.sha256(npz.read_bytes()).hexdigest()
    if digest != manifest["sha256"]:
        raise ValueError(
            f"{npz}: SHA-256 {digest} does not match its manifest's {manifest['sha256']}"
        )
    if manifest["features"] != len(FEATURES):
        raise ValueError(
            f"{npz}: trained on {manifest['features']} features, this code has {len(FEATURES)}"
        )
    with np.load(npz) as data:
        layers = tuple(
            (data[f"w{i}"].astype(np.float64), data[f"b{i}"].astype(np.float64))
            for i in range(int(manifest["layers"]))
        )
    if layers[0][0].shape[0] != len(FEATURES):
        raise ValueError(f"{npz}: first layer takes {layers[0][0].shape[0]} inputs")
    return Network(layers, str(manifest["version"]))


_SHIPPED: Network | None = None
_SHIPPED_LOCK = threading.Lock()


def shipped() -> Network:
    """The shipped network, loaded (and checked) once per process."""
    global _SHIPPED
    with _SHIPPED_LOCK:
        if _SHIPPED is None:
            _SHIPPED = load_weights()
        return _SHIPPED


def regret_matching(q: Array, v: float, temperature: float = TEMPERATURE) -> Array:
    """``π ∝ max(q − v, 0)``; a softmax of ``q`` where no entry beats ``v``."""
    regret: Array = np.maximum(q - v, 0.0)
    total = float(regret.sum())
    if total > 1e-9:
        return regret / total
    z: Array = np.exp((q - q.max()) / temperature)
    return z / float(z.sum())


def encode(bot: BalancedBot, view: PlayerView) -> tuple[list[PlayerAction], Array]:
    """The candidates of ``view`` (the seat to act's) and their feature rows; the last row is
    the state's own (kind *none*)."""
    rules = view.rules
    seat = view.seat
    assert seat is not None
    total = max(1, view.total_dice)
    own = view.dice_counts[seat]
    wild = None if view.palifico else rules.wild_face
    lowest: dict[int, int] = {}
    for action in view.legal:
        if isinstance(action, Bid) and action.quantity < lowest.get(action.face, 1 << 30):
            lowest[action.face] = action.quantity
    # Only the candidates are valued (a raise more than one above the lowest is not one).
    legal = tuple(
        a for a in view.legal if not isinstance(a, Bid) or a.quantity - lowest[a.face] <= 1
    )
    if legal != view.legal:
        view = dataclasses.replace(view, legal=legal)
    utilities = bot.utilities(view)
    pmfs: dict[int, Sequence[float]] = {}
    tails: dict[int, tuple[float, ...]] = {}
    own_tails: dict[int, tuple[float, ...]] = {}

    def leaned(face: int) -> Sequence[float]:
        pmf = pmfs.get(face)
        if pmf is None:
            pmf = pmfs[face] = bot.count_pmf(view, face)
        return pmf

    def tail_leaned(bid: Bid) -> float:
        t = tails.get(bid.face)
        if t is None:
            t = tails[bid.face] = tail_of(leaned(bid.face))
        return t[bid.quantity] if bid.quantity < len(t) else 0.0

    def tail_own(bid: Bid) -> float:
        t = own_tails.get(bid.face)
        if t is None:
            t = own_tails[bid.face] = tail_of(count_distribution(view, bid.face))
        return t[bid.quantity] if bid.quantity < len(t) else 0.0

    bids_so_far = sum(1 for _, a in view.actions if isinstance(a, Bid))
    alive = sum(1 for c in view.dice_counts if c)
    state = [0.0] * _STATE
    state[0] = alive / 10.0
    state[1] = view.total_dice / 30.0
    state[2] = own / 5.0
    state[3] = own / total
    state[4] = min(bids_so_far, 20) / 10.0
    state[5] = float(view.palifico)
    state[6] = float(wild is not None)
    state[7] = float(alive == 2)
    standing = view.bid
    if standing is not None:
        state[8] = 1.0
        state[9] = tail_own(standing)
        state[10] = tail_leaned(standing)
        pmf = leaned(standing.face)
        state[11] = pmf[standing.quantity] if standing.quantity < len(pmf) else 0.0
        state[12] = standing.quantity / total
    state[13] = float(rules.calza != "off")
    state[14] = float(view.passer is not None)

    width = len(FEATURES) - _STATE
    candidates: list[PlayerAction] = []
    rows: list[list[float]] = []
    for action, utility in utilities.items():
        row = [0.0] * width
        if isinstance(action, Bid):
            q = action.quantity
            pmf = leaned(action.face)
            row[1] = 1.0
            row[5] = tail_own(action)
            row[6] = tail_leaned(action)
            p = match_chance(rules, action.face, view.palifico)
            row[7] = binomial_tail(view.total_dice, p)[q] if q <= view.total_dice else 0.0
            row[8] = (q - lowest[action.face]) / 2.0
            row[9] = q / total
            fits = sum(1 for d in view.hand if d == action.face or (wild is not None and d == wild))
            row[10] = fits / max(1, len(view.hand))
            row[11] = float(standing is not None and standing.face == action.face)
            row[12] = float(wild is not None and action.face == wild)
            row[13] = pmf[q] if q < len(pmf) else 0.0
        elif isinstance(action, Dudo):
            row[2] = 1.0
            row[5] = 1.0 - state[9] if standing is not None else utility
            row[6] = 1.0 - state[10] if standing is not None else utility
        elif isinstance(action, Calza):
            row[3] = 1.0
            row[13] = state[11]
        else:
            row[4] = 1.0
        row[14] = utility
        candidates.append(action)
        rows.append(state + row)
    none_row = [0.0] * width
    none_row[0] = 1.0
    rows.append(state + none_row)
    return candidates, np.array(rows)


class LearnedBot(BalancedBot):
    """Regret matching over the network's action values; see the module docstring."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        *,
        network: Network | None = None,
        floor: float = 1e-3,
        name: str | None = None,
    ) -> None:
        super().__init__(seed, name=name)
        self.network = network if network is not None else shipped()
        self.floor = floor
        self._memo_view: PlayerView | None = None
        self._memo: dict[int, Sequence[float]] = {}

    def count_pmf(self, view: PlayerView, face: int) -> Sequence[float]:
        """``balanced``'s leaned count, kept for the view being decided (the utilities and
        the encoding ask for the same faces)."""
        if view is not self._memo_view:
            self._memo_view = view
            self._memo = {}
        pmf = self._memo.get(face)
        if pmf is None:
            pmf = self._memo[face] = super().count_pmf(view, face)
        return pmf

    def __deepcopy__(self, memo: dict[int, object]) -> LearnedBot:
        # The network is read-only and shared; only the generator is the bot's own state.
        clone = LearnedBot(network=self.network, floor=self.floor, name=self.name)
        clone.rng.setstate(self.rng.getstate())
        return clone

    def policy(self, view: PlayerView) -> dict[PlayerAction, float]:
        """The probability of each action it may take (regret matching over the values)."""
        candidates, x = encode(self, view)
        if len(candidates) == 1:
            return {candidates[0]: 1.0}
        out = self.network(x)
        probs = regret_matching(out[:-1], float(out[-1]))
        kept = {a: float(p) for a, p in zip(candidates, probs, strict=True) if p >= self.floor}
        if not kept:
            return softmax({a: float(q) for a, q in zip(candidates, out, strict=False)}, 0.0)
        norm = math.fsum(kept.values())
        return {a: p / norm for a, p in kept.items()}
