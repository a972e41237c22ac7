"""Mixed play from three seats up, at frequencies fitted by self-play (issue "An expert no one
can read", point 1).

``strong`` picks the best-valued action, so at a table of three or more it is deterministic, and
its habits can be read. :class:`MixedPlay` randomises it where an equilibrium would, at two
frequencies fitted by fictitious play (:mod:`perudo.train.mixing`, ``benchmarks/mixed_fit.py``),
never set by hand:

* **the opening bluff**: at an opening it would make on a face, with chance
  :attr:`MixedPlay.opening_bluff` it opens at the same quantity on the face it holds fewest of
  (when its own chance of that bid is at least :data:`BLUFF_FLOOR`: the
  ``weakest-face-opening`` habit of :mod:`perudo.bots.deviations`, the bluff that exploited a
  table of ``expert``\\ s). The table reads every opening with the fitted rate
  :attr:`MixedPlay.reading_prior` (the :attr:`~perudo.bots.openings.OpeningTrust.prior`): the
  maximum-likelihood opening-bluff rate of the fitted population's own openings;
* **the call**: where its best action is a dudo or a raise and both are open, it doubts with
  chance ``σ((Δ − c) / τ)``, ``Δ`` the dudo's value less the best raise's, ``c`` =
  :attr:`MixedPlay.call_shift` the indifference point measured in self-play and ``τ`` =
  :attr:`MixedPlay.call_temperature`, where ``|Δ − c|`` is under :attr:`MixedPlay.call_window`
  (the range the fit measured); elsewhere, or with ``τ`` = 0, it doubts exactly when
  ``Δ > c``, as ``strong`` does when ``c`` = 0.

With fewer than :attr:`MixedPlay.min_seats` seats holding dice it plays as ``strong`` (heads-up,
``expert`` plays the exact equilibrium or an abstraction table; elsewhere its fallback is
unchanged).

Who plays it: :func:`perudo.solve.expert.mixed_expert` (``expert`` with this fallback), not the
``expert`` level: against three ``hard`` at four seats of Perudo it won 41.0% of 800 games where
``expert`` won 45.5% (``docs/bots.md``).

The fitted numbers ship in ``weights/mixed-play.json`` beside this module, with the file's
SHA-256 in ``weights/mixed-play.manifest.json``; :func:`load_mixed_play` checks the hash as the
solver's tables are checked, and refuses a file that does not match.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perudo.core import Bid, Dudo, Phase, PlayerAction, PlayerView

from .deviations import weakest_face_opening

__all__ = [
    "BLUFF_FLOOR",
    "MIXED_FORMAT",
    "MIXED_PATH",
    "MixedPlay",
    "doubt_chance",
    "load_mixed_play",
    "mixed_policy",
    "save_mixed_play",
]

MIXED_FORMAT = "perudo-mixed-play/1"
MIXED_PATH = Path(__file__).resolve().parent / "weights" / "mixed-play.json"
"""The shipped fit; its manifest (the SHA-256) is ``mixed-play.manifest.json`` beside it."""

BLUFF_FLOOR = 0.3
"""The opening bluff is made only where the bluffer's own chance of the bid is at least this
(as the ``weakest-face-opening`` deviation)."""


@dataclass(frozen=True, slots=True)
class MixedPlay:
    """The fitted frequencies (see the module docstring)."""

    opening_bluff: float = 0.0
    """The chance of opening on the weakest face instead of the chosen one."""
    call_temperature: float = 0.0
    """``τ`` of the dudo/raise mixture, in the bot's value units (dice)."""
    call_shift: float = 0.0
    """``c``: the value difference at which the dudo and the best raise did equally well."""
    call_window: float = 0.0
    """The mixture is played only where ``|Δ − c|`` is under this (the range the fit measured);
    elsewhere the call is the step at ``c``."""
    reading_prior: float = 0.0
    """The opening-bluff rate every opponent's openings are read with at first."""
    min_seats: int = 3
    """Seats with dice from which the bot mixes."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.opening_bluff <= 1.0:
            raise ValueError(f"opening_bluff must lie in [0, 1], not {self.opening_bluff}")
        if not abs(self.call_shift) < 1.0:
            raise ValueError(f"call_shift must lie in (-1, 1), not {self.call_shift}")
        if not 0.0 <= self.call_temperature < math.inf:
            raise ValueError(
                f"call_temperature must be finite and >= 0, not {self.call_temperature}"
            )
        if not 0.0 <= self.call_window < 1.0:
            raise ValueError(f"call_window must lie in [0, 1), not {self.call_window}")
        if not 0.0 <= self.reading_prior < 1.0:
            raise ValueError(f"reading_prior must lie in [0, 1), not {self.reading_prior}")
        if self.min_seats < 3:
            raise ValueError(
                f"min_seats must be at least 3 (heads-up stays exact), not {self.min_seats}"
            )


def doubt_chance(delta: float, play: MixedPlay) -> float:
    """The chance of the dudo over the best raise when the dudo's value is ``delta`` above it:
    ``σ((Δ − c) / τ)`` within the window, a step at ``c`` outside it or when ``τ`` = 0."""
    x = delta - play.call_shift
    if play.call_temperature <= 0.0 or abs(x) >= play.call_window:
        return 1.0 if x > 0.0 else 0.0
    z = x / play.call_temperature
    if z < -700.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def mixed_policy(
    view: PlayerView,
    values: Mapping[PlayerAction, float],
    best: PlayerAction,
    play: MixedPlay,
) -> dict[PlayerAction, float]:
    """The mixture ``play`` makes of the deterministic choice ``best`` (from ``values``, each
    action's value): ``{best: 1}`` where it does not mix. Actions in ``view.legal``'s order."""
    seats = sum(1 for c in view.dice_counts if c)
    if seats < play.min_seats or view.phase is not Phase.BIDDING or not view.my_turn:
        return {best: 1.0}
    probs: dict[PlayerAction, float] = {}
    if view.bid is None:
        if play.opening_bluff > 0.0 and isinstance(best, Bid) and not view.palifico:
            bluff = weakest_face_opening(view, best, BLUFF_FLOOR)
            if bluff != best:
                probs = {best: 1.0 - play.opening_bluff, bluff: play.opening_bluff}
    elif isinstance(best, (Dudo, Bid)) and (play.call_temperature > 0.0 or play.call_shift):
        dudo = values.get(Dudo())
        raises = [(v, a) for a, v in values.items() if isinstance(a, Bid)]
        if dudo is not None and raises:
            top = max(v for v, _ in raises)
            raise_best = next(a for a in view.legal if isinstance(a, Bid) and values.get(a) == top)
            p = doubt_chance(dudo - top, play)
            probs = {Dudo(): p, raise_best: 1.0 - p}
    if not probs:
        return {best: 1.0}
    return {a: probs[a] for a in view.legal if probs.get(a, 0.0) > 0.0}


def _manifest_path(path: Path) -> Path:
    return path.with_name(path.stem + ".manifest.json")


def save_mixed_play(play: MixedPlay, path: Path, provenance: Mapping[str, Any]) -> str:
    """Write ``play`` and how it was fitted to ``path``, and its SHA-256 to the manifest beside
    it; returns the SHA-256."""
    data = {"format": MIXED_FORMAT, **asdict(play), "fitted": dict(provenance)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest = {"format": MIXED_FORMAT, "file": path.name, "sha256": digest}
    _manifest_path(path).write_text(json.dumps(manifest, indent=2) + "\n")
    return digest


def load_mixed_play(path: Path | None = None) -> MixedPlay:
    """The fit in ``path`` (default: the shipped one), checked against its manifest.

    :raises ValueError: if the file's SHA-256 differs from the manifest's, or its format or
        numbers are not a :class:`MixedPlay`'s.
    """
    file = path if path is not None else MIXED_PATH
    manifest = json.loads(_manifest_path(file).read_text())
    digest = hashlib.sha256(file.read_bytes()).hexdigest()
    if digest != manifest.get("sha256"):
        raise ValueError(
            f"{file}: SHA-256 {digest} does not match its manifest's {manifest.get('sha256')}"
        )
    data = json.loads(file.read_text())
    if data.get("format") != MIXED_FORMAT:
        raise ValueError(f"{file}: format {data.get('format')!r}, expected {MIXED_FORMAT!r}")
    return MixedPlay(
        opening_bluff=float(data["opening_bluff"]),
        call_temperature=float(data["call_temperature"]),
        call_shift=float(data["call_shift"]),
        call_window=float(data["call_window"]),
        reading_prior=float(data["reading_prior"]),
        min_seats=int(data["min_seats"]),
    )
