"""The message catalogs (perudo.i18n): same keys, same placeholders, the games' own words."""

from __future__ import annotations

import itertools
import json
import string

import pytest

from perudo.i18n import LANGS, catalog_json, detect_lang, load_catalog


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_all_three_catalogs_have_the_same_keys():
    keys = {lang: set(load_catalog(lang).messages) for lang in LANGS}
    assert LANGS == ("en", "ko", "it")
    assert keys["ko"] == keys["en"], keys["ko"] ^ keys["en"]
    assert keys["it"] == keys["en"], keys["it"] ^ keys["en"]


def test_every_message_has_the_same_placeholders_and_kind_in_every_language():
    en = load_catalog("en").messages
    for lang in LANGS:
        messages = load_catalog(lang).messages
        for key, entry in en.items():
            other = messages[key]
            assert type(other) is type(entry), (lang, key)
            if isinstance(entry, str):
                assert isinstance(other, str)
                assert _fields(other) == _fields(entry), (lang, key)
            else:
                assert other and all(w == w.strip() and w for w in other), (lang, key)


def test_every_message_formats_with_its_fields():
    for lang in LANGS:
        cat = load_catalog(lang)
        for key, entry in cat.messages.items():
            if isinstance(entry, str):
                text = cat.t(key, **{name: "X" for name in _fields(entry)})
                assert "{" not in text and "}" not in text, (lang, key)


@pytest.mark.parametrize(
    ("lang", "dudo", "calza", "palifico", "aces"),
    [
        ("en", "dudo", "calza", "palifico", "aces"),
        ("ko", "두도", "칼자", "팔라피코", "조커"),
        ("it", "dubito", "calza", "palifico", "teste d'Azteco"),
    ],
)
def test_the_games_own_words(lang, dudo, calza, palifico, aces):
    cat = load_catalog(lang)
    assert cat.t("word.dudo") == dudo
    assert cat.t("word.calza") == calza
    assert cat.t("word.palifico") == palifico
    assert cat.t("word.aces") == aces
    # What is shown can be typed back.
    assert dudo in cat.words("input.dudo")
    assert calza in cat.words("input.calza")
    assert palifico in cat.words("input.palifico")
    assert aces.lower() in cat.words("input.aces")


def test_input_words_mean_one_thing_across_languages():
    seen: dict[str, str] = {}
    for lang in LANGS:
        cat = load_catalog(lang)
        for key in cat.messages:
            if key.startswith("input."):
                for word in cat.words(key):
                    assert seen.setdefault(word, key) == key, (word, key, seen[word])


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "ko_KR.UTF-8"}, "it"),
        ({"LC_ALL": "", "LC_MESSAGES": "ko_KR", "LANG": "it_IT"}, "ko"),
        ({"LANG": "ko"}, "ko"),
    ],
)
def test_language_from_the_locale_falls_back_to_english(env, lang):
    assert detect_lang(env) == lang


def test_an_unknown_language_is_refused_listing_the_known_ones():
    with pytest.raises(ValueError, match="known: en, ko, it"):
        load_catalog("fr")
    assert load_catalog("ko_KR.UTF-8").lang == "ko"


def test_a_catalog_is_json_for_the_browser():
    data = json.loads(catalog_json("ko"))
    assert data["word.dudo"] == "두도"
    assert data["input.aces"] == ["조커", "에이스"]


def test_a_word_list_is_not_a_message():
    with pytest.raises(KeyError):
        load_catalog("en").t("input.dudo")


@pytest.mark.parametrize("lang", LANGS)
def test_a_bid_of_one_die_spoken_does_not_say_the_same_word_twice(lang):
    # A tester heard "Dudo on Hard bot 1's one one" (a palifico bid of a single 1).
    cat = load_catalog(lang)
    for face in range(1, 7):
        spoken = cat.t("say.bid_one", face=cat.t(f"say.face.{face}")).split()
        assert all(a != b for a, b in itertools.pairwise(spoken)), (lang, spoken)
