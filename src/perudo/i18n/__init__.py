"""Message catalogs: every word the terminal (and later the web app) shows, per language.

A catalog is data: one flat ``dict`` per language (:mod:`perudo.i18n.en`, :mod:`perudo.i18n.ko`,
:mod:`perudo.i18n.it`) from a key to a ``str.format`` template, or to a list of words a player may
type (keys starting with ``input.``). The three catalogs have the same keys and the same
placeholders; a test checks it. :func:`catalog_json` gives a catalog as JSON text for a browser.
Templates may make a Korean particle, a noun's number or a verb's person agree with a field
(:mod:`perudo.i18n.grammar`): the person playing is named by :meth:`Catalog.you`, and one
sentence serves them and everyone else ("Bot 2 loses", "you lose"). Bids and faces are
written by :mod:`perudo.i18n.terms` (face 1 is "aces" only where 1 is wild), and the core's
refusals by :func:`refusal_text` (:mod:`perudo.i18n.refusals`), with :func:`refusal_catalog`
for the web page.

The games' own words are kept: dudo / 두도 / dubito, calza / 칼자 / calza,
palifico / 팔라피코 / palifico, aces / 조커 / teste d'Azteco (docs/rules.md, terms).

>>> load_catalog("it").t("word.dudo")
'dubito'
>>> detect_lang({"LANG": "ko_KR.UTF-8"})
'ko'
>>> detect_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"})
'en'
"""

from __future__ import annotations

from .catalog import (
    DEFAULT_LANG,
    LANGS,
    Catalog,
    catalog_json,
    detect_lang,
    load_catalog,
    page_words_js,
)
from .grammar import Addressee
from .names import bot_name, said_name
from .refusals import refusal_catalog, refusal_codes, refusal_text
from .terms import bid_text, face_text

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "Addressee",
    "Catalog",
    "bid_text",
    "bot_name",
    "catalog_json",
    "detect_lang",
    "face_text",
    "load_catalog",
    "page_words_js",
    "refusal_catalog",
    "refusal_codes",
    "refusal_text",
    "said_name",
]
