"""The two bits of grammar the catalogs need: Korean particles and singular/plural.

A template field may carry a *form* after a colon (``str.format``'s format spec):

* ``{n:이/가}``, ``{who:은/는}``, ``{x:을/를}``, ``{x:과/와}``, ``{x:으로/로}``: the value, then
  the Korean particle that agrees with how the value's last syllable is read (``6이``,
  ``5가``; for a number, its Sino-Korean reading: 6 육, 10 십; after a letter or a sign that
  cannot be read, both forms: ``Ana이(가)``);
* ``{n:die/dice}``, ``{n:dado/dadi}``: the value, a space, and the singular when the value is 1
  (or -1), the plural otherwise.

Anything else after a colon is an ordinary format spec. The web page applies the same two
rules to the same templates (``perudo.i18n.catalog_json``), so no template is kept twice.

>>> fill("{n:이/가} 아님", n=6), fill("{n:이/가} 아님", n=5), fill("{n:dado/dadi}", n=1)
('6이 아님', '5가 아님', '1 dado')
>>> fill("{who:은/는}", who="봇 1"), fill("{who:을/를}", who="Ana"), fill("{q:으로/로}", q=8)
('봇 1은', 'Ana을(를)', '8로')
"""

from __future__ import annotations

import string
from typing import Final

__all__ = ["PARTICLES", "fill", "korean_particle"]

PARTICLES: Final[dict[str, str]] = {"이": "가", "은": "는", "을": "를", "과": "와", "으로": "로"}
"""Each Korean particle after a final consonant, and its form after a vowel."""

# Whether the Sino-Korean reading of a digit ends in a consonant, and in ㄹ (for 으로/로):
# 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구.
_DIGIT_FINAL: Final = {
    "0": "ㅇ",
    "1": "ㄹ",
    "2": "",
    "3": "ㅁ",
    "4": "",
    "5": "",
    "6": "ㄱ",
    "7": "ㄹ",
    "8": "ㄹ",
    "9": "",
}
# A number ending in zeros is read by its last power of ten: 10 십, 100 백, 1000 천, 10⁴ 만.
_POWER_FINAL: Final = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ", 4: "ㄴ"}
_HANGUL_FIRST: Final = 0xAC00
_HANGUL_LAST: Final = 0xD7A3
_RIEUL: Final = 8  # the index of ㄹ among the final consonants


def _final(text: str) -> str | None:
    """The final consonant of how ``text`` ends when read ("" for a vowel), or ``None``."""
    text = text.rstrip(" .)!”\"'")
    if not text:
        return None
    last = text[-1]
    if last.isascii() and last.isdigit():
        digits = text[len(text.rstrip("0123456789")) :]
        stripped = digits.rstrip("0")
        zeros = len(digits) - len(stripped)
        if zeros and stripped:
            return _POWER_FINAL.get(zeros % 4 or 4, "ㄴ")
        return _DIGIT_FINAL[last]
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        jong = (code - _HANGUL_FIRST) % 28
        return "" if jong == 0 else ("ㄹ" if jong == _RIEUL else "ㅁ")
    return None


def korean_particle(text: str, consonant_form: str) -> str:
    """The form of the particle (given by its after-consonant form) that agrees with ``text``."""
    vowel_form = PARTICLES[consonant_form]
    final = _final(text)
    if final is None:
        return f"{consonant_form}({vowel_form})" if consonant_form != "으로" else "(으)로"
    if consonant_form == "으로":
        return "로" if final in ("", "ㄹ") else "으로"
    return consonant_form if final else vowel_form


class _Formatter(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        first, slash, second = format_spec.partition("/")
        if slash and first in PARTICLES and second == PARTICLES[first]:
            text = str(value)
            return text + korean_particle(text, first)
        if slash and first and second:
            one = isinstance(value, int) and abs(value) == 1
            return f"{value} {first if one else second}"
        return str(super().format_field(value, format_spec))


_FORMATTER: Final = _Formatter()


def fill(template: str, /, **fields: object) -> str:
    """``template`` with ``fields`` filled in, particles and plurals agreeing."""
    return _FORMATTER.format(template, **fields)
