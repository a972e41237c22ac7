"""How a face and a bid are written in each language, given which face is wild.

The wild face is the rule set's (``RuleSet.wild_face``; a view or a refusal says which): face 1
is called aces / 조커 / teste d'Azteco only where 1 is the wild face; elsewhere the wild face is
written with a star (Bluff's ``6★``) and every other face is its digit. The terminal and the
refusals (:mod:`perudo.i18n.refusals`) both write bids through here.

>>> from perudo.i18n import load_catalog
>>> it = load_catalog("it")
>>> bid_text(it, 3, 1, wild=1), bid_text(it, 1, 1, wild=1), bid_text(it, 3, 1, wild=6)
("3 teste d'Azteco", "1 testa d'Azteco", '3 × 1')
>>> bid_text(load_catalog("ko"), 3, 6, wild=6), face_text(load_catalog("ko"), 1, wild=1)
('3 × 6★', '조커')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import Catalog

__all__ = ["bid_text", "face_text"]


def face_text(cat: Catalog, face: int, *, wild: int | None) -> str:
    """A face: the wild face's name (aces, or ``6★``), else its digit."""
    if wild is None or face != wild:
        return str(face)
    return cat.t("word.aces") if face == 1 else cat.t("word.star", f=face)


def bid_text(cat: Catalog, quantity: int, face: int, *, wild: int | None) -> str:
    """A bid of ``quantity`` dice showing ``face``: ``3 × 5``, ``3 aces``, ``3 × 6★``."""
    if wild is not None and face == wild:
        key = "bid.aces" if face == 1 else "bid.star"
        return cat.t(key, q=quantity, f=face)
    return cat.t("bid.face", q=quantity, f=face)
