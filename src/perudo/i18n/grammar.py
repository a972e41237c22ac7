"""The bits of grammar the catalogs need: Korean particles, singular/plural, and the person
spoken to.

A template field may carry a *form* after a colon (``str.format``'s format spec):

* ``{n:이/가}``, ``{who:은/는}``, ``{x:을/를}``, ``{x:과/와}``, ``{x:으로/로}``: the value, then
  the Korean particle that agrees with how the value's last syllable is read (``6이``,
  ``5가``; for a number, its Sino-Korean reading: 6 육, 10 십; after a letter or a sign that
  cannot be read, both forms: ``Ana이(가)``);
* ``{n:die/dice}``, ``{n:dado/dadi}``: the value, a space, and the singular when the value is 1
  (or -1), the plural otherwise;
* ``{who:loses/lose}``, ``{who:ha/hai}``: a verb agreeing with its subject, a player: the
  subject, a space, and the first form for a player spoken of ("Bot 2 loses", "Ana ha"), the
  second for the person spoken to, an :class:`Addressee` ("you lose", "tu hai");
* ``{who:obj}``: a player as an object ("everyone but you", "tutti tranne te");
* ``{who:의}``: a player's, in Korean (``봇 2의``; the person spoken to, ``나``: ``내``).

The person spoken to is a sentence's subject in Korean as ``내가``, not ``나가``. A field that
opens the text begins with a capital ("You lose …"). So a sentence about a player is written
once, for whoever it is about, never once for the person and once for the others.

Anything else after a colon is an ordinary format spec. The web page applies the same two
rules to the same templates (``perudo.i18n.catalog_json``), so no template is kept twice.

>>> fill("{n:이/가} 아님", n=6), fill("{n:이/가} 아님", n=5), fill("{n:dado/dadi}", n=1)
('6이 아님', '5가 아님', '1 dado')
>>> fill("{who:은/는}", who="봇 1"), fill("{who:을/를}", who="Ana"), fill("{q:으로/로}", q=8)
('봇 1은', 'Ana을(를)', '8로')
>>> you = Addressee("You", subject="you", object="you")
>>> fill("so {who:loses/lose} 2 dice", who=you), fill("{who:wins/win}!", who="Bot 2")
('so you lose 2 dice', 'Bot 2 wins!')
>>> fill("{who:wins/win}!", who=you), fill("all but {who:obj}", who=you)
('You win!', 'all but you')
>>> na = Addressee("나", subject="나", object="나")
>>> fill("{who:이/가} 잃습니다", who=na), fill("{who:의} 차례", who=na)
('내가 잃습니다', '내 차례')
"""

from __future__ import annotations

import string
from typing import Final

__all__ = ["PARTICLES", "Addressee", "fill", "korean_particle"]

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


class Addressee(str):
    """The person the words speak to, as a name: "You", "나", "Tu" (a table's list, a label).

    In a sentence the templates' forms use the other forms: ``subject`` ("you", "tu") before a
    verb that agrees with it, ``object`` ("you", "te"). Everyone else is a plain ``str``.
    """

    subject: str
    object: str

    def __new__(cls, name: str, *, subject: str, object: str) -> Addressee:
        self = super().__new__(cls, name)
        self.subject = subject
        self.object = object
        return self


_KOREAN_PRONOUN: Final[dict[tuple[str, str], str]] = {
    ("나", "이"): "내가",
    ("저", "이"): "제가",
    ("너", "이"): "네가",
    ("나", "의"): "내",
    ("저", "의"): "제",
    ("너", "의"): "네",
}
"""A Korean pronoun's own forms: the subject 나 + 가 is 내가, 나 + 의 is 내."""


def korean_particle(text: str, consonant_form: str) -> str:
    """The form of the particle (given by its after-consonant form) that agrees with ``text``."""
    vowel_form = PARTICLES[consonant_form]
    final = _final(text)
    if final is None:
        return f"{consonant_form}({vowel_form})" if consonant_form != "으로" else "(으)로"
    if consonant_form == "으로":
        return "로" if final in ("", "ㄹ") else "으로"
    return consonant_form if final else vowel_form


def _spoken_of(value: object) -> bool:
    """Whether ``value`` is a player spoken of (a name, not a number nor the person spoken
    to): a verb after it takes its first form."""
    if isinstance(value, Addressee) or not isinstance(value, str):
        return False
    return not value.strip().lstrip("-").isdigit()


class _Formatter(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        you = value if isinstance(value, Addressee) else None
        if format_spec == "obj":
            return you.object if you is not None else str(value)
        if format_spec == "의":
            own = _KOREAN_PRONOUN.get((str(value), "의")) if you is not None else None
            return own if own is not None else f"{value}의"
        first, slash, second = format_spec.partition("/")
        if slash and first in PARTICLES and second == PARTICLES[first]:
            text = str(value)
            own = _KOREAN_PRONOUN.get((text, first)) if you is not None else None
            return own if own is not None else text + korean_particle(text, first)
        if slash and first and second:
            if you is not None:
                return f"{you.subject} {second}"
            one = _spoken_of(value) or (isinstance(value, int) and abs(value) == 1)
            return f"{value} {first if one else second}"
        return str(super().format_field(value, format_spec))


_FORMATTER: Final = _Formatter()


def fill(template: str, /, **fields: object) -> str:
    """``template`` with ``fields`` filled in, particles, plurals and persons agreeing."""
    text = _FORMATTER.format(template, **fields)
    literal, first, _, _ = next(iter(_FORMATTER.parse(template)), ("", None, "", None))
    if not literal and isinstance(fields.get(first or ""), Addressee):
        return text[:1].upper() + text[1:]  # "You lose", "Tu hai", never "you lose" first
    return text
