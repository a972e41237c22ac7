"""The names of the web app's bot seats, in every language, from one template per catalog.

A server seat played by a bot is stored under a language-neutral name, :func:`bot_name`
(``Easy bot 1``: the English catalog's ``name.bot``); a display says it in the reader's
language with :func:`said_name` (``쉬운 봇 1``, ``Bot facile 1``), and any other name (a
person's) as it is. Refusals, the table's seats and replays all name bots through here.

>>> bot_name("hard", 2)
'Hard bot 2'
>>> said_name("ko", "Easy bot 1"), said_name("it", "Medium bot 3"), said_name("it", "Ann")
('쉬운 봇 1', 'Bot medio 3', 'Ann')
>>> said_names("Hard bot 1")["ko"], said_names("Zoë")
('어려운 봇 1', None)
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from .catalog import LANGS, load_catalog

__all__ = ["BOT_LEVELS", "bot_name", "said_name", "said_names"]

BOT_LEVELS: Final = ("easy", "medium", "hard", "expert")
"""The bot levels a seat may have (each with its ``name.level.<level>`` word)."""
_STORED: Final = "en"


def bot_name(level: str, n: int, lang: str = _STORED) -> str:
    """Bot number ``n`` of ``level`` in ``lang`` (the stored name in English)."""
    cat = load_catalog(lang)
    return cat.t("name.bot", level=cat.t(f"name.level.{level}"), n=n)


@cache
def _stored_pattern() -> re.Pattern[str]:
    cat = load_catalog(_STORED)
    template = cat.t("name.bot", level="\0", n="\1")
    levels = "|".join(re.escape(cat.t(f"name.level.{lv}")) for lv in BOT_LEVELS)
    pattern = re.escape(template).replace("\0", f"(?P<level>{levels})")
    return re.compile("^" + pattern.replace("\1", r"(?P<n>\d{1,4})") + "$")


@cache
def said_name(lang: str, name: str) -> str:
    """``name`` as said in ``lang``: a stored bot name (:func:`bot_name`) in the language's
    words, any other name unchanged."""
    m = _stored_pattern().match(name)
    if m is None:
        return name
    en = load_catalog(_STORED)
    level = next(lv for lv in BOT_LEVELS if en.t(f"name.level.{lv}") == m["level"])
    return bot_name(level, int(m["n"]), lang)


def said_names(name: str) -> dict[str, str] | None:
    """A stored bot name in every language (``None`` for any other name)."""
    if _stored_pattern().match(name) is None:
        return None
    return {lang: said_name(lang, name) for lang in LANGS}
