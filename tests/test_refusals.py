"""Every refusal of the core has a stable code, JSON-able params, and words in en, ko and it.

The raise sites are found by reading the core's source (AST), so a new ``raise`` without a code,
or a code without a translation, fails here. Then real refusals, collected by trying every
move for every seat in seeded games of every preset, are rendered in the three languages:
players see names and words, never seat numbers, rule ids or unfilled fields.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

from perudo import (
    PRESETS,
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    GameRecord,
    IllegalActionError,
    NotationError,
    Pass,
    PerudoError,
    SetAside,
    apply,
    chance_action,
    check_action,
    legal_actions,
    new_game,
    parse_action,
)
from perudo.i18n import LANGS, load_catalog, refusal_catalog, refusal_codes, refusal_text

CORE = Path(__file__).resolve().parent.parent / "src" / "perudo" / "core"
RULE_ID = re.compile(r"\b[PV]-\d+")
NAMES = ("Ana", "Bruno", "Chiara", "Dae", "Eun", "Fio")


def _raise_sites() -> list[tuple[str, int, str | None]]:
    """(file, line, code) of every IllegalActionError / NotationError / Refusal built in core."""
    sites = []
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            code: ast.expr | None = None
            if name in ("IllegalActionError", "NotationError"):
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
            elif name == "Refusal":
                code = node.args[0] if node.args else None
            else:
                continue
            literal = code.value if isinstance(code, ast.Constant) else None
            sites.append((path.name, node.lineno, literal if isinstance(literal, str) else None))
    return sites


def test_every_raise_site_in_the_core_has_a_literal_code():
    sites = _raise_sites()
    assert len(sites) >= 60, sites  # the walk found them (engine, bidding, actions, record, …)
    missing = [(f, line) for f, line, code in sites if code is None]
    assert not missing, f"raise sites without a literal code: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_words_in_every_language(lang):
    codes = {code for _, _, code in _raise_sites() if code}
    known = refusal_codes(lang)
    assert codes <= known, sorted(codes - known)
    # No stale templates either: every template is a code the core raises, or a kind's general
    # words (error, illegal, notation).
    assert known - codes <= {"error", "illegal", "notation"}, sorted(known - codes)


def test_no_catalog_message_shows_a_rule_id():
    for lang in LANGS:
        for key, entry in load_catalog(lang).messages.items():
            for text in [entry] if isinstance(entry, str) else entry:
                assert not RULE_ID.search(text), (lang, key, text)


def _refusals() -> list[PerudoError]:
    """Real refusals: every move tried by every seat along seeded games of every preset."""
    errors: list[PerudoError] = []
    tries = [Dudo(), Calza(), Pass(), ChoosePalifico(True), SetAside((1,)), SetAside((6, 6))]
    for name, rules in sorted(PRESETS.items()):
        rng = random.Random(7)
        players = min(4, rules.max_players)
        state = new_game(rules, players, rng)
        for _ in range(400):
            if state.is_over:
                break
            if state.to_act is None:
                try:
                    check_action(state, Dudo(), None)
                except IllegalActionError as err:
                    errors.append(err)
                state, _ = apply(state, chance_action(state, rng))
                continue
            for seat in range(players):
                for action in [*tries, Bid(1, 2), Bid(99, 3), Bid(2, 9), Bid(1, 1), Bid(3, 6)]:
                    try:
                        check_action(state, action, seat)
                    except IllegalActionError as err:
                        errors.append(err)
            legal = list(legal_actions(state))
            state, _ = apply(state, rng.choice(legal))
        assert errors, name
    for text in ["", "0x3", "3y", "aside x", "deal 1a", "reroll -"]:
        try:
            parse_action(text)
        except NotationError as err:
            errors.append(err)
    for data in ["{", "[]", '{"format": "x"}', '{"format": "perudo-record", "version": 1}']:
        try:
            GameRecord.loads(data)
        except NotationError as err:
            errors.append(err)
    return errors


@pytest.fixture(scope="module")
def refusals() -> list[PerudoError]:
    return _refusals()


def test_refusals_carry_json_params_and_seat_indices(refusals):
    codes = {err.code for err in refusals}
    assert len(codes) >= 25, sorted(codes)
    for err in refusals:
        assert err.code in refusal_codes(), err.code
        json.dumps(err.params)  # JSON-able
        for key in ("seat", "to_act", "winner"):
            if key in err.params and err.params[key] is not None:
                assert isinstance(err.params[key], int)


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_render_with_names_and_no_rule_ids_or_seat_numbers(refusals, lang):
    seen: set[str] = set()
    for err in refusals:
        if err.code in seen:
            continue
        seen.add(err.code)
        text = refusal_text(lang, err.code, err.params, NAMES.__getitem__)
        assert text and "{" not in text and "}" not in text, (err.code, text)
        assert not RULE_ID.search(text), (err.code, text)
        assert not re.search(r"\b(seat|자리|posto) \d", text, re.IGNORECASE), text
        template = load_catalog(lang).messages["refusal." + err.code]
        for key in ("seat", "to_act", "winner"):
            if isinstance(err.params.get(key), int) and "{" + key in str(template):
                assert NAMES[err.params[key]] in text, (err.code, text)


def test_a_turn_refusal_names_both_players_in_each_language():
    err = pytest.raises(IllegalActionError, check_action, *_someone_elses_turn()).value
    assert err.code == "turn.not_yours"
    assert str(err).startswith("it is seat")  # the library's English message is unchanged
    name = NAMES.__getitem__
    texts = {lang: refusal_text(lang, err.code, err.params, name) for lang in LANGS}
    to_act = NAMES[err.params["to_act"]]  # said to the player who tried: "not yours"
    assert texts["en"] == f"It is {to_act}'s turn, not yours."
    assert texts["it"] == f"Tocca a {to_act}, non a te."
    assert texts["ko"] == f"지금은 내 차례가 아니라 {to_act}의 차례입니다."


def _someone_elses_turn() -> tuple[object, object, int]:
    from perudo import PERUDO

    state = new_game(PERUDO, 3, random.Random(3))  # dealt: the opener is to bid
    assert state.to_act is not None
    return state, Bid(1, 2), (state.to_act + 1) % 3


def test_bluff_names_its_wild_six_and_never_calls_face_one_aces():
    bluff = PRESETS["bluff"]
    from perudo.core import bid_refusal

    refusal = bid_refusal(bluff, Bid(9, 4), Bid(2, 6), 30)
    assert refusal is not None and refusal.params["wild"] == 6
    en = refusal_text("en", refusal.code, refusal.params, NAMES.__getitem__)
    it = refusal_text("it", refusal.code, refusal.params, NAMES.__getitem__)
    ko = refusal_text("ko", refusal.code, refusal.params, NAMES.__getitem__)
    assert "6★" in en and "aces" not in en
    assert "6★" in it and "Azteco" not in it
    assert "6★" in ko and "조커" not in ko


def test_a_record_s_illegal_move_is_told_with_its_cause():
    from perudo import PERUDO

    state = new_game(PERUDO, 2, random.Random(1))
    record = GameRecord.from_state(state)
    bad = GameRecord(record.rules, 2, record.rolloff, (*record.moves, (None, parse_action("dudo"))))
    err = pytest.raises(IllegalActionError, bad.replay).value
    assert err.code == "record.illegal_move" and err.params["move"] == len(bad.moves)
    text = refusal_text("it", err.code, err.params, NAMES.__getitem__)
    assert text.startswith(f"La mossa {len(bad.moves)} (i dadi: dudo) non è valida: ")


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_gets_the_same_templates_as_plain_data(lang):
    data = refusal_catalog(lang)
    json.dumps(data, ensure_ascii=False)
    templates = data["templates"]
    assert isinstance(templates, dict)
    cat = load_catalog(lang)
    for code in refusal_codes(lang):
        assert templates[code] == cat.messages["refusal." + code]
    assert data["seat_params"] == ["seat", "to_act", "winner"]


def test_an_unknown_code_falls_back_to_its_kind_in_the_language():
    assert refusal_text("ko", "illegal.future", {}, str) == load_catalog("ko").t("refusal.illegal")
    assert refusal_text("it", "whatever", {}, str) == load_catalog("it").t("refusal.error")
