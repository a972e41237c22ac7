"""Refusals in the player's language: the core's ``code`` and ``params``, as words.

Every :class:`perudo.core.IllegalActionError` and :class:`perudo.core.NotationError` carries a
stable ``code`` and JSON-able ``params`` (see :mod:`perudo.core.errors`); the catalogs hold one
template per code under ``refusal.<code>``, in English, Korean and Italian, without rule ids
(players see words, never ``P-12``). A refusal is said to the player who tried the move, so
the templates speak to them ("you"), and name the others; a recorded move's refusal (a
replay, a resume: ``about=True``, and always inside a ``record.…`` refusal) is told *of* its
player, to a reader, by the ``of.refusal.<code>`` template where the words would speak to the
player ("It is Bo's turn: Ana is not to move", never "not yours"). :func:`refusal_text` fills a
template:

* ``seat``, ``to_act``, ``winner``: a seat index, written as the player's name
  (``name_of_seat``), never as a number;
* ``bid``, ``prev``: ``[quantity, face]``, written as a bid (:func:`perudo.i18n.terms.bid_text`);
* ``face``, ``wild``: a face (the wild one by its name), given the ``wild`` face in ``params``;
* ``what``: a word of the catalog (``word.what_<what>``);
* ``cause``: a nested refusal ``{"code", "params"}``, written in the same language;
* anything else as it is.

In memory mode (P-40) a refusal never states how many dice are in play: a code that has a
``memory.refusal.<code>`` template is said by it, which names no count (the core's
``refusal_seen`` drops the parameters that hold one).

:func:`refusal_catalog` gives a language's templates and these conventions as one plain dict,
so that the web page renders refusals from the same data (it keeps no second copy).

>>> names = ["Ana", "Bo", "Cy"].__getitem__
>>> refusal_text("it", "turn.not_yours", {"seat": 0, "to_act": 2}, names)
'Tocca a Cy, non a te.'
>>> refusal_text("ko", "bid.to_wild", {"bid": [4, 1], "prev": [9, 4], "need": 5, "wild": 1},
...              names)
'9 × 4 다음에 조커 비드는 적어도 5개여야 합니다.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from .catalog import load_catalog
from .grammar import fill
from .terms import bid_text, face_text

__all__ = [
    "BID_PARAMS",
    "FACE_PARAMS",
    "SEAT_PARAMS",
    "refusal_catalog",
    "refusal_codes",
    "refusal_text",
]

SEAT_PARAMS: Final = ("seat", "to_act", "winner")
"""Parameters holding a seat index (``None``: chance, in a record's move)."""
BID_PARAMS: Final = ("bid", "prev")
"""Parameters holding a bid as ``[quantity, face]``."""
FACE_PARAMS: Final = ("face", "wild")
"""Parameters holding a face (named by the ``wild`` parameter's face)."""
_MEMORY: Final = "memory."
_ABOUT: Final = "of."
_PREFIX: Final = "refusal."
_FALLBACK: Final = "refusal.error"


def refusal_codes(lang: str = "en") -> frozenset[str]:
    """Every code the catalog of ``lang`` has a template for."""
    return frozenset(
        key[len(_PREFIX) :] for key in load_catalog(lang).messages if key.startswith(_PREFIX)
    )


def refusal_text(
    lang: str,
    code: str,
    params: Mapping[str, object],
    name_of_seat: Callable[[int], str],
    *,
    memory: bool = False,
    about: bool = False,
) -> str:
    """The refusal ``code`` with ``params`` in ``lang``, naming seats with ``name_of_seat``.

    An unknown code (a newer core, another library's error) gets the catalog's general words
    for its kind (``illegal``, ``notation``), never an English sentence. ``memory``: the table
    plays in memory mode (P-40), and a refusal that would state the dice in play is said by
    its ``memory.refusal.<code>`` template, without the count. ``about``: the move is a
    record's, and the refusal is told of its player rather than to them.

    >>> names = ["Ana", "Bo", "Cy"].__getitem__
    >>> refusal_text("en", "turn.not_yours", {"seat": 0, "to_act": 2}, names, about=True)
    "It is Cy's turn: Ana is not to move."
    """
    cat = load_catalog(lang)
    key = _PREFIX + code
    if (about or code.startswith("record.")) and _ABOUT + key in cat.messages:
        key = _ABOUT + key
    if memory and _MEMORY + key in cat.messages:
        key = _MEMORY + key
    if key not in cat.messages:
        kind = code.partition(".")[0]
        key = _PREFIX + kind if _PREFIX + kind in cat.messages else _FALLBACK
    template = cat.messages[key]
    assert isinstance(template, str)
    wild = params.get("wild")
    wild_face = wild if isinstance(wild, int) else None
    fields: dict[str, object] = {}
    for name, value in params.items():
        if name in SEAT_PARAMS:
            fields[name] = (
                cat.t("word.chance") if not isinstance(value, int) else name_of_seat(value)
            )
        elif name in BID_PARAMS and isinstance(value, list) and len(value) == 2:
            fields[name] = bid_text(cat, int(value[0]), int(value[1]), wild=wild_face)
        elif name in FACE_PARAMS and isinstance(value, int):
            fields[name] = face_text(cat, value, wild=wild_face)
        elif name == "what" and f"word.what_{value}" in cat.messages:
            fields[name] = cat.t(f"word.what_{value}")
        elif name == "cause" and isinstance(value, Mapping):
            inner = value.get("params")
            fields[name] = refusal_text(
                lang,
                str(value.get("code", "")),
                inner if isinstance(inner, Mapping) else {},
                name_of_seat,
                about=about or code.startswith("record."),
            )
        else:
            fields[name] = value
    try:
        return fill(template, **fields)
    except (KeyError, IndexError, ValueError):  # params from elsewhere that lack a field
        kind = code.partition(".")[0]
        general = cat.messages.get(_PREFIX + kind, cat.messages[_FALLBACK])
        assert isinstance(general, str)
        return general


def refusal_catalog(lang: str) -> dict[str, object]:
    """Everything a client needs to render refusals in ``lang``, as plain JSON-able data.

    ``templates`` maps each code to its template; ``words`` holds the catalog entries the
    parameters use (bids, faces, ``what``, chance); the ``*_params`` lists say which
    parameters are seats, bids, faces; ``nested`` names the nested refusal. Templates use the
    two forms of :mod:`perudo.i18n.grammar` (``{n:이/가}``, ``{n:die/dice}``).
    """
    cat = load_catalog(lang)
    templates = {
        key[len(_PREFIX) :]: value
        for key, value in cat.messages.items()
        if key.startswith(_PREFIX) and isinstance(value, str)
    }
    word_keys = ("bid.face", "bid.aces", "bid.star", "word.aces", "word.star", "word.chance")
    words = {key: cat.messages[key] for key in word_keys}
    words.update({k: v for k, v in cat.messages.items() if k.startswith("word.what_")})
    return {
        "lang": cat.lang,
        "templates": templates,
        "words": words,
        "seat_params": list(SEAT_PARAMS),
        "bid_params": list(BID_PARAMS),
        "face_params": list(FACE_PARAMS),
        "word_params": {"what": "word.what_"},
        "nested": "cause",
        "fallback": _FALLBACK[len(_PREFIX) :],
    }
